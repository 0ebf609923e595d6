import { randomUUID } from 'node:crypto';
import {
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
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SYSTEM_ADMIN_ROLE, callerOf } from '../../platform/access.ts';
import { OperationType, writeOperationLog } from '../../platform/audit-log.ts';
import { registerEntity, readableFields, type CrudContext } from '../../platform/crud/index.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
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

export const permissionRoutes: FastifyPluginAsyncZod = async (app) => {
  registerEntity(app, permissionEntity, {
    columnsOnAdd: () => ({ is_leaf: 1, perms_type: '1' }),
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
    beforeAdd: (ctx, values) => checkRule(ctx, values),
    beforeEdit: (ctx, values, existing) => checkRule(ctx, values, existing),
    beforeDelete: async ({ app: a, caller }, rows) => {
      for (const menuId of new Set(rows.map((r) => r.permission_id as string))) await assertMayChangeDataRules(a, caller, menuId);
      await a.db.deleteFrom('sys_role_data_rule').where('rule_id', 'in', rows.map((r) => r.id as string)).execute();
    },
  });

  const roleOf = async (request: Parameters<typeof callerOf>[0], roleId: string) => {
    const role = await app.crudEntities.get(roleEntity.table)?.findById(callerOf(request), roleId);
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
        content: `role: data rules of ${roleId} on ${permissionId}: ${ids.join(',') || 'none'}`,
        costMs: performance.now() - started,
      });
      return reply.ok(null, 'dataRule.saved');
    },
  );
};
