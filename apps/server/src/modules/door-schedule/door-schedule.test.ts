import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { crudPath, doorEntity, DoorScheduleCommandKind, DoorSchedulePath, doorScheduleEntity, DoorState, EmergencyPath, LogOperateType as LogType, type EmergencyScenario, type Envelope, type Page } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, uniqueSn, until } from '../../gateway/test-support.ts';
import { createRoleWith, uploadFile, workbookOf } from '../../test/crud-helpers.ts';
import { adminToken, api, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');

const HOUR = 3_600_000;
/** `HH:mm` of an instant in UTC (the test server's TIME_ZONE). */
const clockOf = (ms: number) => new Date(ms).toISOString().slice(11, 16);
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** Every day, from `from` for `minutes` (UTC). */
const periodSetting = (from: number, minutes: number) => JSON.stringify({ mode: 'custom', periods: [{ start: clockOf(from), end: clockOf(from + minutes * 60_000) }], days: [] });

const MANAGER_CODES = ['device:doorSchedule:list', 'device:doorSchedule:add', 'device:doorSchedule:edit', 'device:doorSchedule:delete', 'device:doorSchedule:import'];

describe.each(dialects)('door schedules on door controllers on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  const sims: SimDevice[] = [];

  async function call<T = unknown>(method: 'POST' | 'PUT' | 'GET' | 'DELETE', path: string, payload?: unknown, token = admin): Promise<Envelope<T>> {
    return (await injectAs<T>(t.app, token, { method, url: api(t.app, path), ...(payload ? { payload: payload as Record<string, unknown> } : {}), headers: { lang: 'en-US' } })).envelope;
  }
  /** A simulated door controller on line with one door of the console (door 1), reading its schedules every 50 ms. */
  async function doorController(doorName: string, holidays: string[] = []): Promise<{ sim: SimDevice; deviceId: string; doorId: string }> {
    const sn = uniqueSn('DS');
    const sim = new SimDevice({ url: t.mqttUrl, sn, key: await approvedKey(t.app, sn, admin), kind: 'door', doorOpenMs: 0, heartbeatMs: 0, clock: t.clock.now, scheduleTickMs: 50, site: { timeZone: 'UTC', holidays } });
    sims.push(sim);
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, `hello of ${sn}`);
    const deviceId = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
    const added = await call('POST', crudPath(doorEntity, 'add'), { doorName, deviceId, doorNo: 1 });
    expect(added.success, added.message).toBe(true);
    const doorId = (await t.app.db.selectFrom('sys_door').select('id').where('device_id', '=', deviceId).executeTakeFirstOrThrow()).id;
    return { sim, deviceId, doorId };
  }
  async function addSchedule(scheduleName: string, doorIds: string[], timeSetting: string, token = admin): Promise<string> {
    const added = await call('POST', '/doorSchedule/add', { scheduleName, doorIds: doorIds.join(','), timeSetting, enabled: 1 }, token);
    expect(added.success, added.message).toBe(true);
    return (await t.app.db.selectFrom('sys_door_schedule').select('id').where('schedule_name', '=', scheduleName).executeTakeFirstOrThrow()).id;
  }
  const doorStateOf = async (doorId: string) => Number((await t.app.db.selectFrom('sys_door').select('state').where('id', '=', doorId).executeTakeFirstOrThrow()).state);
  const syncsTo = (deviceId: string) => t.app.db.selectFrom('sys_device_command').selectAll().where('device_id', '=', deviceId).where('kind', '=', DoorScheduleCommandKind.syncDoorSchedules).execute();

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 60_000, offlineSweepMs: 3_600_000 } });
    admin = await adminToken(t.app);
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop().catch(() => undefined)));
    await t.close();
  });
  beforeEach(async () => {
    await t.app.db.updateTable('sys_emergency').set({ active_key: null }).execute();
  });

  it('unlocks a door inside its periods and locks it outside them, online and offline, and keeps it locked on a holiday', async () => {
    const t0 = t.clock.now();
    const holiday = dayOf(t0 + 48 * HOUR);
    const { sim, deviceId, doorId } = await doorController(`Lobby ${dialect}`, [holiday]);
    // from 5 minutes ago for an hour, every day
    const id = await addSchedule(`Lobby hours ${dialect}`, [doorId], periodSetting(t0 - 5 * 60_000, 65));
    await t.app.doorScheduleSync.settled();
    await until(() => sim.doorSchedules.version !== null, 10_000, 'the schedules on the device');
    expect(sim.memory.effects.filter((e) => e.kind === DoorScheduleCommandKind.syncDoorSchedules).at(-1)?.payload).toMatchObject({ doors: [{ door: 1, times: [periodSetting(t0 - 5 * 60_000, 65)] }], timeZone: 'UTC' });
    await until(() => sim.doorLocks.get(1) === true, 5000, 'unlocked inside the period');
    // the console's door status follows the controller's doorState events
    await until(async () => (await doorStateOf(doorId)) === DoorState.open, 5000, 'door status open');
    // the command is acknowledged like the access sync's, with the version it holds
    await until(async () => (await syncsTo(deviceId)).every((c) => c.status === 'acked'), 5000, 'sync acknowledged');

    t.clock.advance(2 * HOUR);
    await until(() => sim.doorLocks.get(1) === false, 5000, 'locked outside the period');
    await until(async () => (await doorStateOf(doorId)) === DoorState.closed, 5000, 'door status closed');

    // the next day, inside the period again
    t.clock.advance(22 * HOUR);
    await until(() => sim.doorLocks.get(1) === true, 5000, 'unlocked the next day');

    // cut off from the console: the controller keeps the schedule by its own clock
    sim.dropOffNetwork();
    await until(() => !sim.online, 5000, 'offline');
    t.clock.advance(2 * HOUR);
    await until(() => sim.doorLocks.get(1) === false, 5000, 'locked outside the period, offline');
    t.clock.advance(22 * HOUR);
    // the holiday: inside the period, still locked
    expect(dayOf(t.clock.now())).toBe(holiday);
    await sim.applyDoorSchedules();
    expect(sim.doorLocks.get(1)).toBe(false);
    expect(sim.doorUnlocked(1)).toBe(false);
    // the day after the holiday the period unlocks it again, still offline
    t.clock.advance(24 * HOUR);
    await until(() => sim.doorLocks.get(1) === true, 5000, 'unlocked after the holiday, offline');

    // the schedule is switched off while the device is away: it gets the change when it comes back, and locks
    const edited = await call('PUT', '/doorSchedule/edit', { id, enabled: 0 });
    expect(edited.success, edited.message).toBe(true);
    await t.app.doorScheduleSync.settled();
    expect(sim.doorLocks.get(1)).toBe(true);
    await sim.start();
    await until(() => sim.doorLocks.get(1) === false, 10_000, 'locked once the disabled schedule arrived');
    expect(sim.doorSchedules.version).not.toBeNull();
    await until(async () => (await doorStateOf(doorId)) === DoorState.closed, 5000, 'door status closed after reconnecting');

    // a controller that lost its memory (replaced, reset) says hello and is sent its schedules again
    const held = sim.doorSchedules.version;
    await sim.stop();
    const fresh = new SimDevice({ url: t.mqttUrl, sn: sim.sn, key: sim.key, kind: 'door', doorOpenMs: 0, heartbeatMs: 0, clock: t.clock.now, scheduleTickMs: 50 });
    sims.push(fresh);
    await fresh.start();
    await until(() => fresh.doorSchedules.version === held, 10_000, 'the schedules sent again on hello');
  });

  it('the emergency overrides the schedule: held doors stay open through a schedule change, then follow the schedule again', async () => {
    const now = t.clock.now();
    const { sim, doorId } = await doorController(`Exit ${dialect}`);
    // a period that starts in three hours: locked now
    const id = await addSchedule(`Exit hours ${dialect}`, [doorId], periodSetting(now + 3 * HOUR, 60));
    await t.app.doorScheduleSync.settled();
    await until(() => sim.doorSchedules.version !== null, 10_000, 'the schedules on the device');
    await sim.applyDoorSchedules();
    expect(sim.doorLocks.get(1)).toBe(false);

    expect((await call('PUT', EmergencyPath.setting, { enabled: false, threshold: 5, egressDoorIds: [doorId] })).success).toBe(true);
    const drill = await call<EmergencyScenario>('POST', EmergencyPath.drill, {});
    expect(drill.success, drill.message).toBe(true);
    await until(() => sim.doorLocks.get(1) === true, 10_000, 'held open by the emergency');
    await until(async () => (await doorStateOf(doorId)) === DoorState.open, 5000, 'door status open');

    // a schedule change during the emergency does not lock the held door
    const before = sim.doorSchedules.version;
    expect((await call('PUT', '/doorSchedule/edit', { id, timeSetting: periodSetting(now + 5 * HOUR, 30) })).success).toBe(true);
    await t.app.doorScheduleSync.settled();
    await until(() => sim.doorSchedules.version !== before, 10_000, 'the changed schedule on the device');
    await sim.applyDoorSchedules();
    expect(sim.doorLocks.get(1)).toBe(true);

    // the emergency ends: the schedule decides again
    const ended = await call('POST', EmergencyPath.end, { id: drill.result.id });
    expect(ended.success, ended.message).toBe(true);
    await until(() => sim.doorLocks.get(1) === false, 10_000, 'locked by the schedule after the emergency');
    await until(async () => (await doorStateOf(doorId)) === DoorState.closed, 5000, 'door status closed');
    // and inside its period the schedule unlocks it
    t.clock.advance(5 * HOUR + 10 * 60_000);
    await until(() => sim.doorLocks.get(1) === true, 5000, 'unlocked by the schedule');
  });

  it('writes each schedule change to the operation log', async () => {
    const { doorId } = await doorController(`Audited ${dialect}`);
    const started = new Date(t.clock.now() - 1000).toISOString();
    const id = await addSchedule(`Audited hours ${dialect}`, [doorId], periodSetting(t.clock.now(), 60));
    expect((await call('PUT', '/doorSchedule/edit', { id, remark: 'longer on Fridays' })).success).toBe(true);
    expect((await call('DELETE', `/doorSchedule/delete?id=${id}`)).success).toBe(true);
    const entries = await t.app.db
      .selectFrom('sys_log')
      .select(['operate_type', 'username', 'log_params'])
      .where('log_params', 'like', `%${doorScheduleEntity.title}%`)
      .where('create_time', '>=', started)
      .execute();
    const types = entries.map((e) => Number(e.operate_type));
    expect(types).toEqual(expect.arrayContaining([LogType.add, LogType.edit, LogType.delete]));
    expect(entries.every((e) => e.username === 'admin')).toBe(true);
    expect(entries.filter((e) => e.log_params!.includes(id))).toHaveLength(3);
    // the data log keeps what the schedule was before and after the change
    const versions = await t.app.db.selectFrom('sys_data_log').select(['data_version', 'data_content']).where('data_table', '=', 'sys_door_schedule').where('data_id', '=', id).orderBy('data_version').execute();
    expect(versions.map((v) => Number(v.data_version))).toEqual([1, 2]);
    expect(JSON.parse(versions[1]!.data_content!)).toMatchObject({ scheduleName: `Audited hours ${dialect}`, remark: 'longer on Fridays' });

    // a deleted door leaves the schedules that named it
    const kept = await addSchedule(`Kept hours ${dialect}`, [doorId], periodSetting(t.clock.now(), 60));
    expect((await call('DELETE', `${crudPath(doorEntity, 'delete')}?id=${doorId}`)).success).toBe(true);
    expect(await t.app.db.selectFrom('sys_door_schedule_door').select('id').where('schedule_id', '=', kept).execute()).toEqual([]);
  });

  it('names only doors its author may manage, and another tenant sees and picks nothing of ours', async () => {
    const { doorId } = await doorController(`Managed ${dialect}`);
    const { doorId: otherDoor } = await doorController(`Unmanaged ${dialect}`);
    await createRoleWith(t.app, `door_schedule_manager_${dialect}`, MANAGER_CODES);
    const managerId = await createTestUser(t.app, `ds-manager-${dialect}`, { roles: [`door_schedule_manager_${dialect}`] });
    const manager = await login(t.app, `ds-manager-${dialect}`, USER_PASSWORD);

    // holding no device role, he names no door
    expect(await call('POST', '/doorSchedule/add', { scheduleName: `Grab ${dialect}`, doorIds: doorId, timeSetting: '{"mode":"permanent"}' }, manager)).toMatchObject({
      success: false,
      message: 'You can only bind areas, devices and doors that a device role you hold covers.',
    });
    expect((await call<string[] | null>('GET', DoorSchedulePath.bindableDoors, undefined, manager)).result).toEqual([]);
    expect((await call<string[] | null>('GET', DoorSchedulePath.bindableDoors)).result).toBeNull();

    // a device role binding one door makes that door his to schedule, and no other
    expect((await call('POST', '/deviceRole/add', { roleName: `Door managers ${dialect}`, roleType: '2', doorIds: doorId, userIds: managerId })).success).toBe(true);
    expect((await call<string[] | null>('GET', DoorSchedulePath.bindableDoors, undefined, manager)).result).toEqual([doorId]);
    const mine = await addSchedule(`Mine ${dialect}`, [doorId], '{"mode":"permanent"}', manager);
    expect((await call('PUT', '/doorSchedule/edit', { id: mine, doorIds: `${doorId},${otherDoor}` }, manager)).success).toBe(false);
    const theirs = await addSchedule(`Theirs ${dialect}`, [otherDoor], '{"mode":"permanent"}');
    expect((await call('PUT', '/doorSchedule/edit', { id: theirs, enabled: 0 }, manager)).success).toBe(false);
    expect((await call('DELETE', `/doorSchedule/delete?id=${theirs}`, undefined, manager)).success).toBe(false);
    expect((await call('DELETE', `/doorSchedule/deleteBatch?ids=${theirs}`, undefined, manager)).success).toBe(false);
    expect(Number((await t.app.db.selectFrom('sys_door_schedule').select('enabled').where('id', '=', theirs).executeTakeFirstOrThrow()).enabled)).toBe(1);
    // an import goes through the same rule
    const imported = await uploadFile(t.app, manager, '/doorSchedule/importExcel', await workbookOf(['Schedule name', 'Doors', 'Unlocked during'], [[`Imported ${dialect}`, `Unmanaged ${dialect}`, '{"mode":"permanent"}']]));
    expect(JSON.stringify(imported.envelope)).toContain('You can only bind areas, devices and doors that a device role you hold covers.');
    expect(await t.app.db.selectFrom('sys_door_schedule').select('id').where('schedule_name', '=', `Imported ${dialect}`).executeTakeFirst()).toBeUndefined();
    expect((await call('DELETE', `/doorSchedule/delete?id=${mine}`, undefined, manager)).success).toBe(true);

    // another tenant: sees none of our schedules and cannot name our doors, even by id
    const otherTenant = randomUUID();
    await t.app.db.insertInto('sys_tenant').values({ id: otherTenant, name: 'Other', code: `other-ds-${dialect}`, begin_date: null, end_date: null, status: 1, create_by: 'test', create_time: null, update_by: null, update_time: null }).execute();
    await createTestUser(t.app, `ds-foreign-${dialect}`, { roles: [`door_schedule_manager_${dialect}`], tenantId: otherTenant });
    const foreign = await login(t.app, `ds-foreign-${dialect}`, USER_PASSWORD);
    const list = await call<Page<Record<string, unknown>>>('GET', `${crudPath(doorScheduleEntity, 'list')}?pageSize=100`, undefined, foreign);
    expect(list.success, list.message).toBe(true);
    expect(list.result.records).toEqual([]);
    expect((await call('GET', `${crudPath(doorScheduleEntity, 'queryById')}?id=${theirs}`, undefined, foreign)).success).toBe(false);
    expect((await call('POST', '/doorSchedule/add', { scheduleName: `Foreign ${dialect}`, doorIds: doorId, timeSetting: '{"mode":"permanent"}' }, foreign)).success).toBe(false);
    expect((await call('PUT', '/doorSchedule/edit', { id: theirs, enabled: 0 }, foreign)).success).toBe(false);
    expect(await t.app.db.selectFrom('sys_door_schedule').select('id').where('schedule_name', '=', `Foreign ${dialect}`).executeTakeFirst()).toBeUndefined();
  });

  it('refuses bad input with a localised message, never a 500', async () => {
    const { doorId } = await doorController(`Checked ${dialect}`);
    const bad = await injectAs(t.app, admin, { method: 'POST', url: api(t.app, '/doorSchedule/add'), payload: { scheduleName: `Bad ${dialect}`, doorIds: doorId, timeSetting: '{"mode":"custom","periods":[{"start":"25:00","end":"26:00"}]}' }, headers: { lang: 'en-US' } });
    expect(bad.statusCode).toBeLessThan(500);
    expect(bad.envelope.success).toBe(false);
    const missing = await injectAs(t.app, admin, { method: 'POST', url: api(t.app, '/doorSchedule/add'), payload: { doorIds: doorId, timeSetting: '{"mode":"permanent"}' }, headers: { lang: 'zh-CN' } });
    expect(missing.statusCode).toBeLessThan(500);
    expect(missing.envelope.success).toBe(false);
    expect(missing.envelope.message).toMatch(/[\u4e00-\u9fff]/);
    // a door of no row is no door to name
    expect((await call('POST', '/doorSchedule/add', { scheduleName: `Ghost ${dialect}`, doorIds: randomUUID(), timeSetting: '{"mode":"permanent"}' })).success).toBe(false);
  });
});
