import { randomUUID } from 'node:crypto';
import { isTimeSettingActive, KEY_OVERDUE_ALARM, KEY_ROLE_TYPE, readTimeSetting } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { insertRaisedAlarm } from '../../platform/raised-alarms.ts';

/** An overdue take just raised: what the consoles of its tenant are told. */
export interface RaisedOverdue {
  recordId: string;
  alarmId: string;
  keyId: string;
  tenantId: string | null;
}

/** How many open takes one sweep looks at. */
const SWEEP_LIMIT = 500;

/**
 * The takes still out whose holder has no window of the key in force any more at `now` (epoch ms): each raises one
 * overdue alarm. The statement that marks the take overdue is the one that may raise it, so two servers sweeping at
 * once raise it once. A take by nobody the console knows is overdue at once; a take in an emergency release is not
 * judged (anyone could take the key then).
 */
export async function raiseOverdueKeys(db: Kysely<Database>, now: number, site: { timeZone: string; holidays?: readonly string[] }): Promise<RaisedOverdue[]> {
  const open = await db
    .selectFrom('sys_key_record as r')
    .innerJoin('sys_key as k', 'k.id', 'r.key_id')
    .select(['r.id', 'r.key_id', 'r.people_id', 'r.device_id', 'r.seq', 'r.tenant_id', 'r.method'])
    .where('r.return_time', 'is', null)
    .where('r.overdue_time', 'is', null)
    .orderBy('r.take_time')
    .limit(SWEEP_LIMIT)
    .execute();
  const raised: RaisedOverdue[] = [];
  for (const take of open) {
    if (take.method === 'emergency' || !take.key_id) continue;
    if (take.people_id && (await windows(db, take.key_id, take.people_id)).some((time) => inForce(time, now, site))) continue;
    const alarmId = randomUUID();
    const at = new Date(now).toISOString();
    const done = await db.transaction().execute(async (trx) => {
      const marked = await trx.updateTable('sys_key_record').set({ overdue_time: at, alarm_id: alarmId }).where('id', '=', take.id).where('overdue_time', 'is', null).where('return_time', 'is', null).executeTakeFirst();
      if (Number(marked.numUpdatedRows) !== 1) return false;
      await insertRaisedAlarm(trx, { id: alarmId, deviceId: take.device_id, eventSeq: Number(take.seq), code: KEY_OVERDUE_ALARM, level: 'H', tenantId: take.tenant_id, at });
      await trx.updateTable('sys_key').set({ overdue: 1 }).where('id', '=', take.key_id!).execute();
      return true;
    });
    if (done) raised.push({ recordId: take.id, alarmId, keyId: take.key_id, tenantId: take.tenant_id });
  }
  return raised;
}

/** Whether a stored time setting is in force at `now` in the site's zone; one that cannot be read is in force nowhere. */
function inForce(stored: string | null, now: number, site: { timeZone: string; holidays?: readonly string[] }): boolean {
  const setting = readTimeSetting(stored);
  return setting !== null && isTimeSettingActive(setting, now, site);
}

/** The time settings of the key roles that give `keyId` to `peopleId` (directly, through their group or as a user). */
async function windows(db: Kysely<Database>, keyId: string, peopleId: string): Promise<Array<string | null>> {
  // the link tables of device roles are read untyped: they are plain (role_id, target) pairs
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const untyped = db as unknown as Kysely<any>;
  const person = await db.selectFrom('sys_people').select(['depart_id', 'user_no', 'status', 'del_flag', 'tenant_id']).where('id', '=', peopleId).executeTakeFirst();
  if (!person || person.del_flag !== 0 || person.status !== 1) return [];
  const isKeyPerson = await db.selectFrom('sys_key_people').select('id').where('people_id', '=', peopleId).executeTakeFirst();
  if (!isKeyPerson) return [];
  const roles: Array<{ id: string; time_setting: string | null }> = await untyped
    .selectFrom('sys_device_role as r')
    .innerJoin('sys_device_role_key as k', 'k.role_id', 'r.id')
    .select(['r.id as id', 'r.time_setting as time_setting'])
    .where('r.role_type', '=', KEY_ROLE_TYPE)
    .where('k.key_id', '=', keyId)
    .execute();
  if (roles.length === 0) return [];
  const ids = roles.map((r) => r.id);
  const held = new Set<string>((await untyped.selectFrom('sys_device_role_people').select('role_id').where('role_id', 'in', ids).where('people_id', '=', peopleId).execute()).map((r: { role_id: string }) => r.role_id));
  if (person.depart_id) {
    for (const r of await untyped.selectFrom('sys_device_role_depart').select('role_id').where('role_id', 'in', ids).where('depart_id', '=', person.depart_id).execute()) held.add(r.role_id as string);
  }
  if (person.user_no) {
    // the users whose work number is the person's user number, in the person's tenant
    let users = db.selectFrom('sys_user').select('id').where('work_no', '=', person.user_no).where('del_flag', '=', 0);
    users = person.tenant_id === null ? users.where('tenant_id', 'is', null) : users.where('tenant_id', '=', person.tenant_id);
    const userIds = (await users.execute()).map((u) => u.id);
    if (userIds.length > 0) for (const r of await untyped.selectFrom('sys_device_role_user').select('role_id').where('role_id', 'in', ids).where('user_id', 'in', userIds).execute()) held.add(r.role_id as string);
  }
  return roles.filter((r) => held.has(r.id)).map((r) => r.time_setting);
}
