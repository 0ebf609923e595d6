import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessSyncPath, crudPath, deviceEntity, peopleEntity, SyncStatus, type DeviceSyncStatusRow } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, uniqueSn, until } from '../../gateway/test-support.ts';
import { adminToken, api, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');
const AUDIT = { create_by: 'test', create_time: new Date().toISOString(), update_by: null, update_time: null };

type Page<T> = { records: T[]; total: number };

/** Issue #26 item 11: a sync status per device, its page and "align now". */
describe.each(dialects)('device sync status on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  const sims: SimDevice[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'isps-syncstatus-'));

  async function call<T = unknown>(method: 'POST' | 'GET', path: string, payload?: Record<string, unknown>, token = admin, lang = 'en-US') {
    return (await injectAs<T>(t.app, token, { method, url: api(t.app, path), payload, headers: { lang } })).envelope;
  }
  const stored = (id: string) => t.app.db.selectFrom('sys_device').select(['sync_state', 'sync_pending', 'sync_reason', 'sync_aligned_time']).where('id', '=', id).executeTakeFirstOrThrow();
  const statusOf = async (id: string, query = '') => {
    const page = await call<Page<DeviceSyncStatusRow>>('GET', `${AccessSyncPath.status}?pageSize=200${query}`);
    expect(page.success, page.message).toBe(true);
    return page.result.records.find((r) => r.id === id);
  };

  async function device(name: string) {
    const sn = uniqueSn('SS');
    const key = await approvedKey(t.app, sn, admin);
    const sim = new SimDevice({ url: t.mqttUrl, sn, key, kind: 'door', accessDir: dir, doorOpenMs: 0 });
    sims.push(sim);
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, 'hello');
    const id = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
    await t.app.db.updateTable('sys_device').set({ device_name: name }).where('id', '=', id).execute();
    return { sim, sn, id };
  }
  async function people(names: string[]): Promise<string[]> {
    const ids: string[] = [];
    for (const name of names) {
      const added = await call<{ id: string }>('POST', crudPath(peopleEntity, 'add'), { name, cardNo: `SS${randomUUID().slice(0, 8)}` });
      expect(added.success, added.message).toBe(true);
      ids.push(added.result.id ?? (await t.app.db.selectFrom('sys_people').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id);
    }
    return ids;
  }

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 60_000, offlineSweepMs: 3_600_000 } });
    admin = await adminToken(t.app);
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop().catch(() => undefined)));
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('in sync once the device confirmed its list (with the time), pending with the people changes waiting while it is away, failed with the reason', async () => {
    const { sim, id } = await device('Status gate');
    const [ann, bob] = await people(['Ann Status', 'Bob Status']);
    const role = await call('POST', '/deviceRole/add', { roleName: 'Status role', roleType: '1', deviceIds: id, peopleIds: ann, timeSetting: '{"mode":"permanent"}' });
    expect(role.success, role.message).toBe(true);
    await until(() => sim.access.entries.has(ann!), 10_000, 'the person on the device');
    await until(async () => (await stored(id)).sync_state === SyncStatus.inSync && (await stored(id)).sync_aligned_time !== null, 10_000, 'in sync');
    const inSync = await statusOf(id);
    expect(inSync).toMatchObject({ deviceName: 'Status gate', online: true, syncState: 'inSync', syncPending: 0, syncReason: null });
    expect(inSync!.syncAlignedTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // the device list shows it in a column of its own, localised
    const listed = await call<Page<Record<string, unknown>>>('GET', `${crudPath(deviceEntity, 'list')}?syncState=inSync&pageSize=100`);
    expect(listed.result.records.find((r) => r.id === id)).toMatchObject({ syncState: 'inSync' });
    expect(deviceEntity.columns).toContain('syncState');

    // away: a change waits for it, counted in people
    await sim.stop();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('id', '=', id).executeTakeFirstOrThrow()).online === 0, 15_000, 'offline');
    const roleId = (await t.app.db.selectFrom('sys_device_role').select('id').where('role_name', '=', 'Status role').executeTakeFirstOrThrow()).id;
    const edited = await injectAs(t.app, admin, { method: 'PUT', url: api(t.app, '/deviceRole/edit'), payload: { id: roleId, peopleIds: `${ann},${bob}` } });
    expect(edited.envelope.success, edited.envelope.message).toBe(true);
    await until(async () => (await stored(id)).sync_state === SyncStatus.pending, 10_000, 'pending');
    const pending = await statusOf(id, '&syncState=pending');
    expect(pending).toMatchObject({ syncState: 'pending', syncPending: 1, online: false });
    expect(pending!.syncAlignedTime).toBe(inSync!.syncAlignedTime);
    expect(await statusOf(id, '&syncState=inSync')).toBeUndefined();

    // the device refuses the batch: failed, with its reason, until an alignment succeeds
    await t.app.db.updateTable('sys_device_command').set({ status: 'failed', result: JSON.stringify({ reason: 'storageFull' }) }).where('device_id', '=', id).where('status', 'in', ['pending', 'sent']).execute();
    await until(async () => (await stored(id)).sync_state === SyncStatus.failed, 12_000, 'failed seen by the sweep');
    expect(await statusOf(id, '&syncState=failed')).toMatchObject({ syncState: 'failed', syncReason: 'storageFull', syncPending: 0 });
  });

  it('align now queues the whole list (a clear, then everyone) for the tenant’s device only, with the permission, and it waits for an offline device', async () => {
    const { sim, id } = await device('Align gate');
    const [cid] = await people(['Cid Align']);
    await call('POST', '/deviceRole/add', { roleName: 'Align role', roleType: '1', deviceIds: id, peopleIds: cid, timeSetting: '{"mode":"permanent"}' });
    await until(() => sim.access.entries.has(cid!), 10_000, 'the person on the device');
    await sim.stop();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('id', '=', id).executeTakeFirstOrThrow()).online === 0, 15_000, 'offline');

    const before = await t.app.db.selectFrom('sys_device_command').select('id').where('device_id', '=', id).execute();
    const aligned = await call('POST', AccessSyncPath.align, { id }, admin, 'zh-CN');
    expect(aligned).toMatchObject({ success: true, message: '完整通行名单已排队：设备连接后即下发' });
    const queued = await t.app.db.selectFrom('sys_device_command').select(['kind', 'payload', 'status']).where('device_id', '=', id).where('id', 'not in', before.map((b) => b.id)).orderBy('create_time').execute();
    expect(queued.map((q) => JSON.parse(q.payload ?? '{}').op)).toEqual(['clear', 'upsert']);
    expect((await statusOf(id))).toMatchObject({ syncState: 'pending', syncPending: 1 });

    // without the permission: refused; another tenant's device: not found
    await createTestUser(t.app, 'sync-viewer', { roles: [] });
    const viewer = await login(t.app, 'sync-viewer', USER_PASSWORD);
    expect(await call('POST', AccessSyncPath.align, { id }, viewer)).toMatchObject({ success: false, code: 510 });
    expect(await call('GET', AccessSyncPath.status, undefined, viewer)).toMatchObject({ success: false, code: 510 });
    const other = randomUUID();
    await t.app.db.insertInto('sys_tenant').values({ id: other, name: 'Sync other', code: `so-${other.slice(0, 8)}`, begin_date: null, end_date: null, status: 1, ...AUDIT }).execute();
    const foreign = randomUUID();
    await t.app.db.insertInto('sys_device').values({ id: foreign, ...AUDIT, device_name: 'Foreign', sn: uniqueSn('FX'), mac: null, ip: null, gateway: null, subnet_mask: null, system_type: null, device_type_id: null, device_model: null, background_image: null, location: null, area_id: null, online: 0, last_seen: null, session_id: null, firmware: null, tenant_id: other }).execute();
    expect(await call('POST', AccessSyncPath.align, { id: foreign })).toMatchObject({ success: false, code: 404 });
    expect(await statusOf(foreign)).toBeUndefined();
    // bad input: a clear 400, never a 500
    expect(await call('POST', AccessSyncPath.align, {})).toMatchObject({ success: false, code: 400 });
    expect(await call('GET', `${AccessSyncPath.status}?syncState=perhaps`)).toMatchObject({ success: false, code: 400 });

    // back online: the device takes the queued list and is in sync again
    await sim.start();
    await until(async () => (await stored(id)).sync_state === SyncStatus.inSync, 15_000, 'in sync after reconnecting');
    expect(sim.access.entries.has(cid!)).toBe(true);
  });
});
