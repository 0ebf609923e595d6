import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceAuditStatus, DeviceCodePath, DevicePerm } from '@isps/contract';
import { adminToken, api, buildTestApp, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';
import { createRoleWith } from '../../test/crud-helpers.ts';

describe.each((await testDialects()).filter((d) => d !== 'mysql'))('device codes on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  const call = <T>(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: object) =>
    injectAs<T>(t.app, token, { method, url: api(t.app, path), ...(payload ? { payload } : {}), headers: { lang: 'en-US' } });

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = await adminToken(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  it('needs the device code permissions: a lister lists but neither adds nor approves', async () => {
    await createRoleWith(t.app, 'code_lister', [DevicePerm.codeList]);
    await createTestUser(t.app, 'lister', { roles: ['code_lister'] });
    const lister = await login(t.app, 'lister', USER_PASSWORD);
    const added = await call<{ id: string }>(admin, 'POST', DeviceCodePath.add, { sn: 'PERM-0001' });
    expect(added.envelope.success).toBe(true);
    expect((await call(lister, 'GET', DeviceCodePath.list)).envelope.success).toBe(true);
    expect((await call(lister, 'POST', DeviceCodePath.add, { sn: 'PERM-0002' })).statusCode).toBe(403);
    expect((await call(lister, 'PUT', DeviceCodePath.audit, { id: added.envelope.result.id, auditStatus: 1 })).statusCode).toBe(403);
    expect((await call(lister, 'DELETE', `${DeviceCodePath.delete}?id=${added.envelope.result.id}`)).statusCode).toBe(403);
  });

  it('keeps codes inside their tenant', async () => {
    const tenantId = (await t.app.db.selectFrom('sys_tenant').select('id').where('code', '=', 'default').executeTakeFirstOrThrow()).id;
    const other = `other-${dialect}`;
    await t.app.db.insertInto('sys_tenant').values({ id: randomUUID(), create_by: 'test', create_time: null, update_by: null, update_time: null, name: other, code: other, begin_date: null, end_date: null, status: 1 }).execute();
    const otherId = (await t.app.db.selectFrom('sys_tenant').select('id').where('code', '=', other).executeTakeFirstOrThrow()).id;
    expect(otherId).not.toBe(tenantId);
    await createRoleWith(t.app, 'code_admin', Object.values(DevicePerm));
    await createTestUser(t.app, 'outsider', { roles: ['code_admin'], tenantId: otherId });
    const outsider = await login(t.app, 'outsider', USER_PASSWORD);
    const mine = await call<{ id: string; tenantId: string }>(admin, 'POST', DeviceCodePath.add, { sn: 'TEN-0001' });
    expect(mine.envelope.result.tenantId).toBe(tenantId);
    const seen = await call<{ records: Array<{ sn: string }> }>(outsider, 'GET', DeviceCodePath.list);
    expect(seen.envelope.result.records.map((r) => r.sn)).not.toContain('TEN-0001');
    expect((await call(outsider, 'PUT', DeviceCodePath.audit, { id: mine.envelope.result.id, auditStatus: 1 })).envelope).toMatchObject({ success: false, message: 'The record does not exist or has been deleted' });
    // a serial number is one device: another tenant cannot claim it
    expect((await call(outsider, 'POST', DeviceCodePath.add, { sn: 'TEN-0001' })).envelope).toMatchObject({ success: false, message: 'This serial number already has a device code' });
  });

  it('deletes several codes at once, only the caller\'s own, with device:deviceCode:delete', async () => {
    const ids: string[] = [];
    for (const sn of ['BATCH-0001', 'BATCH-0002', 'BATCH-0003']) ids.push((await call<{ id: string }>(admin, 'POST', DeviceCodePath.add, { sn })).envelope.result.id);
    const [first, second, third] = ids as [string, string, string];
    // a holder of the list permission alone is refused
    await createRoleWith(t.app, 'code_batch_lister', [DevicePerm.codeList]);
    await createTestUser(t.app, 'batchlister', { roles: ['code_batch_lister'] });
    const lister = await login(t.app, 'batchlister', USER_PASSWORD);
    expect((await call(lister, 'DELETE', `${DeviceCodePath.deleteBatch}?ids=${first}`)).statusCode).toBe(403);
    // another tenant's administrator of device codes deletes none of them
    const other = `batch-${dialect}`;
    const otherId = randomUUID();
    await t.app.db.insertInto('sys_tenant').values({ id: otherId, create_by: 'test', create_time: null, update_by: null, update_time: null, name: other, code: other, begin_date: null, end_date: null, status: 1 }).execute();
    await createRoleWith(t.app, 'code_batch_admin', Object.values(DevicePerm));
    await createTestUser(t.app, 'batchoutsider', { roles: ['code_batch_admin'], tenantId: otherId });
    const outsider = await login(t.app, 'batchoutsider', USER_PASSWORD);
    expect((await call(outsider, 'DELETE', `${DeviceCodePath.deleteBatch}?ids=${first},${second}`)).envelope).toMatchObject({ success: false, message: 'The record does not exist or has been deleted' });
    const removed = await call<{ count: number }>(admin, 'DELETE', `${DeviceCodePath.deleteBatch}?ids=${first},${second}`);
    expect(removed.envelope).toMatchObject({ success: true, message: 'Deleted successfully!', result: { count: 2 } });
    const left = await call<{ records: Array<{ sn: string }> }>(admin, 'GET', `${DeviceCodePath.list}?pageSize=1000`);
    const sns = left.envelope.result.records.map((r) => r.sn);
    expect(sns).toContain('BATCH-0003');
    expect(sns).not.toContain('BATCH-0001');
    expect(sns).not.toContain('BATCH-0002');
    expect((await call(admin, 'DELETE', `${DeviceCodePath.deleteBatch}?ids=`)).statusCode).toBe(400);
    expect((await call(admin, 'DELETE', `${DeviceCodePath.deleteBatch}?ids=${third},bad%20id`)).statusCode).toBe(400);
  });

  it('answers the device key once, on approval, and never lists it', async () => {
    const added = await call<{ id: string }>(admin, 'POST', DeviceCodePath.add, { sn: 'KEY-0001' });
    const audited = await call<{ deviceKey: string; auditStatus: number }>(admin, 'PUT', DeviceCodePath.audit, { id: added.envelope.result.id, auditStatus: DeviceAuditStatus.agree });
    expect(audited.envelope).toMatchObject({ success: true, message: 'The audit result is saved', result: { auditStatus: 1 } });
    expect(audited.envelope.result.deviceKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const one = await call(admin, 'GET', `${DeviceCodePath.queryById}?id=${added.envelope.result.id}`);
    expect(JSON.stringify(one.envelope)).not.toContain(audited.envelope.result.deviceKey);
    expect(one.envelope.result).toMatchObject({ keyIssued: true });
    const stored = await t.app.db.selectFrom('sys_device_code').select('device_key_hash').where('id', '=', added.envelope.result.id).executeTakeFirstOrThrow();
    expect(stored.device_key_hash).not.toContain(audited.envelope.result.deviceKey);
    const refused = await call(admin, 'PUT', DeviceCodePath.audit, { id: added.envelope.result.id, auditStatus: 2 });
    expect(refused.envelope.result).toMatchObject({ auditStatus: 2, keyIssued: false, deviceKey: null });
    expect((await call(admin, 'POST', DeviceCodePath.add, { sn: 'bad/sn#' })).statusCode).toBe(400);
  });
});
