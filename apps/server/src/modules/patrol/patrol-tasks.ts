import { randomUUID } from 'node:crypto';
import { DEVICE_CREATOR, isTimeSettingActive, PATROL_LATE_ALLOWANCE_FACTOR, readTimeSetting, type PatrolQuestResult, type PatrolTaskState } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { instantOfWatchTime, isoWeekdayOf } from './patrol-days.ts';

export interface Site {
  timeZone: string;
  holidays?: readonly string[];
}

const CHECKED: readonly PatrolQuestResult[] = ['onTime', 'early', 'late'];

/**
 * Makes the tasks of `day` (the site's calendar day) that do not exist yet: one per enabled mission whose route is
 * enabled, not deleted and walks that weekday, given to a patrol group. Each point of the route whose watch time the
 * group's time setting holds becomes a quest, unless its late allowance has ended by `now` (epoch ms: a mission made
 * in the afternoon is not missed at its morning points); a mission with none that day has no task. Only `tenantId`'s missions
 * when it is given. Another server making the same task at once makes it once (the day's unique key). Answers the
 * ids of the new tasks.
 */
export async function generatePatrolTasks(db: Kysely<Database>, day: string, now: number, site: Site, tenantId?: string | null): Promise<string[]> {
  let missions = db
    .selectFrom('sys_patrol_mission as m')
    .innerJoin('sys_patrol_route as r', 'r.id', 'm.route_id')
    .innerJoin('sys_depart as d', 'd.id', 'm.depart_id')
    .select(['m.id', 'm.route_id', 'm.depart_id', 'm.tenant_id', 'r.week_day', 'r.in_order', 'r.tolerance', 'd.time_setting'])
    .where('m.status', '=', 1)
    .where('r.status', '=', 1)
    .where('r.del_flag', '=', 0)
    .where('d.patrol_group', '=', 1)
    .where('d.del_flag', '=', 0);
  if (tenantId !== undefined) missions = tenantId === null ? missions.where('m.tenant_id', 'is', null) : missions.where('m.tenant_id', '=', tenantId);
  const weekday = isoWeekdayOf(day);
  const due = (await missions.execute()).filter((m) => m.week_day.split(',').includes(weekday));
  if (due.length === 0) return [];
  const made = new Set((await db.selectFrom('sys_patrol_task').select('mission_id').where('task_date', '=', day).where('mission_id', 'in', due.map((m) => m.id)).execute()).map((t) => t.mission_id));
  const created: string[] = [];
  for (const mission of due) {
    if (made.has(mission.id)) continue;
    const setting = readTimeSetting(mission.time_setting);
    if (!setting) continue;
    const points = await db.selectFrom('sys_patrol_point').selectAll().where('route_id', '=', mission.route_id).orderBy('sort_no').execute();
    const toleranceMs = mission.tolerance * 60_000;
    const quests = points.flatMap((p) => {
      const expected = instantOfWatchTime(day, p.watch_time, site.timeZone);
      if (expected === null || !isTimeSettingActive(setting, expected, site)) return [];
      const lateUntil = expected + toleranceMs + toleranceMs * PATROL_LATE_ALLOWANCE_FACTOR;
      return lateUntil <= now ? [] : [{ point: p, expected, start: expected - toleranceMs, end: expected + toleranceMs, lateUntil }];
    });
    if (quests.length === 0) continue;
    const taskId = randomUUID();
    const stamp = new Date().toISOString();
    const audit = { create_by: DEVICE_CREATOR, create_time: stamp, update_by: null, update_time: null };
    const iso = (ms: number) => new Date(ms).toISOString();
    try {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('sys_patrol_task')
          .values({
            id: taskId,
            ...audit,
            mission_id: mission.id,
            route_id: mission.route_id,
            depart_id: mission.depart_id,
            task_date: day,
            state: 'pending',
            done_count: 0,
            total_count: quests.length,
            missed_count: 0,
            in_order: mission.in_order,
            start_time: iso(Math.min(...quests.map((q) => q.start))),
            end_time: iso(Math.max(...quests.map((q) => q.lateUntil))),
            tenant_id: mission.tenant_id,
          })
          .execute();
        await trx
          .insertInto('sys_patrol_quest')
          .values(
            quests.map((q) => ({
              id: randomUUID(),
              ...audit,
              task_id: taskId,
              point_id: q.point.id,
              device_id: q.point.device_id,
              place_name: q.point.place_name,
              sort_no: q.point.sort_no,
              task_date: day,
              expected_time: iso(q.expected),
              window_start: iso(q.start),
              window_end: iso(q.end),
              late_until: iso(q.lateUntil),
              result: 'pending',
              out_of_order: 0,
              check_time: null,
              user_no: null,
              people_id: null,
              record_id: null,
              alarm_id: null,
              tenant_id: mission.tenant_id,
            })),
          )
          .execute();
      });
      created.push(taskId);
    } catch (error) {
      // another server made this mission's task of the day first (the unique key refused ours): nothing to do
      const exists = await db.selectFrom('sys_patrol_task').select('id').where('mission_id', '=', mission.id).where('task_date', '=', day).executeTakeFirst();
      if (!exists) throw error;
    }
  }
  return created;
}

/** The task's counts and state, read again from its quests (in the transaction that changed one of them). */
export async function refreshPatrolTask(db: Kysely<Database>, taskId: string): Promise<void> {
  const quests = await db.selectFrom('sys_patrol_quest').select('result').where('task_id', '=', taskId).execute();
  const done = quests.filter((q) => CHECKED.includes(q.result as PatrolQuestResult)).length;
  const missed = quests.filter((q) => q.result === 'missed').length;
  const pending = quests.length - done - missed;
  const state: PatrolTaskState = pending === quests.length ? 'pending' : pending > 0 ? 'inProgress' : missed > 0 ? 'incomplete' : 'done';
  await db.updateTable('sys_patrol_task').set({ done_count: done, missed_count: missed, total_count: quests.length, state, update_time: new Date().toISOString() }).where('id', '=', taskId).execute();
}
