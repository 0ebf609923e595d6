import { randomUUID } from 'node:crypto';
import { PATROL_MISSED_ALARM } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { insertRaisedAlarm } from '../../platform/raised-alarms.ts';
import { refreshPatrolTask } from './patrol-tasks.ts';

/** A point just judged missed: what the consoles of its tenant are told. */
export interface MissedPoint {
  questId: string;
  taskId: string;
  alarmId: string;
  tenantId: string | null;
}

/** How many overdue quests one sweep looks at. */
const SWEEP_LIMIT = 500;

/**
 * The quests still pending whose late allowance ended before `now` (epoch ms): each is missed and raises one alarm of
 * its patrol device. The statement that marks the quest missed is the one that may raise it, so two servers
 * sweeping at once raise it once.
 */
export async function raiseMissedPoints(db: Kysely<Database>, now: number): Promise<MissedPoint[]> {
  const at = new Date(now).toISOString();
  const overdue = await db
    .selectFrom('sys_patrol_quest')
    .select(['id', 'task_id', 'device_id', 'tenant_id'])
    .where('result', '=', 'pending')
    .where('late_until', '<', at)
    .orderBy('late_until')
    .limit(SWEEP_LIMIT)
    .execute();
  const raised: MissedPoint[] = [];
  for (const quest of overdue) {
    const alarmId = randomUUID();
    const done = await db.transaction().execute(async (trx) => {
      const marked = await trx.updateTable('sys_patrol_quest').set({ result: 'missed', alarm_id: alarmId, update_time: at }).where('id', '=', quest.id).where('result', '=', 'pending').executeTakeFirst();
      if (Number(marked.numUpdatedRows) !== 1) return false;
      // no device event raised it: the alarm takes a sequence number below every event's (devices count from 1)
      const lowest = await trx.selectFrom('sys_device_alarm').select((eb) => eb.fn.min('event_seq').as('seq')).where('device_id', '=', quest.device_id).executeTakeFirst();
      const seq = Math.min(Number(lowest?.seq ?? 0), 0) - 1;
      await insertRaisedAlarm(trx, { id: alarmId, deviceId: quest.device_id, eventSeq: seq, code: PATROL_MISSED_ALARM, level: 'M', tenantId: quest.tenant_id, at });
      await refreshPatrolTask(trx, quest.task_id);
      return true;
    });
    if (done) raised.push({ questId: quest.id, taskId: quest.task_id, alarmId, tenantId: quest.tenant_id });
  }
  return raised;
}
