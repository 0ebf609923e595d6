import { randomUUID } from 'node:crypto';
import {
  addressBookEntity,
  addUsersToDepartBody,
  changeUserPasswordBody,
  departEntity,
  DepartUserPerm,
  ID_PATTERN,
  isStrongPassword,
  permissionCode,
  roleEntity,
  splitIds,
  UserAdminPath,
  userAgentEntity,
  userEntity,
  UserStatus,
  type ChangeUserPasswordBody,
  shownSeededText,
  type MessageKey,
} from '@isps/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { callerOf, type CurrentUser } from '../../platform/access.ts';
import { OperationType, writeOperationLog } from '../../platform/audit-log.ts';
import { registerEntity, tableOf, type CrudContext, type RegisteredEntity } from '../../platform/crud/index.ts';
import { showSeededRows } from '../../platform/seeded-texts.ts';
import { pagingOf, type Query } from '../../platform/crud/query.ts';
import { toApiRow } from '../../platform/crud/values.ts';
import { dictionaryOptions } from '../../platform/dictionaries.ts';
import { tenantScoped } from '../../platform/tenancy.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { assertMayDeleteDepartRoles, assertMayGiveRoles, assertMayManageUsers, roleChanges } from '../../platform/grants.ts';
import { ADMIN_USERNAME } from '../../db/seed/index.ts';
import { nextOrgCode } from './depart-service.ts';
import { escapeLike, likeEscaped } from './like-pattern.ts';
import { deleteGroupRoles, dropGroupRolesOutsideGroups } from './depart-role-routes.ts';

const tags = ['user'];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = Record<string, any>;

const frozenBody = z.object({
  ids: z.string().max(70_000),
  status: z.union([z.literal(UserStatus.normal), z.literal(UserStatus.frozen), z.enum(['1', '2']).transform(Number)]),
});

const idsOf = (text: string) => splitIds(text);

function requireIds(text: string): string[] {
  const ids = idsOf(text);
  if (ids.length === 0) refuse('crud.selectRecord');
  if (ids.length > 1000 || ids.some((id) => !ID_PATTERN.test(id))) throw new AppError('badRequest', 'error.badRequest', { detail: 'ids' });
  return ids;
}

/** the seeded administrator account: protected from every caller (holders of the administrator role from others, in grants.ts) */
const isAdmin = (row: Row | undefined) => row?.username === ADMIN_USERNAME;
const sameIds = (a: unknown, b: unknown) => idsOf(String(a ?? '')).sort().join(',') === idsOf(String(b ?? '')).sort().join(',');

/** The ids linked to a user in a link table, joined by commas. */
async function linkedIds(app: FastifyInstance, table: 'sys_user_role' | 'sys_user_depart', userId: string): Promise<string> {
  const column = table === 'sys_user_role' ? 'role_id' : 'dep_id';
  const rows = await app.db.selectFrom(table).select(column).where('user_id', '=', userId).execute();
  return rows.map((r) => (r as Row)[column] as string).join(',');
}

/** The current group follows the user's groups: kept while still one of them, else the first, else none. */
async function syncOrgCode(app: FastifyInstance, userId: string): Promise<void> {
  const user = await app.db.selectFrom('sys_user').select('org_code').where('id', '=', userId).executeTakeFirst();
  const groups = await app.db
    .selectFrom('sys_user_depart as ud')
    .innerJoin('sys_depart as d', 'd.id', 'ud.dep_id')
    .select('d.org_code')
    .where('ud.user_id', '=', userId)
    .where('d.del_flag', '=', 0)
    .orderBy('d.org_code')
    .execute();
  const codes = groups.map((g) => g.org_code);
  const next = user?.org_code && codes.includes(user.org_code) ? user.org_code : (codes[0] ?? null);
  if (next !== (user?.org_code ?? null)) await app.db.updateTable('sys_user').set({ org_code: next }).where('id', '=', userId).execute();
  await dropGroupRolesOutsideGroups(app, userId);
}

/** The org code a user of these groups starts with: the first in org-code order, as `syncOrgCode` would choose. */
async function firstOrgCode(app: FastifyInstance, groupIds: string[]): Promise<string | null> {
  if (groupIds.length === 0) return null;
  const first = await app.db.selectFrom('sys_depart').select('org_code').where('id', 'in', groupIds).where('del_flag', '=', 0).orderBy('org_code').executeTakeFirst();
  return first?.org_code ?? null;
}

async function log(app: FastifyInstance, caller: CurrentUser, ip: string, key: MessageKey, params: Record<string, string>, started: number) {
  const content = { key, params: { entity: userEntity.title, ...params } };
  await writeOperationLog(app, { operateType: OperationType.edit, userId: caller.id, username: caller.username, tenantId: caller.tenantId, ip, content, costMs: performance.now() - started });
}

/** Calls of the origin console's users, roles and address book screens beyond the generic ones. */
const OriginUserPath = {
  /** GET ?roleId=&username=&pageNo=&pageSize= : a page of the role's users, rows as the user list's */
  userRoleList: '/sys/user/userRoleList',
  /** GET ?userId= : the user's groups as `{ key, value, title }` */
  userDepartList: '/sys/user/userDepartList',
  /** GET ?orgCode=&realname=&workNo=&pageNo=&pageSize= : a page of people of a group and the groups below it */
  queryByOrgCodeForAddressList: '/sys/user/queryByOrgCodeForAddressList',
} as const;

/** Calls of the origin console's group screens beyond the generic ones. */
const OriginDepartPath = {
  /** GET: the group tree as `{ key, value, title, children }` */
  queryIdTree: '/sys/sysDepart/queryIdTree',
  /** GET ?keyWord=&myDeptSearch= : the groups whose name contains the word (refused, as not found, when none does) */
  searchBy: '/sys/sysDepart/searchBy',
  /** GET: the caller's groups, each with the groups below it */
  queryMyDeptTreeList: '/sys/sysDepart/queryMyDeptTreeList',
} as const;

/** The ids of every node of a tree. */
function treeOfIds(nodes: Row[]): string[] {
  return nodes.flatMap((n) => [n.id as string, ...treeOfIds((n.children as Row[] | undefined) ?? [])]);
}

/** The group memberships of users: ids and names, ordered by name. */
async function groupsOf(app: FastifyInstance, userIds: string[]): Promise<Map<string, Array<{ id: string; name: string; orgCode: string }>>> {
  const byUser = new Map<string, Array<{ id: string; name: string; orgCode: string }>>();
  if (userIds.length === 0) return byUser;
  const reading = app.db
    .selectFrom('sys_user_depart as ud')
    .innerJoin('sys_depart as d', 'd.id', 'ud.dep_id')
    .select(['ud.user_id', 'd.id', 'd.depart_name', 'd.org_code'])
    .where('ud.user_id', 'in', userIds)
    .where('d.del_flag', '=', 0)
    .orderBy('d.depart_name')
    .orderBy('d.id');
  // read for every page of users: kept until the tables change, like the page itself
  const rows = await app.listCache.read(reading.compile(), () => reading.execute());
  for (const r of rows) byUser.set(r.user_id, [...(byUser.get(r.user_id) ?? []), { id: r.id, name: r.depart_name, orgCode: r.org_code }]);
  return byUser;
}

/**
 * User rows carry the origin console's fields beside ours: `orgCodeTxt` (the names of the user's groups),
 * `relTenantIds` (the user's tenants, one here), `userIdentity` (1 ordinary, 2 superior; with `departIds`, the groups a
 * superior is responsible for, a field of their own) and `avatar` (null when none).
 */
export async function withOriginUserFields(app: FastifyInstance, rows: Row[]): Promise<Row[]> {
  const ids = rows.map((r) => r.id as string).filter((id) => typeof id === 'string');
  if (ids.length === 0) return rows;
  const groups = await groupsOf(app, ids);
  const reading = app.db.selectFrom('sys_user').select(['id', 'avatar', 'tenant_id']).where('id', 'in', ids);
  const stored = new Map((await app.listCache.read(reading.compile(), () => reading.execute())).map((r) => [r.id, r]));
  for (const row of rows) {
    const mine = groups.get(row.id as string) ?? [];
    row.orgCodeTxt = mine.map((g) => g.name).join(',');
    row.relTenantIds = stored.get(row.id as string)?.tenant_id ?? '';
    row.avatar = stored.get(row.id as string)?.avatar ?? null;
  }
  return rows;
}

/** The routes of the users screen whose answers are user rows (a page or one row). */
const userRowRoutes = new Set(['list', 'queryById', 'recycleBin'].map((verb) => `${userEntity.basePath}/${verb}`));

async function addOriginUserFields(app: FastifyInstance, request: FastifyRequest, _reply: FastifyReply, payload: unknown) {
  const url = (request.routeOptions.url ?? '').slice(app.settings.apiPrefix.length);
  const envelope = payload as { success?: boolean; result?: unknown } | null;
  if (!userRowRoutes.has(url) || !envelope?.success || !envelope.result || typeof envelope.result !== 'object') return payload;
  const result = envelope.result as { records?: Row[] } & Row;
  await withOriginUserFields(app, Array.isArray(result.records) ? result.records : [result]);
  return payload;
}

/**
 * The users screen: the generic engine over sys_user (roles and groups as link fields) with hashing, freezing,
 * password resets and agents; the administrator account refuses every one of these
 * ('Administrator account does not allow this operation!').
 */
export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  // in this plugin's scope, so that it reaches the generated routes registered below it
  app.addHook('preSerialization', async (request, reply, payload) => addOriginUserFields(app, request, reply, payload));

  const revokeSessions = async (ids: string[]) => {
    for (const id of ids) await app.tokens.revokeAllOf(id);
  };

  registerEntity(app, departEntity, {
    beforeAdd: async ({ app: a }, values) => {
      const parentId = (values.parentId as string | null) ?? null;
      const code = await nextOrgCode(a, parentId);
      values.orgCode = code;
      values.orgType = parentId ? '2' : '1';
    },
    beforeEdit: (_ctx, values) => {
      // the org code follows the place in the tree it was created at; moving a group keeps its code
      delete values.orgCode;
    },
    beforeDelete: async ({ app: a, caller }, rows) => {
      const ids = rows.map((r) => r.id as string);
      const members = await a.db.selectFrom('sys_user_depart').select('user_id').where('dep_id', 'in', ids).execute();
      // deleting a group takes its members out of it, and its group roles from their holders
      await assertMayManageUsers(a, caller, members.map((m) => m.user_id));
      const groupRoles = await a.db.selectFrom('sys_depart_role').select('id').where('depart_id', 'in', ids).execute();
      await assertMayDeleteDepartRoles(a, caller, groupRoles.map((r) => r.id));
      await a.db.deleteFrom('sys_user_depart').where('dep_id', 'in', ids).execute();
      for (const m of new Set(members.map((r) => r.user_id))) await syncOrgCode(a, m);
    },
    deleteLinked: (trx, ids) => deleteGroupRoles(trx, ids),
  });

  const users: RegisteredEntity = registerEntity(app, userEntity, {
    beforeAdd: async ({ app: a, caller, once }, values) => {
      // the add form and every imported row; the rows of one import share their initial password, hashed once
      const selectedRoles = String(values.selectedroles ?? '');
      await once('mayGiveRoles', selectedRoles, () => assertMayGiveRoles(a, caller, { added: idsOf(selectedRoles) }));
      const password = String(values.password);
      values.password = await once('passwordHash', password, () => a.hasher.hash(password));
      values.status = UserStatus.normal;
    },
    // a password an administrator chose is an initial one: the user replaces it at the first sign-in; the user's
    // current group is the first of the groups given (stored with the row, so an import's batch holds it too)
    columnsOnAdd: async ({ app: a, once }, values) => {
      const groups = String(values.selecteddeparts ?? '');
      return { must_change_password: 1, org_code: await once('firstOrgCode', groups, () => firstOrgCode(a, idsOf(groups))) };
    },
    beforeEdit: async ({ app: a, caller, request }, values, existing) => {
      await assertMayManageUsers(a, caller, [existing.id]);
      // one's own phone or e-mail (where recovery codes go) changes only with the account's second factor, when it has one
      const contactChanged = (['phone', 'email'] as const).some((f) => values[f] !== undefined && (values[f] || null) !== (existing[f] ?? null));
      if (contactChanged && caller.id === existing.id) await a.guardOwnContactChange?.(caller, (request.body as { totpCode?: unknown } | undefined)?.totpCode);
      // the engine replaces the links whenever the field is sent
      if (Object.hasOwn(values, 'selectedroles')) {
        await assertMayGiveRoles(a, caller, roleChanges(idsOf(await linkedIds(a, 'sys_user_role', existing.id)), idsOf(String(values.selectedroles ?? ''))));
      }
      if (isAdmin(existing)) {
        const renamed = values.username !== undefined && values.username !== existing.username;
        const rolesChanged = values.selectedroles !== undefined && !sameIds(values.selectedroles, await linkedIds(a, 'sys_user_role', existing.id));
        const groupsChanged = values.selecteddeparts !== undefined && !sameIds(values.selecteddeparts, await linkedIds(a, 'sys_user_depart', existing.id));
        if (renamed || rolesChanged || groupsChanged || (typeof values.password === 'string' && values.password !== '')) refuse('error.adminProtected');
      }
      if (typeof values.password === 'string' && values.password !== '') {
        values.password = await a.hasher.hash(values.password);
        await a.db.updateTable('sys_user').set({ must_change_password: 1 }).where('id', '=', existing.id).execute();
        await revokeSessions([existing.id]);
      }
    },
    afterEdit: async ({ app: a }, id) => syncOrgCode(a, id),
    beforeDelete: async ({ app: a, caller }, rows, complete) => {
      if (rows.some(isAdmin)) refuse('error.adminProtected');
      await assertMayManageUsers(a, caller, rows.map((r) => r.id as string));
      await revokeSessions(rows.map((r) => r.id as string));
      if (complete) {
        const ids = rows.map((r) => r.id as string);
        await a.db.deleteFrom('sys_user_token').where('user_id', 'in', ids).execute();
        await a.db.deleteFrom('sys_user_agent').where('user_name', 'in', rows.map((r) => r.username as string)).execute();
      }
    },
    deleteLinked: async (trx, ids, complete) => {
      if (complete) await trx.deleteFrom('sys_depart_role_user').where('user_id', 'in', ids).execute();
    },
    beforeRestore: async ({ app: a, caller }, rows) => assertMayManageUsers(a, caller, rows.map((r) => r.id as string)),
    routes: (routes, registered) => {
      routes.put(
        UserAdminPath.frozenBatch,
        { schema: { tags, summary: 'Freeze or thaw users', body: frozenBody }, config: { permission: permissionCode(userEntity, 'frozen') } },
        async (request, reply) => {
          const started = performance.now();
          const caller = callerOf(request);
          const { ids: text, status } = request.body as z.infer<typeof frozenBody>;
          const ids = requireIds(text);
          const rows = await registered.scoped(caller).select(['id', 'username', 'status']).where('id', 'in', ids).execute();
          if (rows.length === 0) throw new AppError('notFound', 'crud.notFound');
          if (rows.some(isAdmin)) refuse('error.adminProtected');
          const found = rows.map((r) => r.id as string);
          // thawing self-registered accounts that await approval is their approval, and is told so
          const approving = status === UserStatus.normal && rows.every((r) => Number(r.status) === UserStatus.awaitingApproval);
          await assertMayManageUsers(app, caller, found);
          await app.db.updateTable('sys_user').set({ status, update_by: caller.username, update_time: new Date(app.clock()).toISOString() }).where('id', 'in', found).execute();
          if (status === UserStatus.frozen) await revokeSessions(found);
          await log(app, caller, request.ip, status === UserStatus.frozen ? 'log.frozen' : approving ? 'log.approved' : 'log.thawed', { ids: found.join(',') }, started);
          const message = status === UserStatus.frozen ? 'userAdmin.frozenBatch' : approving ? 'userAdmin.approvedBatch' : 'userAdmin.thawedBatch';
          return reply.ok({ count: found.length }, message, { count: String(found.length) });
        },
      );

      routes.put(
        UserAdminPath.changePassword,
        { schema: { tags, summary: "Set a user's password", body: changeUserPasswordBody }, config: { permission: permissionCode(userEntity, 'resetPassword') } },
        async (request, reply) => {
          const started = performance.now();
          const caller = callerOf(request);
          const body = request.body as ChangeUserPasswordBody;
          const user = await registered.scoped(caller).where('username', '=', body.username).executeTakeFirst();
          if (!user) throw new AppError('notFound', 'crud.notFound');
          if (isAdmin(user)) refuse('error.adminProtected');
          await assertMayManageUsers(app, caller, [user.id as string]);
          if (body.password !== body.confirmpassword) refuse('password.mismatch');
          if (!isStrongPassword(body.password)) refuse('password.weak');
          await app.db
            .updateTable('sys_user')
            .set({ password: await app.hasher.hash(body.password), must_change_password: 1, update_by: caller.username, update_time: new Date(app.clock()).toISOString() })
            .where('id', '=', user.id)
            .execute();
          await revokeSessions([user.id]);
          await log(app, caller, request.ip, 'log.passwordReset', { id: user.id }, started);
          return reply.ok(null, 'userAdmin.passwordReset', { username: user.username });
        },
      );

      routes.get(
        UserAdminPath.queryUserRole,
        { schema: { tags, summary: "A user's role ids", querystring: z.object({ userid: z.string().regex(ID_PATTERN) }) }, config: { permission: permissionCode(userEntity, 'list') } },
        async (request, reply) => {
          const user = await registered.findById(callerOf(request), (request.query as { userid: string }).userid);
          if (!user) throw new AppError('notFound', 'crud.notFound');
          return reply.ok(idsOf(await linkedIds(app, 'sys_user_role', user.id)));
        },
      );

      routes.get(
        UserAdminPath.checkOnlyUser,
        {
          schema: {
            tags,
            summary: 'Is a user name, phone or email still free',
            querystring: z.object({ username: z.string().max(100).optional(), phone: z.string().max(45).optional(), email: z.string().max(100).optional(), id: z.string().regex(ID_PATTERN).optional() }),
          },
          config: { permission: permissionCode(userEntity, 'list') },
        },
        async (request, reply) => {
          const query = request.query as { username?: string; phone?: string; email?: string; id?: string };
          const [column, value, message] = query.username
            ? (['username', query.username, 'duplicate.userName'] as const)
            : query.phone
              ? (['phone', query.phone, 'duplicate.phone'] as const)
              : query.email
                ? (['email', query.email, 'duplicate.email'] as const)
                : refuse('error.badRequest');
          let holder = app.db.selectFrom('sys_user').select('id').where(column, '=', value.trim());
          if (query.id) holder = holder.where('id', '<>', query.id);
          if (await holder.executeTakeFirst()) refuse(message);
          return reply.ok(true, 'userAdmin.available');
        },
      );

      routes.get(
        UserAdminPath.queryUserByDepId,
        { schema: { tags, summary: "A group's users", querystring: z.object({ id: z.string().regex(ID_PATTERN) }) }, config: { permission: permissionCode(userEntity, 'list') } },
        async (request, reply) => {
          const rows = await registered
            .scoped(callerOf(request))
            .select(['id', 'username', 'realname'])
            .where('id', 'in', app.db.selectFrom('sys_user_depart').select('user_id').where('dep_id', '=', (request.query as { id: string }).id))
            .orderBy('username')
            .limit(5000)
            .execute();
          return reply.ok((await showSeededRows(app, 'user', rows, request.lang)).map((r) => ({ id: r.id, username: r.username, realname: r.realname })));
        },
      );

      routes.get(
        UserAdminPath.queryUserRoleMap,
        { schema: { tags, summary: 'Role names by user id' }, config: { permission: permissionCode(userEntity, 'list') } },
        async (request, reply) => {
          const caller = callerOf(request);
          const pairs = await app.db
            .selectFrom('sys_user_role as ur')
            .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
            .innerJoin('sys_user as u', 'u.id', 'ur.user_id')
            .select(['ur.user_id', 'r.role_name', 'r.role_code'])
            .where('u.del_flag', '=', 0)
            .$call((q) => tenantScoped(q, caller, 'u.tenant_id'))
            .limit(50_000)
            .execute();
          const map: Record<string, string> = {};
          for (const p of pairs) {
            const name = shownSeededText(request.lang, 'role', 'role_name', p);
            map[p.user_id] = map[p.user_id] ? `${map[p.user_id]},${name}` : name;
          }
          return reply.ok(map);
        },
      );

      const roleUsersQuery = z.object({ roleId: z.string().regex(ID_PATTERN) }).loose();
      routes.get(
        OriginUserPath.userRoleList,
        { schema: { tags, summary: "A page of a role's users", querystring: roleUsersQuery }, config: { permission: permissionCode(userEntity, 'list') } },
        async (request, reply) => {
          const caller = callerOf(request);
          const { roleId, ...query } = request.query as z.infer<typeof roleUsersQuery>;
          if (!(await app.crudEntities.get(tableOf(roleEntity))?.findById(caller, roleId))) throw new AppError('notFound', 'crud.notFound');
          const { pageNo, pageSize } = pagingOf(query as Query);
          const username = typeof query.username === 'string' ? query.username.replace(/^\*|\*$/g, '').trim() : '';
          const holders = () =>
            registered
              .scoped(caller)
              .where('id', 'in', app.db.selectFrom('sys_user_role').select('user_id').where('role_id', '=', roleId))
              .$call((q) => (username ? q.where(likeEscaped('username', `%${escapeLike(username)}%`)) : q));
          const total = Number((await holders().clearSelect().select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
          const rows = await showSeededRows(app, 'user', await holders().orderBy('username').orderBy('id').limit(pageSize).offset((pageNo - 1) * pageSize).execute(), request.lang);
          const statuses = await dictionaryOptions(app, 'user_status', request.lang);
          const records = rows.map((r) => {
            const row = toApiRow(userEntity, r) as Row;
            row.status_dictText = statuses.find((o) => o.value === String(row.status))?.text ?? String(row.status ?? '');
            return row;
          });
          await withOriginUserFields(app, records);
          return reply.ok({ records, total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) });
        },
      );

      const userQuery = z.object({ userId: z.string().regex(ID_PATTERN) });
      routes.get(
        OriginUserPath.userDepartList,
        { schema: { tags, summary: "A user's groups", querystring: userQuery }, config: { permission: permissionCode(userEntity, 'list') } },
        async (request, reply) => {
          const user = await registered.findById(callerOf(request), (request.query as z.infer<typeof userQuery>).userId);
          if (!user) throw new AppError('notFound', 'crud.notFound');
          const groups = (await groupsOf(app, [user.id as string])).get(user.id as string) ?? [];
          return reply.ok(groups.map((g) => ({ key: g.id, value: g.id, title: g.name })));
        },
      );
    },
  });

  const groups = app.crudEntities.get(tableOf(departEntity)) as RegisteredEntity;
  const now = () => new Date(app.clock()).toISOString();

  /** The caller's groups as the origin's group tree nodes (its SysDepartTreeModel): our fields, and key/value/title. */
  const groupNodes = async (caller: CurrentUser) => {
    const rows = await groups.scoped(caller).orderBy('depart_order').orderBy('depart_name').orderBy('id').limit(10_000).execute();
    const nodes = new Map<string, Row>(rows.map((r) => [r.id as string, { ...toApiRow(departEntity, r), key: r.id, value: r.id, title: r.depart_name, departName: r.depart_name }]));
    for (const node of nodes.values()) node.isLeaf = !rows.some((r) => r.parent_id === node.id);
    return { rows, nodes };
  };
  /** The nodes under `roots` (all roots when none are named), each with its `children`. */
  const treeOf = (rows: Row[], nodes: Map<string, Row>, rootIds?: ReadonlySet<string>) => {
    const children = new Map<string, Row[]>();
    for (const r of rows) if (r.parent_id && nodes.has(r.parent_id as string)) children.set(r.parent_id as string, [...(children.get(r.parent_id as string) ?? []), nodes.get(r.id as string) as Row]);
    const build = (node: Row, depth: number): Row => {
      const below = depth < 100 ? (children.get(node.id as string) ?? []).map((c) => build({ ...c }, depth + 1)) : [];
      return below.length ? { ...node, children: below } : node;
    };
    const roots = rows.filter((r) => (rootIds ? rootIds.has(r.id as string) : !r.parent_id || !nodes.has(r.parent_id as string)));
    return roots.map((r) => build({ ...(nodes.get(r.id as string) as Row) }, 0));
  };

  app.get(OriginDepartPath.queryIdTree, { schema: { tags, summary: 'The group tree as ids and names' }, config: { permission: permissionCode(departEntity, 'list') } }, async (request, reply) => {
    const { rows, nodes } = await groupNodes(callerOf(request));
    const idsOnly = (list: Row[]): Row[] => list.map((n) => ({ key: n.key, value: n.value, title: n.title, ...(n.children ? { children: idsOnly(n.children as Row[]) } : {}) }));
    return reply.ok(idsOnly(treeOf(rows, nodes)));
  });

  const searchQuery = z.object({ keyWord: z.string().max(100).optional(), myDeptSearch: z.string().max(10).optional() });
  app.get(OriginDepartPath.searchBy, { schema: { tags, summary: 'Groups whose name contains a word', querystring: searchQuery }, config: { permission: permissionCode(departEntity, 'list') } }, async (request, reply) => {
    const caller = callerOf(request);
    const { keyWord, myDeptSearch } = request.query as z.infer<typeof searchQuery>;
    const { rows, nodes } = await groupNodes(caller);
    const word = (keyWord ?? '').trim().toLowerCase();
    // `myDeptSearch=1`: only among the caller's own groups and the groups below them
    const mine = myDeptSearch === '1' ? new Set(treeOfIds(treeOf(rows, nodes, new Set((await groupsOf(app, [caller.id])).get(caller.id)?.map((g) => g.id) ?? [])))) : undefined;
    const found = rows.filter((r) => String(r.depart_name).toLowerCase().includes(word) && (!mine || mine.has(r.id as string))).map((r) => nodes.get(r.id as string) as Row);
    // the origin answers a search without a match as a refusal it shows as a warning
    if (found.length === 0) refuse('depart.noMatch');
    return reply.ok(found);
  });

  app.get(OriginDepartPath.queryMyDeptTreeList, { schema: { tags, summary: "The caller's groups with the groups below them" }, config: { permission: 'authenticated' } }, async (request, reply) => {
    const caller = callerOf(request);
    const { rows, nodes } = await groupNodes(caller);
    const own = new Set((await groupsOf(app, [caller.id])).get(caller.id)?.map((g) => g.id) ?? []);
    return reply.ok(treeOf(rows, nodes, own));
  });

  app.post(
    UserAdminPath.addUsersToDepart,
    { schema: { tags, summary: 'Put existing users into a group', body: addUsersToDepartBody }, config: { permission: permissionCode(departEntity, 'list') } },
    async (request, reply) => {
      const started = performance.now();
      const caller = callerOf(request);
      // SPEC section 6: without the permission the answer says so in the spec's words
      if (!caller.permissions.has(DepartUserPerm.add)) refuse('depart.noAddPermission');
      const { depId, userIdList } = request.body as z.infer<typeof addUsersToDepartBody>;
      const group = await groups.findById(caller, depId);
      if (!group) throw new AppError('notFound', 'crud.notFound');
      const ids = requireIds(userIdList);
      const found = (await users.scoped(caller).select('id').where('id', 'in', ids).execute()).map((r) => r.id as string);
      if (found.length !== ids.length) throw new AppError('badRequest', 'error.badRequest', { detail: 'userIdList' });
      await assertMayManageUsers(app, caller, found);
      const already = new Set((await app.db.selectFrom('sys_user_depart').select('user_id').where('dep_id', '=', depId).where('user_id', 'in', found).execute()).map((r) => r.user_id));
      const added = found.filter((id) => !already.has(id));
      for (const userId of added) {
        await app.db.insertInto('sys_user_depart').values({ id: randomUUID(), user_id: userId, dep_id: depId, create_by: caller.username, create_time: now(), update_by: null, update_time: null }).execute();
        await syncOrgCode(app, userId);
      }
      await log(app, caller, request.ip, 'log.membersAdded', { ids: added.join(','), group: depId }, started);
      return reply.ok({ count: added.length }, 'depart.usersAdded', { count: String(added.length) });
    },
  );

  app.delete(
    UserAdminPath.removeUsersFromDepart,
    { schema: { tags, summary: 'Take users out of a group', querystring: z.object({ depId: z.string().regex(ID_PATTERN), userIds: z.string().max(70_000) }) }, config: { permission: DepartUserPerm.remove } },
    async (request, reply) => {
      const started = performance.now();
      const caller = callerOf(request);
      const { depId, userIds } = request.query as { depId: string; userIds: string };
      if (!(await groups.findById(caller, depId))) throw new AppError('notFound', 'crud.notFound');
      const ids = (await users.scoped(caller).select('id').where('id', 'in', requireIds(userIds)).execute()).map((r) => r.id as string);
      await assertMayManageUsers(app, caller, ids);
      if (ids.length > 0) await app.db.deleteFrom('sys_user_depart').where('dep_id', '=', depId).where('user_id', 'in', ids).execute();
      for (const userId of ids) await syncOrgCode(app, userId);
      await log(app, caller, request.ip, 'log.membersRemoved', { ids: ids.join(','), group: depId }, started);
      return reply.ok({ count: ids.length }, 'depart.usersRemoved', { count: String(ids.length) });
    },
  );

  const addressQuery = z.object({ orgCode: z.string().max(64).optional(), realname: z.string().max(100).optional(), workNo: z.string().max(100).optional() }).loose();
  app.get(
    OriginUserPath.queryByOrgCodeForAddressList,
    { schema: { tags, summary: 'A page of the people of a group and the groups below it', querystring: addressQuery }, config: { permission: permissionCode(addressBookEntity, 'list') } },
    async (request, reply) => {
      const caller = callerOf(request);
      const query = request.query as z.infer<typeof addressQuery>;
      const { pageNo, pageSize } = pagingOf(query as Query);
      const people = () => {
        let q = users.scoped(caller);
        if (query.orgCode) {
          const inGroup = app.db
            .selectFrom('sys_user_depart as ud')
            .innerJoin('sys_depart as d', 'd.id', 'ud.dep_id')
            .select('ud.user_id')
            .where('d.del_flag', '=', 0)
            .where(likeEscaped('d.org_code', `${escapeLike(query.orgCode)}%`));
          q = q.where('id', 'in', inGroup);
        }
        if (query.realname?.trim()) q = q.where(likeEscaped('realname', `%${escapeLike(query.realname.trim())}%`));
        if (query.workNo?.trim()) q = q.where(likeEscaped('work_no', `%${escapeLike(query.workNo.trim())}%`));
        return q;
      };
      const total = Number((await people().clearSelect().select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await showSeededRows(app, 'user', await people().orderBy('realname').orderBy('id').limit(pageSize).offset((pageNo - 1) * pageSize).execute(), request.lang);
      const groups = await groupsOf(app, rows.map((r) => r.id as string));
      const records = rows.map((r) => {
        const mine = groups.get(r.id as string) ?? [];
        return {
          id: r.id,
          userId: r.id,
          username: r.username,
          realname: r.realname,
          workNo: r.work_no ?? null,
          phone: r.phone ?? null,
          email: r.email ?? null,
          post: null,
          orgCode: r.org_code ?? null,
          departName: mine.map((g) => g.name).join(','),
          departIds: mine.map((g) => g.id).join(','),
        };
      });
      return reply.ok({ records, total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) });
    },
  );

  registerEntity(app, userAgentEntity, {
    beforeAdd: (ctx, values) => checkAgent(ctx, users, values),
    beforeEdit: (ctx, values, existing) => checkAgent(ctx, users, values, existing),
    beforeDelete: async ({ app: a, caller }, rows) => {
      const names = [...new Set(rows.map((r) => r.user_name as string))];
      const holders = await a.db.selectFrom('sys_user').select('id').where('username', 'in', names).execute();
      await assertMayManageUsers(a, caller, holders.map((h) => h.id));
    },
  });
};

/** An agent setting names a user of the caller's and another user as agent, ends after it starts, never for the administrator. */
async function checkAgent(ctx: CrudContext, users: RegisteredEntity, values: Row, existing?: Row) {
  const userName = String(values.userName ?? existing?.user_name ?? '');
  const agentName = String(values.agentUserName ?? existing?.agent_user_name ?? '');
  const start = values.startTime !== undefined ? values.startTime : existing?.start_time;
  const end = values.endTime !== undefined ? values.endTime : existing?.end_time;
  if (typeof start === 'string' && typeof end === 'string' && end <= start) throw new AppError('badRequest', 'validation.endBeforeStart');
  if (existing && values.userName !== undefined && values.userName !== existing.user_name) delete values.userName;
  if (userName === ADMIN_USERNAME) refuse('error.adminProtected');
  if (userName === agentName) refuse('userAdmin.agentSelf');
  const agent = await users.scoped(ctx.caller).where('username', '=', agentName).executeTakeFirst();
  const user = await users.scoped(ctx.caller).where('username', '=', userName).executeTakeFirst();
  if (!user || !agent) throw new AppError('notFound', 'crud.notFound');
  await assertMayManageUsers(ctx.app, ctx.caller, [user.id as string]);
}
