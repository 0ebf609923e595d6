import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiPath,
  DataRulePath,
  addressBookEntity,
  crudPath,
  dataRuleEntity,
  departEntity,
  permissionCode,
  permissionEntity,
  positionEntity,
  roleEntity,
  translate,
  treePath,
  userEntity,
  type Page,
  type PermissionResult,
  type TreeRow,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { createRoleWith, sheetRows } from '../../test/crud-helpers.ts';
import { adminToken, api, buildTestApp, injectAs, login, testDialects, type TestApp } from '../../test/harness.ts';

type Row = Record<string, unknown> & { id: string };
const PASSWORD = 'Rule#Pass11';

describe.each(await testDialects())('menus, permissions and data rules on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  const call = <T = Row>(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: Record<string, unknown>, lang = 'en-US') =>
    injectAs<T>(app, token, { method, url: api(app, path), ...(payload ? { payload } : {}), headers: { lang } });
  const add = async (entity: { basePath: string }, payload: Record<string, unknown>, token = admin) => {
    const answer = await call<{ id: string }>(token, 'POST', crudPath(entity, 'add'), payload);
    if (!answer.envelope.success) throw new Error(answer.envelope.message);
    return answer.envelope.result.id;
  };
  /** A user with one role and a first password already replaced. */
  const userWith = async (username: string, roleId: string, departId?: string) => {
    await add(userEntity, { username, realname: username, password: PASSWORD, selectedroles: roleId, ...(departId ? { selecteddeparts: departId } : {}) });
    await app.db.updateTable('sys_user').set({ must_change_password: 0 }).where('username', '=', username).execute();
    return login(app, username, PASSWORD);
  };
  const menuOf = async (component: string) => (await app.db.selectFrom('sys_permission').select('id').where('component', '=', component).executeTakeFirstOrThrow()).id;
  const grantRules = async (roleId: string, permissionId: string, ruleIds: string[]) =>
    call(admin, 'POST', DataRulePath.saveRoleDataRule, { roleId, permissionId, dataRuleIds: ruleIds.join(',') });

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('adds menus, submenus and buttons that the administrator holds at once, as a tree', async () => {
    // the answer is kept per caller and language: asked before the change, it must not be what comes after it
    const menus = async (lang = 'en-US') => (await call<PermissionResult>(admin, 'GET', ApiPath.userPermission, undefined, lang)).envelope.result;
    const before = await menus();
    expect(before.menu.some((m) => m.path === '/reports')).toBe(false);
    expect(before.timeZone).toBe(app.settings.timeZone);
    const top = await add(permissionEntity, { menuType: 0, name: 'Reports', url: '/reports', component: 'layouts/RouteView', icon: 'bar-chart', sortNo: 90 });
    const sub = await add(permissionEntity, { menuType: 1, name: 'Monthly', parentId: top, url: '/reports/monthly', component: 'reports/monthly', sortNo: 1 });
    // a new button carries a code the console knows and no live entry carries: here one whose built-in button is deleted
    const builtIn = await app.db.selectFrom('sys_permission').select('id').where('perms', '=', 'message:order:export').executeTakeFirstOrThrow();
    expect((await call(admin, 'DELETE', `${crudPath(permissionEntity, 'delete')}?id=${builtIn.id}`)).envelope.success).toBe(true);
    await add(permissionEntity, { menuType: 2, name: 'Print', parentId: sub, perms: 'message:order:export', sortNo: 1 });
    const result = (await call<PermissionResult>(admin, 'GET', ApiPath.userPermission)).envelope.result;
    const reports = result.menu.find((m) => m.path === '/reports');
    expect(reports).toMatchObject({ meta: expect.objectContaining({ title: 'Reports', icon: 'bar-chart' }) });
    expect(reports?.children?.[0]).toMatchObject({ path: '/reports/monthly', component: 'reports/monthly' });
    expect(result.auth.map((a) => a.action)).toContain('message:order:export');
    const tree = (await call<TreeRow[]>(admin, 'GET', treePath(permissionEntity))).envelope.result;
    const node = tree.find((n) => n.id === top);
    expect(node?.children?.[0]?.children?.[0]).toMatchObject({ name: 'Print', menuType: 2 });
    // a menu with children is not deleted; its leaf is, and leaves the role links with it
    expect((await call(admin, 'DELETE', `${crudPath(permissionEntity, 'delete')}?id=${top}`)).envelope.message).toBe(translate('en-US', 'crud.hasChildren'));
    const print = node?.children?.[0]?.children?.[0]?.id as string;
    expect((await call(admin, 'DELETE', `${crudPath(permissionEntity, 'delete')}?id=${print}`)).envelope.success).toBe(true);
    expect((await menus()).auth.map((a) => a.action)).not.toContain('message:order:export');
    // each language its own answer
    const titles = async (lang: string) => (await menus(lang)).menu.map((m) => m.meta.title).join();
    expect(await titles('zh-CN')).not.toBe(await titles('en-US'));
    expect(await app.db.selectFrom('sys_role_permission').select('id').where('permission_id', '=', print).execute()).toHaveLength(0);
    const bad = await call(admin, 'POST', crudPath(permissionEntity, 'add'), { menuType: 7, name: 'x' });
    expect(bad.statusCode).toBe(400);
  });

  it('restricts a list, its export and queryById to the rows a role\'s data rule allows', async () => {
    const positions = await menuOf(positionEntity.component);
    for (const lang of ['en-US', 'zh-CN'] as const) {
      const unknown = await call(admin, 'POST', crudPath(dataRuleEntity, 'add'), { permissionId: positions, ruleName: 'x', ruleColumn: 'password', ruleConditions: 'eq', ruleValue: '1' }, lang);
      expect(unknown.envelope.message).toBe(translate(lang, 'dataRule.unknownColumn', { column: 'password' }));
    }
    const own = await add(dataRuleEntity, { permissionId: positions, ruleName: 'Own rows', ruleColumn: 'createBy', ruleConditions: 'eq', ruleValue: '#{sys_user_code}' });
    await createRoleWith(app, 'position_clerk', [permissionCode(positionEntity, 'list'), permissionCode(positionEntity, 'add'), permissionCode(positionEntity, 'export')]);
    const roleId = (await app.db.selectFrom('sys_role').select('id').where('role_code', '=', 'position_clerk').executeTakeFirstOrThrow()).id;
    const clerk = await userWith('clerk1', roleId);
    const mine = await add(positionEntity, { code: 'P-CLERK', name: 'Clerk made', postRank: '1' }, clerk);
    const theirs = await add(positionEntity, { code: 'P-ADMIN', name: 'Admin made', postRank: '1' });
    const codes = async (token: string) => (await call<Page<Row>>(token, 'GET', `${crudPath(positionEntity, 'list')}?pageSize=100`)).envelope.result.records.map((r) => r.code).sort();

    // without the rule granted, the role sees everything
    expect(await codes(clerk)).toEqual(['P-ADMIN', 'P-CLERK']);
    expect((await grantRules(roleId, positions, [own])).envelope.message).toBe(translate('en-US', 'dataRule.saved'));
    expect(await codes(clerk)).toEqual(['P-CLERK']);
    expect((await call(clerk, 'GET', `${crudPath(positionEntity, 'queryById')}?id=${theirs}`)).statusCode).toBe(404);
    expect((await call(clerk, 'GET', `${crudPath(positionEntity, 'queryById')}?id=${mine}`)).envelope.success).toBe(true);
    const exported = await injectAs(app, clerk, { method: 'GET', url: api(app, crudPath(positionEntity, 'exportXls')) });
    expect((await sheetRows(exported.rawPayload)).length - 1).toBe(1);
    // the administrator is never restricted; a disabled rule restricts nobody
    expect(await codes(admin)).toEqual(['P-ADMIN', 'P-CLERK']);
    await call(admin, 'PUT', crudPath(dataRuleEntity, 'edit'), { id: own, status: '0' });
    expect(await codes(clerk)).toEqual(['P-ADMIN', 'P-CLERK']);
    // the role's rules can be read back and emptied; the administrator role takes no rules
    const held = (await call<{ rules: Row[]; granted: string[] }>(admin, 'GET', `${DataRulePath.queryRoleDataRule}?roleId=${roleId}&permissionId=${positions}`)).envelope.result;
    expect(held).toMatchObject({ granted: [own], rules: [expect.objectContaining({ id: own, ruleColumn: 'createBy' })] });
    expect((await grantRules(roleId, positions, [])).envelope.success).toBe(true);
    const adminRole = (await app.db.selectFrom('sys_role').select('id').where('role_code', '=', 'admin').executeTakeFirstOrThrow()).id;
    expect((await grantRules(adminRole, positions, [own])).envelope.message).toBe(translate('en-US', 'role.adminProtected'));
    expect((await grantRules(roleId, positions, ["x' or 1=1"])).statusCode).toBe(400);
  });

  it('edits a menu entry’s authorization policy (permsType, required) and takes only a positive integer as its sort (SPEC section 5)', async () => {
    const button = await add(permissionEntity, { menuType: 0, name: 'Policy probe', url: '/policy-probe', component: 'layouts/RouteView', sortNo: 3 });
    const stored = async () => app.db.selectFrom('sys_permission').select(['perms_type', 'sort_no']).where('id', '=', button).executeTakeFirstOrThrow();
    expect((await stored()).perms_type).toBe('1');
    const edit = (values: Record<string, unknown>) => call(admin, 'PUT', crudPath(permissionEntity, 'edit'), { id: button, ...values });
    expect((await edit({ permsType: '2' })).envelope.success).toBe(true);
    expect((await stored()).perms_type).toBe('2');
    expect((await call<Row>(admin, 'GET', `${crudPath(permissionEntity, 'queryById')}?id=${button}`)).envelope.result.permsType).toBe('2');
    const blank = await edit({ permsType: '' });
    expect(blank.envelope).toMatchObject({ success: false });
    expect(blank.envelope.message).toBe(translate('en-US', 'validation.required', { field: 'Authorization policy' }));
    expect((await edit({ permsType: '3' })).envelope.success).toBe(false);
    for (const sortNo of [0, -1, 1.5]) expect((await edit({ sortNo })).envelope.success, String(sortNo)).toBe(false);
    expect((await edit({ sortNo: 1 })).envelope.success).toBe(true);
    expect(await stored()).toEqual({ perms_type: '2', sort_no: 1 });
  });

  it("shows a group member only the address book rows of the member's own group", async () => {
    const salesId = await add(departEntity, { departName: 'Sales' });
    const serviceId = await add(departEntity, { departName: 'Service' });
    const book = await menuOf(addressBookEntity.component);
    const sameGroup = await add(dataRuleEntity, { permissionId: book, ruleName: 'Own group', ruleColumn: 'orgCode', ruleConditions: 'eq', ruleValue: '#{sys_org_code}' });
    const roleId = await add(roleEntity, { roleName: 'Group reader', roleCode: 'group_reader', roleType: 1 });
    await app.db
      .insertInto('sys_role_permission')
      .values({ id: `rp-${dialect}`, role_id: roleId, permission_id: (await app.db.selectFrom('sys_permission').select('id').where('perms', '=', permissionCode(addressBookEntity, 'list')).executeTakeFirstOrThrow()).id, create_by: 't', create_time: null, update_by: null, update_time: null })
      .execute();
    await grantRules(roleId, book, [sameGroup]);
    const reader = await userWith('reader', roleId, salesId);
    await userWith('seller', roleId, salesId);
    await userWith('fixer', roleId, serviceId);
    const names = (await call<Page<Row>>(reader, 'GET', `${crudPath(addressBookEntity, 'list')}?pageSize=100`)).envelope.result.records.map((r) => r.username).sort();
    expect(names).toEqual(['reader', 'seller']);
    const fixer = await login(app, 'fixer', PASSWORD);
    expect((await call<Page<Row>>(fixer, 'GET', `${crudPath(addressBookEntity, 'list')}?pageSize=100`)).envelope.result.records.map((r) => r.username)).toEqual(['fixer']);
  });
});
