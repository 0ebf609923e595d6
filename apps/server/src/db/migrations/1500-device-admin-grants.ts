import { randomUUID } from 'node:crypto';
import type { Migration } from 'kysely';
import type { AnyDb } from './table-helpers.ts';

// Fixed here as released: this migration must keep doing what it did whatever the seed becomes.
const SEED_BY = 'system';
const DEVICE_ADMIN_ROLE = 'device_admin';
/** the areas a device administrator holds whole: devices (devices, doors, people, device roles, alarms…) and device operations */
const DEVICE_AREAS = ['/device', '/devices'];
/** buttons outside those areas it needs for its screens' pickers: groups and vendors */
const LOOKUPS = ['system:depart:list', 'system:vendor:list'];
/** what every seeded role was given before this release: the home screens */
const HOME_ENTRIES = ['/dashboard', '/dashboard/analysis', '/dashboard/clock'];

/** The seeded rows of the menu areas at `urls`: the areas, their screens and the screens' buttons. */
async function seededTree(db: AnyDb, urls: readonly string[], screensToo: boolean): Promise<string[]> {
  const tops: Array<{ id: string }> = await db.selectFrom('sys_permission').select('id').where('url', 'in', urls).where('create_by', '=', SEED_BY).where('del_flag', '=', 0).execute();
  const ids = tops.map((r) => r.id);
  let parents = ids;
  for (let level = screensToo ? 0 : 1; level < 2 && parents.length > 0; level++) {
    const children: Array<{ id: string }> = await db.selectFrom('sys_permission').select('id').where('parent_id', 'in', parents).where('create_by', '=', SEED_BY).where('del_flag', '=', 0).execute();
    parents = children.map((r) => r.id);
    ids.push(...parents);
  }
  return [...new Set(ids)];
}

/**
 * The seeded device-administrator role could do nothing (it held the home screens only): it now holds the device
 * menu trees' pages and buttons, and reads groups and vendors for their pickers. Only a role whose grants are still the seeded ones is widened; one an administrator
 * has edited keeps what they gave it. A new database gets the same from the seed.
 */
async function up(db: AnyDb): Promise<void> {
  const roles: Array<{ id: string }> = await db.selectFrom('sys_role').select('id').where('role_code', '=', DEVICE_ADMIN_ROLE).where('create_by', '=', SEED_BY).execute();
  if (roles.length === 0) return;
  // home areas hold screens whose buttons are grants too; an area's own url list names its screens directly
  const home = new Set(await seededTree(db, HOME_ENTRIES, false));
  const lookups: Array<{ id: string }> = await db.selectFrom('sys_permission').select('id').where('perms', 'in', LOOKUPS).where('create_by', '=', SEED_BY).where('del_flag', '=', 0).execute();
  const device = [...(await seededTree(db, DEVICE_AREAS, true)), ...lookups.map((r) => r.id)];
  const now = new Date().toISOString();
  for (const role of roles) {
    const grants: Array<{ permission_id: string; create_by: string | null }> = await db.selectFrom('sys_role_permission').select(['permission_id', 'create_by']).where('role_id', '=', role.id).execute();
    const untouched = grants.length > 0 && grants.every((g) => g.create_by === SEED_BY && home.has(g.permission_id));
    if (!untouched) continue;
    const held = new Set(grants.map((g) => g.permission_id));
    const added = device.filter((id) => !held.has(id));
    for (let i = 0; i < added.length; i += 100) {
      await db
        .insertInto('sys_role_permission')
        .values(added.slice(i, i + 100).map((permissionId) => ({ id: randomUUID(), role_id: role.id, permission_id: permissionId, create_by: SEED_BY, create_time: now, update_by: null, update_time: null })))
        .execute();
    }
  }
}

export const deviceAdminGrants: Migration = { up };
