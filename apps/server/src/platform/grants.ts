import { MenuType, Perm, entityDeclarations, entityPermissionCodes } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { SYSTEM_ADMIN_ROLE, accessCodes, heldBy, type CurrentUser } from './access.ts';
import { refuse } from './envelope.ts';
import { SEED_BY } from '../db/seed/index.ts';
import { seededPermissionCodes } from '../db/seed/menus.ts';

// Roles given to users and the protection of system administrators: a caller who is not a system administrator
// gives or takes only roles they hold, and cannot touch a holder of the system administrator role.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = Record<string, any>;

const unique = (ids: Iterable<string>) => [...new Set(ids)];

/** The ids of the roles the caller holds (their own user roles, not group roles). */
export async function heldRoleIds(app: FastifyInstance, caller: Pick<CurrentUser, 'id'>): Promise<Set<string>> {
  const rows = await app.db.selectFrom('sys_user_role').select('role_id').where('user_id', '=', caller.id).execute();
  return new Set(rows.map((r) => r.role_id));
}

/** The ids of the system administrator role (compared the way the access check finds it). */
export async function systemAdminRoleIds(app: FastifyInstance): Promise<Set<string>> {
  const rows = await app.db.selectFrom('sys_role').select('id').where('role_code', '=', SYSTEM_ADMIN_ROLE).execute();
  return new Set(rows.map((r) => r.id));
}

/** Those of `userIds` holding the system administrator role (deleted users too: they keep their roles). */
export async function systemAdminHolders(app: FastifyInstance, userIds: readonly string[]): Promise<string[]> {
  const ids = unique(userIds);
  if (ids.length === 0) return [];
  const holders = new Set<string>();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await app.db
      .selectFrom('sys_user_role as ur')
      .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
      .select('ur.user_id')
      .where('r.role_code', '=', SYSTEM_ADMIN_ROLE)
      .where('ur.user_id', 'in', ids.slice(i, i + 1000))
      .execute();
    for (const r of rows) holders.add(r.user_id);
  }
  return [...holders];
}

/** Refuses ('error.adminProtected') any change to a holder of the system administrator role by a caller who is not one. */
export async function assertMayManageUsers(app: FastifyInstance, caller: CurrentUser, userIds: readonly string[]): Promise<void> {
  if (caller.systemAdmin || userIds.length === 0) return;
  if ((await systemAdminHolders(app, userIds)).length > 0) refuse('error.adminProtected');
}

/** The roles a replacement of a user's roles adds and removes. */
export function roleChanges(current: Iterable<string>, next: Iterable<string>): { added: string[]; removed: string[] } {
  const [before, after] = [new Set(current), new Set(next)];
  return { added: [...after].filter((id) => !before.has(id)), removed: [...before].filter((id) => !after.has(id)) };
}

/**
 * A caller who is not a system administrator adds to or removes from users only roles they hold themselves, and
 * never the system administrator role.
 */
export async function assertMayGiveRoles(app: FastifyInstance, caller: CurrentUser, change: { added?: readonly string[]; removed?: readonly string[] }): Promise<void> {
  const changed = unique([...(change.added ?? []), ...(change.removed ?? [])]);
  if (caller.systemAdmin || changed.length === 0) return;
  const adminRoles = await systemAdminRoleIds(app);
  if (changed.some((id) => adminRoles.has(id))) refuse('grant.adminRoleOnly');
  const held = await heldRoleIds(app, caller);
  if (changed.some((id) => !held.has(id))) refuse('grant.roleNotHeld');
}

/** A caller who is not a system administrator gives or takes a group role only when holding all its permissions. */
export async function assertMayGiveDepartRoles(app: FastifyInstance, caller: CurrentUser, departRoleIds: readonly string[]): Promise<void> {
  const ids = unique(departRoleIds);
  if (caller.systemAdmin || ids.length === 0) return;
  const needed = await app.db.selectFrom('sys_depart_role_permission').select('permission_id').distinct().where('role_id', 'in', ids).execute();
  if (needed.length === 0) return;
  const held = await heldPermissionIds(app, caller);
  if (needed.some((r) => !held.has(r.permission_id))) refuse('grant.departRoleNotHeld');
}

/** Deleting group roles takes them from their holders: allowed only to a caller who could take them one by one. */
export async function assertMayDeleteDepartRoles(app: FastifyInstance, caller: CurrentUser, departRoleIds: readonly string[]): Promise<void> {
  const ids = unique(departRoleIds);
  if (caller.systemAdmin || ids.length === 0) return;
  const links = await app.db.selectFrom('sys_depart_role_user').select(['drole_id', 'user_id']).where('drole_id', 'in', ids).execute();
  await assertMayManageUsers(app, caller, links.map((l) => l.user_id));
  await assertMayGiveDepartRoles(app, caller, links.map((l) => l.drole_id));
}

const isSystemAdminCode = (code: unknown) => typeof code === 'string' && code.trim().toLowerCase() === SYSTEM_ADMIN_ROLE;

/** Only a system administrator names a role with the system administrator role's code. */
export function assertMayUseRoleCode(caller: CurrentUser, code: unknown): void {
  if (!caller.systemAdmin && isSystemAdminCode(code)) refuse('grant.adminRoleCode');
}

/**
 * A caller who is not a system administrator edits or deletes a role only when it is not the system administrator
 * role and holds no permission the caller lacks.
 */
export async function assertMayChangeRoles(app: FastifyInstance, caller: CurrentUser, roles: readonly Row[]): Promise<void> {
  if (caller.systemAdmin || roles.length === 0) return;
  if (roles.some((r) => isSystemAdminCode(r.role_code))) refuse('role.adminProtected');
  const needed = await app.db
    .selectFrom('sys_role_permission')
    .select('permission_id')
    .distinct()
    .where('role_id', 'in', roles.map((r) => r.id as string))
    .execute();
  if (needed.length === 0) return;
  const held = await heldPermissionIds(app, caller);
  if (needed.some((r) => !held.has(r.permission_id))) refuse('grant.roleNotManageable');
}

// Permissions given to roles, groups and group roles, and the menu and button entries themselves: a caller who is
// not a system administrator gives, takes, edits, moves and deletes only entries they hold; a built-in entry keeps
// its permission code, and a new code is one the console knows and no live entry carries.

/** The ids of the menu and button entries the caller holds (their roles, and group roles in the current group). */
export async function heldPermissionIds(app: FastifyInstance, caller: Pick<CurrentUser, 'id' | 'orgCode'>): Promise<Set<string>> {
  const rows = await app.db.selectFrom('sys_permission as p').select('p.id').where(heldBy(app.db, caller)).execute();
  return new Set(rows.map((r) => r.id));
}

/** The entries a replacement of a role's, group's or group role's permissions adds and removes. */
export function permissionChanges(current: Iterable<string>, next: Iterable<string>): { added: string[]; removed: string[] } {
  return roleChanges(current, next);
}

/**
 * A caller who is not a system administrator adds to or removes from a role, group or group role only entries they
 * hold ('role.notGrantable' / 'role.notRevocable'); every other entry keeps its state.
 */
export async function assertMayGivePermissions(app: FastifyInstance, caller: CurrentUser, change: { added?: readonly string[]; removed?: readonly string[] }): Promise<void> {
  const [added, removed] = [unique(change.added ?? []), unique(change.removed ?? [])];
  if (caller.systemAdmin || added.length + removed.length === 0) return;
  const held = await heldPermissionIds(app, caller);
  if (added.some((id) => !held.has(id))) refuse('role.notGrantable');
  if (removed.some((id) => !held.has(id))) refuse('role.notRevocable');
}

/** Data rules of a menu (defined, or given to a role, group or group role) change only by a holder of the menu. */
export async function assertMayChangeDataRules(app: FastifyInstance, caller: CurrentUser, menuId: string, change?: { before: Iterable<string>; after: Iterable<string> }): Promise<void> {
  if (caller.systemAdmin) return;
  if (change) {
    const { added, removed } = roleChanges(change.before, change.after);
    if (added.length + removed.length === 0) return;
  }
  if (!(await heldPermissionIds(app, caller)).has(menuId)) refuse('dataRule.menuNotHeld');
}

/** Every permission code the console knows: the seeded tree's, the declared screens', and those routes check. */
export function permissionCodeRegistry(app: FastifyInstance): Set<string> {
  const codes = new Set<string>([...seededPermissionCodes(), ...entityDeclarations.flatMap(entityPermissionCodes), ...Object.values(Perm)]);
  for (const route of app.routeCatalogue) for (const code of accessCodes(route.permission)) codes.add(code);
  return codes;
}

const codeOf = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
const parentOf = (value: unknown): string | null => (typeof value === 'string' && value !== '' && value !== '0' ? value : null);
/** The code an entry makes effective: only buttons' codes are checked by the server. */
const effectiveCode = (menuType: number, code: string | null) => (menuType === MenuType.button ? code : null);

/** A built-in entry: made by the seed, or carrying a seeded code. */
export function isSeededEntry(row: { create_by?: unknown; perms?: unknown }): boolean {
  const code = codeOf(row.perms);
  return row.create_by === SEED_BY || (code !== null && seededPermissionCodes().includes(code));
}

/** A code given to an entry is one the console knows and no other live entry carries. */
async function assertCodeAvailable(app: FastifyInstance, code: string | null, exceptId: string | null): Promise<void> {
  if (code === null) return;
  if (!permissionCodeRegistry(app).has(code)) refuse('permission.unknownCode', { code });
  let query = app.db.selectFrom('sys_permission').select('id').where('perms', '=', code).where('del_flag', '=', 0);
  if (exceptId) query = query.where('id', '<>', exceptId);
  if (await query.executeTakeFirst()) refuse('permission.duplicateCode', { code });
}

/** A new entry (form or import): below a held parent for a caller who is not a system administrator; a known, free code. */
export async function assertMayAddPermissionEntry(app: FastifyInstance, caller: CurrentUser, values: Row): Promise<void> {
  if (!caller.systemAdmin) {
    const parent = parentOf(values.parentId);
    if (parent === null || !(await heldPermissionIds(app, caller)).has(parent)) refuse('permission.parentNotHeld');
  }
  await assertCodeAvailable(app, codeOf(values.perms), null);
}

/**
 * An edit of an entry. Nobody rewrites a built-in entry's code. A caller who is not a system administrator edits
 * only held entries, moves or retypes them only between held parents, and never gives an entry a code or makes one
 * take effect (that would hand the caller the code).
 */
export async function assertMayEditPermissionEntry(app: FastifyInstance, caller: CurrentUser, values: Row, existing: Row): Promise<void> {
  const codeBefore = codeOf(existing.perms);
  const codeAfter = values.perms === undefined ? codeBefore : codeOf(values.perms);
  const codeChanged = codeAfter !== codeBefore;
  if (codeChanged && isSeededEntry(existing)) refuse('permission.seededCode');
  if (!caller.systemAdmin) {
    const held = await heldPermissionIds(app, caller);
    if (!held.has(existing.id as string)) refuse('permission.entryNotHeld');
    const [parentBefore, typeBefore] = [parentOf(existing.parent_id), Number(existing.menu_type)];
    const parentAfter = values.parentId === undefined ? parentBefore : parentOf(values.parentId);
    const typeAfter = values.menuType === undefined || values.menuType === null ? typeBefore : Number(values.menuType);
    if (parentAfter !== parentBefore || typeAfter !== typeBefore) {
      for (const parent of [parentBefore, parentAfter]) if (parent === null || !held.has(parent)) refuse('permission.parentNotHeld');
    }
    const [effectiveBefore, effectiveAfter] = [effectiveCode(typeBefore, codeBefore), effectiveCode(typeAfter, codeAfter)];
    if ((codeChanged && codeAfter !== null) || (effectiveAfter !== null && effectiveAfter !== effectiveBefore)) refuse('permission.codeAdminOnly');
  }
  if (codeChanged) await assertCodeAvailable(app, codeAfter, existing.id as string);
}

// Device roles: what a device role binds (areas, devices, doors) reaches everyone who holds it, so binding is
// granting. A caller who is not a system administrator creates, changes or deletes a device role only when every
// area, device and door it binds, before and after the change, is his own to grant: covered by a device role he holds
// himself (one listing him among its users, or one of his groups). A role covers the areas it binds, the devices it
// binds or that stand in those areas, and the doors it binds or that belong to those devices or areas. Targets of
// another tenant are refused before this by the link check (a caller picks only his tenant's rows).

/** What device roles bind. */
export interface DeviceTargets {
  areaIds: readonly string[];
  deviceIds: readonly string[];
  doorIds: readonly string[];
}

/** The ids of the device roles a user holds: those listing him, and those listing a group he belongs to. */
export async function heldDeviceRoleIds(app: FastifyInstance, userId: string): Promise<string[]> {
  const direct = await app.db.selectFrom('sys_device_role_user').select('role_id').where('user_id', '=', userId).execute();
  const viaGroups = await app.db
    .selectFrom('sys_device_role_depart as rd')
    .innerJoin('sys_user_depart as ud', 'ud.dep_id', 'rd.depart_id')
    .select('rd.role_id')
    .where('ud.user_id', '=', userId)
    .execute();
  return unique([...direct, ...viaGroups].map((r) => r.role_id));
}

/** What a caller's device roles cover, as sets of ids. */
export interface CoveredDeviceTargets {
  areaIds: ReadonlySet<string>;
  deviceIds: ReadonlySet<string>;
  doorIds: ReadonlySet<string>;
}

/**
 * The areas, devices and doors the caller may bind through a device role (the pickers offer these), or null for a
 * system administrator, who binds anything of his tenant.
 */
export async function bindableDeviceTargets(app: FastifyInstance, caller: CurrentUser): Promise<CoveredDeviceTargets | null> {
  if (caller.systemAdmin) return null;
  const roles = await heldDeviceRoleIds(app, caller.id);
  if (roles.length === 0) return { areaIds: new Set(), deviceIds: new Set(), doorIds: new Set() };
  const areas = unique((await app.db.selectFrom('sys_device_role_area').select('area_id').where('role_id', 'in', roles).execute()).map((r) => r.area_id));
  const boundDevices = unique((await app.db.selectFrom('sys_device_role_device').select('device_id').where('role_id', 'in', roles).execute()).map((r) => r.device_id));
  const boundDoors = unique((await app.db.selectFrom('sys_device_role_door').select('door_id').where('role_id', 'in', roles).execute()).map((r) => r.door_id));
  // the devices it binds or that stand in its areas; the doors it binds or that belong to those devices or areas
  const devices =
    boundDevices.length + areas.length === 0
      ? []
      : (
          await app.db
            .selectFrom('sys_device')
            .select('id')
            .where((eb) => eb.or([...(boundDevices.length ? [eb('id', 'in', boundDevices)] : []), ...(areas.length ? [eb('area_id', 'in', areas)] : [])]))
            .execute()
        ).map((r) => r.id);
  const doors =
    boundDoors.length + areas.length + devices.length === 0
      ? []
      : (
          await app.db
            .selectFrom('sys_door')
            .select('id')
            .where((eb) =>
              eb.or([
                ...(boundDoors.length ? [eb('id', 'in', boundDoors)] : []),
                ...(areas.length ? [eb('area_id', 'in', areas)] : []),
                ...(devices.length ? [eb('device_id', 'in', devices)] : []),
              ]),
            )
            .execute()
        ).map((r) => r.id);
  return { areaIds: new Set(areas), deviceIds: new Set(devices), doorIds: new Set(doors) };
}

/** Refuses ('grant.deviceTargetNotHeld') binding or unbinding targets the caller's own device roles do not cover. */
export async function assertMayBindDeviceTargets(app: FastifyInstance, caller: CurrentUser, targets: DeviceTargets): Promise<void> {
  if (caller.systemAdmin || targets.areaIds.length + targets.deviceIds.length + targets.doorIds.length === 0) return;
  const covered = await bindableDeviceTargets(app, caller);
  if (!covered) return;
  const held = (ids: readonly string[], set: ReadonlySet<string>) => ids.every((id) => set.has(id));
  if (!held(targets.areaIds, covered.areaIds) || !held(targets.deviceIds, covered.deviceIds) || !held(targets.doorIds, covered.doorIds)) refuse('grant.deviceTargetNotHeld');
}

/** The areas, devices and doors the given device roles bind. */
export async function deviceRoleTargets(app: FastifyInstance, roleIds: readonly string[]): Promise<DeviceTargets> {
  if (roleIds.length === 0) return { areaIds: [], deviceIds: [], doorIds: [] };
  const ids = unique([...roleIds]);
  return {
    areaIds: (await app.db.selectFrom('sys_device_role_area').select('area_id').where('role_id', 'in', ids).execute()).map((r) => r.area_id),
    deviceIds: (await app.db.selectFrom('sys_device_role_device').select('device_id').where('role_id', 'in', ids).execute()).map((r) => r.device_id),
    doorIds: (await app.db.selectFrom('sys_device_role_door').select('door_id').where('role_id', 'in', ids).execute()).map((r) => r.door_id),
  };
}

/**
 * Refuses ('grant.deviceTargetNotHeld') handing device roles to someone or taking them away when the caller's own
 * device roles do not cover everything those roles bind: the same rule as listing a person on the role itself.
 */
export async function assertMayHandDeviceRoles(app: FastifyInstance, caller: CurrentUser, change: { added?: readonly string[]; removed?: readonly string[] }): Promise<void> {
  const roles = [...(change.added ?? []), ...(change.removed ?? [])];
  if (caller.systemAdmin || roles.length === 0) return;
  await assertMayBindDeviceTargets(app, caller, await deviceRoleTargets(app, roles));
}

/** A caller who is not a system administrator deletes only entries they hold. */
export async function assertMayDeletePermissionEntries(app: FastifyInstance, caller: CurrentUser, rows: readonly Row[]): Promise<void> {
  if (caller.systemAdmin || rows.length === 0) return;
  const held = await heldPermissionIds(app, caller);
  if (rows.some((r) => !held.has(r.id as string))) refuse('permission.entryNotHeld');
}

// Storage managers: managing a cabinet device is allocating its cabinets, so naming a manager of devices is granting.
// A caller who is not a system administrator manages the cabinet devices a storage manager entry lists for him, and
// names managers only of those.

/** The cabinet devices the caller manages, or null for a system administrator, who manages every device of his tenant. */
export async function managedCabinetDevices(app: FastifyInstance, caller: CurrentUser): Promise<Set<string> | null> {
  if (caller.systemAdmin) return null;
  const rows = await app.db
    .selectFrom('sys_storage_manager as m')
    .innerJoin('sys_storage_manager_device as md', 'md.manager_id', 'm.id')
    .select('md.device_id')
    .where('m.user_name', '=', caller.username)
    .execute();
  return new Set(rows.map((r) => r.device_id));
}

/** Refuses ('grant.cabinetDeviceNotHeld') handing over or taking away cabinet devices the caller does not manage. */
export async function assertMayHandCabinetDevices(app: FastifyInstance, caller: CurrentUser, deviceIds: readonly string[]): Promise<void> {
  if (caller.systemAdmin || deviceIds.length === 0) return;
  const managed = await managedCabinetDevices(app, caller);
  if (managed && deviceIds.some((id) => !managed.has(id))) refuse('grant.cabinetDeviceNotHeld');
}

// Keys: a key role gives keys to people, and a key person takes the keys the roles listing them give. A caller who is
// not a system administrator binds, unbinds and hands out only keys of the key cabinets he manages (a storage manager
// entry lists the device for him), the way cabinets go only from their devices' managers.

/** The keys the key roles give `peopleIds` (directly, through their groups, or as users by work number). */
export async function keysReachingPeople(app: FastifyInstance, peopleIds: readonly string[]): Promise<string[]> {
  if (peopleIds.length === 0) return [];
  const departs = unique((await app.db.selectFrom('sys_people').select('depart_id').where('id', 'in', [...peopleIds]).execute()).map((p) => p.depart_id).filter((d): d is string => d !== null));
  const direct = await app.db.selectFrom('sys_device_role_people').select('role_id').where('people_id', 'in', [...peopleIds]).execute();
  const viaGroups = departs.length === 0 ? [] : await app.db.selectFrom('sys_device_role_depart').select('role_id').where('depart_id', 'in', departs).execute();
  // as users: the users whose work number is one of the people's user numbers
  const viaUsers = await app.db
    .selectFrom('sys_device_role_user as ru')
    .innerJoin('sys_user as u', 'u.id', 'ru.user_id')
    .innerJoin('sys_people as p', 'p.user_no', 'u.work_no')
    .select('ru.role_id')
    .where('p.id', 'in', [...peopleIds])
    .execute();
  const roles = unique([...direct, ...viaGroups, ...viaUsers].map((r) => r.role_id));
  if (roles.length === 0) return [];
  const links = await app.db.selectFrom('sys_device_role_key').select('key_id').where('role_id', 'in', roles).execute();
  return unique(links.map((l) => l.key_id));
}

/** Refuses ('grant.keyNotHeld') binding, unbinding or handing out keys of key cabinets the caller does not manage. */
export async function assertMayHandKeys(app: FastifyInstance, caller: CurrentUser, keyIds: readonly string[]): Promise<void> {
  if (caller.systemAdmin || keyIds.length === 0) return;
  const managed = await managedCabinetDevices(app, caller);
  if (!managed) return;
  const keys = await app.db.selectFrom('sys_key').select('device_id').where('id', 'in', unique([...keyIds])).execute();
  if (keys.some((k) => !managed.has(k.device_id))) refuse('grant.keyNotHeld');
}

// API keys (issue 32): a key acts with permission codes in a tenant, so making one is granting them. Anyone, a system
// administrator included, gives a key only codes he holds; a key goes only to the caller's own tenant, unless he is
// a system administrator, who names any existing tenant. A key keeps holding its codes only while its creator does
// (platform/access.ts).

/** Refuses ('grant.apiKeyCodeNotHeld' / 'grant.apiKeyTenantNotHeld') a key with a code or tenant the caller cannot give. */
export async function assertMayGiveApiKey(app: FastifyInstance, caller: CurrentUser, key: { permCodes: readonly string[]; tenantId: string }): Promise<void> {
  const missing = key.permCodes.find((code) => !caller.permissions.has(code));
  if (missing !== undefined) refuse('grant.apiKeyCodeNotHeld', { code: missing });
  if (!caller.systemAdmin) {
    if (caller.tenantId === null || key.tenantId !== caller.tenantId) refuse('grant.apiKeyTenantNotHeld');
    return;
  }
  if (!(await app.db.selectFrom('sys_tenant').select('id').where('id', '=', key.tenantId).executeTakeFirst())) refuse('tenant.unknown');
}
