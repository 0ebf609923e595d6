import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DepartRolePath,
  DepartUserPerm,
  LANGUAGES,
  UserAdminPath,
  crudPath,
  departEntity,
  departRoleEntity,
  entityLabel,
  entityPermissionCodes,
  roleEntity,
  translate,
  userAgentEntity,
  userEntity,
  type ImportReport,
  type MessageKey,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { createRoleWith, uploadFile, workbookOf } from '../test/crud-helpers.ts';
import { USER_PASSWORD, adminToken, api, buildTestApp, createTestUser, injectAs, login, testDialects, tryLogin, type TestApp } from '../test/harness.ts';

type Row = Record<string, unknown> & { id: string };
const PASSWORD = 'Start#Pass1';

/**
 * Seats: the seeded system administrator, a second holder of the system administrator role, a user administrator
 * (every user, group, group role, agent and role permission, but not the administrator role) and an ordinary user.
 */
describe.each(await testDialects())('role grants and the protection of system administrators on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  let second: string;
  let userAdmin: string;
  const ids: Record<string, string> = {};
  let tenantId: string | null;
  const call = <T = Row>(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: Record<string, unknown>, lang = 'en-US') =>
    injectAs<T>(app, token, { method, url: api(app, path), ...(payload ? { payload } : {}), headers: { lang } });
  const roleIdOf = async (code: string) => (await app.db.selectFrom('sys_role').select('id').where('role_code', '=', code).executeTakeFirstOrThrow()).id;
  const rolesOf = async (userId: string) => (await app.db.selectFrom('sys_user_role').select('role_id').where('user_id', '=', userId).execute()).map((r) => r.role_id).sort();
  const userRow = async (userId: string) => app.db.selectFrom('sys_user').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  const expectRefused = (answer: { envelope: { success: boolean; message: string } }, key: MessageKey, lang = 'en-US') =>
    expect({ success: answer.envelope.success, message: answer.envelope.message }).toEqual({ success: false, message: translate(lang as 'en-US', key) });

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
    await createRoleWith(app, 'clerk', ['system:position:list']);
    await createRoleWith(app, 'helpdesk', ['system:user:list']);
    await createRoleWith(app, 'user_admin', [
      ...[userEntity, departEntity, departRoleEntity, userAgentEntity, roleEntity].flatMap(entityPermissionCodes),
      DepartUserPerm.add,
      DepartUserPerm.remove,
    ]);
    // every seat works in the seeded tenant, where the seeded roles are
    const seeded = await app.db.selectFrom('sys_user').select(['id', 'tenant_id']).where('username', '=', 'admin').executeTakeFirstOrThrow();
    ids.adminUser = seeded.id;
    tenantId = seeded.tenant_id;
    await app.db.updateTable('sys_role').set({ tenant_id: tenantId }).where('role_code', 'in', ['clerk', 'helpdesk', 'user_admin']).execute();
    ids.second = await createTestUser(app, 'second', { roles: ['admin'], tenantId });
    ids.userAdmin = await createTestUser(app, 'useradmin', { roles: ['user_admin', 'helpdesk'], tenantId });
    ids.plain = await createTestUser(app, 'plain', { roles: ['clerk'], tenantId });
    for (const code of ['admin', 'clerk', 'helpdesk', 'user_admin']) ids[code] = await roleIdOf(code);
    second = await login(app, 'second', USER_PASSWORD);
    userAdmin = await login(app, 'useradmin', USER_PASSWORD);
    ids.group = (await call<{ id: string }>(admin, 'POST', crudPath(departEntity, 'add'), { departName: 'Desk' })).envelope.result.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets a user administrator give and take on the add and edit forms only roles he holds, never the administrator role', async () => {
    const add = (username: string, selectedroles: string, lang = 'en-US') => call<{ id: string }>(userAdmin, 'POST', crudPath(userEntity, 'add'), { username, realname: username, password: PASSWORD, selectedroles }, lang);
    for (const lang of LANGUAGES) {
      expectRefused(await add('taker', ids.admin!, lang), 'grant.adminRoleOnly', lang);
      expectRefused(await add('taker', `${ids.helpdesk},${ids.clerk}`, lang), 'grant.roleNotHeld', lang);
    }
    expect(await app.db.selectFrom('sys_user').select('id').where('username', '=', 'taker').executeTakeFirst()).toBeUndefined();
    const added = await add('taker', `${ids.helpdesk},${ids.user_admin}`);
    expect(added.envelope.success).toBe(true);
    const taker = added.envelope.result.id;
    expect(await rolesOf(taker)).toEqual([ids.helpdesk, ids.user_admin].sort());

    const edit = (id: string, selectedroles: string, lang = 'en-US') => call(userAdmin, 'PUT', crudPath(userEntity, 'edit'), { id, selectedroles }, lang);
    for (const lang of LANGUAGES) {
      expectRefused(await edit(taker, `${ids.helpdesk},${ids.admin}`, lang), 'grant.adminRoleOnly', lang);
      expectRefused(await edit(taker, `${ids.helpdesk},${ids.clerk}`, lang), 'grant.roleNotHeld', lang);
      // taking away a role he does not hold is refused too
      expectRefused(await edit(ids.plain!, '', lang), 'grant.roleNotHeld', lang);
      expectRefused(await edit(ids.userAdmin!, `${ids.user_admin},${ids.helpdesk},${ids.admin}`, lang), 'grant.adminRoleOnly', lang);
    }
    expect(await rolesOf(taker)).toEqual([ids.helpdesk, ids.user_admin].sort());
    expect(await rolesOf(ids.plain!)).toEqual([ids.clerk]);
    // a role he does not hold may stay where it is while he changes the ones he holds
    expect((await edit(ids.plain!, `${ids.clerk},${ids.helpdesk}`)).envelope.success).toBe(true);
    expect(await rolesOf(ids.plain!)).toEqual([ids.clerk, ids.helpdesk].sort());
    expect((await edit(ids.plain!, ids.clerk!)).envelope.success).toBe(true);
    expect((await edit(taker, ids.helpdesk!)).envelope.success).toBe(true);
    expect(await rolesOf(taker)).toEqual([ids.helpdesk]);
    // the system administrator gives any role, the administrator role included
    expect((await call(admin, 'PUT', crudPath(userEntity, 'edit'), { id: taker, selectedroles: `${ids.clerk},${ids.admin}` })).envelope.success).toBe(true);
    expect(await rolesOf(taker)).toEqual([ids.clerk, ids.admin].sort());
    expect((await call(admin, 'PUT', crudPath(userEntity, 'edit'), { id: taker, selectedroles: ids.helpdesk })).envelope.success).toBe(true);
  });

  it('refuses imported rows naming roles the importer does not hold', async () => {
    const header = ['user.field.username', 'user.field.realname', 'user.field.roles'].map((label) => entityLabel('en-US', label));
    const sheet = await workbookOf(header, [
      ['imp1', 'Imp 1', 'System administrator'],
      ['imp2', 'Imp 2', 'clerk'],
      ['imp3', 'Imp 3', 'helpdesk, user_admin'],
    ]);
    for (const lang of LANGUAGES) {
      const answer = await uploadFile(app, userAdmin, crudPath(userEntity, 'importExcel'), sheet, lang, { password: 'Import#Pass5' });
      const report = answer.envelope.result as ImportReport;
      expect(report.rows.slice(0, 2)).toEqual([
        { row: expect.any(Number), success: false, message: translate(lang, 'grant.adminRoleOnly') },
        { row: expect.any(Number), success: false, message: translate(lang, 'grant.roleNotHeld') },
      ]);
    }
    expect((await app.db.selectFrom('sys_user').select('username').where('username', 'like', 'imp%').execute()).map((r) => r.username)).toEqual(['imp3']);
    // the system administrator imports the administrator role
    const byAdmin = await uploadFile(app, admin, crudPath(userEntity, 'importExcel'), sheet, 'en-US', { password: 'Import#Pass5' });
    expect(byAdmin.envelope.result).toMatchObject({ added: 2, failed: 1 });
    const imp1 = (await app.db.selectFrom('sys_user').select('id').where('username', '=', 'imp1').executeTakeFirstOrThrow()).id;
    expect(await rolesOf(imp1)).toEqual([ids.admin]);
  });

  it('protects every holder of the administrator role from a user administrator on every route', async () => {
    const holder = ids.second!;
    const before = await userRow(holder);
    const agent = { userName: 'second', agentUserName: 'useradmin', startTime: '2026-01-01 08:00:00', endTime: '2026-02-01 08:00:00' };
    for (const lang of LANGUAGES) {
      const refusals = [
        call(userAdmin, 'PUT', UserAdminPath.frozenBatch, { ids: holder, status: 2 }, lang),
        call(userAdmin, 'PUT', UserAdminPath.frozenBatch, { ids: `${ids.plain},${holder}`, status: 2 }, lang),
        call(userAdmin, 'PUT', crudPath(userEntity, 'edit'), { id: holder, phone: '13900000001' }, lang),
        call(userAdmin, 'PUT', crudPath(userEntity, 'edit'), { id: holder, email: 'second@example.com' }, lang),
        call(userAdmin, 'PUT', crudPath(userEntity, 'edit'), { id: holder, realname: 'Taken' }, lang),
        call(userAdmin, 'PUT', crudPath(userEntity, 'edit'), { id: holder, password: 'Taken#Pass99' }, lang),
        call(userAdmin, 'PUT', crudPath(userEntity, 'edit'), { id: holder, selecteddeparts: ids.group }, lang),
        call(userAdmin, 'PUT', crudPath(userEntity, 'edit'), { id: holder, selectedroles: `${ids.admin},${ids.helpdesk}` }, lang),
        call(userAdmin, 'PUT', crudPath(userEntity, 'edit'), { id: ids.adminUser, realname: 'Taken' }, lang),
        call(userAdmin, 'PUT', UserAdminPath.changePassword, { username: 'second', password: 'Taken#Pass99', confirmpassword: 'Taken#Pass99' }, lang),
        call(userAdmin, 'DELETE', `${crudPath(userEntity, 'delete')}?id=${holder}`, undefined, lang),
        call(userAdmin, 'DELETE', `${crudPath(userEntity, 'deleteBatch')}?ids=${ids.plain},${holder}`, undefined, lang),
        call(userAdmin, 'POST', UserAdminPath.addUsersToDepart, { depId: ids.group, userIdList: holder }, lang),
        call(userAdmin, 'POST', crudPath(userAgentEntity, 'add'), agent, lang),
      ];
      for (const answer of await Promise.all(refusals)) expectRefused(answer, 'error.adminProtected', lang);
    }
    const after = await userRow(holder);
    expect(after).toEqual(before);
    expect(await rolesOf(holder)).toEqual([ids.admin]);
    expect((await tryLogin(app, 'second', USER_PASSWORD)).envelope.success).toBe(true);
    expect((await call(second, 'GET', crudPath(userEntity, 'list'))).envelope.success).toBe(true);
    expect((await app.db.selectFrom('sys_user').select('status').where('id', '=', ids.plain!).executeTakeFirstOrThrow()).status).toBe(1);

    // a membership, group role and agent setting the system administrator made stay out of his reach
    expect((await call(admin, 'POST', UserAdminPath.addUsersToDepart, { depId: ids.group, userIdList: holder })).envelope.success).toBe(true);
    expect((await call(admin, 'POST', crudPath(userAgentEntity, 'add'), { ...agent, agentUserName: 'plain' })).envelope.success).toBe(true);
    const setting = (await app.db.selectFrom('sys_user_agent').select('id').where('user_name', '=', 'second').executeTakeFirstOrThrow()).id;
    const groupRole = (await call<{ id: string }>(admin, 'POST', crudPath(departRoleEntity, 'add'), { departId: ids.group, roleName: 'Empty', roleCode: 'empty' })).envelope.result.id;
    for (const lang of LANGUAGES) {
      const refusals = [
        call(userAdmin, 'DELETE', `${UserAdminPath.removeUsersFromDepart}?depId=${ids.group}&userIds=${holder}`, undefined, lang),
        call(userAdmin, 'DELETE', `${crudPath(departEntity, 'delete')}?id=${ids.group}`, undefined, lang),
        call(userAdmin, 'POST', DepartRolePath.deptRoleUserAdd, { userId: holder, newRoleId: groupRole, oldRoleId: '' }, lang),
        call(userAdmin, 'PUT', crudPath(userAgentEntity, 'edit'), { id: setting, agentUserName: 'useradmin' }, lang),
        call(userAdmin, 'DELETE', `${crudPath(userAgentEntity, 'delete')}?id=${setting}`, undefined, lang),
      ];
      for (const answer of await Promise.all(refusals)) expectRefused(answer, 'error.adminProtected', lang);
    }
    expect(await app.db.selectFrom('sys_user_depart').select('id').where('user_id', '=', holder).where('dep_id', '=', ids.group!).execute()).toHaveLength(1);
    expect(await app.db.selectFrom('sys_depart_role_user').select('id').where('user_id', '=', holder).execute()).toHaveLength(0);
    expect((await app.db.selectFrom('sys_user_agent').select('agent_user_name').where('id', '=', setting).executeTakeFirstOrThrow()).agent_user_name).toBe('plain');
    // the same routes still work on an ordinary user
    expect((await call(userAdmin, 'PUT', UserAdminPath.frozenBatch, { ids: ids.plain, status: 2 })).envelope.success).toBe(true);
    expect((await call(userAdmin, 'PUT', UserAdminPath.frozenBatch, { ids: ids.plain, status: 1 })).envelope.success).toBe(true);
    expect((await call(userAdmin, 'PUT', UserAdminPath.changePassword, { username: 'plain', password: USER_PASSWORD, confirmpassword: USER_PASSWORD })).envelope.success).toBe(true);
    expect((await call(userAdmin, 'POST', UserAdminPath.addUsersToDepart, { depId: ids.group, userIdList: ids.plain })).envelope.success).toBe(true);
    expect((await call(userAdmin, 'POST', DepartRolePath.deptRoleUserAdd, { userId: ids.plain, newRoleId: groupRole, oldRoleId: '' })).envelope.success).toBe(true);
    expect((await call(admin, 'DELETE', `${crudPath(userAgentEntity, 'delete')}?id=${setting}`)).envelope.success).toBe(true);
    expect((await call(admin, 'DELETE', `${UserAdminPath.removeUsersFromDepart}?depId=${ids.group}&userIds=${holder}`)).envelope.success).toBe(true);
  });

  it('keeps a deleted holder of the administrator role in the recycle bin out of a user administrator reach', async () => {
    const holder = await createTestUser(app, 'binned', { roles: ['admin'], tenantId });
    expect((await call(admin, 'DELETE', `${crudPath(userEntity, 'delete')}?id=${holder}`)).envelope.success).toBe(true);
    for (const lang of LANGUAGES) {
      expectRefused(await call(userAdmin, 'PUT', crudPath(userEntity, 'putRecycleBin'), { ids: holder }, lang), 'error.adminProtected', lang);
      expectRefused(await call(userAdmin, 'DELETE', `${crudPath(userEntity, 'deleteRecycleBin')}?ids=${holder}`, undefined, lang), 'error.adminProtected', lang);
    }
    expect(Number((await userRow(holder)).del_flag)).toBe(1);
    // an ordinary user goes in and out of the bin as before
    const other = await createTestUser(app, 'binned2', { roles: ['helpdesk'], tenantId });
    expect((await call(userAdmin, 'DELETE', `${crudPath(userEntity, 'delete')}?id=${other}`)).envelope.success).toBe(true);
    expect((await call(userAdmin, 'PUT', crudPath(userEntity, 'putRecycleBin'), { ids: other })).envelope.success).toBe(true);
    expect((await call(admin, 'PUT', crudPath(userEntity, 'putRecycleBin'), { ids: holder })).envelope.success).toBe(true);
    expect(Number((await userRow(holder)).del_flag)).toBe(0);
    expect((await call(admin, 'DELETE', `${crudPath(userEntity, 'delete')}?id=${holder}`)).envelope.success).toBe(true);
    expect((await call(admin, 'DELETE', `${crudPath(userEntity, 'deleteRecycleBin')}?ids=${holder}`)).envelope.success).toBe(true);
    expect(await app.db.selectFrom('sys_user').select('id').where('id', '=', holder).executeTakeFirst()).toBeUndefined();
  });

  it('lets a system administrator manage the other holders, while the seeded account keeps its own protections', async () => {
    const holder = await createTestUser(app, 'third', { roles: ['admin'], tenantId });
    expect((await call(second, 'PUT', UserAdminPath.frozenBatch, { ids: holder, status: 2 })).envelope.success).toBe(true);
    expect((await call(admin, 'PUT', UserAdminPath.frozenBatch, { ids: holder, status: 1 })).envelope.success).toBe(true);
    expect((await call(second, 'PUT', crudPath(userEntity, 'edit'), { id: holder, realname: 'Third', phone: '13900000003' })).envelope.success).toBe(true);
    expect((await call(admin, 'PUT', UserAdminPath.changePassword, { username: 'third', password: 'Third#Pass33', confirmpassword: 'Third#Pass33' })).envelope.success).toBe(true);
    expect((await call(second, 'PUT', crudPath(userEntity, 'edit'), { id: holder, selectedroles: ids.helpdesk })).envelope.success).toBe(true);
    expect(await rolesOf(holder)).toEqual([ids.helpdesk]);
    // no longer a holder: the user administrator may manage the account again
    expect((await call(userAdmin, 'PUT', crudPath(userEntity, 'edit'), { id: holder, realname: 'Third again' })).envelope.success).toBe(true);
    expect((await call(second, 'PUT', crudPath(userEntity, 'edit'), { id: holder, selectedroles: ids.admin })).envelope.success).toBe(true);
    expectRefused(await call(userAdmin, 'PUT', crudPath(userEntity, 'edit'), { id: holder, realname: 'Third again' }), 'error.adminProtected');
    // the seeded account stays protected, from a system administrator too
    expectRefused(await call(second, 'PUT', UserAdminPath.frozenBatch, { ids: ids.adminUser, status: 2 }), 'error.adminProtected');
    expectRefused(await call(second, 'PUT', crudPath(userEntity, 'edit'), { id: ids.adminUser, username: 'root' }), 'error.adminProtected');
  });

  it('gives or takes a group role only when the caller holds all its permissions', async () => {
    const codes = ['system:position:list', 'system:user:list'];
    const permissionIds = (await app.db.selectFrom('sys_permission').select(['id', 'perms']).where('perms', 'in', codes).execute()).sort((a, b) => codes.indexOf(String(a.perms)) - codes.indexOf(String(b.perms))).map((r) => r.id);
    const group = (await call<{ id: string }>(admin, 'POST', crudPath(departEntity, 'add'), { departName: 'Yard' })).envelope.result.id;
    const member = await createTestUser(app, 'yardman', { tenantId });
    expect((await call(admin, 'POST', DepartRolePath.saveDepartPermission, { departId: group, permissionIds: permissionIds.join(',') })).envelope.success).toBe(true);
    const groupRole = async (roleCode: string, permissions: string) => {
      const id = (await call<{ id: string }>(admin, 'POST', crudPath(departRoleEntity, 'add'), { departId: group, roleName: roleCode, roleCode })).envelope.result.id;
      expect((await call(admin, 'POST', DepartRolePath.saveDeptRolePermission, { roleId: id, permissionIds: permissions })).envelope.success).toBe(true);
      return id;
    };
    const positions = await groupRole('positions', permissionIds[0]!);
    const userList = await groupRole('user_list', permissionIds[1]!);
    expect((await call(admin, 'POST', UserAdminPath.addUsersToDepart, { depId: group, userIdList: member })).envelope.success).toBe(true);
    const held = async () => (await app.db.selectFrom('sys_depart_role_user').select('drole_id').where('user_id', '=', member).where('drole_id', 'in', [positions, userList]).execute()).map((r) => r.drole_id);
    for (const lang of LANGUAGES) {
      expectRefused(await call(userAdmin, 'POST', DepartRolePath.deptRoleUserAdd, { userId: member, newRoleId: positions, oldRoleId: '' }, lang), 'grant.departRoleNotHeld', lang);
      expectRefused(await call(userAdmin, 'POST', DepartRolePath.deptRoleUserAdd, { userId: member, newRoleId: `${userList},${positions}`, oldRoleId: '' }, lang), 'grant.departRoleNotHeld', lang);
    }
    expect(await held()).toEqual([]);
    expect((await call(userAdmin, 'POST', DepartRolePath.deptRoleUserAdd, { userId: member, newRoleId: userList, oldRoleId: '' })).envelope.success).toBe(true);
    expect(await held()).toEqual([userList]);
    expect((await call(admin, 'POST', DepartRolePath.deptRoleUserAdd, { userId: member, newRoleId: `${userList},${positions}`, oldRoleId: userList })).envelope.success).toBe(true);
    // taking it away needs it as much as giving it, also by deleting the group role or its group
    for (const lang of LANGUAGES) {
      expectRefused(await call(userAdmin, 'POST', DepartRolePath.deptRoleUserAdd, { userId: member, newRoleId: userList, oldRoleId: `${userList},${positions}` }, lang), 'grant.departRoleNotHeld', lang);
      expectRefused(await call(userAdmin, 'DELETE', `${crudPath(departRoleEntity, 'delete')}?id=${positions}`, undefined, lang), 'grant.departRoleNotHeld', lang);
      expectRefused(await call(userAdmin, 'DELETE', `${crudPath(departEntity, 'delete')}?id=${group}`, undefined, lang), 'grant.departRoleNotHeld', lang);
    }
    expect((await held()).sort()).toEqual([positions, userList].sort());
    expect(await app.db.selectFrom('sys_user_depart').select('id').where('user_id', '=', member).where('dep_id', '=', group).execute()).toHaveLength(1);
    // one he could take he may delete; the system administrator deletes the rest
    expect((await call(userAdmin, 'DELETE', `${crudPath(departRoleEntity, 'delete')}?id=${userList}`)).envelope.success).toBe(true);
    expect((await call(admin, 'DELETE', `${crudPath(departEntity, 'delete')}?id=${group}`)).envelope.success).toBe(true);
    expect(await held()).toEqual([]);
  });

  it('keeps the administrator role and roles holding more than the caller out of a user administrator reach', async () => {
    for (const lang of LANGUAGES) {
      expectRefused(await call(userAdmin, 'PUT', crudPath(roleEntity, 'edit'), { id: ids.admin, roleName: 'Taken' }, lang), 'role.adminProtected', lang);
      expectRefused(await call(userAdmin, 'DELETE', `${crudPath(roleEntity, 'delete')}?id=${ids.admin}`, undefined, lang), 'role.adminProtected', lang);
      expectRefused(await call(userAdmin, 'PUT', crudPath(roleEntity, 'edit'), { id: ids.clerk, roleName: 'Renamed' }, lang), 'grant.roleNotManageable', lang);
      expectRefused(await call(userAdmin, 'DELETE', `${crudPath(roleEntity, 'deleteBatch')}?ids=${ids.helpdesk},${ids.clerk}`, undefined, lang), 'grant.roleNotManageable', lang);
    }
    const adminRole = await app.db.selectFrom('sys_role').selectAll().where('id', '=', ids.admin!).executeTakeFirstOrThrow();
    expect(adminRole).toMatchObject({ role_code: 'admin', role_name: 'System administrator' });
    expect(await app.db.selectFrom('sys_role').select('role_name').where('id', 'in', [ids.clerk!, ids.helpdesk!]).execute()).toHaveLength(2);
    // the administrator role's code cannot be taken, by a new role or by renaming one
    const mine = await call<{ id: string }>(userAdmin, 'POST', crudPath(roleEntity, 'add'), { roleName: 'Desk', roleCode: 'desk', roleType: 1 });
    expect(mine.envelope.success).toBe(true);
    const added = await call(userAdmin, 'POST', crudPath(roleEntity, 'add'), { roleName: 'Root', roleCode: 'ADMIN', roleType: 1 });
    const renamed = await call(userAdmin, 'PUT', crudPath(roleEntity, 'edit'), { id: mine.envelope.result.id, roleCode: 'Admin' });
    for (const answer of [added, renamed]) {
      expect(answer.envelope.success).toBe(false);
      // MariaDB compares codes without case, so there the code is simply taken
      expect([translate('en-US', 'grant.adminRoleCode'), translate('en-US', 'duplicate.roleCode')]).toContain(answer.envelope.message);
    }
    expect((await app.db.selectFrom('sys_role').select('role_code').where('id', '=', mine.envelope.result.id).executeTakeFirstOrThrow()).role_code).toBe('desk');
    expect(await app.db.selectFrom('sys_role').select('id').where('role_name', '=', 'Root').execute()).toHaveLength(0);
    // a role within what he holds is his to change and delete; the system administrator changes any
    expect((await call(userAdmin, 'PUT', crudPath(roleEntity, 'edit'), { id: mine.envelope.result.id, roleName: 'Front desk' })).envelope.success).toBe(true);
    expect((await call(userAdmin, 'DELETE', `${crudPath(roleEntity, 'delete')}?id=${mine.envelope.result.id}`)).envelope.success).toBe(true);
    expect((await call(admin, 'PUT', crudPath(roleEntity, 'edit'), { id: ids.clerk, roleName: 'Clerks' })).envelope.success).toBe(true);
    expect((await call(second, 'PUT', crudPath(roleEntity, 'edit'), { id: ids.admin, roleName: 'System administrators' })).envelope.success).toBe(true);
  });
});
