import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crudPath, DeviceAuditStatus, DeviceCodePath, DeviceEventKind, deviceEntity, DoorPath, doorEntity, TENANT_HEADER } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { issueDeviceKey } from './gateway/device-keys.ts';
import { approvedKey, buildLinkedApp, uniqueSn, until } from './gateway/test-support.ts';
import { createRoleWith } from './test/crud-helpers.ts';
import { adminToken, api, createTestUser, defaultTenantId, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from './test/harness.ts';

/*
 * The privilege suite's device takeover cases (issue #25, item 1): a device belongs to the tenant that approved its
 * code. Tenant B's operator, holding every device right in his own tenant, can neither claim tenant A's approved
 * serial number (add) nor edit his device's serial number into it; when A's hardware connects the gateway binds it
 * to A's row only, so B never sees it online, never gets its alarms and cannot open A's door.
 */

const AUDIT = { create_by: 'test', create_time: null, update_by: null, update_time: null };
const OPERATOR_CODES = [
  'device:list:list', 'device:list:add', 'device:list:edit', 'device:door:list', 'device:door:add', 'device:door:open',
  'device:deviceCode:list', 'device:deviceCode:add', 'device:deviceCode:audit',
];

describe.each((await testDialects()).filter((d) => d !== 'mysql'))('device takeover across tenants on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  let operatorA: string;
  let operatorB: string;
  const ids: Record<string, string> = {};
  const sims: SimDevice[] = [];

  type Method = 'GET' | 'POST' | 'PUT';
  const call = <T = unknown>(token: string, method: Method, path: string, payload?: Record<string, unknown>, headers: Record<string, string> = {}) =>
    injectAs<T>(t.app, token, { method, url: api(t.app, path), ...(payload ? { payload } : {}), headers: { lang: 'en-US', ...headers } });
  const rowsOf = (sn: string) => t.app.db.selectFrom('sys_device').selectAll().where('sn', '=', sn).execute();
  const refusedAsOtherTenants = { success: false, code: 500, message: 'This serial number belongs to a device code of another tenant' };
  /** an approved device code of tenant A for `sn`, written straight into the database (the API would refuse it now) */
  const codeOfA = async (sn: string) => {
    const { key, hash } = issueDeviceKey();
    await t.app.db
      .insertInto('sys_device_code')
      .values({ ...AUDIT, id: randomUUID(), sn, activation_code: randomUUID().slice(0, 19), authorization_code: null, audit_status: DeviceAuditStatus.agree, audit_by: 'test', audit_time: null, device_key_hash: hash, key_issued_time: null, remark: null, tenant_id: ids.tenantA! })
      .execute();
    return key;
  };
  const deviceRow = (sn: string, tenantId: string) => ({
    ...AUDIT, id: randomUUID(), device_name: sn, sn, mac: null, ip: null, gateway: null, subnet_mask: null, system_type: null, device_type_id: null, device_model: null,
    background_image: null, location: null, area_id: null, online: 0, last_seen: null, session_id: null, firmware: null, tenant_id: tenantId,
  });

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 60_000, offlineSweepMs: 3_600_000 } });
    admin = await adminToken(t.app);
    ids.tenantA = await defaultTenantId(t.app);
    ids.tenantB = randomUUID();
    await t.app.db.insertInto('sys_tenant').values({ id: ids.tenantB, name: 'Tenant B', code: 'tenant-b', begin_date: null, end_date: null, status: 1, ...AUDIT }).execute();
    await createRoleWith(t.app, 'device_operator', OPERATOR_CODES);
    await createTestUser(t.app, 'operator-a', { roles: ['device_operator'], tenantId: ids.tenantA });
    await createTestUser(t.app, 'operator-b', { roles: ['device_operator'], tenantId: ids.tenantB });
    operatorA = await login(t.app, 'operator-a', USER_PASSWORD);
    operatorB = await login(t.app, 'operator-b', USER_PASSWORD);
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop().catch(() => undefined)));
    await t?.close();
  });

  it('refuses to claim another tenant’s approved serial number by add (and by a system administrator working in B)', async () => {
    const sn = uniqueSn('TA');
    await approvedKey(t.app, sn, operatorA);
    const claimed = await call(operatorB, 'POST', crudPath(deviceEntity, 'add'), { deviceName: 'Mine now', sn });
    expect(claimed.envelope).toMatchObject(refusedAsOtherTenants);
    const asAdminInB = await call(admin, 'POST', crudPath(deviceEntity, 'add'), { deviceName: 'Mine now', sn }, { [TENANT_HEADER]: ids.tenantB! });
    expect(asAdminInB.envelope).toMatchObject(refusedAsOtherTenants);
    const placedInB = await call(admin, 'POST', crudPath(deviceEntity, 'add'), { deviceName: 'Mine now', sn, tenantId: ids.tenantB });
    expect(placedInB.envelope).toMatchObject(refusedAsOtherTenants);
    expect(await rowsOf(sn)).toEqual([]);
    // A itself may register its device before it connects
    const own = await call(operatorA, 'POST', crudPath(deviceEntity, 'add'), { deviceName: 'Front gate controller', sn });
    expect(own.envelope.success, own.envelope.message).toBe(true);
    expect((await rowsOf(sn)).map((r) => r.tenant_id)).toEqual([ids.tenantA]);
  });

  it('refuses to edit a device’s serial number into another tenant’s approved one, or move a device away from its code’s tenant', async () => {
    const sn = uniqueSn('TA');
    await approvedKey(t.app, sn, operatorA);
    const mine = uniqueSn('TB');
    const added = await call<{ id: string }>(operatorB, 'POST', crudPath(deviceEntity, 'add'), { deviceName: 'B lobby', sn: mine });
    expect(added.envelope.success, added.envelope.message).toBe(true);
    const edited = await call(operatorB, 'PUT', crudPath(deviceEntity, 'edit'), { id: added.envelope.result.id, deviceName: 'B lobby', sn });
    expect(edited.envelope).toMatchObject(refusedAsOtherTenants);
    expect((await rowsOf(mine)).map((r) => r.tenant_id)).toEqual([ids.tenantB]);
    expect(await rowsOf(sn)).toEqual([]);
    // B's device keeps its own number through any other edit
    const renamed = await call(operatorB, 'PUT', crudPath(deviceEntity, 'edit'), { id: added.envelope.result.id, deviceName: 'B hall', sn: mine });
    expect(renamed.envelope.success, renamed.envelope.message).toBe(true);

    // A's own row cannot be moved to tenant B while A's code names its serial number
    const own = await call<{ id: string }>(operatorA, 'POST', crudPath(deviceEntity, 'add'), { deviceName: 'A side door', sn });
    expect(own.envelope.success, own.envelope.message).toBe(true);
    const moved = await call(admin, 'PUT', crudPath(deviceEntity, 'edit'), { id: own.envelope.result.id, tenantId: ids.tenantB });
    expect(moved.envelope).toMatchObject(refusedAsOtherTenants);
    expect((await rowsOf(sn)).map((r) => r.tenant_id)).toEqual([ids.tenantA]);
  });

  it('binds a connecting device to its code’s tenant: B does not see it, gets none of its alarms and cannot open its door', async () => {
    const sn = uniqueSn('TA');
    const key = await approvedKey(t.app, sn, operatorA);
    // B tried to claim it before the hardware connected
    expect((await call(operatorB, 'POST', crudPath(deviceEntity, 'add'), { deviceName: 'Trap', sn })).envelope).toMatchObject(refusedAsOtherTenants);
    const sim = new SimDevice({ url: t.mqttUrl, sn, key, kind: 'door' });
    sims.push(sim);
    await sim.start();
    await until(async () => (await rowsOf(sn))[0]?.online === 1, 15_000, `hello of ${sn}`);
    const [row] = await rowsOf(sn);
    expect(row!.tenant_id).toBe(ids.tenantA);

    const door = await call<{ id: string }>(operatorA, 'POST', crudPath(doorEntity, 'add'), { doorName: 'A main door', deviceId: row!.id, doorNo: 1 });
    expect(door.envelope.success, door.envelope.message).toBe(true);
    const listed = await call<{ records: Array<{ sn: string }> }>(operatorB, 'GET', `${crudPath(deviceEntity, 'list')}?pageSize=100`);
    expect(listed.envelope.success).toBe(true);
    expect(listed.envelope.result.records.map((r) => r.sn)).not.toContain(sn);

    const opened = await call(operatorB, 'POST', DoorPath.open, { id: door.envelope.result.id });
    expect(opened.envelope.success).toBe(false);
    const doorOfB = await call(operatorB, 'POST', crudPath(doorEntity, 'add'), { doorName: 'B on A’s lock', deviceId: row!.id, doorNo: 2 });
    expect(doorOfB.envelope.success).toBe(false);
    expect(await t.app.db.selectFrom('sys_device_command').select('id').where('device_id', '=', row!.id).where('kind', '=', 'openDoor').execute()).toEqual([]);

    await sim.emit(DeviceEventKind.alarm, { code: 'tamper', level: 'H' });
    await until(async () => (await t.app.db.selectFrom('sys_device_alarm').select('tenant_id').where('device_id', '=', row!.id).execute()).length === 1, 15_000, 'the alarm');
    const alarms = await t.app.db.selectFrom('sys_device_alarm').select(['tenant_id', 'device_id']).where('tenant_id', '=', ids.tenantB!).execute();
    expect(alarms).toEqual([]);

    // A opens its own door
    const own = await call(operatorA, 'POST', DoorPath.open, { id: door.envelope.result.id });
    expect(own.envelope.success, own.envelope.message).toBe(true);
  });

  it('never gives a device to a row of another tenant holding its serial number (made before the rule), and issues no code for such a row', async () => {
    const sn = uniqueSn('TA');
    const squatter = deviceRow(sn, ids.tenantB!);
    await t.app.db.insertInto('sys_device').values(squatter).execute();
    const key = await codeOfA(sn);
    const handled = t.app.deviceGateway.handled;
    const sim = new SimDevice({ url: t.mqttUrl, sn, key, kind: 'door' });
    sims.push(sim);
    await sim.start();
    await sim.emit(DeviceEventKind.alarm, { code: 'tamper', level: 'H' });
    // the hello and the event were read, and neither reached B's row
    await until(() => t.app.deviceGateway.handled >= handled + 2, 15_000, 'hello and event handled');
    await t.app.deviceGateway.flush();
    const rows = await rowsOf(sn);
    expect(rows.map((r) => [r.id, r.tenant_id, r.online])).toEqual([[squatter.id, ids.tenantB, 0]]);
    expect(await t.app.db.selectFrom('sys_device_event').select('seq').where('device_id', '=', squatter.id).execute()).toEqual([]);
    expect(await t.app.db.selectFrom('sys_device_alarm').select('id').where('device_id', '=', squatter.id).execute()).toEqual([]);

    // nor does a tenant get a code for a serial number another tenant's device row holds
    const rowOfA = uniqueSn('TA');
    expect((await call(operatorA, 'POST', crudPath(deviceEntity, 'add'), { deviceName: 'A codeless', sn: rowOfA })).envelope.success).toBe(true);
    const code = await call(operatorB, 'POST', DeviceCodePath.add, { sn: rowOfA });
    expect(code.envelope).toMatchObject({ success: false, code: 500, message: 'A device of another tenant holds this serial number: it cannot get a device code here' });
  });

  it('keeps a serial number unique across tenants, in the database too', async () => {
    const sn = uniqueSn('TA');
    expect((await call(operatorA, 'POST', crudPath(deviceEntity, 'add'), { deviceName: 'A only', sn })).envelope.success).toBe(true);
    const twin = await call(operatorB, 'POST', crudPath(deviceEntity, 'add'), { deviceName: 'B twin', sn });
    expect(twin.envelope).toMatchObject({ success: false, message: 'This serial number already belongs to a device!' });
    await expect(t.app.db.insertInto('sys_device').values(deviceRow(sn, ids.tenantB!)).execute()).rejects.toThrow();
    expect((await rowsOf(sn)).map((r) => r.tenant_id)).toEqual([ids.tenantA]);
  });
});
