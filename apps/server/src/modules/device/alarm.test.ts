import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarmEntity, AlarmPath, AlarmState, ApiPath, crudPath, DeviceEventKind, type DashboardDevices, type DeviceEvent } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, uniqueSn, until } from '../../gateway/test-support.ts';
import { createRoleWith } from '../../test/crud-helpers.ts';
import { adminToken, api, createTestUser, defaultTenantId, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');

interface AlarmRow {
  id: string;
  deviceId: string;
  areaId: string | null;
  code: string;
  state: number;
  alarmCount: number;
  alarmTime: string;
  lastTime: string;
}

describe.each(dialects)('alarms on %s: folded, handled in bulk and by filter', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  const sims: SimDevice[] = [];
  let building: string;
  let floor: string;
  let a: { sim: SimDevice; id: string };
  let b: { sim: SimDevice; id: string };

  const addArea = async (name: string, parentId: string | null) => {
    const id = randomUUID();
    await t.app.db.insertInto('sys_area').values({ id, create_by: 'test', create_time: null, update_by: null, update_time: null, area_name: name, parent_id: parentId, address: null, remark: null, tenant_id: await defaultTenantId(t.app) }).execute();
    return id;
  };
  const device = async (areaId: string | null) => {
    const sn = uniqueSn('AL');
    const sim = new SimDevice({ url: t.mqttUrl, sn, key: await approvedKey(t.app, sn, admin), kind: 'door', heartbeatMs: 0 });
    sims.push(sim);
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, `hello of ${sn}`);
    const id = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
    await t.app.db.updateTable('sys_device').set({ area_id: areaId }).where('id', '=', id).execute();
    return { sim, id };
  };
  const alarms = async (query: string, token = admin) => (await injectAs<{ records: AlarmRow[]; total: number }>(t.app, token, { method: 'GET', url: `${api(t.app, crudPath(alarmEntity, 'list'))}?pageSize=100&${query}` })).envelope.result;
  const stored = async (expected: number) => {
    await until(async () => {
      await t.app.deviceGateway.flush();
      const rows = await t.app.db.selectFrom('sys_device_alarm_event').select('id').where('device_id', 'in', [a.id, b.id]).execute();
      return rows.length === expected;
    }, 15_000, `${expected} alarm events stored`);
  };
  const put = (path: string, payload: unknown, token = admin, lang = 'en-US') => injectAs<{ count: number } | null>(t.app, token, { method: 'PUT', url: api(t.app, path), payload: payload as object, headers: { lang } });
  const count = (query: string, token = admin) => injectAs<{ count: number }>(t.app, token, { method: 'GET', url: `${api(t.app, AlarmPath.batchCount)}?${query}` });
  const openAlarms = async () => (await injectAs<DashboardDevices>(t.app, admin, { method: 'GET', url: api(t.app, ApiPath.dashboardDevices) })).envelope.result.openAlarms ?? -1;

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineSweepMs: 3_600_000 } });
    admin = await adminToken(t.app);
    building = await addArea('Building A', null);
    floor = await addArea('Floor 2', building);
    a = await device(floor);
    b = await device(null);
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop().catch(() => undefined)));
    await t.close();
  });

  it('folds the repeats of a code on a device into one open alarm with their count and the last time; a repeated delivery counts once; the home page counts folded alarms', async () => {
    const before = await openAlarms();
    const start = Date.UTC(2026, 5, 1, 8, 0, 0);
    const sent: DeviceEvent[] = [];
    for (let i = 0; i < 4; i += 1) sent.push(await a.sim.emit(DeviceEventKind.alarm, { code: 'tamper', level: 'M' }, start + i * 60_000));
    await a.sim.emit(DeviceEventKind.alarm, { code: 'forcedOpen', level: 'H' }, start);
    await b.sim.emit(DeviceEventKind.alarm, { code: 'tamper', level: 'M' }, start);
    await b.sim.emit(DeviceEventKind.alarm, { code: 'tamper', level: 'M' }, start + 1000);
    await stored(7);
    // the device sends an event again (its receipt was lost): stored once, counted once
    await a.sim.publishEvent(sent[1]!);
    await t.app.deviceGateway.flush();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await t.app.deviceGateway.flush();

    const ofA = (await alarms(`deviceId=${a.id}`)).records;
    expect(ofA.map((r) => [r.code, r.alarmCount, r.state])).toEqual(
      expect.arrayContaining([
        ['tamper', 4, AlarmState.open],
        ['forcedOpen', 1, AlarmState.open],
      ]),
    );
    expect(ofA).toHaveLength(2);
    const tamper = ofA.find((r) => r.code === 'tamper')!;
    // times on the wire in TIME_ZONE (UTC here); the area the device was in
    expect(tamper).toMatchObject({ alarmTime: '2026-06-01 08:00:00', lastTime: '2026-06-01 08:03:00', areaId: floor });
    expect((await alarms(`deviceId=${b.id}`)).records.map((r) => [r.code, r.alarmCount])).toEqual([['tamper', 2]]);
    // seven alarm events, three alarms
    expect(await openAlarms()).toBe(before + 3);
  });

  it('closes every alarm of a code in an area (and the areas below it) after counting them, in the caller’s tenant only', async () => {
    // counted first, for the confirmation
    // as the console asks it (its GETs carry `_t`)
    const counted = await count(`to=close&code=tamper&areaId=${building}&_t=1764300000`);
    expect(counted.envelope).toMatchObject({ success: true, result: { count: 1 } });
    // another tenant's administrator reaches none of them
    await createTestUser(t.app, `outsider${dialect}`, { roles: ['admin'], tenantId: null });
    const outsider = await login(t.app, `outsider${dialect}`, USER_PASSWORD);
    expect((await count('to=close', outsider)).envelope.result.count).toBe(0);
    const refusedOutside = await put(AlarmPath.closeBatch, { filter: {} }, outsider);
    expect(refusedOutside.envelope).toMatchObject({ success: false, code: 500, message: 'No alarm to handle: none matches, or they are handled already' });

    const closed = await put(AlarmPath.closeBatch, { filter: { code: 'tamper', areaId: building } }, admin, 'zh-CN');
    expect(closed.envelope).toMatchObject({ success: true, result: { count: 1 }, message: '已关闭 1 条报警' });
    const states = async (deviceId: string) => Object.fromEntries((await alarms(`deviceId=${deviceId}`)).records.map((r) => [`${r.code}/${r.alarmCount}`, r.state]));
    expect(await states(a.id)).toEqual({ 'tamper/4': AlarmState.closed, 'forcedOpen/1': AlarmState.open });
    // outside the area: untouched
    expect(await states(b.id)).toEqual({ 'tamper/2': AlarmState.open });

    // closed, it folds no more: the next tamper of that device raises a new alarm
    await a.sim.emit(DeviceEventKind.alarm, { code: 'tamper', level: 'M' }, Date.UTC(2026, 5, 1, 9, 0, 0));
    await stored(8);
    expect(await states(a.id)).toEqual({ 'tamper/4': AlarmState.closed, 'tamper/1': AlarmState.open, 'forcedOpen/1': AlarmState.open });
  });

  it('acknowledges chosen rows, by time of raising too, and refuses what is handled already', async () => {
    const open = (await alarms(`state=${AlarmState.open}`)).records.filter((r) => [a.id, b.id].includes(r.deviceId));
    const chosen = open.filter((r) => r.code === 'forcedOpen' || r.deviceId === b.id).map((r) => r.id);
    expect(chosen).toHaveLength(2);
    const acknowledged = await put(AlarmPath.acknowledgeBatch, { ids: chosen }, admin, 'ja-JP');
    expect(acknowledged.envelope).toMatchObject({ success: true, result: { count: 2 }, message: '2 件のアラームを確認しました' });
    const again = await put(AlarmPath.acknowledgeBatch, { ids: chosen });
    expect(again.envelope).toMatchObject({ success: false, code: 500 });

    // by the time they were raised: only the tamper raised at 09:00 is still open
    expect((await count('to=acknowledge&alarmTime_begin=2026-06-01 08:30:00&alarmTime_end=2026-06-01 09:30:00')).envelope.result.count).toBe(1);
    expect((await count('to=acknowledge&alarmTime_begin=2026-06-02 00:00:00')).envelope.result.count).toBe(0);
    const byTime = await put(AlarmPath.acknowledgeBatch, { filter: { alarmTime_begin: '2026-06-01 08:30:00', deviceId: a.id } });
    expect(byTime.envelope.result).toEqual({ count: 1 });
  });

  it('answers bad input with a 400 envelope and leaves the alarms as they are', async () => {
    const before = await t.app.db.selectFrom('sys_device_alarm').select(['id', 'state']).orderBy('id').execute();
    for (const payload of [{}, { ids: [] }, { ids: ['not an id!'] }, { filter: { code: 'tamper', bogus: 1 } }, { ids: [a.id], filter: {} }]) {
      const answer = await put(AlarmPath.closeBatch, payload);
      expect({ payload, status: answer.statusCode, code: answer.envelope.code }).toEqual({ payload, status: 400, code: 400 });
    }
    const badTime = await put(AlarmPath.closeBatch, { filter: { alarmTime_begin: 'yesterday' } });
    expect(badTime.statusCode).toBe(400);
    expect(badTime.envelope.message).toContain('alarmTime_begin');
    expect((await count('to=everything')).statusCode).toBe(400);
    expect(await t.app.db.selectFrom('sys_device_alarm').select(['id', 'state']).orderBy('id').execute()).toEqual(before);
  });

  it('takes the permission of the per-row handling: a reader of alarms may neither count nor handle in bulk', async () => {
    await createRoleWith(t.app, `alarm_reader_${dialect}`, ['device:alarm:list']);
    await createTestUser(t.app, `alarmreader${dialect}`, { roles: [`alarm_reader_${dialect}`] });
    const reader = await login(t.app, `alarmreader${dialect}`, USER_PASSWORD);
    for (const answer of [await put(AlarmPath.closeBatch, { filter: {} }, reader), await put(AlarmPath.acknowledgeBatch, { ids: [a.id] }, reader), await count('to=close', reader)]) {
      expect({ status: answer.statusCode, code: answer.envelope.code }).toEqual({ status: 403, code: 510 });
    }
    expect((await count('to=close')).envelope.result.count).toBeGreaterThan(0);
  });
});
