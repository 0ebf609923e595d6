import { createHash } from 'node:crypto';
import { VisitState, type AccessEntry, type SyncMode } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** device role type of door access (dictionary device_role_type) */
export const DOOR_ACCESS_ROLE = '1';

export interface DeviceAccessList {
  deviceId: string;
  sn: string;
  name: string;
  tenantId: string | null;
  online: boolean;
  /** increment: the differences are sent; full: every change replaces the whole list */
  syncMode: SyncMode;
  /**
   * the entries the device should hold, by person id in id order (capacity applied); devices reached by the same
   * roles share one map: read it, never change it
   */
  entries: ReadonlyMap<string, AccessEntry>;
  /** people the device's capacity left out */
  overCapacity: number;
}

type PersonBase = Omit<AccessEntry, 'times' | 'version'>;

/** The time setting of a visit's doors: always, within the visit's window (outside it the visitor is not on the list). */
export const VISIT_TIME = '{"mode":"permanent"}';

const CHUNK = 500;
function* chunks<T>(items: readonly T[], size = CHUNK): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

const sameTenant = (a: string | null, b: string | null) => (a ?? null) === (b ?? null);

const hashOf = (value: unknown, length: number) => createHash('sha1').update(JSON.stringify(value)).digest('hex').slice(0, length);

/**
 * What each device should hold: the people reachable through the door-access device roles that bind the device
 * (directly, through its area, or through one of its doors), each with the time settings of the roles that grant them
 * there. People reach a role directly or through their group. Deleted and frozen people hold no access; roles, devices
 * and people meet only within one tenant. `deviceIds` limits the answer to those devices (every device otherwise,
 * devices without anyone included so that what they hold is removed).
 *
 * Visitors (SPEC section 3) are held only inside the window of a visit in force at `now` (epoch ms): at the doors the
 * visit names, and where a door-access role that binds the visitor reaches. Each visitor is an entry like a person.
 */
export async function computeAccessLists(database: Kysely<Database>, deviceIds?: readonly string[], now: number = Date.now()): Promise<Map<string, DeviceAccessList>> {
  // the link tables of device roles are read untyped: they are plain (role_id, target) pairs
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const db = database as unknown as Kysely<any>;
  const out = new Map<string, DeviceAccessList>();
  let deviceQuery = database.selectFrom('sys_device').select(['id', 'sn', 'device_name', 'tenant_id', 'online', 'max_people', 'sync_mode']);
  if (deviceIds) {
    if (deviceIds.length === 0) return out;
    deviceQuery = deviceQuery.where('id', 'in', [...deviceIds]);
  }
  const devices = await deviceQuery.execute();
  const capacity = new Map<string, number | null>();
  for (const d of devices) {
    out.set(d.id, { deviceId: d.id, sn: d.sn, name: d.device_name, tenantId: d.tenant_id, online: Number(d.online) === 1, syncMode: d.sync_mode === 'full' ? 'full' : 'increment', entries: new Map(), overCapacity: 0 });
    capacity.set(d.id, d.max_people ?? null);
  }
  if (devices.length === 0) return out;

  const roles = new Map<string, { time: string; tenantId: string | null }>();
  for (const r of await db.selectFrom('sys_device_role').select(['id', 'time_setting', 'tenant_id']).where('role_type', '=', DOOR_ACCESS_ROLE).execute()) {
    roles.set(r.id as string, { time: (r.time_setting as string | null) ?? '', tenantId: (r.tenant_id as string | null) ?? null });
  }
  const roleIds = [...roles.keys()];

  // role → devices
  const roleDevices = new Map<string, Set<string>>();
  const bind = (roleId: string, deviceId: string) => {
    const device = out.get(deviceId);
    const role = roles.get(roleId);
    if (!device || !role || !sameTenant(device.tenantId, role.tenantId)) return;
    let set = roleDevices.get(roleId);
    if (!set) roleDevices.set(roleId, (set = new Set()));
    set.add(deviceId);
  };
  for (const ids of chunks(roleIds)) {
    for (const r of await db.selectFrom('sys_device_role_device').select(['role_id', 'device_id']).where('role_id', 'in', ids).execute()) bind(r.role_id, r.device_id);
    for (const r of await db
      .selectFrom('sys_device_role_area as l')
      .innerJoin('sys_device as d', 'd.area_id', 'l.area_id')
      .select(['l.role_id as role_id', 'd.id as device_id'])
      .where('l.role_id', 'in', ids)
      .execute())
      bind(r.role_id, r.device_id);
    for (const r of await db
      .selectFrom('sys_device_role_door as l')
      .innerJoin('sys_door as o', 'o.id', 'l.door_id')
      .select(['l.role_id as role_id', 'o.device_id as device_id'])
      .where('l.role_id', 'in', ids)
      .execute())
      bind(r.role_id, r.device_id);
  }
  const reaching = [...roleDevices.keys()];

  // role → people (directly, or through the person's group)
  const people = new Map<string, PersonBase & { tenantId: string | null; palmLeft: boolean; palmRight: boolean }>();
  const rolePeople = new Map<string, Set<string>>();
  const columns = ['p.id as id', 'p.name as name', 'p.user_no as user_no', 'p.card_no as card_no', 'p.palm_left as palm_left', 'p.palm_right as palm_right', 'p.tenant_id as tenant_id'];
  const addPerson = (p: Record<string, unknown>) => {
    const id = p.id as string;
    if (people.has(id)) return;
    people.set(id, {
      id,
      name: p.name as string,
      userNo: (p.user_no as string | null) ?? null,
      cardNo: (p.card_no as string | null) ?? null,
      palm: {},
      tenantId: (p.tenant_id as string | null) ?? null,
      palmLeft: Number(p.palm_left) === 1,
      palmRight: Number(p.palm_right) === 1,
    });
  };
  const hold = (roleId: string, p: Record<string, unknown>) => {
    const role = roles.get(roleId);
    const tenantId = (p.tenant_id as string | null) ?? null;
    if (!role || !sameTenant(role.tenantId, tenantId)) return;
    const id = p.id as string;
    addPerson(p);
    let set = rolePeople.get(roleId);
    if (!set) rolePeople.set(roleId, (set = new Set()));
    set.add(id);
  };
  for (const ids of chunks(reaching)) {
    for (const p of await db
      .selectFrom('sys_device_role_people as l')
      .innerJoin('sys_people as p', 'p.id', 'l.people_id')
      .select(['l.role_id as role_id', ...columns])
      .where('l.role_id', 'in', ids)
      .where('p.del_flag', '=', 0)
      .where('p.status', '=', 1)
      .execute())
      hold(p.role_id, p);
    for (const p of await db
      .selectFrom('sys_device_role_depart as l')
      .innerJoin('sys_people as p', 'p.depart_id', 'l.depart_id')
      .select(['l.role_id as role_id', ...columns])
      .where('l.role_id', 'in', ids)
      .where('p.del_flag', '=', 0)
      .where('p.status', '=', 1)
      .execute())
      hold(p.role_id, p);
  }

  // visitors: those with a visit in force now, through the roles that bind them or their group, and through their visits' doors
  const at = new Date(now).toISOString();
  const visiting = new Map<string, string[]>();
  for (const v of await database
    .selectFrom('sys_visit as v')
    .innerJoin('sys_visitor as p', 'p.id', 'v.visitor_id')
    .select(['v.id as visit_id', 'p.id as id', 'p.name as name', 'p.user_no as user_no', 'p.card_no as card_no', 'p.palm_left as palm_left', 'p.palm_right as palm_right', 'p.tenant_id as tenant_id', 'v.tenant_id as visit_tenant'])
    .where('v.start_time', '<=', at)
    .where('v.end_time', '>', at)
    // a request the host has not approved (or refused) opens nothing
    .where('v.state', '=', VisitState.approved)
    .where('p.del_flag', '=', 0)
    .where('p.status', '=', 1)
    .execute()) {
    if (!sameTenant(v.tenant_id, v.visit_tenant)) continue;
    visiting.set(v.id, [...(visiting.get(v.id) ?? []), v.visit_id]);
    addPerson(v);
  }
  if (visiting.size > 0) {
    for (const ids of chunks(reaching)) {
      for (const l of await db.selectFrom('sys_device_role_visitor').select(['role_id', 'visitor_id']).where('role_id', 'in', ids).where('visitor_id', 'in', [...visiting.keys()]).execute()) {
        const visitor = people.get(l.visitor_id as string);
        if (visitor) hold(l.role_id as string, { id: visitor.id, tenant_id: visitor.tenantId });
      }
      // a role that binds a group reaches its visitors as it reaches its people
      for (const l of await db
        .selectFrom('sys_device_role_depart as l')
        .innerJoin('sys_visitor as p', 'p.depart_id', 'l.depart_id')
        .select(['l.role_id as role_id', 'p.id as visitor_id'])
        .where('l.role_id', 'in', ids)
        .where('p.id', 'in', [...visiting.keys()])
        .execute()) {
        const visitor = people.get(l.visitor_id);
        if (visitor) hold(l.role_id, { id: visitor.id, tenant_id: visitor.tenantId });
      }
    }
  }
  const visitDevices = new Map<string, Set<string>>();
  const visitIds = [...visiting.values()].flat();
  for (const ids of chunks(visitIds)) {
    for (const r of await database
      .selectFrom('sys_visit_door as l')
      .innerJoin('sys_visit as v', 'v.id', 'l.visit_id')
      .innerJoin('sys_door as o', 'o.id', 'l.door_id')
      .select(['v.visitor_id as visitor_id', 'o.device_id as device_id', 'v.tenant_id as tenant_id'])
      .where('l.visit_id', 'in', ids)
      .execute()) {
      const device = out.get(r.device_id);
      if (!device || !sameTenant(device.tenantId, r.tenant_id)) continue;
      const set = visitDevices.get(r.device_id) ?? new Set<string>();
      set.add(r.visitor_id);
      visitDevices.set(r.device_id, set);
    }
  }

  // palm-vein templates travel to the devices only
  const withPalm = [...people.values()].filter((p) => p.palmLeft || p.palmRight).map((p) => p.id);
  for (const ids of chunks(withPalm)) {
    for (const t of await database.selectFrom('sys_people_palm').select(['people_id', 'hand', 'template']).where('people_id', 'in', ids).execute()) {
      const person = people.get(t.people_id);
      if (person && (t.hand === 'left' || t.hand === 'right')) person.palm[t.hand] = t.template;
    }
  }

  // devices reached by the same roles hold the same list: each list is built once and shared
  const rolesOf = new Map<string, string[]>();
  for (const [roleId, deviceSet] of roleDevices) {
    if (!rolePeople.has(roleId)) continue;
    for (const deviceId of deviceSet) {
      const list = rolesOf.get(deviceId) ?? [];
      list.push(roleId);
      rolesOf.set(deviceId, list);
    }
  }
  const baseVersions = new Map<string, string>();
  const timeVersions = new Map<string, string>();
  const entryCache = new Map<string, AccessEntry>();
  const entryOf = (personId: string, times: string[]): AccessEntry => {
    const timesKey = JSON.stringify(times);
    const key = `${personId}\u0000${timesKey}`;
    let entry = entryCache.get(key);
    if (entry) return entry;
    const { tenantId: _t, palmLeft: _l, palmRight: _r, ...base } = people.get(personId)!;
    let baseVersion = baseVersions.get(personId);
    if (!baseVersion) baseVersions.set(personId, (baseVersion = hashOf([base.name, base.userNo, base.cardNo, base.palm.left ?? null, base.palm.right ?? null], 10)));
    let timeVersion = timeVersions.get(timesKey);
    if (!timeVersion) timeVersions.set(timesKey, (timeVersion = hashOf(times, 6)));
    entry = { ...base, times, version: baseVersion + timeVersion };
    entryCache.set(key, entry);
    return entry;
  };
  const shared = new Map<string, Map<string, AccessEntry>>();
  for (const deviceId of visitDevices.keys()) if (!rolesOf.has(deviceId)) rolesOf.set(deviceId, []);
  for (const [deviceId, roleIds] of rolesOf) {
    const signature = [...new Set(roleIds)].sort().join(',');
    let entries = shared.get(signature) ?? (signature === '' ? new Map<string, AccessEntry>() : undefined);
    if (!entries) {
      const byPerson = new Map<string, string[]>();
      for (const roleId of signature.split(',')) {
        const time = roles.get(roleId)!.time;
        for (const personId of rolePeople.get(roleId)!) {
          const times = byPerson.get(personId);
          if (!times) byPerson.set(personId, [time]);
          else if (!times.includes(time)) times.push(time);
        }
      }
      entries = new Map([...byPerson.keys()].sort().map((personId) => [personId, entryOf(personId, byPerson.get(personId)!.sort())]));
      shared.set(signature, entries);
    }
    // a visit's doors let its visitor through at any time of its window (the window itself is the list's membership)
    const visitors = visitDevices.get(deviceId);
    if (visitors) {
      const merged = new Map(entries);
      for (const visitorId of visitors) if (!merged.has(visitorId)) merged.set(visitorId, entryOf(visitorId, [VISIT_TIME]));
      entries = new Map([...merged].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    const list = out.get(deviceId)!;
    const max = capacity.get(deviceId);
    if (max !== null && max !== undefined && entries.size > max) {
      list.overCapacity = entries.size - max;
      list.entries = new Map([...entries].slice(0, Math.max(0, max)));
    } else {
      list.entries = entries;
    }
  }
  return out;
}
