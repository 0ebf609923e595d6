import { randomUUID } from 'node:crypto';
import {
  crudPath,
  departEntity,
  departRoleEntity,
  DepartRolePath,
  deptRoleUserAddBody,
  ID_PATTERN,
  permissionCode,
  saveDepartDataRuleBody,
  saveDepartPermissionBody,
  saveDeptRoleDataRuleBody,
  saveDeptRolePermissionBody,
  splitIds,
  type DataRuleChoices,
  type DepartRoleHolder,
  type DepartRoleUser,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import * as z from 'zod';
import type { Database } from '../../db/schema.ts';
import { callerOf, type CurrentUser } from '../../platform/access.ts';
import { OperationType, writeOperationLog, type LogText } from '../../platform/audit-log.ts';
import { registerEntity, tableOf, type RegisteredEntity } from '../../platform/crud/index.ts';
import { showSeededRows } from '../../platform/seeded-texts.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { assertMayChangeDataRules, assertMayDeleteDepartRoles, assertMayGiveDepartRoles, assertMayGivePermissions, assertMayManageUsers, permissionChanges } from '../../platform/grants.ts';
import { menuDataRules } from './permission-routes.ts';
import { editedPermissionIds, permissionTree } from './role-routes.ts';

const tags = ['departRole'];

function idsOf(text: string | undefined, detail: string): string[] {
  const ids = splitIds(text);
  if (ids.length > 5000 || ids.some((id) => !ID_PATTERN.test(id))) throw new AppError('badRequest', 'error.badRequest', { detail });
  return ids;
}

/** `lastpermissionIds`: absent means the list sent replaces the stored one. */
const lastIdsOf = (text: string | undefined) => (text === undefined ? undefined : idsOf(text, 'lastpermissionIds'));

const audit = (by: string, now: string) => ({ create_by: by, create_time: now, update_by: null, update_time: null });

async function insertChunked<T extends 'sys_depart_permission' | 'sys_depart_role_permission' | 'sys_depart_role_user' | 'sys_depart_data_rule' | 'sys_depart_role_data_rule'>(trx: Kysely<Database>, table: T, rows: Database[T][]) {
  for (let i = 0; i < rows.length; i += 200) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await trx.insertInto(table).values(rows.slice(i, i + 200) as any).execute();
  }
}

/** The group roles of groups, their permissions and users: gone with the groups (a group has no recycle bin). */
export async function deleteGroupRoles(trx: Kysely<Database>, departIds: string[]): Promise<void> {
  if (departIds.length === 0) return;
  const roles = (await trx.selectFrom('sys_depart_role').select('id').where('depart_id', 'in', departIds).execute()).map((r) => r.id);
  await deleteRoleLinks(trx, roles);
  await trx.deleteFrom('sys_depart_role_permission').where('depart_id', 'in', departIds).execute();
  await trx.deleteFrom('sys_depart_role_data_rule').where('depart_id', 'in', departIds).execute();
  await trx.deleteFrom('sys_depart_data_rule').where('depart_id', 'in', departIds).execute();
  await trx.deleteFrom('sys_depart_role').where('depart_id', 'in', departIds).execute();
  await trx.deleteFrom('sys_depart_permission').where('depart_id', 'in', departIds).execute();
}

async function deleteRoleLinks(trx: Kysely<Database>, roleIds: string[]): Promise<void> {
  if (roleIds.length === 0) return;
  await trx.deleteFrom('sys_depart_role_permission').where('role_id', 'in', roleIds).execute();
  await trx.deleteFrom('sys_depart_role_data_rule').where('role_id', 'in', roleIds).execute();
  await trx.deleteFrom('sys_depart_role_user').where('drole_id', 'in', roleIds).execute();
}

/** A user keeps group roles only in the groups they belong to (called whenever their groups change). */
export async function dropGroupRolesOutsideGroups(app: FastifyInstance, userId: string): Promise<void> {
  const stale = await app.db
    .selectFrom('sys_depart_role_user as dru')
    .innerJoin('sys_depart_role as dr', 'dr.id', 'dru.drole_id')
    .leftJoin('sys_user_depart as ud', (join) => join.onRef('ud.dep_id', '=', 'dr.depart_id').onRef('ud.user_id', '=', 'dru.user_id'))
    .select('dru.id')
    .where('dru.user_id', '=', userId)
    .where('ud.id', 'is', null)
    .execute();
  if (stale.length > 0) await app.db.deleteFrom('sys_depart_role_user').where('id', 'in', stale.map((s) => s.id)).execute();
}

/** Drops nodes the group does not hold; a held node below a dropped one hangs from its nearest held ancestor. */
function restrictedTree(rows: Parameters<typeof permissionTree>[0], held: ReadonlySet<string>) {
  const parentOf = new Map(rows.map((r) => [r.id, r.parent_id]));
  const nearestHeld = (id: string | null): string | null => {
    for (let cursor = id, depth = 0; cursor && depth < 100; cursor = parentOf.get(cursor) ?? null, depth++) if (held.has(cursor)) return cursor;
    return null;
  };
  return permissionTree(rows.filter((r) => held.has(r.id)).map((r) => ({ ...r, parent_id: nearestHeld(r.parent_id) })));
}

/** A log text of data rules saved on a menu for a group or group role (`owner`); none left reads as a removal. */
function dataRulesText(entity: string, owner: string, menu: string, rules: readonly string[]): LogText {
  return rules.length ? { key: 'log.dataRulesSaved', params: { entity, owner, menu, rules: rules.join(',') } } : { key: 'log.dataRulesCleared', params: { entity, owner, menu } };
}

async function log(app: FastifyInstance, caller: CurrentUser, ip: string, content: LogText, started: number) {
  await writeOperationLog(app, { operateType: OperationType.edit, userId: caller.id, username: caller.username, tenantId: caller.tenantId, ip, content, costMs: performance.now() - started });
}

/**
 * Group permissions (what an administrator lets a group hand out), group roles (the generic screen of the
 * declaration) with permissions chosen from their group's, and the group members holding them.
 */
export const departRoleRoutes: FastifyPluginAsyncZod = async (app) => {
  const groups = app.crudEntities.get(tableOf(departEntity)) as RegisteredEntity;
  const now = () => new Date(app.clock()).toISOString();

  const groupOf = async (caller: CurrentUser, departId: string) => {
    const group = await groups.findById(caller, departId);
    if (!group) throw new AppError('notFound', 'crud.notFound');
    return group;
  };
  const groupPermissionIds = async (db: Kysely<Database>, departId: string) =>
    new Set((await db.selectFrom('sys_depart_permission').select('permission_id').where('depart_id', '=', departId).execute()).map((r) => r.permission_id));

  const roles: RegisteredEntity = registerEntity(app, departRoleEntity, {
    beforeAdd: async ({ caller }, values) => {
      if (!(await groups.findById(caller, String(values.departId)))) throw new AppError('badRequest', 'departRole.groupMissing');
    },
    // a role belongs to its group's tenant, also when a system administrator of another tenant makes it
    afterAdd: async ({ app: a }, id, values) => {
      const group = await a.db.selectFrom('sys_depart').select('tenant_id').where('id', '=', String(values.departId)).executeTakeFirst();
      if (group) await a.db.updateTable('sys_depart_role').set({ tenant_id: group.tenant_id }).where('id', '=', id).execute();
    },
    beforeEdit: (_ctx, values) => {
      // a group role stays in the group it was made in
      delete values.departId;
    },
    beforeDelete: ({ app: a, caller }, rows) => assertMayDeleteDepartRoles(a, caller, rows.map((r) => r.id as string)),
    deleteLinked: (trx, ids) => deleteRoleLinks(trx, ids),
    routes: (routes) => {
      // the origin console's group role list filters by `deptId`
      routes.addHook('preHandler', async (request) => {
        const query = request.query as Record<string, unknown> | undefined;
        if (request.routeOptions.url?.endsWith(crudPath(departRoleEntity, 'list')) && query && typeof query.deptId === 'string' && query.departId === undefined) query.departId = query.deptId;
      });
    },
  });

  const roleOf = async (caller: CurrentUser, roleId: string) => {
    const role = await roles.findById(caller, roleId);
    if (!role) throw new AppError('notFound', 'crud.notFound');
    return role as { id: string; depart_id: string; role_code: string };
  };

  const groupAuthorize = permissionCode(departEntity, 'authorize');
  const roleAuthorize = permissionCode(departRoleEntity, 'authorize');
  const roleUsers = permissionCode(departRoleEntity, 'user');

  const departQuery = z.object({ departId: z.string().regex(ID_PATTERN) });
  app.get(DepartRolePath.queryDepartPermission, { schema: { tags, summary: 'Permission ids a group holds', querystring: departQuery }, config: { permission: groupAuthorize } }, async (request, reply) => {
    const group = await groupOf(callerOf(request), (request.query as z.infer<typeof departQuery>).departId);
    return reply.ok([...(await groupPermissionIds(app.db, group.id as string))]);
  });

  app.post(
    DepartRolePath.saveDepartPermission,
    { schema: { tags, summary: "Replace a group's permissions; its roles lose what it loses", body: saveDepartPermissionBody }, config: { permission: groupAuthorize } },
    async (request, reply) => {
      const started = performance.now();
      const caller = callerOf(request);
      const body = request.body as z.infer<typeof saveDepartPermissionBody>;
      const group = await groupOf(caller, body.departId);
      const departId = group.id as string;
      const current = await groupPermissionIds(app.db, departId);
      const wanted = editedPermissionIds(current, idsOf(body.permissionIds, 'permissionIds'), lastIdsOf(body.lastpermissionIds));
      const existing = wanted.length === 0 ? [] : (await app.db.selectFrom('sys_permission').select('id').where('id', 'in', wanted).where('del_flag', '=', 0).execute()).map((r) => r.id);
      await assertMayGivePermissions(app, caller, permissionChanges(current, existing));
      const removed = [...current].filter((id) => !existing.includes(id));
      await app.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('sys_depart_permission').where('depart_id', '=', departId).execute();
        await insertChunked(trx, 'sys_depart_permission', existing.map((permissionId) => ({ ...audit(caller.username, now()), id: randomUUID(), depart_id: departId, permission_id: permissionId })));
        if (removed.length > 0) {
          await trx.deleteFrom('sys_depart_role_permission').where('depart_id', '=', departId).where('permission_id', 'in', removed).execute();
          await trx.deleteFrom('sys_depart_role_data_rule').where('depart_id', '=', departId).where('permission_id', 'in', removed).execute();
          await trx.deleteFrom('sys_depart_data_rule').where('depart_id', '=', departId).where('permission_id', 'in', removed).execute();
        }
      });
      await log(app, caller, request.ip, { key: 'log.groupPermissionsSaved', params: { entity: departEntity.title, owner: String(group.org_code), count: existing.length, taken: removed.length } }, started);
      return reply.ok(null, 'depart.permissionsSaved');
    },
  );

  app.get(
    DepartRolePath.queryTreeListForDeptRole,
    { schema: { tags, summary: 'The menu and button tree limited to what a group holds', querystring: departQuery }, config: { permission: roleAuthorize } },
    async (request, reply) => {
      const group = await groupOf(callerOf(request), (request.query as z.infer<typeof departQuery>).departId);
      const held = await groupPermissionIds(app.db, group.id as string);
      const rows = await app.db.selectFrom('sys_permission').select(['id', 'parent_id', 'name', 'menu_type', 'perms', 'sort_no']).where('del_flag', '=', 0).execute();
      return reply.ok({ treeList: restrictedTree(rows, held), ids: rows.filter((r) => held.has(r.id)).map((r) => r.id) });
    },
  );

  const roleQuery = z.object({ roleId: z.string().regex(ID_PATTERN) });
  app.get(DepartRolePath.queryDeptRolePermission, { schema: { tags, summary: 'Permission ids of a group role', querystring: roleQuery }, config: { permission: roleAuthorize } }, async (request, reply) => {
    const role = await roleOf(callerOf(request), (request.query as z.infer<typeof roleQuery>).roleId);
    const rows = await app.db.selectFrom('sys_depart_role_permission').select('permission_id').where('role_id', '=', role.id).execute();
    return reply.ok(rows.map((r) => r.permission_id));
  });

  app.post(
    DepartRolePath.saveDeptRolePermission,
    { schema: { tags, summary: "Replace a group role's permissions, chosen from its group's", body: saveDeptRolePermissionBody }, config: { permission: roleAuthorize } },
    async (request, reply) => {
      const started = performance.now();
      const caller = callerOf(request);
      const body = request.body as z.infer<typeof saveDeptRolePermissionBody>;
      const role = await roleOf(caller, body.roleId);
      const current = (await app.db.selectFrom('sys_depart_role_permission').select('permission_id').where('role_id', '=', role.id).execute()).map((r) => r.permission_id);
      const wanted = editedPermissionIds(current, idsOf(body.permissionIds, 'permissionIds'), lastIdsOf(body.lastpermissionIds));
      const held = await groupPermissionIds(app.db, role.depart_id);
      if (wanted.some((id) => !held.has(id))) throw new AppError('badRequest', 'departRole.permissionOutsideGroup');
      await assertMayGivePermissions(app, caller, permissionChanges(current, wanted));
      await app.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('sys_depart_role_permission').where('role_id', '=', role.id).execute();
        await insertChunked(trx, 'sys_depart_role_permission', wanted.map((permissionId) => ({ ...audit(caller.username, now()), id: randomUUID(), depart_id: role.depart_id, role_id: role.id, permission_id: permissionId })));
      });
      await log(app, caller, request.ip, { key: 'log.permissionsSaved', params: { entity: departRoleEntity.title, owner: role.role_code, count: wanted.length } }, started);
      return reply.ok(null, 'role.permissionsSaved');
    },
  );

  // Data rules: a group is given some rules of the menus it holds; its roles are given some of those, and those apply.
  const groupRuleIds = async (db: Kysely<Database>, departId: string, permissionId: string) =>
    (await db.selectFrom('sys_depart_data_rule').select('rule_id').where('depart_id', '=', departId).where('permission_id', '=', permissionId).execute()).map((r) => r.rule_id);
  const heldMenu = async (departId: string, permissionId: string) => {
    if (!(await groupPermissionIds(app.db, departId)).has(permissionId)) throw new AppError('badRequest', 'depart.ruleMenuNotHeld');
  };

  const departRuleQuery = z.object({ departId: z.string().regex(ID_PATTERN), permissionId: z.string().regex(ID_PATTERN) });
  app.get(
    DepartRolePath.queryDepartDataRule,
    { schema: { tags, summary: "A menu's data rules and the ones a group may hand to its roles", querystring: departRuleQuery }, config: { permission: groupAuthorize } },
    async (request, reply) => {
      const { departId, permissionId } = request.query as z.infer<typeof departRuleQuery>;
      const group = await groupOf(callerOf(request), departId);
      return reply.ok<DataRuleChoices>({ rules: await menuDataRules(app.db, permissionId), granted: await groupRuleIds(app.db, group.id as string, permissionId) });
    },
  );

  app.post(
    DepartRolePath.saveDepartDataRule,
    { schema: { tags, summary: "Replace a group's data rules of a menu; its roles lose what it loses", body: saveDepartDataRuleBody }, config: { permission: groupAuthorize } },
    async (request, reply) => {
      const started = performance.now();
      const caller = callerOf(request);
      const body = request.body as z.infer<typeof saveDepartDataRuleBody>;
      const group = await groupOf(caller, body.departId);
      const departId = group.id as string;
      const wanted = idsOf(body.dataRuleIds, 'dataRuleIds');
      if (wanted.length > 0) await heldMenu(departId, body.permissionId);
      if ((await menuDataRules(app.db, body.permissionId, wanted)).length !== wanted.length) throw new AppError('badRequest', 'error.badRequest', { detail: 'dataRuleIds' });
      await assertMayChangeDataRules(app, caller, body.permissionId, { before: await groupRuleIds(app.db, departId, body.permissionId), after: wanted });
      await app.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('sys_depart_data_rule').where('depart_id', '=', departId).where('permission_id', '=', body.permissionId).execute();
        await insertChunked(trx, 'sys_depart_data_rule', wanted.map((ruleId) => ({ ...audit(caller.username, now()), id: randomUUID(), depart_id: departId, permission_id: body.permissionId, rule_id: ruleId })));
        let lost = trx.deleteFrom('sys_depart_role_data_rule').where('depart_id', '=', departId).where('permission_id', '=', body.permissionId);
        if (wanted.length > 0) lost = lost.where('rule_id', 'not in', wanted);
        await lost.execute();
      });
      await log(app, caller, request.ip, dataRulesText(departEntity.title, String(group.org_code), body.permissionId, wanted), started);
      return reply.ok(null, 'dataRule.saved');
    },
  );

  const roleRuleQuery = z.object({ roleId: z.string().regex(ID_PATTERN), permissionId: z.string().regex(ID_PATTERN) });
  app.get(
    DepartRolePath.queryDeptRoleDataRule,
    { schema: { tags, summary: "The group's data rules of a menu and the ones a group role holds", querystring: roleRuleQuery }, config: { permission: roleAuthorize } },
    async (request, reply) => {
      const { roleId, permissionId } = request.query as z.infer<typeof roleRuleQuery>;
      const role = await roleOf(callerOf(request), roleId);
      const held = await app.db.selectFrom('sys_depart_role_data_rule').select('rule_id').where('role_id', '=', role.id).where('permission_id', '=', permissionId).execute();
      const offered = await menuDataRules(app.db, permissionId, await groupRuleIds(app.db, role.depart_id, permissionId));
      return reply.ok<DataRuleChoices>({ rules: offered, granted: held.map((h) => h.rule_id) });
    },
  );

  app.post(
    DepartRolePath.saveDeptRoleDataRule,
    { schema: { tags, summary: "Replace a group role's data rules of a menu, chosen from its group's", body: saveDeptRoleDataRuleBody }, config: { permission: roleAuthorize } },
    async (request, reply) => {
      const started = performance.now();
      const caller = callerOf(request);
      const body = request.body as z.infer<typeof saveDeptRoleDataRuleBody>;
      const role = await roleOf(caller, body.roleId);
      const wanted = idsOf(body.dataRuleIds, 'dataRuleIds');
      const offered = new Set(await groupRuleIds(app.db, role.depart_id, body.permissionId));
      if (wanted.some((id) => !offered.has(id))) throw new AppError('badRequest', 'departRole.ruleOutsideGroup');
      const held = await app.db.selectFrom('sys_depart_role_data_rule').select('rule_id').where('role_id', '=', role.id).where('permission_id', '=', body.permissionId).execute();
      await assertMayChangeDataRules(app, caller, body.permissionId, { before: held.map((h) => h.rule_id), after: wanted });
      await app.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('sys_depart_role_data_rule').where('role_id', '=', role.id).where('permission_id', '=', body.permissionId).execute();
        await insertChunked(
          trx,
          'sys_depart_role_data_rule',
          wanted.map((ruleId) => ({ ...audit(caller.username, now()), id: randomUUID(), depart_id: role.depart_id, role_id: role.id, permission_id: body.permissionId, rule_id: ruleId })),
        );
      });
      await log(app, caller, request.ip, dataRulesText(departRoleEntity.title, role.role_code, body.permissionId, wanted), started);
      return reply.ok(null, 'dataRule.saved');
    },
  );

  app.post(
    DepartRolePath.deptRoleUserAdd,
    { schema: { tags, summary: 'Give users group roles and take the ones they lose', body: deptRoleUserAddBody }, config: { permission: roleUsers } },
    async (request, reply) => {
      const started = performance.now();
      const caller = callerOf(request);
      const body = request.body as z.infer<typeof deptRoleUserAddBody>;
      const userIds = idsOf(body.userId, 'userId');
      if (userIds.length === 0) refuse('crud.selectRecord');
      const next = idsOf(body.newRoleId, 'newRoleId');
      const previous = idsOf(body.oldRoleId, 'oldRoleId');
      const added = next.filter((id) => !previous.includes(id));
      const taken = previous.filter((id) => !next.includes(id));
      const named = [...new Set([...added, ...taken])];
      const found = named.length === 0 ? [] : await roles.scoped(caller).where('id', 'in', named).execute();
      if (found.length !== named.length) throw new AppError('notFound', 'crud.notFound');
      await assertMayManageUsers(app, caller, userIds);
      await assertMayGiveDepartRoles(app, caller, named);
      // SPEC section 6: a group's roles are for the group's users only
      const groupsOfAdded = [...new Set(found.filter((r) => added.includes(r.id as string)).map((r) => r.depart_id as string))];
      if (groupsOfAdded.length > 0) {
        const memberships = await app.db.selectFrom('sys_user_depart').select(['user_id', 'dep_id']).where('user_id', 'in', userIds).where('dep_id', 'in', groupsOfAdded).execute();
        if (memberships.length !== userIds.length * groupsOfAdded.length) refuse('departRole.userNotMember');
      }
      await app.db.transaction().execute(async (trx) => {
        if (taken.length > 0) await trx.deleteFrom('sys_depart_role_user').where('user_id', 'in', userIds).where('drole_id', 'in', taken).execute();
        if (added.length === 0) return;
        const have = new Set(
          (await trx.selectFrom('sys_depart_role_user').select(['user_id', 'drole_id']).where('user_id', 'in', userIds).where('drole_id', 'in', added).execute()).map((r) => `${r.user_id}/${r.drole_id}`),
        );
        const links = userIds.flatMap((userId) => added.filter((roleId) => !have.has(`${userId}/${roleId}`)).map((roleId) => ({ ...audit(caller.username, now()), id: randomUUID(), user_id: userId, drole_id: roleId })));
        await insertChunked(trx, 'sys_depart_role_user', links);
      });
      await log(app, caller, request.ip, { key: 'log.groupRolesSaved', params: { entity: departRoleEntity.title, users: userIds.join(','), given: added.join(',') || '-', taken: taken.join(',') || '-' } }, started);
      return reply.ok(null, 'departRole.usersSaved');
    },
  );

  const userQuery = z.object({ userId: z.string().regex(ID_PATTERN), departId: z.string().regex(ID_PATTERN).optional() });
  app.get(
    DepartRolePath.getDeptRoleByUserId,
    { schema: { tags, summary: 'The group roles a user holds (in one group)', querystring: userQuery }, config: { permission: permissionCode(departRoleEntity, 'list') } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { userId, departId } = request.query as z.infer<typeof userQuery>;
      let visible = roles.scoped(caller).clearSelect().select('id');
      if (departId) visible = visible.where('depart_id', '=', departId);
      const rows = await app.db.selectFrom('sys_depart_role_user').select(['id', 'user_id', 'drole_id']).where('user_id', '=', userId).where('drole_id', 'in', visible).execute();
      return reply.ok(rows.map((r): DepartRoleUser => ({ id: r.id, userId: r.user_id, droleId: r.drole_id })));
    },
  );

  app.get(DepartRolePath.getDeptRoleUsers, { schema: { tags, summary: 'The users holding a group role', querystring: roleQuery }, config: { permission: roleUsers } }, async (request, reply) => {
    const role = await roleOf(callerOf(request), (request.query as z.infer<typeof roleQuery>).roleId);
    const rows = await app.db
      .selectFrom('sys_depart_role_user as dru')
      .innerJoin('sys_user as u', 'u.id', 'dru.user_id')
      .select(['u.id', 'u.username', 'u.realname'])
      .where('dru.drole_id', '=', role.id)
      .where('u.del_flag', '=', 0)
      .orderBy('u.username')
      .limit(5000)
      .execute();
    return reply.ok((await showSeededRows(app, 'user', rows, request.lang)).map((r): DepartRoleHolder => ({ id: r.id, username: r.username, realname: r.realname })));
  });
};
