import { randomUUID } from 'node:crypto';
import { DEVICE_CREATOR, DeviceEventKind, PATROL_ROLE_TYPE, patrolCheckInData, type DeviceEvent, type PatrolQuestResult, type PatrolRecordResult } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { personOfEvent } from '../../gateway/event-people.ts';
import { siteDayOf } from './patrol-days.ts';
import { refreshPatrolTask } from './patrol-tasks.ts';

type Device = { id: string; tenantId: string | null };

/** Whether a batch holds check-ins (most batches hold none). */
export const hasCheckIns = (events: readonly DeviceEvent[]) => events.some((e) => e.kind === DeviceEventKind.patrolCheckIn);

/**
 * What a patrol device's check-ins mean, written in the transaction that stores them (`db`). Each is matched to the
 * pending quest of that device in the tasks of the check-in's day (the site's zone) whose late allowance it is inside,
 * the one expected nearest to it: before its window it is early, inside on time, after late. In a route walked in
 * order, a quest checked while an earlier point of its task is still pending is marked out of order. A check-in past
 * the allowance of the device's quest that day is recorded as after a missed point; one with no quest that day as
 * unmatched. Each check-in is one record (a repeated delivery finds it).
 */
export async function recordCheckIns(db: Kysely<Database>, device: Device, events: readonly DeviceEvent[], timeZone: string): Promise<string[]> {
  const touched = new Set<string>();
  for (const e of events) {
    if (e.kind !== DeviceEventKind.patrolCheckIn) continue;
    const data = patrolCheckInData.safeParse(e.data);
    if (!data.success) continue;
    if (await db.selectFrom('sys_patrol_record').select('id').where('device_id', '=', device.id).where('seq', '=', e.seq).executeTakeFirst()) continue;
    const at = new Date(e.time).toISOString();
    const userNo = data.data.userNo?.slice(0, 64) ?? null;
    const peopleId = await personByNumber(db, device, userNo, data.data.cardNo);
    const quests = await db
      .selectFrom('sys_patrol_quest')
      .selectAll()
      .where('device_id', '=', device.id)
      .where('task_date', '=', siteDayOf(e.time, timeZone))
      .where('result', 'in', ['pending', 'missed'])
      .execute();
    const open = quests.filter((q) => q.result === 'pending' && q.late_until >= at);
    const distance = (q: { expected_time: string }) => Math.abs(Date.parse(q.expected_time) - e.time);
    const quest = open.sort((a, b) => distance(a) - distance(b))[0];
    const recordId = randomUUID();
    let result: PatrolRecordResult = 'unmatched';
    let matched: (typeof quests)[number] | undefined;
    if (quest) {
      const judged: PatrolQuestResult = at < quest.window_start ? 'early' : at <= quest.window_end ? 'onTime' : 'late';
      const task = await db.selectFrom('sys_patrol_task').select('in_order').where('id', '=', quest.task_id).executeTakeFirst();
      const skipped = task?.in_order === 1 && (await db.selectFrom('sys_patrol_quest').select('id').where('task_id', '=', quest.task_id).where('sort_no', '<', quest.sort_no).where('result', '=', 'pending').executeTakeFirst()) !== undefined;
      const marked = await db
        .updateTable('sys_patrol_quest')
        .set({ result: judged, check_time: at, user_no: userNo, people_id: peopleId, record_id: recordId, out_of_order: skipped ? 1 : 0, update_time: new Date().toISOString() })
        .where('id', '=', quest.id)
        .where('result', '=', 'pending')
        .executeTakeFirst();
      if (Number(marked.numUpdatedRows) === 1) {
        result = judged;
        matched = quest;
        await refreshPatrolTask(db, quest.task_id);
        touched.add(quest.task_id);
      }
    }
    if (!matched) {
      // the device's point of the day whose allowance had passed: the check-in came after it was missed
      matched = quests.filter((q) => q.late_until < at).sort((a, b) => distance(a) - distance(b))[0];
      if (matched) result = 'missed';
    }
    const pointId = matched?.point_id ?? (await db.selectFrom('sys_patrol_point').select('id').where('device_id', '=', device.id).orderBy('sort_no').executeTakeFirst())?.id ?? null;
    await db
      .insertInto('sys_patrol_record')
      .values({
        id: recordId,
        create_by: DEVICE_CREATOR,
        create_time: new Date().toISOString(),
        update_by: null,
        update_time: null,
        device_id: device.id,
        seq: e.seq,
        check_time: at,
        point: data.data.point?.slice(0, 64) ?? null,
        point_id: pointId,
        user_no: userNo,
        people_id: peopleId,
        result,
        guard: (await isGuard(db, device.id, peopleId)) ? 1 : 0,
        task_id: matched?.task_id ?? null,
        quest_id: matched?.id ?? null,
        tenant_id: device.tenantId,
      })
      .execute();
  }
  return [...touched];
}

/** The person of the device's tenant whose user number the check-in gives (else the holder of its card). */
async function personByNumber(db: Kysely<Database>, device: Device, userNo: string | null, cardNo: string | undefined): Promise<string | null> {
  if (userNo) {
    const query = db.selectFrom('sys_people').select('id').where('del_flag', '=', 0).where('user_no', '=', userNo);
    const person = await (device.tenantId === null ? query.where('tenant_id', 'is', null) : query.where('tenant_id', '=', device.tenantId)).executeTakeFirst();
    if (person) return person.id;
  }
  return cardNo ? personOfEvent(db, device, { cardNo }) : null;
}

/**
 * Device role type 4 (patrol): when patrol roles name the device, its guards are the people those roles name
 * (directly, through their group, or as users by work number); a device no patrol role names is everyone's.
 */
async function isGuard(db: Kysely<Database>, deviceId: string, peopleId: string | null): Promise<boolean> {
  const roles = (
    await db
      .selectFrom('sys_device_role_device as l')
      .innerJoin('sys_device_role as r', 'r.id', 'l.role_id')
      .select('r.id')
      .where('l.device_id', '=', deviceId)
      .where('r.role_type', '=', PATROL_ROLE_TYPE)
      .execute()
  ).map((r) => r.id);
  if (roles.length === 0) return true;
  if (!peopleId) return false;
  if (await db.selectFrom('sys_device_role_people').select('role_id').where('role_id', 'in', roles).where('people_id', '=', peopleId).executeTakeFirst()) return true;
  const person = await db.selectFrom('sys_people').select(['depart_id', 'user_no', 'tenant_id']).where('id', '=', peopleId).executeTakeFirst();
  if (person?.depart_id && (await db.selectFrom('sys_device_role_depart').select('role_id').where('role_id', 'in', roles).where('depart_id', '=', person.depart_id).executeTakeFirst())) return true;
  if (!person?.user_no) return false;
  const users = db.selectFrom('sys_user').select('id').where('work_no', '=', person.user_no).where('del_flag', '=', 0);
  const inTenant = person.tenant_id === null ? users.where('tenant_id', 'is', null) : users.where('tenant_id', '=', person.tenant_id);
  return (await db.selectFrom('sys_device_role_user').select('role_id').where('role_id', 'in', roles).where('user_id', 'in', inTenant).executeTakeFirst()) !== undefined;
}
