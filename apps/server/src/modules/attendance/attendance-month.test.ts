import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, defaultTenantId, testDialects, type TestApp } from '../../test/harness.ts';
import { seedAttendanceMonth, type FixturePunch } from './month-fixture.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');
const MONTH = '2026-03';
const FIRST = Date.UTC(2026, 2, 1) / 86_400_000;
const DAYS = 31;

/** The fixture's calendar, written out again by hand: festivals on 2–6, 9, 10; a holiday on 20; Saturday 14 worked. */
const HOLIDAYS = new Set([2, 3, 4, 5, 6, 9, 10, 20]);
const SWAPPED = new Set([14]);
const weekday = (dayOfMonth: number) => new Date(Date.UTC(2026, 2, dayOfMonth)).getUTCDay(); // 0 Sunday

interface Stats {
  workDays: number;
  normalCount: number;
  lateCount: number;
  absenseCount: number;
  leaveEarlyCount: number;
  missCardCount: number;
}

/**
 * The slow reference: for every person, every day, every punch, in plain loops; a night shift (22:00–06:00) takes the
 * punches before 14:00 of the next day. Written apart from the server's classification on purpose.
 */
function reference(punches: readonly FixturePunch[], night: ReadonlySet<string>, peopleIds: readonly string[]): Map<string, Stats> {
  const result = new Map<string, Stats>();
  const byPerson = new Map<string, FixturePunch[]>();
  for (const p of punches) byPerson.set(p.peopleId, [...(byPerson.get(p.peopleId) ?? []), p]);
  for (const peopleId of peopleIds) {
    const isNight = night.has(peopleId);
    const stats: Stats = { workDays: 0, normalCount: 0, lateCount: 0, absenseCount: 0, leaveEarlyCount: 0, missCardCount: 0 };
    for (let d = 1; d <= DAYS; d++) {
      const holiday = HOLIDAYS.has(d);
      const rest = !SWAPPED.has(d) && (weekday(d) === 0 || weekday(d) === 6);
      if (holiday || rest) continue;
      stats.workDays += 1;
      const minutes: number[] = [];
      for (const p of byPerson.get(peopleId) ?? []) {
        if (p.duplicate) continue;
        const dayOfMonth = p.dayIndex - FIRST + 1;
        if (isNight) {
          if (dayOfMonth === d && p.minute >= 840) minutes.push(p.minute);
          if (dayOfMonth === d + 1 && p.minute < 840) minutes.push(p.minute + 1440);
        } else if (dayOfMonth === d) minutes.push(p.minute);
      }
      const start = isNight ? 1320 : 540;
      const end = isNight ? 1800 : 1080;
      if (minutes.length === 0) stats.absenseCount += 1;
      else if (minutes.length === 1) stats.missCardCount += 1;
      else {
        const first = Math.min(...minutes);
        const last = Math.max(...minutes);
        if (first > start + 120) stats.absenseCount += 1;
        else if (first > start) stats.lateCount += 1;
        else if (last < end) stats.leaveEarlyCount += 1;
        else stats.normalCount += 1;
      }
    }
    result.set(peopleId, stats);
  }
  return result;
}

describe.each(dialects)('a month of 1,000 people on %s', (dialect) => {
  let t: TestApp;
  let punches: FixturePunch[] = [];
  let peopleIds: string[] = [];
  let tenantId = '';

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    tenantId = await defaultTenantId(t.app);
    ({ punches, peopleIds } = await seedAttendanceMonth(t.app.db, { tenantId, month: MONTH, people: 1000, nightShift: true, seed: 29 }));
  }, 300_000);
  afterAll(async () => {
    await t.close();
  });

  it('gives statistics identical to a slow reference calculation over the same punches', async () => {
    const outcome = await t.app.recomputeAttendance(tenantId, MONTH);
    expect(outcome).toEqual({ days: 1000 * DAYS, people: 1000 });
    // the people of the night group are every second one
    const night = new Set(peopleIds.filter((_, i) => i % 2 === 1));
    const expected = reference(punches, night, peopleIds);
    const rows = await t.app.db.selectFrom('sys_attendance_month').selectAll().where('tenant_id', '=', tenantId).where('month', '=', MONTH).execute();
    expect(rows).toHaveLength(1000);
    const got = new Map(
      rows.map((r) => [
        r.user_id,
        { workDays: Number(r.work_days), normalCount: Number(r.normal_count), lateCount: Number(r.late_count), absenseCount: Number(r.absense_count), leaveEarlyCount: Number(r.leave_early_count), missCardCount: Number(r.miss_card_count) },
      ]),
    );
    const differing = peopleIds.filter((id) => JSON.stringify(got.get(id)) !== JSON.stringify(expected.get(id)));
    expect(differing.slice(0, 3).map((id) => ({ id, got: got.get(id), expected: expected.get(id) }))).toEqual([]);
    // the mix covers every result
    const totals = [...expected.values()].reduce((a, s) => ({ late: a.late + s.lateCount, early: a.early + s.leaveEarlyCount, absent: a.absent + s.absenseCount, miss: a.miss + s.missCardCount, normal: a.normal + s.normalCount }), { late: 0, early: 0, absent: 0, miss: 0, normal: 0 });
    for (const count of Object.values(totals)) expect(count).toBeGreaterThan(100);
    // a second run gives the same
    await t.app.recomputeAttendance(tenantId, MONTH);
    expect(await t.app.db.selectFrom('sys_attendance_month').select('id').where('tenant_id', '=', tenantId).where('month', '=', MONTH).execute()).toHaveLength(1000);
  }, 300_000);
});
