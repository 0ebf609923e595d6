import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPath, LANGUAGES, RolePath, crudPath, entityLabel, roleEntity, translate, type Page, type PermissionResult, type PermissionTreeNode, type RoleOption } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { createRoleWith } from '../../test/crud-helpers.ts';
import { USER_PASSWORD, adminToken, api, buildTestApp, createTestUser, injectAs, login, testDialects, type TestApp } from '../../test/harness.ts';

type Row = Record<string, unknown> & { id: string };

function flatten(nodes: PermissionTreeNode[]): PermissionTreeNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);
}

describe.each(await testDialects())('roles and their permissions on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  const call = <T = unknown>(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: Record<string, unknown>, lang = 'en-US') =>
    injectAs<T>(app, token, { method, url: api(app, path), payload, headers: { lang } });
  const add = (payload: Record<string, unknown>, lang = 'en-US') => call<{ id: string }>(admin, 'POST', crudPath(roleEntity, 'add'), payload, lang);

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('checks name 2-30, code at most 64 without Chinese, description at most 126 and a unique code', async () => {
    for (const lang of LANGUAGES) {
      const field = (name: string) => entityLabel(lang, `role.field.${name}`);
      expect((await add({ roleName: 'A', roleCode: 'a' }, lang)).envelope.message).toBe(translate(lang, 'validation.tooShort', { field: field('roleName'), min: '2' }));
      expect((await add({ roleName: 'A'.repeat(31), roleCode: 'a' }, lang)).envelope.message).toBe(translate(lang, 'validation.tooLong', { field: field('roleName'), max: '30' }));
      expect((await add({ roleName: 'Guards', roleCode: '门卫' }, lang)).envelope.message).toBe(translate(lang, 'validation.noChinese', { field: field('roleCode') }));
      expect((await add({ roleName: 'Guards', roleCode: 'g'.repeat(65) }, lang)).envelope.message).toBe(translate(lang, 'validation.tooLong', { field: field('roleCode'), max: '64' }));
      expect((await add({ roleName: 'Guards', roleCode: 'g', description: 'd'.repeat(127) }, lang)).statusCode).toBe(400);
    }
    expect((await add({ roleName: 'Guards', roleCode: 'guard', roleType: 2 })).envelope.success).toBe(true);
    for (const lang of LANGUAGES) expect((await add({ roleName: 'Guards 2', roleCode: 'guard' }, lang)).envelope.message).toBe(translate(lang, 'duplicate.roleCode'));
    const listed = await call<Page<Row>>(admin, 'GET', `${crudPath(roleEntity, 'list')}?roleCode=guard`);
    expect(listed.envelope.result.records[0]).toMatchObject({ roleName: 'Guards', roleType: 2 });
    const options = await call<RoleOption[]>(admin, 'GET', RolePath.queryall);
    expect(options.envelope.result.map((r) => r.roleCode)).toEqual(expect.arrayContaining(['admin', 'guard']));
  });

  it('assigns permissions from the tree, and the holder sees exactly those menus and buttons at once', async () => {
    const tree = (await call<{ treeList: PermissionTreeNode[]; ids: string[] }>(admin, 'GET', RolePath.permissionTree)).envelope.result;
    const nodes = flatten(tree.treeList);
    expect(nodes.length).toBe(tree.ids.length);
    const positionScreen = nodes.find((n) => n.title === 'menu.system.position')!;
    const positionList = positionScreen.children!.find((n) => n.perms === 'system:position:list')!;
    const system = nodes.find((n) => n.title === 'menu.system')!;
    const role = (await call<Page<Row>>(admin, 'GET', `${crudPath(roleEntity, 'list')}?roleCode=guard`)).envelope.result.records[0]!;
    const saved = await call(admin, 'POST', RolePath.saveRolePermission, { roleId: role.id, permissionIds: [system.key, positionScreen.key, positionList.key].join(',') }, 'zh-CN');
    expect(saved.envelope).toMatchObject({ success: true, message: translate('zh-CN', 'role.permissionsSaved') });
    expect((await call<string[]>(admin, 'GET', `${RolePath.queryRolePermission}?roleId=${role.id}`)).envelope.result.sort()).toEqual([system.key, positionScreen.key, positionList.key].sort());

    await createTestUser(app, 'guard1', { roles: ['guard'] });
    const guard = await login(app, 'guard1', USER_PASSWORD);
    const permission = (await call<PermissionResult>(guard, 'GET', ApiPath.userPermission)).envelope.result;
    expect(permission.auth.map((a) => a.action)).toEqual(['system:position:list']);
    expect(JSON.stringify(permission.menu)).toContain('/system/position');
    expect((await call(guard, 'GET', '/sys/position/list')).envelope.success).toBe(true);

    // taking the permission away works on the next request
    await call(admin, 'POST', RolePath.saveRolePermission, { roleId: role.id, permissionIds: '' });
    expect((await call(guard, 'GET', '/sys/position/list')).envelope.code).toBe(510);
    // and so does the menu the holder is shown
    const after = (await call<PermissionResult>(guard, 'GET', ApiPath.userPermission)).envelope.result;
    expect(after.auth).toEqual([]);
    expect(JSON.stringify(after.menu)).not.toContain('/system/position');
  });

  it('applies only the edit made since loading when lastpermissionIds is sent, so two administrators keep each other\'s', async () => {
    const nodes = flatten((await call<{ treeList: PermissionTreeNode[] }>(admin, 'GET', RolePath.permissionTree)).envelope.result.treeList);
    const [list, add, edit] = ['system:position:list', 'system:position:add', 'system:position:edit'].map((perms) => nodes.find((n) => n.perms === perms)!.key);
    const role = (await call<Page<Row>>(admin, 'GET', `${crudPath(roleEntity, 'list')}?roleCode=guard`)).envelope.result.records[0]!;
    const held = async () => (await call<string[]>(admin, 'GET', `${RolePath.queryRolePermission}?roleId=${role.id}`)).envelope.result.sort();
    await call(admin, 'POST', RolePath.saveRolePermission, { roleId: role.id, permissionIds: list });
    // both loaded [list]; the first ticks add, the second unticks list and ticks edit
    await call(admin, 'POST', RolePath.saveRolePermission, { roleId: role.id, permissionIds: `${list},${add}`, lastpermissionIds: list });
    await call(admin, 'POST', RolePath.saveRolePermission, { roleId: role.id, permissionIds: edit, lastpermissionIds: list });
    expect(await held()).toEqual([add, edit].sort());
    // without it the list sent is the whole new set
    await call(admin, 'POST', RolePath.saveRolePermission, { roleId: role.id, permissionIds: list });
    expect(await held()).toEqual([list]);
    expect((await call(admin, 'POST', RolePath.saveRolePermission, { roleId: role.id, permissionIds: list, lastpermissionIds: 'bad id' })).statusCode).toBe(400);
    await call(admin, 'POST', RolePath.saveRolePermission, { roleId: role.id, permissionIds: '' });
  });

  it('lets a non-administrator hand out only what they hold, and protects the administrator role', async () => {
    await createRoleWith(app, 'role_manager', ['system:role:list', 'system:role:authorize', 'system:position:list']);
    await createTestUser(app, 'manager1', { roles: ['role_manager'] });
    const manager = await login(app, 'manager1', USER_PASSWORD);
    const tree = flatten((await call<{ treeList: PermissionTreeNode[] }>(manager, 'GET', RolePath.permissionTree)).envelope.result.treeList);
    const held = tree.find((n) => n.perms === 'system:position:list')!;
    const notHeld = tree.find((n) => n.perms === 'system:position:delete')!;
    const role = (await call<Page<Row>>(admin, 'GET', `${crudPath(roleEntity, 'list')}?roleCode=guard`)).envelope.result.records[0]!;
    expect((await call(manager, 'POST', RolePath.saveRolePermission, { roleId: role.id, permissionIds: held.key })).envelope.success).toBe(true);
    expect((await call(manager, 'POST', RolePath.saveRolePermission, { roleId: role.id, permissionIds: `${held.key},${notHeld.key}` })).envelope.message).toBe(translate('en-US', 'role.notGrantable'));
    expect((await call(manager, 'POST', RolePath.saveRolePermission, { roleId: role.id, permissionIds: "x' or '1'='1" })).statusCode).toBe(400);
    // a reader of roles may not add, edit or delete them
    expect((await call(manager, 'POST', crudPath(roleEntity, 'add'), { roleName: 'Xx', roleCode: 'xx' })).envelope.code).toBe(510);

    const adminRole = await app.db.selectFrom('sys_role').select('id').where('role_code', '=', 'admin').executeTakeFirstOrThrow();
    expect((await call(admin, 'DELETE', `${crudPath(roleEntity, 'delete')}?id=${adminRole.id}`)).envelope.message).toBe(translate('en-US', 'role.adminProtected'));
    expect((await call(admin, 'PUT', crudPath(roleEntity, 'edit'), { id: adminRole.id, roleCode: 'root' })).envelope.message).toBe(translate('en-US', 'role.adminProtected'));
    expect((await call(admin, 'POST', RolePath.saveRolePermission, { roleId: adminRole.id, permissionIds: '' })).envelope.message).toBe(translate('en-US', 'role.adminProtected'));
    // the origin's role screen saves the administrator role as it was: a save that takes nothing away succeeds
    const adminHeld = (await call<string[]>(admin, 'GET', `${RolePath.queryRolePermission}?roleId=${adminRole.id}`)).envelope.result;
    expect(adminHeld.length).toBeGreaterThan(10);
    const unchanged = await call(admin, 'POST', RolePath.saveRolePermission, { roleId: adminRole.id, permissionIds: adminHeld.join(','), lastpermissionIds: adminHeld.join(',') });
    expect(unchanged.envelope).toMatchObject({ success: true, message: translate('en-US', 'role.permissionsSaved') });
    expect((await call(admin, 'POST', RolePath.saveRolePermission, { roleId: adminRole.id, permissionIds: adminHeld.join(',') })).envelope.success).toBe(true);
    expect((await call<string[]>(admin, 'GET', `${RolePath.queryRolePermission}?roleId=${adminRole.id}`)).envelope.result.sort()).toEqual([...adminHeld].sort());
    // one left out is taken away: refused, and the role keeps it
    const fewer = await call(admin, 'POST', RolePath.saveRolePermission, { roleId: adminRole.id, permissionIds: adminHeld.slice(1).join(','), lastpermissionIds: adminHeld.join(',') });
    expect(fewer.envelope.message).toBe(translate('en-US', 'role.adminProtected'));
    expect((await call<string[]>(admin, 'GET', `${RolePath.queryRolePermission}?roleId=${adminRole.id}`)).envelope.result).toHaveLength(adminHeld.length);
    expect((await call(admin, 'GET', '/sys/position/list')).envelope.success).toBe(true);
  });

  it('deletes a role with its user and permission links', async () => {
    const role = (await call<Page<Row>>(admin, 'GET', `${crudPath(roleEntity, 'list')}?roleCode=guard`)).envelope.result.records[0]!;
    expect((await call(admin, 'DELETE', `${crudPath(roleEntity, 'delete')}?id=${role.id}`)).envelope.success).toBe(true);
    expect(await app.db.selectFrom('sys_user_role').select('id').where('role_id', '=', role.id).execute()).toEqual([]);
    expect(await app.db.selectFrom('sys_role_permission').select('id').where('role_id', '=', role.id).execute()).toEqual([]);
  });
});
