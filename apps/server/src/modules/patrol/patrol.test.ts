import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  crudPath,
  deviceRoleEntity,
  PATROL_MISSED_ALARM,
  PatrolPath,
  patrolMissionEntity,
  patrolPointEntity,
  patrolQuestEntity,
  patrolRecordEntity,
  patrolRouteEntity,
  patrolTaskEntity,
  peopleEntity,
  RealtimeCmd,
  type Envelope,
  type PatrolMissedNotice,
  type RealtimeMessage,
} from '@isps/contract';
import { SimDevice, walkRoute } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, recordUserNotices, uniqueSn, until } from '../../gateway/test-support.ts';
import { adminToken, api, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';
import { createRoleWith } from '../../test/crud-helpers.ts';
import { raiseMissedPoints } from './missed.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');

const MINUTE = 60_000;
type Page<T = Record<string, unknown>> = { records: T[]; total: number };

describe.each(dialects)('patrol driven by live devices on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  /** 10:00 UTC (the test server's TIME_ZONE) of the day the tests walk */
  let day: string;
  const sims: SimDevice[] = [];
  const notices: Array<{ userIds: readonly string[]; message: RealtimeMessage }> = [];

  async function call<T = unknown>(method: 'POST' | 'PUT' | 'GET' | 'DELETE', path: string, payload?: unknown, token = admin): Promise<Envelope<T>> {
    return (await injectAs<T>(t.app, token, { method, url: api(t.app, path), payload: payload as Record<string, unknown>, headers: { lang: 'en-US' } })).envelope;
  }
  async function added(path: string, payload: Record<string, unknown>, token = admin): Promise<void> {
    const answer = await call('POST', path, payload, token);
    expect(answer.success, answer.message).toBe(true);
  }
  const idOf = async (table: 'sys_patrol_route' | 'sys_depart' | 'sys_people' | 'sys_patrol_mission', column: string, value: string) =>
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    ((await (t.app.db as any).selectFrom(table).select('id').where(column, '=', value).executeTakeFirstOrThrow()) as { id: string }).id;
  async function patrolPoint(): Promise<{ sim: SimDevice; deviceId: string }> {
    const sn = uniqueSn('PAT');
    const key = await approvedKey(t.app, sn, admin);
    const sim = new SimDevice({ url: t.mqttUrl, sn, key, kind: 'patrol', heartbeatMs: 0, clock: t.clock.now });
    sims.push(sim);
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, `hello of ${sn}`);
    return { sim, deviceId: (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id };
  }
  /** A patrol group, a route with a point per device (watch times `HH:mm`), and a mission giving the route to the group. */
  async function patrolPlan(name: string, points: Array<{ deviceId: string; watchTime: string }>, route: Record<string, unknown> = {}): Promise<{ routeId: string; missionId: string; departId: string }> {
    await added('/sys/sysDepart/add', { departName: `Guards ${name}`, departOrder: 0, patrolGroup: 1, timeSetting: '{"mode":"permanent"}' });
    const departId = await idOf('sys_depart', 'depart_name', `Guards ${name}`);
    await added(crudPath(patrolRouteEntity, 'add'), { routeName: `Route ${name}`, status: 1, weekDay: '1,2,3,4,5,6,7', tolerance: 10, inOrder: 1, description: 'Round of the yard', ...route });
    const routeId = await idOf('sys_patrol_route', 'route_name', `Route ${name}`);
    for (const [i, p] of points.entries()) await added(crudPath(patrolPointEntity, 'add'), { routeId, placeName: `Gate ${i + 1} ${name}`, deviceId: p.deviceId, watchTime: p.watchTime, sortNo: i + 1 });
    await added(crudPath(patrolMissionEntity, 'add'), { missionName: `Night round ${name}`, routeId, departId, status: 1 });
    return { routeId, missionId: await idOf('sys_patrol_mission', 'mission_name', `Night round ${name}`), departId };
  }
  const at = (hhmm: string) => Date.parse(`${day}T${hhmm}:00Z`);

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 24 * 60 * MINUTE, offlineSweepMs: 3_600_000 }, patrol: { sweepMs: 3_600_000 } });
    admin = await adminToken(t.app);
    recordUserNotices(t.app, notices);
    // the tests walk one day from 10:00 UTC on (the next day's when this day's 10:00 has passed)
    const now = t.clock.now();
    const tenToday = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T10:00:00Z`);
    const start = tenToday > now ? tenToday : tenToday + 24 * 60 * MINUTE;
    t.clock.advance(start - now);
    day = new Date(start).toISOString().slice(0, 10);
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop().catch(() => undefined)));
    await t.close();
  });

  it('a route walked with one point skipped raises exactly one missed-point alarm, pushed once; a late point is recorded late', async () => {
    const devices = [await patrolPoint(), await patrolPoint(), await patrolPoint()];
    await added(crudPath(peopleEntity, 'add'), { name: `Gus Guard ${dialect}`, userNo: `G-${dialect}`, cardNo: 'PATROLCARD01' });
    const gus = await idOf('sys_people', 'name', `Gus Guard ${dialect}`);
    const plan = await patrolPlan(`A ${dialect}`, [
      { deviceId: devices[0]!.deviceId, watchTime: '10:30' },
      { deviceId: devices[1]!.deviceId, watchTime: '11:00' },
      { deviceId: devices[2]!.deviceId, watchTime: '11:30' },
    ]);

    // the sweep makes today's task of the mission once, with a point check per point
    const first = await t.app.sweepPatrol();
    expect(first.created).toHaveLength(1);
    expect((await t.app.sweepPatrol()).created).toEqual([]);
    const tasks = await call<Page>('GET', `${crudPath(patrolTaskEntity, 'list')}?missionId=${plan.missionId}`);
    expect(tasks.result.records).toEqual([expect.objectContaining({ taskDate: day, routeId: plan.routeId, state: 'pending', doneCount: 0, totalCount: 3, startTime: `${day} 10:20:00`, endTime: `${day} 11:50:00` })]);
    const taskId = String(tasks.result.records[0]!.id);

    // the guard checks in at the first point on time, passes the second by, and reaches the third 15 minutes late
    notices.length = 0;
    await walkRoute(devices.map((d) => d.sim), { userNo: `G-${dialect}`, skip: [1], times: [at('10:32'), at('11:00'), at('11:30')], lateBy: { index: 2, ms: 15 * MINUTE } });
    await until(async () => (await t.app.db.selectFrom('sys_patrol_record').select('id').where('task_id', '=', taskId).execute()).length === 2, 10_000, 'the check-ins recorded');
    await until(() => notices.some((n) => n.message.cmd === RealtimeCmd.patrolState), 10_000, 'the live notice');
    const quests = await call<Page>('GET', `${crudPath(patrolQuestEntity, 'list')}?taskId=${taskId}&column=sortNo&order=asc`);
    expect(quests.result.records.map((q) => [q.sortNo, q.result, q.outOfOrder, q.checkTime])).toEqual([
      [1, 'onTime', 0, `${day} 10:32:00`],
      [2, 'pending', 0, null],
      // the route goes in order: the third point was checked while the second was still due
      [3, 'late', 1, `${day} 11:45:00`],
    ]);
    expect(quests.result.records[0]).toMatchObject({ peopleId: gus, peopleId_dictText: `Gus Guard ${dialect}`, expectedTime: `${day} 10:30:00`, windowStart: `${day} 10:20:00`, windowEnd: `${day} 10:40:00` });
    const records = await call<Page>('GET', `${crudPath(patrolRecordEntity, 'list')}?taskId=${taskId}&column=checkTime&order=asc`);
    expect(records.success, records.message).toBe(true);
    const mine = records.result.records.filter((r) => r.deviceId === devices[0]!.deviceId || r.deviceId === devices[2]!.deviceId);
    expect(mine.map((r) => [r.checkTime, r.result, r.userNo, r.peopleId, r.guard])).toEqual([
      [`${day} 10:32:00`, 'onTime', `G-${dialect}`, gus, 1],
      [`${day} 11:45:00`, 'late', `G-${dialect}`, gus, 1],
    ]);
    const progress = await call<Page>('GET', `${crudPath(patrolTaskEntity, 'list')}?missionId=${plan.missionId}`);
    expect(progress.result.records[0]).toMatchObject({ state: 'inProgress', doneCount: 2, missedCount: 0 });

    // within the second point's late allowance nothing is missed
    t.clock.advance(80 * MINUTE - 1);
    expect((await t.app.sweepPatrol()).missed).toEqual([]);
    // past it: this server's sweep and another server's at the same moment raise the point once
    notices.length = 0;
    t.clock.advance(2 * MINUTE);
    const [mineSwept, other] = await Promise.all([t.app.sweepPatrol(), raiseMissedPoints(t.app.db, t.clock.now())]);
    await t.app.sweepPatrol();
    expect([...mineSwept.missed, ...other]).toHaveLength(1);
    const alarms = await t.app.db.selectFrom('sys_device_alarm').select(['code', 'device_id']).where('code', '=', PATROL_MISSED_ALARM).where('device_id', 'in', devices.map((d) => d.deviceId)).execute();
    expect(alarms).toEqual([{ code: PATROL_MISSED_ALARM, device_id: devices[1]!.deviceId }]);
    const pushed = notices.filter((n) => n.message.cmd === RealtimeCmd.patrolMissed);
    expect(pushed).toHaveLength(mineSwept.missed.length);
    if (pushed.length === 1) {
      expect(pushed[0]!.message.data).toMatchObject({ routeName: `Route A ${dialect}`, placeName: `Gate 2 A ${dialect}`, expectedTime: `${day} 11:00:00` } satisfies Partial<PatrolMissedNotice>);
      const adminId = (await t.app.db.selectFrom('sys_user').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
      expect(pushed[0]!.userIds).toContain(adminId);
    }
    // a sweep later still finds one alarm
    t.clock.advance(60 * MINUTE);
    await t.app.sweepPatrol();
    expect(await t.app.db.selectFrom('sys_device_alarm').select('id').where('code', '=', PATROL_MISSED_ALARM).where('device_id', '=', devices[1]!.deviceId).execute()).toHaveLength(1);
    const listedAlarms = await call<Page<{ code: string }>>('GET', `/sysDeviceAlarm/list?deviceId=${devices[1]!.deviceId}`);
    expect(listedAlarms.result.records.map((r) => r.code)).toEqual([PATROL_MISSED_ALARM]);
    const ended = await call<Page>('GET', `${crudPath(patrolTaskEntity, 'list')}?missionId=${plan.missionId}`);
    expect(ended.result.records[0]).toMatchObject({ state: 'incomplete', doneCount: 2, missedCount: 1, totalCount: 3 });
    const missedQuest = await call<Page>('GET', `${crudPath(patrolQuestEntity, 'list')}?taskId=${taskId}&result=missed`);
    expect(missedQuest.result.records.map((q) => q.sortNo)).toEqual([2]);

    // the guard reaching the missed point afterwards is recorded as after the miss; a device on no route as unmatched
    await devices[1]!.sim.checkIn('P2', `G-${dialect}`, t.clock.now());
    const stray = await patrolPoint();
    await stray.sim.checkIn('P9', `G-${dialect}`, t.clock.now());
    await until(async () => (await t.app.db.selectFrom('sys_patrol_record').select('id').where('device_id', 'in', [devices[1]!.deviceId, stray.deviceId]).execute()).length === 2, 10_000, 'the late check-ins');
    const late = await call<Page>('GET', `${crudPath(patrolRecordEntity, 'list')}?deviceId=${devices[1]!.deviceId}`);
    expect(late.result.records.map((r) => r.result)).toEqual(['missed']);
    const unmatched = await call<Page>('GET', `${crudPath(patrolRecordEntity, 'list')}?deviceId=${stray.deviceId}`);
    expect(unmatched.result.records.map((r) => [r.result, r.pointId])).toEqual([['unmatched', null]]);
    // the same delivery again is one record
    expect(await t.app.db.selectFrom('sys_patrol_record').select('id').where('device_id', '=', devices[0]!.deviceId).execute()).toHaveLength(1);
  });

  it('a patrol role of a device names its guards; routes delete softly; a mission needs a patrol group; bad input is refused', async () => {
    const point = await patrolPoint();
    await added(crudPath(peopleEntity, 'add'), { name: `Ida Guard ${dialect}`, userNo: `I-${dialect}` });
    await added(crudPath(peopleEntity, 'add'), { name: `Jon Visitor ${dialect}`, userNo: `J-${dialect}` });
    const ida = await idOf('sys_people', 'name', `Ida Guard ${dialect}`);
    await added(crudPath(deviceRoleEntity, 'add'), { roleName: `Patrol ${dialect}`, roleType: '4', deviceIds: point.deviceId, peopleIds: ida, timeSetting: '{"mode":"permanent"}' });
    const plan = await patrolPlan(`B ${dialect}`, [{ deviceId: point.deviceId, watchTime: '23:30' }], { inOrder: 0 });
    // a mission whose only point's late allowance ended this morning has nothing left to walk today: no task
    const passed = await patrolPlan(`E ${dialect}`, [{ deviceId: point.deviceId, watchTime: '10:30' }]);
    const made = await call<{ created: number }>('POST', PatrolPath.generateTasks, { date: day });
    expect([made.success, made.result.created]).toEqual([true, 1]);
    expect(await t.app.db.selectFrom('sys_patrol_task').select('id').where('mission_id', '=', passed.missionId).execute()).toEqual([]);
    expect((await call<{ created: number }>('POST', PatrolPath.generateTasks, { date: day })).result.created).toBe(0);
    await point.sim.checkIn('P1', `J-${dialect}`, at('23:00'));
    await point.sim.checkIn('P1', `I-${dialect}`, at('23:00') + 1000);
    await until(async () => (await t.app.db.selectFrom('sys_patrol_record').select('id').where('device_id', '=', point.deviceId).execute()).length === 2, 10_000, 'the check-ins');
    const records = await call<Page>('GET', `${crudPath(patrolRecordEntity, 'list')}?deviceId=${point.deviceId}&column=checkTime&order=asc`);
    // Jon holds no patrol role of the device: recorded, no guard of it; the early check-in was his (Ida's found no open point)
    expect(records.result.records.map((r) => [r.userNo, r.result, r.guard])).toEqual([
      [`J-${dialect}`, 'early', 0],
      [`I-${dialect}`, 'unmatched', 1],
    ]);

    const notGroup = await call('POST', '/sys/sysDepart/add', { departName: `Office ${dialect}`, departOrder: 0 });
    expect(notGroup.success, notGroup.message).toBe(true);
    const office = await idOf('sys_depart', 'depart_name', `Office ${dialect}`);
    // the mission form offers the patrol groups alone
    const offered = await call<string[]>('GET', PatrolPath.patrolGroups);
    expect(offered.result).toContain(plan.departId);
    expect(offered.result).not.toContain(office);
    const refused = await call('POST', crudPath(patrolMissionEntity, 'add'), { missionName: `Office round ${dialect}`, routeId: plan.routeId, departId: office });
    expect([refused.success, refused.message]).toEqual([false, 'This group is not a patrol group']);
    const zh = (await injectAs(t.app, admin, { method: 'POST', url: api(t.app, crudPath(patrolMissionEntity, 'add')), payload: { missionName: 'x', routeId: plan.routeId, departId: office }, headers: { lang: 'zh-CN' } })).envelope;
    expect(zh.message).toBe('该部门不是巡更部门');
    const badTime = await injectAs(t.app, admin, { method: 'POST', url: api(t.app, crudPath(patrolPointEntity, 'add')), payload: { routeId: plan.routeId, placeName: 'x', deviceId: point.deviceId, watchTime: '25:00', sortNo: 5 }, headers: { lang: 'en-US' } });
    expect([badTime.statusCode, badTime.envelope.success]).toEqual([400, false]);
    const badDays = await injectAs(t.app, admin, { method: 'POST', url: api(t.app, crudPath(patrolRouteEntity, 'add')), payload: { routeName: 'x', status: 1, weekDay: '8', tolerance: 10 }, headers: { lang: 'en-US' } });
    expect([badDays.statusCode, badDays.envelope.success]).toEqual([400, false]);
    const badDate = await injectAs(t.app, admin, { method: 'POST', url: api(t.app, PatrolPath.generateTasks), payload: { date: '2026-02-30' }, headers: { lang: 'en-US' } });
    expect([badDate.statusCode, badDate.envelope.success]).toEqual([400, false]);

    // deleting a route marks it deleted (delStatus 1): gone from the list, kept in the table, walked no more
    expect((await call('DELETE', `${crudPath(patrolRouteEntity, 'delete')}?id=${plan.routeId}`)).success).toBe(true);
    expect(await t.app.db.selectFrom('sys_patrol_route').select('del_flag').where('id', '=', plan.routeId).executeTakeFirstOrThrow()).toEqual({ del_flag: 1 });
    const routes = await call<Page>('GET', `${crudPath(patrolRouteEntity, 'list')}?pageSize=1000`);
    expect(routes.result.records.map((r) => r.id)).not.toContain(plan.routeId);
    const tomorrow = new Date(Date.parse(`${day}T00:00:00Z`) + 24 * 60 * MINUTE).toISOString().slice(0, 10);
    await call('POST', PatrolPath.generateTasks, { date: tomorrow });
    expect(await t.app.db.selectFrom('sys_patrol_task').select('id').where('mission_id', '=', plan.missionId).execute()).toHaveLength(1);
  });

  it('another tenant’s operator sees nothing of the patrol: routes, points, missions, tasks, point checks, records', async () => {
    const point = await patrolPoint();
    const plan = await patrolPlan(`C ${dialect}`, [{ deviceId: point.deviceId, watchTime: '22:00' }]);
    await call('POST', PatrolPath.generateTasks, { date: day });
    await point.sim.checkIn('P1', 'ANYONE', at('22:00'));
    await until(async () => (await t.app.db.selectFrom('sys_patrol_record').select('id').where('device_id', '=', point.deviceId).execute()).length === 1, 10_000, 'the check-in');

    const entities = [patrolRouteEntity, patrolPointEntity, patrolMissionEntity, patrolTaskEntity, patrolQuestEntity, patrolRecordEntity];
    const codes = [...entities.flatMap((e) => ['list', 'add', 'edit', 'delete', 'export'].map((a) => `${e.permissionPrefix}:${a}`))];
    const tenant = await call('POST', '/sys/tenant/add', { name: `Tenant ${dialect} patrol`, code: `tpt${Date.now().toString(36)}`, status: 1 });
    expect(tenant.success, tenant.message).toBe(true);
    const tenantId = (await t.app.db.selectFrom('sys_tenant').select('id').where('name', '=', `Tenant ${dialect} patrol`).executeTakeFirstOrThrow()).id;
    await createRoleWith(t.app, 'patrol_operator_b', codes);
    await t.app.db.updateTable('sys_role').set({ tenant_id: tenantId }).where('role_code', '=', 'patrol_operator_b').execute();
    await createTestUser(t.app, `patrolb_${dialect}`, { roles: ['patrol_operator_b'], tenantId });
    const tokenB = await login(t.app, `patrolb_${dialect}`, USER_PASSWORD);
    for (const entity of entities) {
      const list = await call<{ total: number }>('GET', crudPath(entity, 'list'), undefined, tokenB);
      expect([entity.name, list.success, list.result.total]).toEqual([entity.name, true, 0]);
    }
    // nothing of the other tenant is made, changed or named from here
    expect((await call<{ created: number }>('POST', PatrolPath.generateTasks, { date: day }, tokenB)).result.created).toBe(0);
    expect((await call('PUT', crudPath(patrolRouteEntity, 'edit'), { id: plan.routeId, routeName: 'Taken over' }, tokenB)).success).toBe(false);
    expect((await call('DELETE', `${crudPath(patrolMissionEntity, 'delete')}?id=${plan.missionId}`, undefined, tokenB)).success).toBe(false);
    const foreign = await call('POST', crudPath(patrolPointEntity, 'add'), { routeId: plan.routeId, placeName: 'Foreign', deviceId: point.deviceId, watchTime: '12:00', sortNo: 9 }, tokenB);
    expect(foreign.success).toBe(false);
    expect(await t.app.db.selectFrom('sys_patrol_route').select('route_name').where('id', '=', plan.routeId).executeTakeFirstOrThrow()).toEqual({ route_name: `Route C ${dialect}` });
    expect(await t.app.db.selectFrom('sys_patrol_mission').select('id').where('id', '=', plan.missionId).executeTakeFirst()).toBeDefined();
  });
});
