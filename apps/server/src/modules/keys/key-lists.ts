import { createHash } from 'node:crypto';
import { KEY_ROLE_TYPE, type KeyEntry, type KeyHolder } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** A key cabinet's list: its keys, each with who may take it and when, and the version naming the list. */
export interface DeviceKeyList {
  deviceId: string;
  keys: KeyEntry[];
  version: string;
}

const CHUNK = 500;
const sameTenant = (a: string | null, b: string | null) => (a ?? null) === (b ?? null);

/**
 * What each key cabinet should hold: its keys in slot order, each with the people who may take it. A person may take a
 * key when they are a key person and a key role of their tenant binds the key to them, directly, through their group
 * or as a user (by work number); the time settings of those roles say when. Deleted and frozen people take nothing. `deviceIds` limits the
 * answer to those devices (every device with keys otherwise).
 */
export async function computeKeyLists(database: Kysely<Database>, deviceIds?: readonly string[]): Promise<Map<string, DeviceKeyList>> {
  // the link tables of device roles are read untyped: they are plain (role_id, target) pairs
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const db = database as unknown as Kysely<any>;
  let keyQuery = database.selectFrom('sys_key').select(['id', 'key_name', 'device_id', 'slot_no', 'tenant_id']);
  if (deviceIds) {
    if (deviceIds.length === 0) return new Map();
    keyQuery = keyQuery.where('device_id', 'in', [...deviceIds]);
  }
  const keys = await keyQuery.orderBy('device_id').orderBy('slot_no').execute();
  const keyIds = keys.map((k) => k.id);
  const tenantOfKey = new Map(keys.map((k) => [k.id, k.tenant_id]));

  // key → roles (of the key kind, of the key's tenant) with their time settings
  const roleTimes = new Map<string, string>();
  const keyRoles = new Map<string, string[]>();
  for (let i = 0; i < keyIds.length; i += CHUNK) {
    for (const r of await db
      .selectFrom('sys_device_role_key as l')
      .innerJoin('sys_device_role as r', 'r.id', 'l.role_id')
      .select(['l.key_id as key_id', 'r.id as role_id', 'r.time_setting as time_setting', 'r.tenant_id as tenant_id'])
      .where('l.key_id', 'in', keyIds.slice(i, i + CHUNK))
      .where('r.role_type', '=', KEY_ROLE_TYPE)
      .execute()) {
      if (!sameTenant(r.tenant_id, tenantOfKey.get(r.key_id) ?? null)) continue;
      roleTimes.set(r.role_id, (r.time_setting as string | null) ?? '');
      keyRoles.set(r.key_id, [...(keyRoles.get(r.key_id) ?? []), r.role_id]);
    }
  }

  // role → key people (directly, or through their group)
  const rolePeople = new Map<string, Array<Omit<KeyHolder, 'times'> & { tenantId: string | null }>>();
  const roleIds = [...roleTimes.keys()];
  const columns = ['l.role_id as role_id', 'p.id as id', 'p.name as name', 'p.user_no as user_no', 'p.card_no as card_no', 'p.tenant_id as tenant_id'];
  for (let i = 0; i < roleIds.length; i += CHUNK) {
    const ids = roleIds.slice(i, i + CHUNK);
    const direct = db.selectFrom('sys_device_role_people as l').innerJoin('sys_people as p', 'p.id', 'l.people_id');
    const byGroup = db.selectFrom('sys_device_role_depart as l').innerJoin('sys_people as p', 'p.depart_id', 'l.depart_id');
    // a user of the role: the person whose user number is the user's work number (of the key's tenant, checked below)
    const asUser = db
      .selectFrom('sys_device_role_user as l')
      .innerJoin('sys_user as u', 'u.id', 'l.user_id')
      .innerJoin('sys_people as p', 'p.user_no', 'u.work_no');
    for (const from of [direct, byGroup, asUser]) {
      for (const p of await from
        .innerJoin('sys_key_people as kp', 'kp.people_id', 'p.id')
        .select(columns)
        .where('l.role_id', 'in', ids)
        .where('p.del_flag', '=', 0)
        .where('p.status', '=', 1)
        .execute()) {
        const list = rolePeople.get(p.role_id) ?? [];
        list.push({ peopleId: p.id, name: p.name, userNo: p.user_no ?? null, cardNo: p.card_no ?? null, tenantId: p.tenant_id ?? null });
        rolePeople.set(p.role_id, list);
      }
    }
  }

  const out = new Map<string, DeviceKeyList>();
  for (const id of deviceIds ?? []) out.set(id, { deviceId: id, keys: [], version: '' });
  for (const key of keys) {
    const byPerson = new Map<string, KeyHolder>();
    for (const roleId of keyRoles.get(key.id) ?? []) {
      for (const person of rolePeople.get(roleId) ?? []) {
        if (!sameTenant(person.tenantId, key.tenant_id)) continue;
        const holder = byPerson.get(person.peopleId) ?? { peopleId: person.peopleId, name: person.name, userNo: person.userNo, cardNo: person.cardNo, times: [] };
        const time = roleTimes.get(roleId) ?? '';
        if (!holder.times.includes(time)) holder.times.push(time);
        byPerson.set(person.peopleId, holder);
      }
    }
    const entry: KeyEntry = {
      slot: key.slot_no,
      keyId: key.id,
      name: key.key_name,
      holders: [...byPerson.values()].sort((a, b) => (a.peopleId < b.peopleId ? -1 : 1)).map((h) => ({ ...h, times: [...h.times].sort() })),
    };
    const list = out.get(key.device_id) ?? { deviceId: key.device_id, keys: [], version: '' };
    list.keys.push(entry);
    out.set(key.device_id, list);
  }
  for (const list of out.values()) list.version = versionOf(list.keys);
  return out;
}

/** The version of a list: the same keys and holders give the same version on every server. */
export function versionOf(keys: readonly KeyEntry[]): string {
  return createHash('sha256').update(JSON.stringify(keys)).digest('hex').slice(0, 16);
}
