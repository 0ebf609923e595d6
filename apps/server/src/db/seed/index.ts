import { randomInt, randomUUID } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import type { Clock } from '../../platform/clock.ts';
import type { PasswordHasher } from '../../platform/passwords.ts';
import type { Database, SysPermission } from '../schema.ts';
import { dictionaryDefinition } from './dictionaries.ts';
import { DEVICE_ADMIN_ROLE, SEEDED_ROLE_LOOKUPS, areaTitleKey, menuDefinition, screenPermissionCodes, screenTitleKey } from './menus.ts';

export const ADMIN_USERNAME = 'admin';
export const ROOT_ORG_CODE = 'A01';
export const RoleCode = { admin: 'admin', user: 'user', deviceAdmin: DEVICE_ADMIN_ROLE } as const;
/** sys_role.role_type: 1 user role, 2 device administrator role (SPEC section 3) */
export const RoleType = { user: 1, deviceAdmin: 2 } as const;

export interface SeedOutcome {
  seeded: boolean;
  /** only when ADMIN_PASSWORD was not given; shown once by main.ts and never stored in clear */
  generatedAdminPassword: string | null;
}

/** create_by of every seeded row: a menu or button carrying it is a built-in one */
export const SEED_BY = 'system';

/** The classes isStrongPassword asks for, without the characters people misread (0/O/o, 1/l/I). */
const PASSWORD_CLASSES = ['abcdefghijkmnpqrstuvwxyz', 'ABCDEFGHJKLMNPQRSTUVWXYZ', '23456789', '_'] as const;
const PASSWORD_LENGTH = 16;

/** Strong by construction: crypto-random characters of a clear alphabet, each class at a random place, no fixed part. */
export function generateAdminPassword(): string {
  const alphabet = PASSWORD_CLASSES.join('');
  const chars = Array.from({ length: PASSWORD_LENGTH }, () => alphabet[randomInt(alphabet.length)] as string);
  const places = Array.from({ length: PASSWORD_LENGTH }, (_, i) => i);
  for (const characters of PASSWORD_CLASSES) {
    const place = places.splice(randomInt(places.length), 1)[0] as number;
    chars[place] = characters[randomInt(characters.length)] as string;
  }
  return chars.join('');
}

/**
 * All menu rows, the ids every seeded role gets (the home screens) and, per seeded role code, the ids of the areas it
 * holds whole (AreaDefinition.roles); the administrator role gets them all.
 */
function permissionRows(now: string): { rows: Insertable<Database['sys_permission']>[]; everyoneIds: string[]; byRole: Map<string, string[]> } {
  const rows: Insertable<Database['sys_permission']>[] = [];
  const everyoneIds: string[] = [];
  const byRole = new Map<string, string[]>();
  const base = { create_by: SEED_BY, create_time: now, update_by: null, update_time: null, del_flag: 0, status: '1' };
  menuDefinition.forEach((area, areaIndex) => {
    const first = rows.length;
    const areaVisible = area.screens.some((s) => s.visible);
    const areaId = randomUUID();
    const areaRow: SysPermission = {
      ...base,
      id: areaId,
      parent_id: null,
      name: areaTitleKey(area),
      url: `/${area.key}`,
      component: 'layouts/RouteView',
      component_name: null,
      redirect: area.redirect ?? null,
      menu_type: 0,
      perms: null,
      perms_type: null,
      sort_no: (areaIndex + 1) * 10,
      always_show: 0,
      icon: area.icon,
      is_route: areaVisible ? 1 : 0,
      is_leaf: 0,
      keep_alive: 0,
      hidden: areaVisible ? 0 : 1,
      internal_or_external: 0,
    };
    rows.push(areaRow);
    if (area.screens.some((s) => s.everyone)) everyoneIds.push(areaId);
    area.screens.forEach((screen, screenIndex) => {
      const screenId = randomUUID();
      const codes = screenPermissionCodes(area, screen);
      rows.push({
        ...areaRow,
        id: screenId,
        parent_id: areaId,
        name: screenTitleKey(area, screen),
        url: `/${area.key}/${screen.key}`,
        component: `${area.key}/${screen.key}`,
        component_name: `${area.key}-${screen.key}`,
        redirect: null,
        menu_type: 1,
        sort_no: screenIndex + 1,
        icon: screen.icon ?? null,
        is_route: screen.visible ? 1 : 0,
        is_leaf: codes.length === 0 ? 1 : 0,
        hidden: screen.visible ? 0 : 1,
      });
      if (screen.everyone) everyoneIds.push(screenId);
      codes.forEach((code, codeIndex) => {
        const id = randomUUID();
        rows.push({
          ...areaRow,
          id,
          parent_id: screenId,
          name: `${code.split(':').pop() ?? code} (${area.key}/${screen.key})`,
          url: null,
          component: null,
          redirect: null,
          menu_type: 2,
          perms: code,
          perms_type: '1',
          sort_no: codeIndex + 1,
          icon: null,
          is_route: 0,
          is_leaf: 1,
          hidden: 0,
        });
        if (screen.everyone) everyoneIds.push(id);
      });
    });
    const areaIds = rows.slice(first).map((r) => r.id as string);
    for (const code of area.roles ?? []) byRole.set(code, [...(byRole.get(code) ?? []), ...areaIds]);
  });
  for (const [code, perms] of Object.entries(SEEDED_ROLE_LOOKUPS)) {
    const ids = rows.filter((r) => r.perms && perms.includes(r.perms)).map((r) => r.id as string);
    byRole.set(code, [...(byRole.get(code) ?? []), ...ids]);
  }
  return { rows, everyoneIds, byRole };
}

async function insertChunked<T extends keyof Database>(db: Kysely<Database>, table: T, rows: Insertable<Database[T]>[]) {
  for (let i = 0; i < rows.length; i += 100) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await db.insertInto(table).values(rows.slice(i, i + 100) as any).execute();
  }
}

/** First start only: an existing user table means the console is set up, and nothing is touched. */
export async function seedIfEmpty(
  database: Kysely<Database>,
  options: { hasher: PasswordHasher; adminPassword: string | null; clock: Clock },
): Promise<SeedOutcome> {
  const existing = await database.selectFrom('sys_user').select('id').limit(1).executeTakeFirst();
  if (existing) return { seeded: false, generatedAdminPassword: null };

  const generatedAdminPassword = options.adminPassword ? null : generateAdminPassword();
  const passwordHash = await options.hasher.hash(options.adminPassword ?? (generatedAdminPassword as string));
  const now = new Date(options.clock()).toISOString();
  const audit = { create_by: SEED_BY, create_time: now, update_by: null, update_time: null };

  await database.transaction().execute(async (db) => {
    const tenantId = randomUUID();
    await db.insertInto('sys_tenant').values({ ...audit, id: tenantId, name: 'Default', code: 'default', begin_date: null, end_date: null, status: 1 }).execute();

    const adminId = randomUUID();
    await db
      .insertInto('sys_user')
      .values({
        ...audit,
        id: adminId,
        username: ADMIN_USERNAME,
        realname: 'Administrator',
        nickname: null,
        password: passwordHash,
        avatar: null,
        birthday: null,
        sex: null,
        email: null,
        phone: null,
        org_code: ROOT_ORG_CODE,
        status: 1,
        del_flag: 0,
        work_no: null,
        must_change_password: 1,
        tenant_id: tenantId,
      })
      .execute();

    const roles = [
      { code: RoleCode.admin, name: 'System administrator', type: RoleType.user },
      { code: RoleCode.user, name: 'User', type: RoleType.user },
      { code: RoleCode.deviceAdmin, name: 'Device administrator', type: RoleType.deviceAdmin },
    ].map((r) => ({ ...audit, id: randomUUID(), role_code: r.code, role_name: r.name, role_type: r.type, description: r.name, tenant_id: tenantId }));
    await db.insertInto('sys_role').values(roles).execute();
    const adminRole = roles[0]!;
    await db.insertInto('sys_user_role').values({ ...audit, id: randomUUID(), user_id: adminId, role_id: adminRole.id }).execute();

    const { rows, everyoneIds, byRole } = permissionRows(now);
    await insertChunked(db, 'sys_permission', rows);
    const grants = [
      ...rows.map((p) => ({ role: adminRole.id, permission: p.id })),
      ...roles.slice(1).flatMap((role) => [...everyoneIds, ...(byRole.get(role.role_code) ?? [])].map((id) => ({ role: role.id, permission: id }))),
    ].map((g) => ({ ...audit, id: randomUUID(), role_id: g.role, permission_id: g.permission }));
    await insertChunked(db, 'sys_role_permission', grants);

    const departId = randomUUID();
    await db
      .insertInto('sys_depart')
      .values({ ...audit, id: departId, parent_id: null, depart_name: 'ISPS', org_code: ROOT_ORG_CODE, org_type: '1', depart_order: 0, mobile: null, address: null, memo: null, del_flag: 0, tenant_id: tenantId })
      .execute();
    await db.insertInto('sys_user_depart').values({ ...audit, id: randomUUID(), user_id: adminId, dep_id: departId }).execute();

    for (const dict of dictionaryDefinition) {
      const dictId = randomUUID();
      await db.insertInto('sys_dict').values({ ...audit, id: dictId, dict_name: dict.name, dict_code: dict.code, description: dict.name, del_flag: 0 }).execute();
      await db
        .insertInto('sys_dict_item')
        .values(dict.items.map(([value, text], index) => ({ ...audit, id: randomUUID(), dict_id: dictId, item_text: text, item_value: value, description: null, sort_order: index + 1, status: 1 })))
        .execute();
    }
  });
  return { seeded: true, generatedAdminPassword };
}

/**
 * The seeded roles of `code` whose grants nobody has edited (saving a role's permissions rewrites every grant under
 * the editor's name): only these are brought up to what the seeded role promises.
 */
export async function untouchedSeededRoles(db: Kysely<Database>, code: string): Promise<string[]> {
  const roles = await db.selectFrom('sys_role').select('id').where('role_code', '=', code).where('create_by', '=', SEED_BY).execute();
  if (roles.length === 0) return [];
  const edited = await db
    .selectFrom('sys_role_permission')
    .select('role_id')
    .distinct()
    .where('role_id', 'in', roles.map((r) => r.id))
    .where((eb) => eb.or([eb('create_by', '!=', SEED_BY), eb('create_by', 'is', null)]))
    .execute();
  const editedIds = new Set(edited.map((r) => r.role_id));
  return roles.map((r) => r.id).filter((id) => !editedIds.has(id));
}

/** The key a seeded menu row keeps across releases: its path for menus, its code for buttons. */
const seedKey = (row: { menu_type: number; url: string | null; perms: string | null }) => (Number(row.menu_type) === 2 ? `perm:${row.perms}` : `url:${row.url}`);

/**
 * Every start of an installed console: menus and buttons a newer release adds are inserted (under their parents,
 * held by the administrator role), and seeded screens that have since been built become visible and routed,
 * unless an administrator has changed that row. Nothing an administrator made or edited is touched.
 */
export async function syncSeededMenus(database: Kysely<Database>, clock: Clock): Promise<{ added: number; shown: number }> {
  const now = new Date(clock()).toISOString();
  const { rows: wanted, byRole } = permissionRows(now);
  return database.transaction().execute(async (db) => {
    const existing = await db.selectFrom('sys_permission').select(['id', 'menu_type', 'url', 'perms', 'hidden', 'is_route', 'create_by', 'update_by']).execute();
    const byKey = new Map(existing.map((r) => [seedKey(r), r]));
    const wantedById = new Map(wanted.map((r) => [r.id as string, r]));
    const idFor = new Map<string, string>();
    const inserts: Insertable<Database['sys_permission']>[] = [];
    let shown = 0;
    for (const row of wanted) {
      const key = seedKey({ menu_type: row.menu_type as number, url: row.url ?? null, perms: row.perms ?? null });
      const found = byKey.get(key);
      if (found) {
        idFor.set(row.id as string, found.id);
        const untouched = found.create_by === SEED_BY && found.update_by === null;
        if (untouched && (Number(found.hidden) !== row.hidden || Number(found.is_route) !== row.is_route)) {
          await db.updateTable('sys_permission').set({ hidden: row.hidden, is_route: row.is_route }).where('id', '=', found.id).execute();
          shown++;
        }
        continue;
      }
      const parent = row.parent_id ? wantedById.get(row.parent_id) : undefined;
      inserts.push({ ...row, parent_id: parent ? (idFor.get(parent.id as string) ?? parent.id) : null });
      idFor.set(row.id as string, row.id as string);
    }
    if (inserts.length > 0) {
      await insertChunked(db, 'sys_permission', inserts);
      const adminRole = await db.selectFrom('sys_role').select('id').where('role_code', '=', RoleCode.admin).executeTakeFirst();
      if (adminRole) {
        const audit = { create_by: SEED_BY, create_time: now, update_by: null, update_time: null };
        await insertChunked(db, 'sys_role_permission', inserts.map((p) => ({ ...audit, id: randomUUID(), role_id: adminRole.id, permission_id: p.id as string })));
      }
      // a seeded role holding its areas whole gets their new entries too, unless an administrator has edited its grants
      const inserted = new Set(inserts.map((p) => p.id as string));
      for (const [code, ids] of byRole) {
        const added = ids.filter((id) => inserted.has(id));
        if (added.length === 0) continue;
        for (const roleId of await untouchedSeededRoles(db, code)) {
          const audit = { create_by: SEED_BY, create_time: now, update_by: null, update_time: null };
          await insertChunked(db, 'sys_role_permission', added.map((permissionId) => ({ ...audit, id: randomUUID(), role_id: roleId, permission_id: permissionId })));
        }
      }
    }
    return { added: inserts.length, shown };
  });
}
