import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessEventEntity, AccessSyncPath, crudPath, doorEntity, doorEventEntity, DeviceEventKind, DeviceSyncState, peopleEntity, RealtimeCmd, type AccessEntry, type DeviceSyncNotice, type RealtimeMessage } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, uniqueSn, until } from '../../gateway/test-support.ts';
import { openSocket, wsBase, type OpenSocket } from '../../platform/realtime/test-client.ts';
import { adminToken, api, defaultTenantId, injectAs, testDialects, type TestApp } from '../../test/harness.ts';
import { computeAccessLists } from './access-lists.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');

describe.each(dialects)('access synchronisation to devices on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  let socket: OpenSocket;
  const sims: SimDevice[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'isps-access-'));
  const cards: string[] = [];

  async function call<T = unknown>(method: 'POST' | 'PUT' | 'GET' | 'DELETE', path: string, payload?: unknown) {
    const answer = await injectAs<T>(t.app, admin, { method, url: api(t.app, path), payload: payload as Record<string, unknown>, headers: { lang: 'en-US' } });
    return answer.envelope;
  }

  async function startSim(sn: string, key: string, syncDelayMs = 0): Promise<SimDevice> {
    const sim = new SimDevice({ url: t.mqttUrl, sn, key, kind: 'door', accessDir: dir, doorOpenMs: 0, syncDelayMs });
    sims.push(sim);
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, `hello of ${sn}`);
    return sim;
  }

  async function doorDevice(syncDelayMs = 0) {
    const sn = uniqueSn('AS');
    const key = await approvedKey(t.app, sn, admin);
    const sim = await startSim(sn, key, syncDelayMs);
    const deviceId = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
    return { sn, key, sim, deviceId };
  }

  async function person(name: string, cardNo: string): Promise<string> {
    cards.push(cardNo);
    const added = await call<{ id: string }>('POST', crudPath(peopleEntity, 'add'), { name, cardNo });
    expect(added.success, added.message).toBe(true);
    return added.result.id;
  }

  const syncNotices = (deviceId: string) =>
    socket.messages.filter((m): m is RealtimeMessage & { data: DeviceSyncNotice } => m.cmd === RealtimeCmd.deviceSync && (m.data as DeviceSyncNotice).deviceId === deviceId);

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 60_000, offlineSweepMs: 3_600_000 }, accessSync: { batchSize: 50 } });
    admin = await adminToken(t.app);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const adminId = (await t.app.db.selectFrom('sys_user').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    socket = await openSocket(wsBase(t), adminId, admin);
  });
  afterAll(async () => {
    await socket?.close();
    await Promise.all(sims.map((s) => s.stop().catch(() => undefined)));
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a person added to a door-access role opens the door within 2 s, removed is refused, and a change made while the device is offline takes effect when it reconnects', async () => {
    const { sn, key, sim, deviceId } = await doorDevice();
    const alice = await person('Alice Access', 'CARD20260001');
    expect((await sim.swipe('CARD20260001')).allowed).toBe(false);

    const role = await call<{ id: string }>('POST', '/deviceRole/add', { roleName: 'Front door', roleType: '1', deviceIds: deviceId, peopleIds: alice, timeSetting: '{"mode":"permanent"}' });
    expect(role.success, role.message).toBe(true);
    const roleId = (await t.app.db.selectFrom('sys_device_role').select('id').where('role_name', '=', 'Front door').executeTakeFirstOrThrow()).id;
    const added = Date.now();
    await until(() => sim.access.entries.has(alice), 2000, 'the person on the device');
    expect(Date.now() - added).toBeLessThan(2000);
    const opening = await sim.swipe('CARD20260001');
    expect(opening.allowed).toBe(true);
    expect(opening.event).toMatchObject({ kind: DeviceEventKind.opening, data: { door: 1, method: 'card', peopleId: alice } });
    await until(async () => !!(await t.app.db.selectFrom('sys_device_event').select('id').where('device_id', '=', deviceId).where('kind', '=', 'opening').executeTakeFirst()), 2000, 'the opening stored');
    await until(() => syncNotices(deviceId).some((m) => m.data.state === DeviceSyncState.succeeded), 15_000, 'sync succeeded notice');

    // removed from the role: refused within 2 s
    expect((await call('PUT', '/deviceRole/edit', { id: roleId, peopleIds: '' })).success).toBe(true);
    await until(() => !sim.access.entries.has(alice), 2000, 'the person removed from the device');
    expect(await sim.swipe('CARD20260001')).toMatchObject({ allowed: false, event: { kind: DeviceEventKind.denial, data: { reason: 'unknown' } } });

    // a time setting not in force: the device holds the person but refuses them, by the contract's evaluator
    expect((await call('PUT', '/deviceRole/edit', { id: roleId, peopleIds: alice, timeSetting: '{"mode":"custom","startDate":"2001-01-01","endDate":"2001-12-31","periods":[],"days":[]}' })).success).toBe(true);
    await until(() => sim.access.entries.get(alice)?.times[0]?.includes('2001-01-01') === true, 2000, 'the new time setting on the device');
    expect(await sim.swipe('CARD20260001')).toMatchObject({ allowed: false, event: { kind: DeviceEventKind.denial, data: { reason: 'outsideTime', peopleId: alice } } });

    // the device goes away; the role changes meanwhile; the restarted device (its commands memory lost) catches up
    await sim.stop();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('id', '=', deviceId).executeTakeFirstOrThrow()).online === 0, 15_000, 'offline');
    const bob = await person('Bob Offline', 'CARD20260002');
    expect((await call('PUT', '/deviceRole/edit', { id: roleId, peopleIds: `${alice},${bob}`, timeSetting: '{"mode":"permanent"}' })).success).toBe(true);
    await t.app.accessSync.settled();
    const queued = await t.app.db.selectFrom('sys_device_command').select(['status']).where('device_id', '=', deviceId).where('kind', '=', 'syncPeople').where('status', '=', 'pending').execute();
    expect(queued.length).toBeGreaterThan(0);
    const back = await startSim(sn, key);
    const reconnected = Date.now();
    await until(() => back.access.entries.has(bob) && back.access.entries.get(alice)?.times[0] === '{"mode":"permanent"}', 2000, 'the offline change applied');
    expect(Date.now() - reconnected).toBeLessThan(2000);
    expect((await back.swipe('CARD20260002')).allowed).toBe(true);
    expect((await back.swipe('CARD20260001')).allowed).toBe(true);

    // frozen: refused
    expect((await call('PUT', '/sysPeople/frozenPeople', { ids: bob, status: 2 })).success).toBe(true);
    await until(() => !back.access.entries.has(bob), 2000, 'the frozen person removed');
    expect((await back.swipe('CARD20260002')).allowed).toBe(false);
  });

  it('a device killed in the middle of a 1,000-person sync and restarted holds exactly the right 1,000 people; the console is told of the failure, then of the success', async () => {
    // a device storing each batch of 50 people in 50 ms: the sync takes a second
    const { sn, key, sim, deviceId } = await doorDevice(50);
    const tenantId = await defaultTenantId(t.app);
    const departId = randomUUID();
    const now = new Date().toISOString();
    // a group of 1,000 people with cards (written at once; their card numbers are the devices' only)
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      id: randomUUID(), create_by: 'test', create_time: now, update_by: null, update_time: null,
      name: `Person ${i}`, id_card: null, card_no: `K${String(i).padStart(8, '0')}X`, card_no_masked: null, user_no: `N${i}`, sex: null,
      depart_id: departId, picture: null, palm_left: 0, palm_right: 0, password: null, status: 1, del_flag: 0, tenant_id: tenantId,
    }));
    for (let i = 0; i < rows.length; i += 200) await t.app.db.insertInto('sys_people').values(rows.slice(i, i + 200)).execute();
    cards.push(...rows.map((r) => r.card_no));
    await t.app.db.insertInto('sys_device_role').values({ id: randomUUID(), create_by: 'test', create_time: now, update_by: null, update_time: null, role_name: 'Whole group', role_type: '1', time_setting: '{"mode":"permanent"}', remark: null, tenant_id: tenantId }).execute();
    const roleId = (await t.app.db.selectFrom('sys_device_role').select('id').where('role_name', '=', 'Whole group').executeTakeFirstOrThrow()).id;
    await t.app.db.insertInto('sys_device_role_device').values({ id: randomUUID(), create_by: 'test', create_time: now, update_by: null, update_time: null, role_id: roleId, device_id: deviceId }).execute();
    await t.app.db.insertInto('sys_device_role_depart').values({ id: randomUUID(), create_by: 'test', create_time: now, update_by: null, update_time: null, role_id: roleId, depart_id: departId }).execute();

    // killed once part of it arrived
    await until(() => sim.access.entries.size >= 200, 15_000, 'part of the sync');
    sim.kill();
    await until(() => syncNotices(deviceId).some((m) => m.data.state === DeviceSyncState.disconnected), 15_000, 'failure notice');
    const failure = syncNotices(deviceId).find((m) => m.data.state === DeviceSyncState.disconnected)!;
    expect(failure.data.messageKey).toBe('device.disconnected');
    expect(sim.access.entries.size).toBeLessThan(1000);

    // its flash lost some people and kept one it should not hold
    const file = join(dir, `${sn}.access.json`);
    const stored = (JSON.parse(readFileSync(file, 'utf8')) as AccessEntry[]).slice(10);
    stored.push({ id: randomUUID(), name: 'Stray', userNo: null, cardNo: 'STRAY0001', palm: {}, times: ['{"mode":"permanent"}'], version: 'x' });
    writeFileSync(file, JSON.stringify(stored));

    const back = await startSim(sn, key);
    await until(() => syncNotices(deviceId).some((m, i, all) => m.data.state === DeviceSyncState.succeeded && all.indexOf(failure) < i), 15_000, 'recovery notice');
    const [expected] = (await computeAccessLists(t.app.db, [deviceId])).values();
    expect(expected!.entries.size).toBe(1000);
    expect(back.access.held().sort()).toEqual([...expected!.entries.values()].map((e) => `${e.id}:${e.version}`).sort());
    const succeeded = syncNotices(deviceId).at(-1)!;
    expect(succeeded.data).toMatchObject({ state: DeviceSyncState.succeeded, messageKey: 'device.syncSucceeded', overCapacity: 0 });
    expect(succeeded.data.done).toBe(succeeded.data.total);
  });

  it('aligns a device on demand, refuses an offline one with the spec’s message, and respects the device’s capacity', async () => {
    const { sim, deviceId } = await doorDevice();
    const ids = [await person('Cap One', 'CAP0000001'), await person('Cap Two', 'CAP0000002'), await person('Cap Three', 'CAP0000003')];
    await t.app.db.updateTable('sys_device').set({ max_people: 2 }).where('id', '=', deviceId).execute();
    expect((await call('POST', '/deviceRole/add', { roleName: 'Capacity', roleType: '1', deviceIds: deviceId, peopleIds: ids.join(','), timeSetting: '{"mode":"permanent"}' })).success).toBe(true);
    await until(() => syncNotices(deviceId).some((m) => m.data.state === DeviceSyncState.succeeded), 15_000, 'sync');
    expect(sim.access.entries.size).toBe(2);
    expect(syncNotices(deviceId).at(-1)!.data.overCapacity).toBe(1);

    // the device lost everyone: an alignment on demand sends them again
    sim.access.apply({ op: 'clear' });
    const before = syncNotices(deviceId).length;
    const started = await call<{ commandId: string }>('POST', AccessSyncPath.resync, { id: deviceId });
    expect(started).toMatchObject({ success: true, message: 'Synchronisation started: the device reports what it holds and gets the difference' });
    await until(() => sim.access.entries.size === 2 && syncNotices(deviceId).slice(before).some((m) => m.data.state === DeviceSyncState.succeeded), 15_000, 'aligned');

    // full mode: cleared, then everything
    expect((await call('POST', AccessSyncPath.resync, { id: deviceId, mode: 'full' })).success).toBe(true);
    await until(() => sim.memory.effects.some((e) => (e.payload as { op?: string } | null)?.op === 'clear'), 15_000, 'full send');
    await until(() => sim.access.entries.size === 2, 15_000, 'full send done');

    await sim.stop();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('id', '=', deviceId).executeTakeFirstOrThrow()).online === 0, 15_000, 'offline');
    const refused = await call('POST', AccessSyncPath.resync, { id: deviceId });
    expect(refused).toMatchObject({ success: false, code: 500, message: 'Sync Fail, Device disconnected, please reconnect to the platform' });
  });

  it('stores openings and denials as access events (door states as door events): listed with filters by person, door, device, result and time, and exported; a card a device names is stored as its holder', async () => {
    const { sim, deviceId } = await doorDevice();
    const door = await call<{ id: string }>('POST', crudPath(doorEntity, 'add'), { doorName: 'Event door', deviceId, doorNo: 1 });
    expect(door.success, door.message).toBe(true);
    const doorId = (await t.app.db.selectFrom('sys_door').select('id').where('device_id', '=', deviceId).executeTakeFirstOrThrow()).id;
    const carol = await person('Carol Events', 'EVCARD0001');
    // a device that names the card it read (docs/device-protocol.md), a refusal of an unknown card, a door state
    await sim.emit(DeviceEventKind.opening, { door: 1, method: 'card', cardNo: 'EVCARD0001' });
    await sim.swipe('UNKNOWN999');
    await sim.emit(DeviceEventKind.doorState, { door: 1, state: 'open' });
    await sim.emit(DeviceEventKind.alarm, { code: 'tamper', level: 'M' });
    await until(async () => (await t.app.db.selectFrom('sys_access_event').select('id').where('device_id', '=', deviceId).execute()).length === 2, 15_000, 'two access events');
    await until(async () => (await t.app.db.selectFrom('sys_door_event').select('id').where('device_id', '=', deviceId).execute()).length === 1, 15_000, 'a door event');
    const stored = await t.app.db.selectFrom('sys_access_event').selectAll().where('device_id', '=', deviceId).execute();
    expect(JSON.stringify(stored)).not.toContain('EVCARD0001');

    type Row = { kind: string; result: number | null; peopleId: string | null; peopleId_dictText?: string; doorId: string | null; deviceId: string; detail: string | null; eventTime: string };
    const list = (query: string) => call<{ records: Row[]; total: number }>('GET', `${crudPath(accessEventEntity, 'list')}?${query}`);
    const all = await list(`deviceId=${deviceId}`);
    expect(all.result.records.map((r) => [r.kind, r.result, r.peopleId, r.doorId, r.detail]).sort()).toEqual(
      [
        ['denial', 0, null, doorId, 'unknown'],
        ['opening', 1, carol, doorId, null],
      ].sort(),
    );
    expect(all.result.records[0]!.eventTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect((await list(`peopleId=${carol}`)).result.records.map((r) => r.kind)).toEqual(['opening']);
    expect((await list(`deviceId=${deviceId}&result=0`)).result.records.map((r) => r.kind)).toEqual(['denial']);
    expect((await list(`doorId=${doorId}&kind=opening`)).result.total).toBe(1);
    expect((await call<{ total: number }>('GET', `${crudPath(doorEventEntity, 'list')}?doorId=${doorId}&state=open`)).result.total).toBe(1);
    expect((await list(`deviceId=${deviceId}&eventTime_begin=2001-01-01 00:00:00&eventTime_end=2001-01-02 00:00:00`)).result.total).toBe(0);
    const exported = await injectAs(t.app, admin, { method: 'GET', url: `${api(t.app, crudPath(accessEventEntity, 'exportXls'))}?deviceId=${deviceId}` });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('spreadsheet');
  });

  it('card numbers reach devices only: never a websocket message, an operation log or a people list', async () => {
    expect(cards.length).toBeGreaterThan(1000);
    const messages = JSON.stringify(socket.messages);
    expect(socket.messages.some((m) => m.cmd === RealtimeCmd.deviceSync)).toBe(true);
    const logs = JSON.stringify(await t.app.db.selectFrom('sys_log').selectAll().execute());
    const list = JSON.stringify(await call('GET', `${crudPath(peopleEntity, 'list')}?pageSize=2000`));
    for (const card of cards) {
      expect(messages).not.toContain(card);
      expect(logs).not.toContain(card);
      expect(list).not.toContain(card);
    }
  });
});
