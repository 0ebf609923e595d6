import { originView, shownSeededText, type AuthItem, type Language, type MenuItem, type PermissionResult } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { SysPermission } from '../../db/schema.ts';
import { heldBy } from '../../platform/access.ts';
import { toWire } from '../../platform/wire-time.ts';

type Row = Selectable<SysPermission>;

/** A button; with `lang`, its name as the reader reads it (the menu's permissionList shows it). */
function toAuthItem(row: Row, lang?: Language): AuthItem {
  return {
    action: row.perms ?? '',
    describe: lang ? String(shownSeededText(lang, 'permission', 'name', row)) : row.name,
    type: row.perms_type === '2' ? '2' : '1',
    status: row.status === '0' ? '0' : '1',
  };
}

function isExternal(url: string | null): boolean {
  return !!url && /^https?:\/\//.test(url);
}

function routeName(row: Row): string {
  const path = row.url ?? row.id;
  return isExternal(path) ? row.id : path.replace(/^\//, '').replace(/[/:{}]+/g, '-');
}

function toMenuItem(row: Row, children: MenuItem[], buttons: AuthItem[], lang: Language): MenuItem {
  const external = isExternal(row.url);
  const opensOutside = external && Number(row.internal_or_external) === 1;
  const item: MenuItem = {
    id: row.id,
    path: external ? `/${routeName(row)}` : (row.url ?? ''),
    name: routeName(row),
    component: originView(row.component ?? ''),
    hidden: Number(row.hidden) === 1,
    alwaysShow: Number(row.always_show) === 1,
    redirect: row.redirect,
    route: Number(row.is_route) === 1 ? '1' : '0',
    meta: {
      title: String(shownSeededText(lang, 'permission', 'name', row)),
      titleKey: row.name,
      pageKey: row.component ?? '',
      icon: row.icon,
      url: external ? row.url : null,
      keepAlive: Number(row.keep_alive) === 1,
      internalOrExternal: Number(row.internal_or_external) === 1,
      // the origin's menu JSON: the buttons of the page held by the reader, and a new window for an outside address
      ...(buttons.length > 0 ? { permissionList: buttons, permission: buttons.map((b) => b.action) } : {}),
      ...(opensOutside ? { target: '_blank' } : {}),
      ...(row.component_name ? { componentName: row.component_name } : {}),
    },
  };
  if (children.length > 0) item.children = children;
  return item;
}

function menuTree(rows: Row[], lang: Language): MenuItem[] {
  const menus = rows.filter((r) => Number(r.menu_type) !== 2);
  const buttonsOf = new Map<string, AuthItem[]>();
  for (const row of rows) {
    if (Number(row.menu_type) !== 2 || !row.perms || !row.parent_id) continue;
    const list = buttonsOf.get(row.parent_id) ?? [];
    list.push(toAuthItem(row, lang));
    buttonsOf.set(row.parent_id, list);
  }
  const ids = new Set(menus.map((r) => r.id));
  const byParent = new Map<string | null, Row[]>();
  for (const row of menus) {
    // a child whose parent the user was not granted would dangle; it is not reachable from the menu either
    const parent = row.parent_id && ids.has(row.parent_id) ? row.parent_id : row.parent_id ? undefined : null;
    if (parent === undefined) continue;
    const list = byParent.get(parent) ?? [];
    list.push(row);
    byParent.set(parent, list);
  }
  const build = (parent: string | null): MenuItem[] =>
    (byParent.get(parent) ?? [])
      .sort((a, b) => Number(a.sort_no) - Number(b.sort_no))
      .map((row) => toMenuItem(row, build(row.id), buttonsOf.get(row.id) ?? [], lang));
  return build(null);
}

/** The menu (titles in `lang`), the caller's buttons and every button of the system (SPEC section 6). */
export async function permissionResultOf(app: FastifyInstance, user: { id: string; orgCode: string | null }, lang: Language): Promise<PermissionResult> {
  const granted = await app.db.selectFrom('sys_permission as p').selectAll('p').where('p.del_flag', '=', 0).where(heldBy(app.db, user)).orderBy('p.sort_no').execute();
  const allButtons = await app.db
    .selectFrom('sys_permission')
    .selectAll()
    .where('menu_type', '=', 2)
    .where('del_flag', '=', 0)
    .orderBy('perms')
    .execute();
  return {
    menu: menuTree(granted, lang),
    auth: granted.filter((r) => Number(r.menu_type) === 2 && r.perms).map((r) => toAuthItem(r)),
    allAuth: allButtons.filter((r) => r.perms).map((r) => toAuthItem(r)),
  };
}

// The answer's result as JSON, kept per caller, language and zone. The access hook's caller object is made anew
// whenever anything that decides who may do what is written (menus and buttons included: sys_permission is one of
// those tables), here and on every other instance, so a kept text is never older than the caller it was made for.
const keptResults = new WeakMap<object, Map<string, string>>();

/**
 * `getUserPermissionByToken`'s result as its JSON text (times on the wire in `zone`, then `timeZone`): the menu tree
 * and buttons of the caller, built once per caller and language instead of on every sign-in and page load.
 */
export async function permissionResultJson(app: FastifyInstance, caller: { id: string; orgCode: string | null }, lang: Language, zone: string): Promise<string> {
  let byLanguage = keptResults.get(caller);
  if (!byLanguage) {
    byLanguage = new Map();
    keptResults.set(caller, byLanguage);
  }
  const key = `${lang}\n${zone}`;
  let json = byLanguage.get(key);
  if (json === undefined) {
    json = JSON.stringify(toWire(await permissionResultOf(app, caller, lang), zone));
    byLanguage.set(key, json);
  }
  return `${json.slice(0, -1)},"timeZone":${JSON.stringify(zone)}}`;
}
