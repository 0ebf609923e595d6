import { isTimeSettingActive, readTimeSetting, ServerVerdict, VisitState, type EvaluationContext } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { DOOR_ACCESS_ROLE } from './access-lists.ts';

/** One passage to decide: who, at which door of the device (null: a door the console does not know), when. */
export interface AccessQuestion {
  peopleId: string | null;
  doorId: string | null;
  /** the device's own time of the event (epoch milliseconds) */
  at: number;
}

const sameTenant = (a: string | null | undefined, b: string | null | undefined) => (a ?? null) === (b ?? null);

/**
 * What the server decides of passages at one device, with the same rules as the lists the devices are sent
 * (access-lists.ts) and the contract's time-setting evaluator the devices use: a person passes when a door-access device
 * role of the device's tenant binds the device (directly, through its area, or through that door) and holds the
 * person (directly or through their group), and one of those roles' time settings is in force at the event's time in
 * the site's zone. Deleted, frozen and unknown people are refused; a passage naming nobody is unknown.
 *
 * A role bound to one door grants that door only: a device holds the people of all its doors' roles alike, so an
 * opening of another door by them is refused here (and flagged).
 */
export async function judgeAccess(database: Kysely<Database>, deviceId: string, questions: readonly AccessQuestion[], site: EvaluationContext): Promise<ServerVerdict[]> {
  const named = [...new Set(questions.map((q) => q.peopleId).filter((id): id is string => id !== null))];
  if (named.length === 0) return questions.map(() => ServerVerdict.unknown);
  // the link tables of device roles are read untyped: they are plain (role_id, target) pairs
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const db = database as unknown as Kysely<any>;
  const device = await database.selectFrom('sys_device').select(['id', 'area_id', 'tenant_id']).where('id', '=', deviceId).executeTakeFirst();
  if (!device) return questions.map((q) => (q.peopleId === null ? ServerVerdict.unknown : ServerVerdict.refused));
  const visits = await visitWindows(database, device, named);
  const inWindow = (q: AccessQuestion) => (visits.get(q.peopleId ?? '') ?? []).filter((v) => v.start <= q.at && q.at < v.end);
  // a visit in force opens its doors of this device (an unknown door: any of them, as the device judges)
  const byVisit = (q: AccessQuestion) => inWindow(q).some((v) => (q.doorId === null ? v.doors.size > 0 : v.doors.has(q.doorId)));
  const refusedOrUnknown = () => questions.map((q) => (q.peopleId === null ? ServerVerdict.unknown : byVisit(q) ? ServerVerdict.allowed : ServerVerdict.refused));

  // the door-access roles of the device's tenant, and where each binds this device: everywhere, or at some doors
  let roleQuery = db.selectFrom('sys_device_role').select(['id', 'time_setting']).where('role_type', '=', DOOR_ACCESS_ROLE);
  roleQuery = device.tenant_id === null ? roleQuery.where('tenant_id', 'is', null) : roleQuery.where('tenant_id', '=', device.tenant_id);
  const times = new Map<string, string | null>((await roleQuery.execute()).map((r: { id: string; time_setting: string | null }) => [r.id, r.time_setting]));
  if (times.size === 0) return refusedOrUnknown();
  const wholeDevice = new Set<string>();
  const doorsOf = new Map<string, Set<string>>();
  for (const r of await db.selectFrom('sys_device_role_device').select('role_id').where('device_id', '=', deviceId).execute()) wholeDevice.add(r.role_id as string);
  if (device.area_id) for (const r of await db.selectFrom('sys_device_role_area').select('role_id').where('area_id', '=', device.area_id).execute()) wholeDevice.add(r.role_id as string);
  for (const r of await db
    .selectFrom('sys_device_role_door as l')
    .innerJoin('sys_door as o', 'o.id', 'l.door_id')
    .select(['l.role_id as role_id', 'l.door_id as door_id'])
    .where('o.device_id', '=', deviceId)
    .execute()) {
    const doors = doorsOf.get(r.role_id as string) ?? new Set<string>();
    doors.add(r.door_id as string);
    doorsOf.set(r.role_id as string, doors);
  }
  const binding = [...new Set([...wholeDevice, ...doorsOf.keys()])].filter((id) => times.has(id));
  if (binding.length === 0) return refusedOrUnknown();

  // the named people who may hold access at all (not deleted, not frozen, of the device's tenant), and their roles
  const people = new Map<string, string | null>();
  for (const p of await database.selectFrom('sys_people').select(['id', 'depart_id', 'tenant_id']).where('id', 'in', named).where('del_flag', '=', 0).where('status', '=', 1).execute()) {
    if (sameTenant(p.tenant_id, device.tenant_id)) people.set(p.id, p.depart_id ?? null);
  }
  // visitors with a visit: held by the roles that bind them or their group, inside a visit's window only
  if (visits.size > 0) {
    for (const v of await database.selectFrom('sys_visitor').select(['id', 'depart_id']).where('id', 'in', [...visits.keys()]).execute()) people.set(v.id, v.depart_id ?? null);
  }
  const rolesOf = new Map<string, Set<string>>();
  const hold = (personId: string, roleId: string) => {
    const roles = rolesOf.get(personId) ?? new Set<string>();
    roles.add(roleId);
    rolesOf.set(personId, roles);
  };
  if (people.size > 0) {
    for (const r of await db.selectFrom('sys_device_role_people').select(['role_id', 'people_id']).where('role_id', 'in', binding).where('people_id', 'in', [...people.keys()]).execute()) {
      hold(r.people_id as string, r.role_id as string);
    }
    if (visits.size > 0) {
      for (const r of await db.selectFrom('sys_device_role_visitor').select(['role_id', 'visitor_id']).where('role_id', 'in', binding).where('visitor_id', 'in', [...visits.keys()]).execute()) {
        hold(r.visitor_id as string, r.role_id as string);
      }
    }
    const departs = [...new Set([...people.values()].filter((d): d is string => d !== null))];
    if (departs.length > 0) {
      const byDepart = new Map<string, string[]>();
      for (const [personId, departId] of people) if (departId) byDepart.set(departId, [...(byDepart.get(departId) ?? []), personId]);
      for (const r of await db.selectFrom('sys_device_role_depart').select(['role_id', 'depart_id']).where('role_id', 'in', binding).where('depart_id', 'in', departs).execute()) {
        for (const personId of byDepart.get(r.depart_id as string) ?? []) hold(personId, r.role_id as string);
      }
    }
  }

  // a door the console does not know is judged as the device does: by any role that binds one of its doors
  const grants = (roleId: string, doorId: string | null) => wholeDevice.has(roleId) || (doorId === null ? doorsOf.has(roleId) : (doorsOf.get(roleId)?.has(doorId) ?? false));
  return questions.map((q) => {
    if (q.peopleId === null) return ServerVerdict.unknown;
    if (!people.has(q.peopleId)) return ServerVerdict.refused;
    if (visits.has(q.peopleId)) {
      if (byVisit(q)) return ServerVerdict.allowed;
      if (inWindow(q).length === 0) return ServerVerdict.refused;
    }
    for (const roleId of rolesOf.get(q.peopleId) ?? []) {
      if (!grants(roleId, q.doorId)) continue;
      const setting = readTimeSetting(times.get(roleId));
      if (setting !== null && isTimeSettingActive(setting, q.at, site)) return ServerVerdict.allowed;
    }
    return ServerVerdict.refused;
  });
}

/** A visit of one visitor: its window (epoch ms) and its doors at the device. */
interface VisitWindow {
  start: number;
  end: number;
  doors: Set<string>;
}

/**
 * The visits of the named visitors who may pass at all (not deleted, not frozen, of the device's tenant), with their
 * doors of the device; a visitor is a key of the answer even when no door of his visits is there (a role may bind him).
 */
async function visitWindows(database: Kysely<Database>, device: { id: string; tenant_id: string | null }, named: readonly string[]): Promise<Map<string, VisitWindow[]>> {
  const out = new Map<string, VisitWindow[]>();
  let query = database
    .selectFrom('sys_visit as v')
    .innerJoin('sys_visitor as p', 'p.id', 'v.visitor_id')
    .select(['v.id as visit_id', 'p.id as visitor_id', 'v.start_time', 'v.end_time'])
    .where('p.id', 'in', [...named])
    .where('v.state', '=', VisitState.approved)
    .where('p.del_flag', '=', 0)
    .where('p.status', '=', 1);
  query = device.tenant_id === null ? query.where('p.tenant_id', 'is', null).where('v.tenant_id', 'is', null) : query.where('p.tenant_id', '=', device.tenant_id).where('v.tenant_id', '=', device.tenant_id);
  const rows = await query.execute();
  if (rows.length === 0) return out;
  const doors = new Map<string, Set<string>>();
  for (const d of await database
    .selectFrom('sys_visit_door as l')
    .innerJoin('sys_door as o', 'o.id', 'l.door_id')
    .select(['l.visit_id', 'l.door_id'])
    .where('o.device_id', '=', device.id)
    .where('l.visit_id', 'in', rows.map((r) => r.visit_id))
    .execute()) {
    const set = doors.get(d.visit_id) ?? new Set<string>();
    set.add(d.door_id);
    doors.set(d.visit_id, set);
  }
  for (const r of rows) {
    const list = out.get(r.visitor_id) ?? [];
    list.push({ start: Date.parse(r.start_time), end: Date.parse(r.end_time), doors: doors.get(r.visit_id) ?? new Set() });
    out.set(r.visitor_id, list);
  }
  return out;
}
