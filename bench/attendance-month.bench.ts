/**
 * attendance-month: the monthly statistics of 10,000 people × 31 days × 4 punches (1.24 million punches, inserted
 * straight into the punch table) on SQLite. The statistics are one INSERT…SELECT…GROUP BY over the month's punches
 * and the people's calendars (`countMonth`). Baseline: one GROUP BY counting the same table's punches per person and
 * day, read whole. Taken in turns over three rounds, the median of each. Ratio = statistics ÷ baseline; target: at
 * most 3× the baseline and at most 10 s. A second line times the whole recompute of the month (its 310,000 daily
 * rows written again, then the statistics), against the same baseline; target: at most 60 s (it writes every row of
 * every index of the days: 34 s on a loaded two-core machine, so the target leaves room for a slower one).
 */
import { sql } from 'kysely';
import { localDayMinute } from '../apps/server/src/modules/attendance/local-time.ts';
import { seedAttendanceMonth } from '../apps/server/src/modules/attendance/month-fixture.ts';
import { countMonth, monthScope } from '../apps/server/src/modules/attendance/month.ts';
import { finish, report, startConsole } from './support.ts';

// a smaller run while tuning: ATTENDANCE_BENCH_PEOPLE=2000 npm run bench -- attendance-month
const PEOPLE = Number(process.env.ATTENDANCE_BENCH_PEOPLE ?? 10_000);
const MONTH = '2026-03';
const FIRST = Date.UTC(2026, 2, 1) / 86_400_000;
const ROUNDS = 3;
const TARGET_RATIO = 3;
const TARGET_SECONDS = 10;
const TARGET_RECOMPUTE_SECONDS = 60;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const seconds = async (run: () => Promise<unknown>) => {
  const started = performance.now();
  await run();
  return (performance.now() - started) / 1000;
};

const bench = await startConsole('sqlite');
try {
  const { app, tenantId } = bench;
  const seeded = await seedAttendanceMonth(app.db, { tenantId, month: MONTH, people: PEOPLE, punchesPerDay: 4, seed: 10 });
  // the calendars and the daily rows, once: the statistics count corrected days from them
  const first = await app.recomputeAttendance(tenantId, MONTH);
  const today = localDayMinute(Date.now(), 'UTC').dayIndex;
  const baseline: number[] = [];
  const statistics: number[] = [];
  const recompute: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    baseline.push(
      await seconds(async () => {
        const counted = await sql<{ people_id: string; day_index: number; punches: number }>`
          select people_id, day_index, count(*) as punches from sys_attendance_punch
          where tenant_id = ${tenantId} and day_index >= ${FIRST} and day_index <= ${FIRST + 31}
          group by people_id, day_index
        `.execute(app.db);
        if (counted.rows.length !== PEOPLE * 31) throw new Error(`baseline counted ${counted.rows.length} person-days`);
      }),
    );
    statistics.push(await seconds(() => app.db.transaction().execute(async (trx) => countMonth(trx, await monthScope(trx, 'sqlite', tenantId, MONTH, today, new Date().toISOString())))));
    recompute.push(await seconds(() => app.recomputeAttendance(tenantId, MONTH)));
  }
  const rows = await app.db.selectFrom('sys_attendance_month').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', tenantId).where('month', '=', MONTH).executeTakeFirstOrThrow();
  const counted = Number(rows.n) === PEOPLE && first.days === PEOPLE * 31;
  const base = median(baseline);
  const stats = median(statistics);
  const whole = median(recompute);
  console.log(`attendance-month: ${seeded.punches.length} punches; statistics ${statistics.map((s) => s.toFixed(2)).join(', ')} s; recompute ${recompute.map((s) => s.toFixed(2)).join(', ')} s; baseline ${baseline.map((s) => s.toFixed(2)).join(', ')} s`);
  report('attendance-month', `${stats.toFixed(2)}s`, `${base.toFixed(2)}s`, stats / base, `<=${TARGET_RATIO}x,<=${TARGET_SECONDS}s`, stats / base <= TARGET_RATIO && stats <= TARGET_SECONDS && counted);
  report('attendance-month-recompute', `${whole.toFixed(2)}s`, `${base.toFixed(2)}s`, whole / base, `<=${TARGET_RECOMPUTE_SECONDS}s`, whole <= TARGET_RECOMPUTE_SECONDS && counted);
} finally {
  await bench.close();
}
finish();
