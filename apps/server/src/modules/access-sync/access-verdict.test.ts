import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessEventEntity, areaEntity, crudPath, DeviceEventKind, doorEntity, peopleEntity, SERVER_REFUSED_OPENING_ALARM, ServerVerdict, type TimeSetting } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, uniqueSn, until } from '../../gateway/test-support.ts';
import { sheetRows } from '../../test/crud-helpers.ts';
import { adminToken, api, defaultTenantId, injectAs, testDialects, type TestApp } from '../../test/harness.ts';
import { judgeAccess } from './access-verdict.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');

const custom = (parts: Partial<Extract<TimeSetting, { mode: 'custom' }>>) => JSON.stringify({ mode: 'custom', periods: [], days: [], ...parts });

/**
 * Who holds which role (2025-03-07 is a Friday, 2025-03-10 a Monday; the site's zone is UTC). Each person has a card;
 * the frozen one and the outsider are never on the device.
 */
const PEOPLE = {
  night: { card: 'VDCARD0001', time: custom({ periods: [{ start: '22:00', end: '06:00' }] }) },
  weekend: { card: 'VDCARD0002', time: custom({ days: ['weekend'] }) },
  bounded: { card: 'VDCARD0003', time: custom({ startDate: '2025-03-10', endDate: '2025-03-12', periods: [{ start: '08:00', end: '18:00' }] }) },
  frozen: { card: 'VDCARD0004', time: '{"mode":"permanent"}' },
  outsider: { card: 'VDCARD0005', time: null },
  // reaches the device through the area of the device and their group (written straight to the database)
  grouped: { card: 'VDCARD0006', time: custom({ days: ['workday'], periods: [{ start: '08:00', end: '18:00' }] }) },
} as const;
type Who = keyof typeof PEOPLE;

/** The decision table: the device (simulator) and the server must both answer `expected`. */
const CASES: ReadonlyArray<{ name: string; who: Who; at: string; expected: boolean }> = [
  { name: 'overnight period, evening part', who: 'night', at: '2025-03-10T23:00:00Z', expected: true },
  { name: 'overnight period, the next morning before its end', who: 'night', at: '2025-03-11T05:59:00Z', expected: true },
  { name: 'overnight period, over at its end', who: 'night', at: '2025-03-11T06:00:00Z', expected: false },
  { name: 'overnight period, midday', who: 'night', at: '2025-03-11T12:00:00Z', expected: false },
  { name: 'weekend: Saturday', who: 'weekend', at: '2025-03-08T12:00:00Z', expected: true },
  { name: 'weekend: Sunday night', who: 'weekend', at: '2025-03-09T23:30:00Z', expected: true },
  { name: 'weekend: Friday', who: 'weekend', at: '2025-03-07T12:00:00Z', expected: false },
  { name: 'date bounds: inside, within the period', who: 'bounded', at: '2025-03-11T09:00:00Z', expected: true },
  { name: 'date bounds: the day before the first', who: 'bounded', at: '2025-03-09T09:00:00Z', expected: false },
  { name: 'date bounds: the day after the last', who: 'bounded', at: '2025-03-13T09:00:00Z', expected: false },
  { name: 'not in any role', who: 'outsider', at: '2025-03-11T09:00:00Z', expected: false },
  { name: 'frozen person (in a permanent role)', who: 'frozen', at: '2025-03-11T09:00:00Z', expected: false },
  { name: 'through area and group: a Monday at nine', who: 'grouped', at: '2025-03-10T09:00:00Z', expected: true },
  { name: 'through area and group: not on a Sunday', who: 'grouped', at: '2025-03-09T09:00:00Z', expected: false },
];

describe.each(dialects)('server-side evaluation of access events on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  let sim: SimDevice;
  let deviceId: string;
  let door1: string;
  let door2: string;
  const ids = {} as Record<Who | 'doorOnly', string>;
  const dir = mkdtempSync(join(tmpdir(), 'isps-verdict-'));

  async function call<T = unknown>(method: 'POST' | 'PUT' | 'GET', path: string, payload?: unknown) {
    const answer = await injectAs<T>(t.app, admin, { method, url: api(t.app, path), payload: payload as Record<string, unknown>, headers: { lang: 'en-US' } });
    expect(answer.envelope.success, answer.envelope.message).toBe(true);
    return answer.envelope.result;
  }
  const stored = (seq: number) => t.app.db.selectFrom('sys_access_event').selectAll().where('device_id', '=', deviceId).where('seq', '=', seq).executeTakeFirst();
  async function storedEvent(seq: number) {
    await until(async () => !!(await stored(seq)), 15_000, `event ${seq} stored`);
    return (await stored(seq))!;
  }

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 60_000, offlineSweepMs: 3_600_000 } });
    admin = await adminToken(t.app);
    const sn = uniqueSn('VD');
    const key = await approvedKey(t.app, sn, admin);
    // the device reads time settings in the site's zone, as the server does
    sim = new SimDevice({ url: t.mqttUrl, sn, key, kind: 'door', accessDir: dir, doorOpenMs: 0, site: { timeZone: t.app.settings.timeZone } });
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, 'hello');
    deviceId = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
    await call('POST', crudPath(doorEntity, 'add'), { doorName: 'Verdict door 1', deviceId, doorNo: 1 });
    await call('POST', crudPath(doorEntity, 'add'), { doorName: 'Verdict door 2', deviceId, doorNo: 2 });
    const doors = await t.app.db.selectFrom('sys_door').select(['id', 'door_no']).where('device_id', '=', deviceId).execute();
    door1 = doors.find((d) => Number(d.door_no) === 1)!.id;
    door2 = doors.find((d) => Number(d.door_no) === 2)!.id;

    for (const who of ['night', 'weekend', 'bounded', 'frozen', 'outsider'] as const) {
      ids[who] = (await call<{ id: string }>('POST', crudPath(peopleEntity, 'add'), { name: `Verdict ${who}`, cardNo: PEOPLE[who].card })).id;
      const time = PEOPLE[who].time;
      if (time) await call('POST', '/deviceRole/add', { roleName: `Verdict ${who}`, roleType: '1', deviceIds: deviceId, peopleIds: ids[who], timeSetting: time });
    }
    // a role of door 2 only: its holder is on the device (which holds people for all its doors alike)
    ids.doorOnly = (await call<{ id: string }>('POST', crudPath(peopleEntity, 'add'), { name: 'Verdict door two', cardNo: 'VDCARD0007' })).id;
    await call('POST', '/deviceRole/add', { roleName: 'Verdict door two', roleType: '1', doorIds: door2, peopleIds: ids.doorOnly, timeSetting: '{"mode":"permanent"}' });
    await call('PUT', '/sysPeople/frozenPeople', { ids: ids.frozen, status: 2 });

    // a group reaching the device through its area
    const areaId = (await call<{ id: string }>('POST', crudPath(areaEntity, 'add'), { areaName: 'Verdict area' })).id ?? (await t.app.db.selectFrom('sys_area').select('id').where('area_name', '=', 'Verdict area').executeTakeFirstOrThrow()).id;
    await t.app.db.updateTable('sys_device').set({ area_id: areaId }).where('id', '=', deviceId).execute();
    const tenantId = await defaultTenantId(t.app);
    const departId = randomUUID();
    const now = new Date().toISOString();
    const audit = { create_by: 'test', create_time: now, update_by: null, update_time: null };
    ids.grouped = randomUUID();
    await t.app.db.insertInto('sys_people').values({ id: ids.grouped, ...audit, name: 'Verdict grouped', id_card: null, card_no: PEOPLE.grouped.card, card_no_masked: null, user_no: 'VDG1', sex: null, depart_id: departId, picture: null, palm_left: 0, palm_right: 0, password: null, status: 1, del_flag: 0, tenant_id: tenantId }).execute();
    const roleId = randomUUID();
    await t.app.db.insertInto('sys_device_role').values({ id: roleId, ...audit, role_name: 'Verdict grouped', role_type: '1', time_setting: PEOPLE.grouped.time, remark: null, tenant_id: tenantId }).execute();
    await t.app.db.insertInto('sys_device_role_area').values({ id: randomUUID(), ...audit, role_id: roleId, area_id: areaId }).execute();
    await t.app.db.insertInto('sys_device_role_depart').values({ id: randomUUID(), ...audit, role_id: roleId, depart_id: departId }).execute();

    await until(() => ['night', 'weekend', 'bounded', 'grouped', 'doorOnly'].every((who) => sim.access.entries.has(ids[who as Who])), 15_000, 'the people on the device');
    expect(sim.access.entries.has(ids.frozen)).toBe(false);
    expect(sim.access.entries.has(ids.outsider)).toBe(false);
  });
  afterAll(async () => {
    await sim?.stop().catch(() => undefined);
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(CASES.map((c) => [c.name, c] as const))('device and server agree: %s', async (_name, c) => {
    const at = Date.parse(c.at);
    const { allowed, event } = await sim.swipe(PEOPLE[c.who].card, 1, at);
    const row = await storedEvent(event.seq);
    // the server's own answer for the person, whether or not the device could name them
    const [direct] = await judgeAccess(t.app.db, deviceId, [{ peopleId: ids[c.who], doorId: door1, at }], { timeZone: t.app.settings.timeZone });
    const verdict = c.expected ? ServerVerdict.allowed : ServerVerdict.refused;
    expect({ device: allowed, server: direct }).toEqual({ device: c.expected, server: verdict });
    // stored beside the event: the device's result, the server's verdict (unknown when the device named nobody), no flag
    expect(row).toMatchObject({ kind: allowed ? 'opening' : 'denial', result: allowed ? 1 : 0, event_time: new Date(at).toISOString(), flagged: 0 });
    expect(row.server_verdict).toBe(row.people_id === null ? ServerVerdict.unknown : verdict);
    if (sim.access.entries.has(ids[c.who])) expect(row.people_id).toBe(ids[c.who]);
  });

  it('flags an opening the server would refuse (a door the person’s role does not cover, a person the device should not hold): list column, filter, export and an alarm', async () => {
    const at = Date.parse('2025-03-11T09:00:00Z');
    // door 2 is theirs, door 1 is not: the device, holding people for all its doors, opens both
    const own = await sim.swipe('VDCARD0007', 2, at);
    const other = await sim.swipe('VDCARD0007', 1, at);
    expect([own.allowed, other.allowed]).toEqual([true, true]);
    // a device that still lets an outsider in (a stale list)
    const forged = await sim.emit(DeviceEventKind.opening, { door: 1, method: 'card', peopleId: ids.outsider }, at);
    expect(await storedEvent(own.event.seq)).toMatchObject({ server_verdict: ServerVerdict.allowed, flagged: 0, door_id: door2 });
    expect(await storedEvent(other.event.seq)).toMatchObject({ server_verdict: ServerVerdict.refused, flagged: 1, door_id: door1 });
    expect(await storedEvent(forged.seq)).toMatchObject({ server_verdict: ServerVerdict.refused, flagged: 1, people_id: ids.outsider });
    // an unknown card's denial names nobody; a door state has no verdict
    const unknown = await sim.swipe('NOBODY0001', 1, at);
    const state = await sim.emit(DeviceEventKind.doorState, { door: 1, state: 'open' });
    expect(await storedEvent(unknown.event.seq)).toMatchObject({ server_verdict: ServerVerdict.unknown, flagged: 0 });
    // a door state is a door event, not an access event
    await until(async () => !!(await t.app.db.selectFrom('sys_door_event').select('id').where('device_id', '=', deviceId).where('seq', '=', state.seq).executeTakeFirst()), 15_000, 'door event stored');
    expect(await stored(state.seq)).toBeUndefined();

    // the flagged openings raise the device's open alarm, folded into one that counts each once (a repeat is not counted)
    await sim.publishEvent(forged);
    await until(async () => Number((await t.app.db.selectFrom('sys_device_alarm').select('alarm_count').where('device_id', '=', deviceId).executeTakeFirst())?.alarm_count) === 2, 15_000, 'two flagged openings in the alarm');
    await t.app.deviceGateway.flush();
    const alarms = await t.app.db.selectFrom('sys_device_alarm').selectAll().where('device_id', '=', deviceId).orderBy('event_seq').execute();
    expect(alarms.map((a) => [Number(a.event_seq), a.code, a.level, a.state, Number(a.alarm_count)])).toEqual([[other.event.seq, SERVER_REFUSED_OPENING_ALARM, 'H', 0, 2]]);

    type Row = { kind: string; serverVerdict: string | null; flagged: number; peopleId: string | null };
    const list = (query: string) => injectAs<{ records: Row[]; total: number }>(t.app, admin, { method: 'GET', url: `${api(t.app, crudPath(accessEventEntity, 'list'))}?deviceId=${deviceId}&${query}`, headers: { lang: 'en-US' } });
    const flagged = (await list('flagged=1')).envelope.result;
    expect(flagged.records.map((r) => r.peopleId).sort()).toEqual([ids.doorOnly, ids.outsider].sort());
    expect(flagged.records.every((r) => r.kind === 'opening' && r.serverVerdict === 'refused' && r.flagged === 1)).toBe(true);
    expect((await list('serverVerdict=unknown')).envelope.result.records.every((r) => r.peopleId === null)).toBe(true);
    // a verdict that does not exist matches nothing
    expect((await list('serverVerdict=perhaps')).envelope).toMatchObject({ success: true, result: { total: 0 } });

    for (const [lang, verdict, flag] of [['en-US', 'Refused', 'Opened against the rules'], ['zh-CN', '拒绝', '违规开门'], ['ja-JP', '拒否', '規則外の開錠']] as const) {
      const exported = await injectAs(t.app, admin, { method: 'GET', url: `${api(t.app, crudPath(accessEventEntity, 'exportXls'))}?deviceId=${deviceId}&flagged=1`, headers: { lang } });
      expect(exported.statusCode).toBe(200);
      const sheet = await sheetRows(exported.rawPayload);
      expect(sheet).toHaveLength(3);
      expect(sheet.slice(1).every((r) => r.includes(verdict) && r.includes(flag))).toBe(true);
    }
  });
});
