import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attendanceDayEntity,
  attendanceMonthEntity,
  AttendancePath,
  attendanceRuleEntity,
  AttendanceStatus,
  crudPath,
  departEntity,
  deviceRoleEntity,
  DeviceEventKind,
  oaRuleEntity,
  peopleEntity,
  type AttendanceCalendarDay,
  type AttendancePunchRow,
  type AttendanceSuggestion,
  type Envelope,
} from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, uniqueSn, until } from '../../gateway/test-support.ts';
import { adminToken, api, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';
import { createRoleWith } from '../../test/crud-helpers.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');

const MONTH = '2026-03';
/** An instant of March 2026 in UTC (the test server's TIME_ZONE): `at('02', '09:00:30')`. */
const at = (day: string, time: string) => Date.parse(`2026-03-${day}T${time.length === 5 ? `${time}:00` : time}Z`);
const MIN = 60_000;

/** The day rule: 09:00–18:00, absent when later than 11:00, Saturday and Sunday off, a festival on each of seven days. */
const dayRule = (departIds: string) => ({
  ruleName: 'Office',
  workTime: '09:00',
  offWorkTime: '18:00',
  absentMinutes: 120,
  restWeekdays: '6,7',
  departIds,
  festNewYear: '2026-03-16',
  festSpring: '2026-03-17',
  festChingMing: '2026-03-18',
  festMayDay: '2026-03-19',
  festDragonBoat: '2026-03-20',
  festMidAutumn: '2026-03-23',
  festNationalDay: '2026-03-24',
  holidays: '2026-03-10',
  // a Saturday worked in exchange
  workdays: '2026-03-07',
});

interface Case {
  name: string;
  /** the device that sends the punches: the attendance device, or the one whose clock is 7 minutes fast */
  device?: 'main' | 'fast' | 'door';
  /** the overnight rule's group instead of the office's */
  night?: boolean;
  punches: Array<[day: string, time: string]>;
  day: string;
  status: AttendanceStatus;
  /** punches the day lists, and how many of them are kept as duplicates */
  listed?: number;
  duplicates?: number;
}

const S = AttendanceStatus;
const festivalCase = (festival: string, day: string): Case => ({ name: `festival: ${festival}`, punches: [[day, '09:00'], [day, '18:00']], day, status: S.holiday });
const CASES: Case[] = [
  { name: 'normal: in before the working time, out after the off-work time', punches: [['02', '08:50'], ['02', '18:05']], day: '02', status: S.normal },
  { name: 'late: in one minute after the working time', punches: [['02', '09:01'], ['02', '18:00']], day: '02', status: S.late },
  { name: 'early leave: out one minute before the off-work time', punches: [['02', '08:55'], ['02', '17:59']], day: '02', status: S.leaveEarly },
  { name: 'absent past the absenteeism time (later than 120 minutes)', punches: [['02', '11:01'], ['02', '18:00']], day: '02', status: S.absent },
  { name: 'late, not absent, at the absenteeism time itself', punches: [['02', '11:00'], ['02', '18:00']], day: '02', status: S.late },
  { name: 'absent: no punch on a working day', punches: [['03', '09:00'], ['03', '18:00']], day: '02', status: S.absent },
  { name: 'missing card: one punch only', punches: [['02', '08:45']], day: '02', status: S.missCard },
  { name: 'holiday: a holiday date of the rule', punches: [['10', '09:00'], ['10', '18:00']], day: '10', status: S.holiday },
  festivalCase('New Year’s Day', '16'),
  festivalCase('Spring Festival', '17'),
  festivalCase('Ching Ming', '18'),
  festivalCase('May Day', '19'),
  festivalCase('Dragon Boat', '20'),
  festivalCase('Mid-Autumn', '23'),
  festivalCase('National Day', '24'),
  { name: 'rest day: a Saturday not swapped', punches: [['14', '09:00'], ['14', '18:00']], day: '14', status: S.rest },
  { name: 'swapped working day: a Saturday worked is a working day', punches: [['07', '08:59'], ['07', '18:01']], day: '07', status: S.normal },
  { name: 'swapped working day missed: absent', punches: [], day: '07', status: S.absent },
  { name: 'overnight shift: the check-out next morning belongs to the day the shift began', night: true, punches: [['02', '21:50'], ['03', '06:10']], day: '02', status: S.normal },
  { name: 'overnight shift: leaving at 05:00 is early', night: true, punches: [['04', '21:50'], ['05', '05:00']], day: '04', status: S.leaveEarly },
  { name: 'duplicate punches: a second punch within 60 s is kept and not counted', punches: [['02', '09:00:00'], ['02', '09:00:40'], ['02', '18:00']], day: '02', status: S.normal, listed: 3, duplicates: 1 },
  { name: 'duplicate punches: two punches 40 s apart are one punch (missing card)', punches: [['02', '08:59:00'], ['02', '08:59:40']], day: '02', status: S.missCard, listed: 2, duplicates: 1 },
  { name: 'device clock 7 minutes fast: 09:07 on the device is 09:00, on time', device: 'fast', punches: [['02', '09:00'], ['02', '18:00']], day: '02', status: S.normal },
  { name: 'boundary: in at 09:00:59 is on time, out at 18:00:00 is not early', punches: [['02', '09:00:59'], ['02', '18:00:00']], day: '02', status: S.normal },
  { name: 'an opening at a device of the person’s attendance role counts as a punch', device: 'door', punches: [['02', '08:58'], ['02', '18:02']], day: '02', status: S.normal },
];

describe.each(dialects)('attendance from live devices on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  const sims: SimDevice[] = [];
  const people = new Map<string, string>();
  let office = '';

  async function call<T = unknown>(method: 'POST' | 'PUT' | 'GET' | 'DELETE', path: string, payload?: unknown, token = admin): Promise<Envelope<T>> {
    return (await injectAs<T>(t.app, token, { method, url: api(t.app, path), payload: payload as Record<string, unknown>, headers: { lang: 'en-US' } })).envelope;
  }
  async function device(clockOffsetMs = 0): Promise<{ sim: SimDevice; deviceId: string }> {
    const sn = uniqueSn('ATT');
    const key = await approvedKey(t.app, sn, admin);
    const sim = new SimDevice({ url: t.mqttUrl, sn, key, kind: 'vein', heartbeatMs: 0, clock: () => t.clock.now() + clockOffsetMs });
    sims.push(sim);
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, `hello of ${sn}`);
    return { sim, deviceId: (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id };
  }
  async function group(departName: string): Promise<string> {
    const added = await call('POST', crudPath(departEntity, 'add'), { departName });
    expect(added.success, added.message).toBe(true);
    return (await t.app.db.selectFrom('sys_depart').select('id').where('depart_name', '=', departName).executeTakeFirstOrThrow()).id;
  }
  async function person(name: string, userNo: string, departId: string, cardNo?: string): Promise<string> {
    const added = await call('POST', crudPath(peopleEntity, 'add'), { name, userNo, departId, ...(cardNo ? { cardNo } : {}) });
    expect(added.success, added.message).toBe(true);
    return (await t.app.db.selectFrom('sys_people').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  }
  type DayRow = { id: string; day: string; status: number; checkIn: string | null; checkOut: string | null; punchCount: number; corrected: number; peopleId_dictText?: string };
  async function daysOf(peopleId: string, token = admin): Promise<DayRow[]> {
    const listed = await call<{ records: DayRow[] }>('GET', `${crudPath(attendanceDayEntity, 'list')}?peopleId=${peopleId}&month=${MONTH}&pageSize=100`, undefined, token);
    expect(listed.success, listed.message).toBe(true);
    return listed.result.records;
  }
  const punchRows = () => t.app.db.selectFrom('sys_attendance_punch').select(['id']).execute();

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 600_000, offlineSweepMs: 3_600_000 } });
    admin = await adminToken(t.app);
    office = await group(`Office ${dialect}`);
    const night = await group(`Night ${dialect}`);
    const rule = await call('POST', crudPath(oaRuleEntity, 'add'), dayRule(office));
    expect(rule.success, rule.message).toBe(true);
    const nightRule = await call('POST', crudPath(attendanceRuleEntity, 'add'), { ...dayRule(night), ruleName: 'Night shift', workTime: '22:00', offWorkTime: '06:00', restWeekdays: '' });
    expect(nightRule.success, nightRule.message).toBe(true);

    const main = await device();
    const fast = await device(7 * MIN);
    const door = await device();
    // the door device counts openings of the people its attendance role names
    for (const [i, c] of CASES.entries()) people.set(c.name, await person(`P${i} ${dialect}`, `U${i}-${dialect}`, c.night ? night : office, `CARD${i}${dialect}`.slice(0, 32)));
    const doorPeople = CASES.filter((c) => c.device === 'door').map((c) => people.get(c.name)!);
    const role = await call('POST', crudPath(deviceRoleEntity, 'add'), { roleName: `Clock-in ${dialect}`, roleType: '3', deviceIds: door.deviceId, peopleIds: doorPeople.join(','), timeSetting: '{"mode":"permanent"}' });
    expect(role.success, role.message).toBe(true);
    // an opening of someone the role does not name is no punch
    await door.sim.emit(DeviceEventKind.opening, { door: 1, method: 'card', cardNo: `CARD0${dialect}`.slice(0, 32) }, at('02', '12:00'));

    let sent = 0;
    for (const [i, c] of CASES.entries()) {
      for (const [day, time] of c.punches) {
        if (c.device === 'door') await door.sim.emit(DeviceEventKind.opening, { door: 1, method: 'card', cardNo: `CARD${i}${dialect}`.slice(0, 32) }, at(day, time));
        else if (c.device === 'fast') await fast.sim.emit(DeviceEventKind.punch, { userNo: `U${i}-${dialect}`, hand: 'left' }, at(day, time) + 7 * MIN);
        else await main.sim.emit(DeviceEventKind.punch, { userNo: `U${i}-${dialect}`, hand: 'right' }, at(day, time));
        sent += 1;
        // the duplicate window reads the punch before: each goes in once the one before is stored
        await until(async () => (await punchRows()).length === sent, 10_000, `punch ${sent}`);
      }
    }
    const recomputed = await call<{ month: string; days: number; people: number }>('POST', AttendancePath.recompute, { month: MONTH });
    expect(recomputed.success, recomputed.message).toBe(true);
    expect(recomputed.result.people).toBe(CASES.length);
    expect(recomputed.result.days).toBe(CASES.length * 31);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop().catch(() => undefined)));
    await t.close();
  });

  it.each(CASES)('$name', async (c) => {
    const peopleId = people.get(c.name)!;
    const row = (await daysOf(peopleId)).find((d) => d.day === `2026-03-${c.day}`);
    expect(row, 'the day').toBeDefined();
    expect(row!.status).toBe(c.status);
    // every result is traceable to its punches
    const punches = await call<AttendancePunchRow[]>('GET', `${AttendancePath.punches}?id=${row!.id}`);
    expect(punches.success, punches.message).toBe(true);
    const onDay = c.punches.filter(([day]) => day === c.day || (c.night && Number(day) === Number(c.day) + 1));
    expect(punches.result).toHaveLength(c.listed ?? onDay.length);
    expect(punches.result.filter((p) => p.duplicate)).toHaveLength(c.duplicates ?? 0);
    expect(row!.punchCount).toBe((c.listed ?? onDay.length) - (c.duplicates ?? 0));
    if (c.device === 'fast') {
      // placed at the corrected time, the device's own kept
      expect(punches.result.map((p) => [p.punchTime, p.rawTime])).toEqual([
        ['2026-03-02 09:00:00', '2026-03-02 09:07:00'],
        ['2026-03-02 18:00:00', '2026-03-02 18:07:00'],
      ]);
      expect(row!.checkIn).toBe('2026-03-02 09:00:00');
      const offset = (await t.app.db.selectFrom('sys_device').select('clock_offset_ms').where('id', '=', punches.result[0]!.deviceId).executeTakeFirstOrThrow()).clock_offset_ms;
      expect(Number(offset)).toBe(7 * MIN);
    }
    if (c.device === 'door') expect(punches.result.every((p) => p.source === 'opening')).toBe(true);
  });

  it('counts the month with the spec’s fields: the swapped Saturday is a working day, the festivals are not', async () => {
    const peopleId = people.get('normal: in before the working time, out after the off-work time')!;
    const listed = await call<{ records: Array<Record<string, unknown>> }>('GET', `${crudPath(attendanceMonthEntity, 'list')}?userId=${peopleId}&month=${MONTH}`);
    expect(listed.success, listed.message).toBe(true);
    // March 2026: 22 weekdays, less 8 holidays and festivals on weekdays, plus the swapped Saturday
    expect(listed.result.records).toEqual([
      expect.objectContaining({ userId: peopleId, userName: `P0 ${dialect}`, month: MONTH, workDays: 15, normalCount: 1, lateCount: 0, absenseCount: 14, leaveEarlyCount: 0, missCardCount: 0 }),
    ]);
    const calendar = await call<AttendanceCalendarDay[]>('GET', `${AttendancePath.calendar}?peopleId=${peopleId}&month=${MONTH}`);
    expect(calendar.result).toHaveLength(31);
    expect(calendar.result.find((d) => d.day === '2026-03-07')?.status).toBe(S.absent);
    expect(calendar.result.find((d) => d.day === '2026-03-17')?.status).toBe(S.holiday);
    expect(calendar.result.find((d) => d.day === '2026-03-08')?.status).toBe(S.rest);
  });

  it('a correction needs its own permission, survives a recompute, counts in the month and is in the operation log', async () => {
    const peopleId = people.get('late: in one minute after the working time')!;
    const late = (await daysOf(peopleId)).find((d) => d.day === '2026-03-02')!;
    await createRoleWith(t.app, `att_reader_${dialect}`, ['device:attendance:list', 'device:attendanceMonth:list']);
    await createTestUser(t.app, `attreader_${dialect}`, { roles: [`att_reader_${dialect}`] });
    const reader = await login(t.app, `attreader_${dialect}`, USER_PASSWORD);
    expect((await daysOf(peopleId, reader)).length).toBe(31);
    const refused = await injectAs(t.app, reader, { method: 'PUT', url: api(t.app, AttendancePath.correct), payload: { id: late.id, status: S.normal, reason: 'Train delayed' } });
    expect([refused.statusCode, refused.envelope.code]).toEqual([403, 510]);
    expect((await call('POST', AttendancePath.recompute, { month: MONTH }, reader)).code).toBe(510);

    const noReason = await call('PUT', AttendancePath.correct, { id: late.id, status: S.normal, reason: '' });
    expect(noReason.success).toBe(false);
    const corrected = await call('PUT', AttendancePath.correct, { id: late.id, status: S.normal, reason: 'Train delayed' });
    expect(corrected.success, corrected.message).toBe(true);
    expect((await call('POST', AttendancePath.recompute, { month: MONTH })).success).toBe(true);
    const after = (await daysOf(peopleId)).find((d) => d.day === '2026-03-02')!;
    expect([after.status, after.corrected]).toEqual([S.normal, 1]);
    const month = await call<{ records: Array<Record<string, unknown>> }>('GET', `${crudPath(attendanceMonthEntity, 'list')}?userId=${peopleId}&month=${MONTH}`);
    expect(month.result.records[0]).toMatchObject({ normalCount: 1, lateCount: 0 });
    const log = await t.app.db.selectFrom('sys_log').select(['log_params']).where('log_params', 'like', '%attendance.corrected%').execute();
    expect(log).toHaveLength(1);
    expect(log[0]!.log_params).toContain('Train delayed');
  });

  it('a group follows one rule: a second rule naming it is refused', async () => {
    const second = await call('POST', crudPath(oaRuleEntity, 'add'), { ...dayRule(office), ruleName: 'Second' });
    expect([second.success, second.message]).toEqual([false, `Group Office ${dialect} already follows rule Office: a group has one rule`]);
  });

  it('every festival is required, with a localised message; bad times and dates are refused', async () => {
    const { festMidAutumn: _dropped, ...rest } = dayRule('');
    const missing = await injectAs(t.app, admin, { method: 'POST', url: api(t.app, crudPath(oaRuleEntity, 'add')), payload: { ...rest, ruleName: 'No mid-autumn' }, headers: { lang: 'zh-CN' } });
    expect(missing.envelope.success).toBe(false);
    expect(missing.envelope.message).toContain('中秋节');
    const badTime = await call('POST', crudPath(oaRuleEntity, 'add'), { ...dayRule(''), ruleName: 'Bad', workTime: '25:00' });
    expect([badTime.success, badTime.code]).toEqual([false, 400]);
    const badDate = await call('POST', crudPath(oaRuleEntity, 'add'), { ...dayRule(''), ruleName: 'Bad', festSpring: '2026-02-30' });
    expect(badDate.success).toBe(false);
    expect(badDate.message).toContain('Spring Festival');
  });

  it('suggests a year’s festival days off and swapped working days from the library', async () => {
    const official = await call<AttendanceSuggestion>('GET', `${AttendancePath.suggest}?year=2026`);
    expect(official.success, official.message).toBe(true);
    expect(official.result.official).toBe(true);
    expect(official.result.festivals.festNationalDay).toEqual(['2026-10-01', '2026-10-02', '2026-10-03', '2026-10-04', '2026-10-05', '2026-10-06', '2026-10-07']);
    expect(official.result.workdays).toContain('2026-02-14');
    const later = await call<AttendanceSuggestion>('GET', `${AttendancePath.suggest}?year=2031`);
    expect(later.result.official).toBe(false);
    expect(later.result.festivals.festNewYear).toEqual(['2031-01-01']);
    expect((await call('GET', `${AttendancePath.suggest}?year=abc`)).code).toBe(400);
  });

  it('the attendanceMonth scheduled job computes the month of the day that just ended', async () => {
    const added = await call<{ id: string }>('POST', '/sys/quartzJob/add', { jobClassName: 'attendanceMonth', cronExpression: '0 15 * * * ?' });
    expect(added.success, added.message).toBe(true);
    const ran = await call('GET', `/sys/quartzJob/execute?id=${added.result.id}`);
    expect(ran.success, ran.message).toBe(true);
    const yesterday = new Date(t.clock.now() - 86_400_000).toISOString().slice(0, 10);
    const peopleId = people.get('normal: in before the working time, out after the off-work time')!;
    const listed = await call<{ records: DayRow[] }>('GET', `${crudPath(attendanceDayEntity, 'list')}?peopleId=${peopleId}&month=${yesterday.slice(0, 7)}&pageSize=100`);
    expect(listed.result.records.map((d) => d.day)).toContain(yesterday);
    // today is not over: it is not computed yet
    expect(listed.result.records.map((d) => d.day)).not.toContain(new Date(t.clock.now()).toISOString().slice(0, 10));
  });

  it('computes the days that ended once per site day with no job added, and again the next day', async () => {
    const first = await t.app.refreshAttendanceOnNewDay();
    expect(first).toMatch(/^attendance of \d{4}-\d{2} computed for \d+ tenants/);
    expect(await t.app.refreshAttendanceOnNewDay()).toBeNull();
    const peopleId = people.get('normal: in before the working time, out after the off-work time')!;
    const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const listedDays = async () => (await call<{ records: DayRow[] }>('GET', `${crudPath(attendanceDayEntity, 'list')}?peopleId=${peopleId}&pageSize=100`)).result.records.map((d) => d.day);
    expect(await listedDays()).not.toContain(dayOf(t.clock.now()));
    t.clock.advance(86_400_000);
    try {
      expect(await t.app.refreshAttendanceOnNewDay()).not.toBeNull();
      // the day that just ended is computed now (it was today before the clock moved)
      expect(await listedDays()).toContain(dayOf(t.clock.now() - 86_400_000));
    } finally {
      t.clock.advance(-86_400_000);
    }
  });

  it('another tenant sees no rule, day, month or punch, and corrects nothing', async () => {
    const code = `tat${Date.now().toString(36)}`;
    expect((await call('POST', '/sys/tenant/add', { name: `Tenant ${dialect} att`, code, status: 1 })).success).toBe(true);
    const tenantId = (await t.app.db.selectFrom('sys_tenant').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
    const codes = ['device:oaRule:list', 'device:oaRule:edit', 'system:attendanceRule:list', 'device:attendance:list', 'device:attendance:correct', 'device:attendanceMonth:list', 'device:attendanceMonth:recompute'];
    await createRoleWith(t.app, `att_b_${dialect}`, codes);
    await t.app.db.updateTable('sys_role').set({ tenant_id: tenantId }).where('role_code', '=', `att_b_${dialect}`).execute();
    await createTestUser(t.app, `attb_${dialect}`, { roles: [`att_b_${dialect}`], tenantId });
    const other = await login(t.app, `attb_${dialect}`, USER_PASSWORD);
    for (const entity of [oaRuleEntity, attendanceRuleEntity, attendanceDayEntity, attendanceMonthEntity]) {
      const list = await call<{ total: number }>('GET', `${crudPath(entity, 'list')}?month=${MONTH}`, undefined, other);
      expect([entity.name, list.success, list.result.total]).toEqual([entity.name, true, 0]);
    }
    const peopleId = people.get('normal: in before the working time, out after the off-work time')!;
    const day = (await daysOf(peopleId)).find((d) => d.day === '2026-03-02')!;
    expect((await call('GET', `${AttendancePath.punches}?id=${day.id}`, undefined, other)).message).toBe('No such attendance day');
    expect((await call('PUT', AttendancePath.correct, { id: day.id, status: S.absent, reason: 'Not mine' }, other)).message).toBe('No such attendance day');
    expect((await call<AttendanceCalendarDay[]>('GET', `${AttendancePath.calendar}?peopleId=${peopleId}&month=${MONTH}`, undefined, other)).result).toEqual([]);
    const rule = (await t.app.db.selectFrom('sys_attendance_rule').select('id').where('rule_name', '=', 'Office').executeTakeFirstOrThrow()).id;
    expect((await call('PUT', crudPath(oaRuleEntity, 'edit'), { id: rule, ruleName: 'Taken over' }, other)).success).toBe(false);
    // its own recompute touches only its own tenant
    const theirs = await call<{ people: number }>('POST', AttendancePath.recompute, { month: MONTH }, other);
    expect(theirs.result.people).toBe(0);
    expect((await daysOf(peopleId)).find((d) => d.day === '2026-03-02')?.status).toBe(S.normal);
  });
});
