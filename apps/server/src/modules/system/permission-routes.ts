import { randomUUID } from 'node:crypto';
import {
  crudPath,
  dataRuleEntity,
  DataRulePath,
  entityDeclarations,
  ID_PATTERN,
  MenuType,
  permissionCode,
  permissionEntity,
  roleEntity,
  saveRoleDataRuleBody,
  splitIds,
  type DataRuleChoice,
  type DataRuleChoices,
  type Language,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { SYSTEM_ADMIN_ROLE, callerOf } from '../../platform/access.ts';
import { OperationType, writeOperationLog } from '../../platform/audit-log.ts';
import { registerEntity, readableFields, tableOf, type CrudContext } from '../../platform/crud/index.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { toApiRow } from '../../platform/crud/values.ts';
import { escapeLike, likeEscaped } from './like-pattern.ts';
import { showSeededRows } from '../../platform/seeded-texts.ts';
import { assertMayAddPermissionEntry, assertMayChangeDataRules, assertMayDeletePermissionEntries, assertMayEditPermissionEntry } from '../../platform/grants.ts';

const tags = ['permission'];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = Record<string, any>;

const now = (app: FastifyInstance) => new Date(app.clock()).toISOString();

/** A data rule belongs to a menu (not a button) and names a field the menu's list has. */
async function checkRule({ app, caller }: CrudContext, values: Row, existing?: Row) {
  const permissionId = String(values.permissionId ?? existing?.permission_id ?? '');
  const menu = await app.db.selectFrom('sys_permission').select(['id', 'component', 'menu_type']).where('id', '=', permissionId).where('del_flag', '=', 0).executeTakeFirst();
  if (!menu || Number(menu.menu_type) === MenuType.button) throw new AppError('badRequest', 'dataRule.menuMissing');
  await assertMayChangeDataRules(app, caller, permissionId);
  const column = values.ruleColumn ?? existing?.rule_column;
  const entity = entityDeclarations.find((e) => e.component === menu.component);
  if (entity && typeof column === 'string' && !readableFields(entity).has(column)) throw new AppError('badRequest', 'dataRule.unknownColumn', { column });
  if (existing) delete values.permissionId;
}

/** The menus and permissions screen, data rules per menu, and which rules each role holds. */
/** The data rules of a menu in the order they were made (only `among` these ids when given). */
export async function menuDataRules(db: Kysely<Database>, permissionId: string, among?: readonly string[]): Promise<DataRuleChoice[]> {
  if (among && among.length === 0) return [];
  let query = db
    .selectFrom('sys_permission_data_rule')
    .select(['id', 'rule_name', 'rule_column', 'rule_conditions', 'rule_value', 'status'])
    .where('permission_id', '=', permissionId)
    .orderBy('create_time')
    .orderBy('id');
  if (among) query = query.where('id', 'in', [...among]);
  const rules = await query.execute();
  return rules.map((r) => ({ id: r.id, ruleName: r.rule_name, ruleColumn: r.rule_column, ruleConditions: r.rule_conditions, ruleValue: r.rule_value, status: r.status }));
}

/** Calls of the origin console's menu screen beyond the generic ones (jeecg-boot's SysPermissionController). */
const OriginPermissionPath = {
  /** GET: the level-one menus, without children */
  getSystemMenuList: '/sys/permission/getSystemMenuList',
  /** GET ?parentId= : the entries right below a menu */
  getSystemSubmenu: '/sys/permission/getSystemSubmenu',
  /** GET ?parentIds=a,b : the entries right below each menu, by parent id */
  getSystemSubmenuBatch: '/sys/permission/getSystemSubmenuBatch',
  /** GET ?permissionId= : the data rules of a menu */
  getPermRuleListByPermId: '/sys/permission/getPermRuleListByPermId',
  /** GET ?permissionId=&ruleName=&ruleColumn=&ruleValue= : the data rules of a menu matching the search */
  queryPermissionRule: '/sys/permission/queryPermissionRule',
} as const;

/** A menu entry as the origin's menu screen reads it (its SysPermissionTree): our fields, its flags as booleans. */
function originMenuNode(row: Row): Row {
  return {
    ...toApiRow(permissionEntity, row),
    key: row.id,
    title: row.name,
    leaf: Number(row.is_leaf) === 1,
    isLeaf: Number(row.is_leaf) === 1,
    route: Number(row.is_route) === 1,
    keepAlive: Number(row.keep_alive) === 1,
    hidden: Number(row.hidden) === 1,
    alwaysShow: Number(row.always_show) === 1,
    internalOrExternal: Number(row.internal_or_external) === 1,
    permsType: row.perms_type ?? '1',
  };
}

/** An entry of one level of the tree: a non-leaf one holds `children: []` (the origin's SysPermissionTree), so its editor can expand it. */
function originLevelNode(row: Row): Row {
  const node = originMenuNode(row);
  return node.leaf ? node : { ...node, children: [] };
}

/** Every menu entry as one tree ordered by sort number: the origin's menu screen loads it whole. */
function originMenuTree(rows: Row[]): Row[] {
  const nodes = new Map(rows.map((r) => [r.id as string, originMenuNode(r)]));
  const roots: Row[] = [];
  for (const row of rows) {
    const node = nodes.get(row.id as string) as Row;
    const parent = row.parent_id ? nodes.get(row.parent_id as string) : undefined;
    if (parent) ((parent.children as Row[] | undefined) ?? (parent.children = [])).push(node);
    else if (!row.parent_id) roots.push(node);
  }
  return roots;
}

const menuRows = (app: FastifyInstance) => app.db.selectFrom('sys_permission').selectAll().where('del_flag', '=', 0).orderBy('sort_no').orderBy('id');

/** Menu entries with their seeded names in the reader's language (the origin's screens show the name as answered). */
const shownMenus = async (app: FastifyInstance, query: ReturnType<typeof menuRows>, lang: Language) => showSeededRows(app, 'permission', (await query.execute()) as Row[], lang);

/** The entries whose name (as stored or as the reader reads it) contains `name`, flat, as the origin answers a menu search. */
function menusNamed(stored: Row[], shown: Row[], name: string): Row[] {
  const needle = name.toLowerCase();
  return shown.filter((row, i) => [row.name, stored[i]?.name].some((n) => String(n).toLowerCase().includes(needle))).map((row) => ({ ...originMenuNode(row), leaf: true, isLeaf: true }));
}

export const permissionRoutes: FastifyPluginAsyncZod = async (app) => {
  const listPermission = permissionCode(permissionEntity, 'list');
  // the origin's menu screen asks the list without paging (neither pageNo nor pageSize) and shows the answer as the
  // whole tree (a hook of this plugin's scope reaches the generated list route)
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'GET' || !request.routeOptions.url?.endsWith(crudPath(permissionEntity, 'list'))) return;
    const query = request.query as Record<string, unknown> | undefined;
    if (query?.pageNo !== undefined || query?.pageSize !== undefined) return;
    const stored = (await menuRows(app).execute()) as Row[];
    const shown = await showSeededRows(app, 'permission', stored, request.lang);
    const name = typeof query?.name === 'string' ? query.name.trim() : '';
    return reply.send(reply.ok(name ? menusNamed(stored, shown, name) : originMenuTree(shown)));
  });
  registerEntity(app, permissionEntity, {
    routes: (routes) => {
      routes.get(OriginPermissionPath.getSystemMenuList, { schema: { tags, summary: 'Level-one menus' }, config: { permission: listPermission } }, async (request, reply) =>
        reply.ok((await shownMenus(app, menuRows(app).where('menu_type', '=', MenuType.levelOne), request.lang)).map(originLevelNode)),
      );

      const parentQuery = z.object({ parentId: z.string().regex(ID_PATTERN) });
      routes.get(OriginPermissionPath.getSystemSubmenu, { schema: { tags, summary: 'Entries right below a menu', querystring: parentQuery }, config: { permission: listPermission } }, async (request, reply) =>
        reply.ok((await shownMenus(app, menuRows(app).where('parent_id', '=', (request.query as z.infer<typeof parentQuery>).parentId), request.lang)).map(originLevelNode)),
      );

      const parentsQuery = z.object({ parentIds: z.string().max(70_000) });
      routes.get(OriginPermissionPath.getSystemSubmenuBatch, { schema: { tags, summary: 'Entries right below each menu, by parent id', querystring: parentsQuery }, config: { permission: listPermission } }, async (request, reply) => {
        const parentIds = splitIds((request.query as z.infer<typeof parentsQuery>).parentIds);
        if (parentIds.length > 1000 || parentIds.some((id) => !ID_PATTERN.test(id))) throw new AppError('badRequest', 'error.badRequest', { detail: 'parentIds' });
        const byParent: Record<string, Row[]> = {};
        if (parentIds.length > 0) for (const row of await shownMenus(app, menuRows(app).where('parent_id', 'in', parentIds), request.lang)) (byParent[row.parent_id as string] ??= []).push(originLevelNode(row));
        return reply.ok(byParent);
      });
    },
    columnsOnAdd: () => ({ is_leaf: 1 }),
    beforeAdd: ({ app: a, caller }, values) => assertMayAddPermissionEntry(a, caller, values),
    beforeEdit: ({ app: a, caller }, values, existing) => assertMayEditPermissionEntry(a, caller, values, existing),
    afterAdd: async ({ app: a, caller }, id, values) => {
      if (values.parentId) await a.db.updateTable('sys_permission').set({ is_leaf: 0 }).where('id', '=', values.parentId).execute();
      // the administrator role holds every permission, new ones included
      const adminRole = await a.db.selectFrom('sys_role').select('id').where('role_code', '=', SYSTEM_ADMIN_ROLE).executeTakeFirst();
      if (adminRole) {
        await a.db
          .insertInto('sys_role_permission')
          .values({ id: randomUUID(), role_id: adminRole.id, permission_id: id, create_by: caller.username, create_time: now(a), update_by: null, update_time: null })
          .execute();
      }
    },
    beforeDelete: async ({ app: a, caller }, rows) => {
      await assertMayDeletePermissionEntries(a, caller, rows);
      const ids = rows.map((r) => r.id as string);
      await a.db.deleteFrom('sys_role_permission').where('permission_id', 'in', ids).execute();
      await a.db.deleteFrom('sys_depart_permission').where('permission_id', 'in', ids).execute();
      await a.db.deleteFrom('sys_depart_role_permission').where('permission_id', 'in', ids).execute();
      await a.db.deleteFrom('sys_role_data_rule').where('permission_id', 'in', ids).execute();
      await a.db.deleteFrom('sys_permission_data_rule').where('permission_id', 'in', ids).execute();
    },
  });

  registerEntity(app, dataRuleEntity, {
    routes: (routes) => {
      const listRules = permissionCode(dataRuleEntity, 'list');
      const rulesOf = (permissionId: string) => app.db.selectFrom('sys_permission_data_rule').selectAll().where('permission_id', '=', permissionId).orderBy('create_time').orderBy('id');
      const menuQuery = z.object({ permissionId: z.string().regex(ID_PATTERN) });
      routes.get(OriginPermissionPath.getPermRuleListByPermId, { schema: { tags, summary: 'The data rules of a menu', querystring: menuQuery }, config: { permission: listRules } }, async (request, reply) =>
        reply.ok((await rulesOf((request.query as z.infer<typeof menuQuery>).permissionId).execute()).map((r) => toApiRow(dataRuleEntity, r))),
      );

      // a `*x*` value matches where it is contained, any other value exactly (the origin's query generator)
      const searchQuery = menuQuery.extend(Object.fromEntries(['ruleName', 'ruleColumn', 'ruleConditions', 'ruleValue', 'status'].map((f) => [f, z.string().max(300).optional()])));
      routes.get(OriginPermissionPath.queryPermissionRule, { schema: { tags, summary: 'The data rules of a menu matching a search', querystring: searchQuery }, config: { permission: listRules } }, async (request, reply) => {
        const query = request.query as Record<string, string | undefined> & { permissionId: string };
        let rules = rulesOf(query.permissionId);
        for (const [field, column] of [['ruleName', 'rule_name'], ['ruleColumn', 'rule_column'], ['ruleConditions', 'rule_conditions'], ['ruleValue', 'rule_value'], ['status', 'status']] as const) {
          const value = query[field]?.trim();
          if (!value) continue;
          const inner = /^\*.*\*$/.test(value) && value.length > 2 ? value.slice(1, -1) : undefined;
          rules = inner ? rules.where(likeEscaped(column, `%${escapeLike(inner)}%`)) : rules.where(column, '=', value);
        }
        return reply.ok((await rules.execute()).map((r) => toApiRow(dataRuleEntity, r)));
      });
    },
    beforeAdd: (ctx, values) => checkRule(ctx, values),
    beforeEdit: (ctx, values, existing) => checkRule(ctx, values, existing),
    beforeDelete: async ({ app: a, caller }, rows) => {
      for (const menuId of new Set(rows.map((r) => r.permission_id as string))) await assertMayChangeDataRules(a, caller, menuId);
      await a.db.deleteFrom('sys_role_data_rule').where('rule_id', 'in', rows.map((r) => r.id as string)).execute();
    },
  });

  const roleOf = async (request: Parameters<typeof callerOf>[0], roleId: string) => {
    const role = await app.crudEntities.get(tableOf(roleEntity))?.findById(callerOf(request), roleId);
    if (!role) throw new AppError('notFound', 'crud.notFound');
    return role;
  };

  app.get(
    DataRulePath.queryRoleDataRule,
    {
      schema: { tags, summary: "A menu's data rules and the ones a role holds", querystring: z.object({ roleId: z.string().regex(ID_PATTERN), permissionId: z.string().regex(ID_PATTERN) }) },
      config: { permission: permissionCode(roleEntity, 'authorize') },
    },
    async (request, reply) => {
      const { roleId, permissionId } = request.query as { roleId: string; permissionId: string };
      await roleOf(request, roleId);
      const held = await app.db.selectFrom('sys_role_data_rule').select('rule_id').where('role_id', '=', roleId).where('permission_id', '=', permissionId).execute();
      return reply.ok<DataRuleChoices>({ rules: await menuDataRules(app.db, permissionId), granted: held.map((h) => h.rule_id) });
    },
  );

  app.post(
    DataRulePath.saveRoleDataRule,
    { schema: { tags, summary: 'Replace the data rules a role holds on a menu', body: saveRoleDataRuleBody }, config: { permission: permissionCode(roleEntity, 'authorize') } },
    async (request, reply) => {
      const started = performance.now();
      const caller = callerOf(request);
      const { roleId, permissionId, dataRuleIds } = request.body as z.infer<typeof saveRoleDataRuleBody>;
      const role = await roleOf(request, roleId);
      if (role.role_code === SYSTEM_ADMIN_ROLE) refuse('role.adminProtected');
      const ids = splitIds(dataRuleIds);
      if (ids.some((id) => !ID_PATTERN.test(id))) throw new AppError('badRequest', 'error.badRequest', { detail: 'dataRuleIds' });
      const known = ids.length ? await app.db.selectFrom('sys_permission_data_rule').select('id').where('permission_id', '=', permissionId).where('id', 'in', ids).execute() : [];
      if (known.length !== ids.length) throw new AppError('badRequest', 'error.badRequest', { detail: 'dataRuleIds' });
      const held = await app.db.selectFrom('sys_role_data_rule').select('rule_id').where('role_id', '=', roleId).where('permission_id', '=', permissionId).execute();
      await assertMayChangeDataRules(app, caller, permissionId, { before: held.map((h) => h.rule_id), after: ids });
      await app.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('sys_role_data_rule').where('role_id', '=', roleId).where('permission_id', '=', permissionId).execute();
        for (const ruleId of ids) {
          await trx
            .insertInto('sys_role_data_rule')
            .values({ id: randomUUID(), role_id: roleId, permission_id: permissionId, rule_id: ruleId, create_by: caller.username, create_time: now(app), update_by: null, update_time: null })
            .execute();
        }
      });
      await writeOperationLog(app, {
        operateType: OperationType.edit,
        userId: caller.id,
        username: caller.username,
        tenantId: caller.tenantId,
        ip: request.ip,
        content: ids.length ? { key: 'log.dataRulesSaved', params: { entity: roleEntity.title, owner: roleId, menu: permissionId, rules: ids.join(',') } } : { key: 'log.dataRulesCleared', params: { entity: roleEntity.title, owner: roleId, menu: permissionId } },
        costMs: performance.now() - started,
      });
      return reply.ok(null, 'dataRule.saved');
    },
  );
};
