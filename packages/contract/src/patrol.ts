import * as z from 'zod';

/**
 * Patrol (SPEC section 2 "watch", section 3 "Patrol route / Patrol device"): a route is a list of points, each a
 * patrol device to be checked at a wall-clock time (`watchTime`, the site's zone) within the route's tolerance. A
 * mission gives a route to a patrol group; each day the route walks (its `weekDay`s, inside the group's time setting)
 * the mission becomes a task, and each point of it a quest. A patrol device's `patrolCheckIn` event is matched to the
 * open quest of that device in the day's tasks; a point whose window and late allowance pass unchecked is missed and
 * raises one alarm.
 */

/** Route status (dictionary `route_status`): 1 enabled, 0 disabled. */
export const PatrolRouteStatus = { enabled: 1, disabled: 0 } as const;

/** Days a route walks: ISO weekday numbers, 1 Monday … 7 Sunday, stored joined by commas (`weekDay`). */
export const PATROL_WEEK_DAYS = ['1', '2', '3', '4', '5', '6', '7'] as const;

/** The `role_type` of patrol roles among the device roles (dictionary `device_role_type`). */
export const PATROL_ROLE_TYPE = '4';

/** Minutes either side of a point's watch time that count as on time, unless the route says otherwise. */
export const DEFAULT_PATROL_TOLERANCE_MIN = 10;
export const MAX_PATROL_TOLERANCE_MIN = 240;

/**
 * After a point's window has closed, a check-in is still taken (as late) for as long again as the tolerance; past
 * that allowance the point is missed.
 */
export const PATROL_LATE_ALLOWANCE_FACTOR = 1;

/** A task's state: nothing checked yet; some points judged; every point checked; over with points missed. */
export const PATROL_TASK_STATES = ['pending', 'inProgress', 'done', 'incomplete'] as const;
export type PatrolTaskState = (typeof PATROL_TASK_STATES)[number];

/** How a point of a task went. */
export const PATROL_QUEST_RESULTS = ['pending', 'onTime', 'early', 'late', 'missed'] as const;
export type PatrolQuestResult = (typeof PATROL_QUEST_RESULTS)[number];

/**
 * How a check-in was judged: against its quest (on time, early, late), after its point was missed already
 * (`missed`), or matched to no point of the day's tasks (`unmatched`).
 */
export const PATROL_RECORD_RESULTS = ['onTime', 'early', 'late', 'missed', 'unmatched'] as const;
export type PatrolRecordResult = (typeof PATROL_RECORD_RESULTS)[number];

/** The alarm code of a patrol point not checked by the end of its late allowance. */
export const PATROL_MISSED_ALARM = 'patrolMissed';

/** Event data of a patrol device (event kind `patrolCheckIn`): the device's point label and who checked in. */
export const patrolCheckInData = z.object({
  point: z.string().max(64).optional(),
  userNo: z.string().max(64).optional(),
  cardNo: z.string().max(64).optional(),
});

export const PatrolPath = {
  /** POST `{ date? }` (`yyyy-MM-dd`, today by default): makes that day's tasks of the caller's tenant now; answers how many were new */
  generateTasks: '/watch/task/generate',
  /** GET: the ids of the caller's tenant's patrol groups (the groups a mission may name) */
  patrolGroups: '/watch/mission/patrolGroups',
} as const;

/** What `RealtimeCmd.patrolMissed` carries (`data`): the console builds the localised text from these. */
export interface PatrolMissedNotice {
  questId: string;
  taskId: string;
  routeName: string;
  placeName: string;
  deviceName: string;
  /** `yyyy-MM-dd HH:mm:ss` the point was expected at */
  expectedTime: string;
  alarmId: string;
}
