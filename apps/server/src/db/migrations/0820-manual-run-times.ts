import type { Migration } from 'kysely';
import type { AnyDb } from './table-helpers.ts';

const isRealTime = (value: string) => {
  const at = Date.parse(value);
  return !Number.isNaN(at) && new Date(at).toISOString() === value;
};

/**
 * Runs by hand stored before this migration carry letters in their fraction ("…:05.a3fZ"), which no reader can sort
 * or parse. Each moves to the first free millisecond of its own second, the place a run by hand takes today.
 */
async function up(db: AnyDb): Promise<void> {
  const manual: { id: string; job_id: string; fire_time: string }[] = await db
    .selectFrom('sys_quartz_job_log')
    .select(['id', 'job_id', 'fire_time'])
    .where('manual', '=', 1)
    .orderBy('fire_time')
    .orderBy('id')
    .execute();
  const broken = manual.filter((run) => !isRealTime(run.fire_time));
  if (broken.length === 0) return;
  const jobs = [...new Set(broken.map((run) => run.job_id))];
  const taken = new Set(
    (await db.selectFrom('sys_quartz_job_log').select(['job_id', 'fire_time']).where('job_id', 'in', jobs).execute()).map(
      (run: { job_id: string; fire_time: string }) => `${run.job_id} ${run.fire_time}`,
    ),
  );
  for (const run of broken) {
    const second = Date.parse(`${run.fire_time.slice(0, 19)}Z`);
    if (Number.isNaN(second)) continue;
    for (let at = second + 1; at < second + 1000; at++) {
      const fireTime = new Date(at).toISOString();
      if (taken.has(`${run.job_id} ${fireTime}`)) continue;
      await db.updateTable('sys_quartz_job_log').set({ fire_time: fireTime }).where('id', '=', run.id).execute();
      taken.add(`${run.job_id} ${fireTime}`);
      break;
    }
  }
}

export const manualRunTimes: Migration = { up };
