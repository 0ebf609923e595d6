import { randomUUID } from 'node:crypto';
import { ID_PATTERN, permissionCode, roleEntity, RolePath, splitIds, type PermissionTreeNode, type RoleOption } from '@isps/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { SYSTEM_ADMIN_ROLE, callerOf } from '../../platform/access.ts';
import { OperationType, writeOperationLog } from '../../platform/audit-log.ts';
import { registerEntity } from '../../platform/crud/index.ts';
import { showSeededRows } from '../../platform/seeded-texts.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { assertMayChangeRoles, assertMayGivePermissions, assertMayUseRoleCode, permissionChanges } from '../../platform/grants.ts';

const tags = ['system'];

/**
 * The permission ids a save leaves. Without `last` it is the list sent. With `last` (the ids the console loaded
 * before the edit, `lastpermissionIds`) only that edit applies to what is stored now: what was ticked is added,
 * what was unticked is removed, and a change another administrator saved meanwhile stays.
 */
export function editedPermissionIds(current: Iterable<string>, wanted: string[], last: string[] | undefined): string[] {
  if (last === undefined) return wanted;
  const before = new Set(last);
  const after = new Set(wanted);
  const result = new Set([...current].filter((id) => after.has(id) || !before.has(id)));
  for (const id of wanted) result.add(id);
  return [...result];
}

export function permissionTree(rows: Array<{ id: string; parent_id: string | null; name: string; menu_type: number; perms: string | null; sort_no: number }>): PermissionTreeNode[] {
  const nodes = new Map(rows.map((r) => [r.id, { key: r.id, title: r.name, menuType: Number(r.menu_type), perms: r.perms, sort: Number(r.sort_no) } as PermissionTreeNode & { sort: number }]));
  const roots: Array<PermissionTreeNode & { sort: number }> = [];
  for (const row of rows) {
    const node = nodes.get(row.id)!;
    const parent = row.parent_id ? nodes.get(row.parent_id) : undefined;
    if (parent) (parent.children ??= []).push(node);
    else if (!row.parent_id) roots.push(node);
  }
  const order = (list: PermissionTreeNode[]): PermissionTreeNode[] =>
    (list as Array<PermissionTreeNode & { sort: number }>)
      .sort((a, b) => a.sort - b.sort)
      .map(({ sort: _sort, ...node }) => (node.children ? { ...node, children: order(node.children) } : node));
  return order(roots);
}

const saveBody = z.object({ roleId: z.string().regex(ID_PATTERN), permissionIds: z.string().max(200_000), lastpermissionIds: z.string().max(200_000).optional() });

/** Roles: the generic screen of the declaration, the administrator role protected, and permission assignment. */
export const roleRoutes: FastifyPluginAsyncZod = async (app) => {
  const isAdminRole = (row: Record<string, unknown>) => row.role_code === SYSTEM_ADMIN_ROLE;

  const roles = registerEntity(app, roleEntity, {
    beforeAdd: ({ caller }, values) => assertMayUseRoleCode(caller, values.roleCode),
    beforeEdit: async ({ app: a, caller }, values, existing) => {
      if (isAdminRole(existing) && values.roleCode !== undefined && values.roleCode !== SYSTEM_ADMIN_ROLE) refuse('role.adminProtected');
      await assertMayChangeRoles(a, caller, [existing]);
      assertMayUseRoleCode(caller, values.roleCode);
    },
    beforeDelete: async ({ app: a, caller }, rows) => {
      if (rows.some(isAdminRole)) refuse('role.adminProtected');
      await assertMayChangeRoles(a, caller, rows);
      const ids = rows.map((r) => r.id as string);
      await a.db.deleteFrom('sys_user_role').where('role_id', 'in', ids).execute();
      await a.db.deleteFrom('sys_role_permission').where('role_id', 'in', ids).execute();
    },
  });

  app.get(RolePath.queryall, { schema: { tags, summary: 'Every role the caller sees, for selectors' }, config: { permission: 'authenticated' } }, async (request, reply) => {
    const rows = await showSeededRows(app, 'role', await roles.scoped(callerOf(request)).orderBy('role_name').limit(5000).execute(), request.lang);
    return reply.ok(rows.map((r): RoleOption => ({ id: r.id as string, roleName: r.role_name as string, roleCode: r.role_code as string })));
  });

  const authorize = permissionCode(roleEntity, 'authorize');

  app.get(RolePath.permissionTree, { schema: { tags, summary: 'The whole menu and button tree' }, config: { permission: authorize } }, async (_request, reply) => {
    const rows = await app.db.selectFrom('sys_permission').select(['id', 'parent_id', 'name', 'menu_type', 'perms', 'sort_no']).where('del_flag', '=', 0).execute();
    return reply.ok({ treeList: permissionTree(rows), ids: rows.map((r) => r.id) });
  });

  // the origin console's role authorisation drawer asks the same tree here and reads the origin's tree node fields
  app.get('/sys/role/queryTreeList', { schema: { tags, summary: 'The whole menu and button tree (origin node fields)' }, config: { permission: authorize } }, async (request, reply) => {
    // the origin's drawer shows the titles as answered, so seeded names come in the reader's language
    const stored = await app.db.selectFrom('sys_permission').select(['id', 'parent_id', 'name', 'menu_type', 'perms', 'sort_no']).where('del_flag', '=', 0).execute();
    const rows = await showSeededRows(app, 'permission', stored, request.lang);
    const ruled = new Set((await app.db.selectFrom('sys_permission_data_rule').select('permission_id').distinct().execute()).map((r) => r.permission_id));
    const parentOf = new Map(rows.map((r) => [r.id, r.parent_id]));
    const withOriginFields = (nodes: PermissionTreeNode[]): Array<Record<string, unknown>> =>
      nodes.map((node) => ({
        ...node,
        value: node.key,
        label: node.title,
        slotTitle: node.title,
        parentId: parentOf.get(node.key) ?? null,
        isLeaf: !node.children?.length,
        ruleFlag: ruled.has(node.key),
        ...(node.children ? { children: withOriginFields(node.children) } : {}),
      }));
    return reply.ok({ treeList: withOriginFields(permissionTree(rows)), ids: rows.map((r) => r.id) });
  });

  const roleQuery = z.object({ roleId: z.string().regex(ID_PATTERN) });
  app.get(RolePath.queryRolePermission, { schema: { tags, summary: 'Permission ids of a role', querystring: roleQuery }, config: { permission: authorize } }, async (request, reply) => {
    const role = await roles.findById(callerOf(request), (request.query as z.infer<typeof roleQuery>).roleId);
    if (!role) throw new AppError('notFound', 'crud.notFound');
    const rows = await app.db.selectFrom('sys_role_permission').select('permission_id').where('role_id', '=', role.id as string).execute();
    return reply.ok(rows.map((r) => r.permission_id));
  });

  app.post(RolePath.saveRolePermission, { schema: { tags, summary: "Replace a role's permissions", body: saveBody }, config: { permission: authorize } }, async (request, reply) => {
    const started = performance.now();
    const caller = callerOf(request);
    const body = request.body as z.infer<typeof saveBody>;
    const role = await roles.findById(caller, body.roleId);
    if (!role) throw new AppError('notFound', 'crud.notFound');
    const [sent, last] = [splitIds(body.permissionIds), body.lastpermissionIds === undefined ? undefined : splitIds(body.lastpermissionIds)];
    if ([...sent, ...(last ?? [])].some((id) => !ID_PATTERN.test(id))) throw new AppError('badRequest', 'error.badRequest', { detail: 'permissionIds' });
    const current = new Set((await app.db.selectFrom('sys_role_permission').select('permission_id').where('role_id', '=', role.id as string).execute()).map((r) => r.permission_id));
    const wanted = editedPermissionIds(current, sent, last);
    const existing = wanted.length === 0 ? [] : (await app.db.selectFrom('sys_permission').select('id').where('id', 'in', wanted).where('del_flag', '=', 0).execute()).map((r) => r.id);
    // the administrator role holds every permission: the origin's role screen saves it unchanged, which takes nothing away
    if (isAdminRole(role)) {
      if (!caller.systemAdmin) refuse('role.adminProtected');
      const kept = new Set(existing);
      if ([...current].some((id) => !kept.has(id))) refuse('role.adminProtected');
    }
    await assertMayGivePermissions(app, caller, permissionChanges(current, existing));
    const now = new Date(app.clock()).toISOString();
    await app.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sys_role_permission').where('role_id', '=', role.id as string).execute();
      for (let i = 0; i < existing.length; i += 200) {
        await trx
          .insertInto('sys_role_permission')
          .values(existing.slice(i, i + 200).map((permissionId) => ({ id: randomUUID(), role_id: role.id as string, permission_id: permissionId, create_by: caller.username, create_time: now, update_by: null, update_time: null })))
          .execute();
      }
    });
    await writeOperationLog(app, { operateType: OperationType.edit, userId: caller.id, username: caller.username, tenantId: caller.tenantId, ip: request.ip, content: { key: 'log.permissionsSaved', params: { entity: roleEntity.title, owner: String(role.role_code), count: existing.length } }, costMs: performance.now() - started });
    return reply.ok(null, 'role.permissionsSaved');
  });
};
