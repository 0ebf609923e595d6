import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DepartRolePath, RolePath, TENANT_DICT, UserAdminPath, crudPath, departEntity, departRoleEntity, dictEntity, dictItemEntity, permissionEntity, roleEntity, treePath, userEntity, type DepartRoleHolder, type DictOption, type LoginResult, type Page, type RoleOption, type TreeRow } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { ADMIN_PASSWORD, adminToken, api, buildTestApp, injectAs, testDialects, tryLogin, type TestApp } from '../test/harness.ts';

type Row = Record<string, unknown>;

describe.each(await testDialects())('seeded data in the reader language on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  const get = async <T>(url: string, lang: string) => (await injectAs<T>(app, admin, { method: 'GET', url: api(app, url), headers: { lang } })).envelope.result;
  // as the console asks a list: paged (the menu list asked without pageNo answers the origin's whole tree)
  const rows = async (entity: typeof roleEntity, query: string, lang: string) => (await get<Page<Row>>(`${crudPath(entity, 'list')}?pageNo=1&pageSize=100&${query}`, lang)).records;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows seeded roles, the administrator, dictionaries and items in each language', async () => {
    const roleNames = async (lang: string) => (await rows(roleEntity, 'column=roleCode&order=asc', lang)).map((r) => [r.roleCode, r.roleName]);
    expect(await roleNames('zh-CN')).toEqual(expect.arrayContaining([['admin', '系统管理员'], ['user', '普通用户'], ['device_admin', '设备管理员']]));
    expect(await roleNames('ja-JP')).toEqual(expect.arrayContaining([['admin', 'システム管理者']]));
    expect(await roleNames('en-US')).toEqual(expect.arrayContaining([['admin', 'System administrator']]));
    const admins = async (lang: string) => (await rows(userEntity, 'username=admin', lang))[0]?.realname;
    expect([await admins('zh-CN'), await admins('ja-JP'), await admins('en-US')]).toEqual(['管理员', '管理者', 'Administrator']);
    // the users screen names a user's roles through the link, in the reader language too
    const adminRoles = async (lang: string) => (await rows(userEntity, 'username=admin', lang))[0]?.selectedroles_dictText;
    expect([await adminRoles('zh-CN'), await adminRoles('ja-JP'), await adminRoles('en-US')]).toEqual(['系统管理员', 'システム管理者', 'System administrator']);
    const sex = (await rows(dictEntity, 'dictCode=sex', 'ja-JP'))[0] as Row;
    expect(sex.dictName).toBe('性別');
    const items = await rows(dictItemEntity, `dictId=${String(sex.id)}`, 'zh-CN');
    expect(items.map((i) => i.itemText).sort()).toEqual(['女', '男']);
  });

  it('shows menu and button names of the menu editor translated, never as keys', async () => {
    const tree = async (lang: string) => {
      const flat: Row[] = [];
      const walk = (nodes: TreeRow[]) => nodes.forEach((n) => (flat.push(n), walk((n.children ?? []) as TreeRow[])));
      walk(await get<TreeRow[]>(treePath(permissionEntity), lang));
      return flat;
    };
    const zh = await tree('zh-CN');
    expect(zh.find((r) => r.url === '/system/user')?.name).toBe('用户管理');
    expect(zh.find((r) => r.perms === 'system:user:add')?.name).toBe('添加');
    expect(zh.filter((r) => String(r.name).startsWith('menu.'))).toEqual([]);
    const list = await rows(permissionEntity, 'name=menu.system.role', 'ja-JP');
    expect(list.map((r) => r.name)).toEqual(['ロール管理']);
  });

  it('names every seeded button in each language (capture, push, handle and end too), never as its stored `action (area/screen)`', async () => {
    const buttons = async (lang: string) => {
      const flat: Row[] = [];
      const walk = (nodes: TreeRow[]) => nodes.forEach((n) => (flat.push(n), walk((n.children ?? []) as TreeRow[])));
      walk(await get<TreeRow[]>(treePath(permissionEntity), lang));
      return flat.filter((r) => r.menuType === 2);
    };
    for (const lang of ['zh-CN', 'en-US', 'ja-JP']) {
      const seeded = await buttons(lang);
      expect(seeded.length).toBeGreaterThan(50);
      expect(seeded.filter((r) => /^\w+ \(\w+\/\w+\)$/.test(String(r.name))).map((r) => r.perms)).toEqual([]);
    }
    const named = async (code: string, lang: string) => (await buttons(lang)).find((r) => String(r.perms).endsWith(code))?.name;
    expect([await named(':capture', 'zh-CN'), await named(':push', 'en-US'), await named(':handle', 'ja-JP'), await named(':end', 'zh-CN')]).toEqual(['抓拍', 'Push', '対応', '结束']);
  });

  it('names menus, buttons and tenants in the reader language in the origin console calls, never as keys', async () => {
    type Node = Row & { children?: Node[] };
    const flat = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);
    const keys = (rows: Row[], field = 'name') => rows.filter((r) => /^menu\.[a-z]/.test(String(r[field])));
    for (const [lang, users, add, role] of [['zh-CN', '用户管理', '添加', '角色管理'], ['ja-JP', 'ユーザー管理', '追加', 'ロール管理']] as const) {
      const whole = flat(await get<Node[]>(crudPath(permissionEntity, 'list'), lang));
      expect(whole.find((r) => r.url === '/system/user')).toMatchObject({ name: users, title: users });
      expect(whole.find((r) => r.perms === 'system:user:add')?.name).toBe(add);
      expect(keys(whole)).toEqual([]);
      // a name search answers the matches flat, found by the name the reader reads
      expect((await get<Row[]>(`${crudPath(permissionEntity, 'list')}?name=${encodeURIComponent(role)}`, lang)).map((r) => r.name)).toEqual([role]);
      const roots = await get<Row[]>('/sys/permission/getSystemMenuList', lang);
      expect(keys(roots)).toEqual([]);
      const system = whole.find((r) => (r.children ?? []).some((c) => c.url === '/system/user')) as Node;
      const below = await get<Row[]>(`/sys/permission/getSystemSubmenu?parentId=${String(system.id)}`, lang);
      expect(below.map((r) => r.name)).toContain(users);
      const batch = await get<Record<string, Row[]>>(`/sys/permission/getSystemSubmenuBatch?parentIds=${String(system.id)}`, lang);
      expect(batch[String(system.id)]?.map((r) => r.name)).toContain(users);
      const drawer = flat((await get<{ treeList: Node[] }>('/sys/role/queryTreeList', lang)).treeList);
      expect(drawer.find((n) => n.perms === 'system:user:add')).toMatchObject({ title: add, label: add, slotTitle: add });
      expect(keys(drawer, 'title')).toEqual([]);
    }
    const tenants = async (lang: string) => (await get<Row[]>('/sys/tenant/queryList', lang)).map((r) => r.name);
    expect([await tenants('zh-CN'), await tenants('ja-JP'), await tenants('en-US')]).toEqual([['默认租户'], ['デフォルト'], ['Default']]);
  });

  it('answers the login dictionaries and the tenant names in the request language', async () => {
    const login = await tryLogin(app, 'admin', ADMIN_PASSWORD, {}, 'ja-JP');
    const all = (login.envelope.result as LoginResult).sysAllDictItems;
    expect(all.sex?.map((o: DictOption) => o.text)).toEqual(['男性', '女性']);
    expect(all[TENANT_DICT]?.map((o: DictOption) => o.text)).toContain('デフォルト');
    expect(login.envelope.message).toBe('ログインしました');
  });

  it('names seeded roles and the administrator in the reader language in pickers, maps, holders and the login answer', async () => {
    const post = <T = Row>(url: string, payload: Row) => injectAs<T>(app, admin, { method: 'POST', url: api(app, url), payload });
    const adminId = String((await rows(userEntity, 'username=admin', 'en-US'))[0]?.id);
    const group = (await post<{ id: string }>(crudPath(departEntity, 'add'), { departName: 'Seeded names' })).envelope.result.id;
    expect((await post(UserAdminPath.addUsersToDepart, { depId: group, userIdList: adminId })).envelope.success).toBe(true);
    const role = (await post<{ id: string }>(crudPath(departRoleEntity, 'add'), { departId: group, roleName: 'Desk', roleCode: 'desk' })).envelope.result.id;
    expect((await post(DepartRolePath.deptRoleUserAdd, { userId: adminId, newRoleId: role })).envelope.success).toBe(true);
    const expected = { 'zh-CN': ['系统管理员', '管理员'], 'ja-JP': ['システム管理者', '管理者'], 'en-US': ['System administrator', 'Administrator'] } as const;
    for (const [lang, [roleName, realname]] of Object.entries(expected)) {
      const picker = await get<RoleOption[]>(RolePath.queryall, lang);
      expect(picker.find((r) => r.roleCode === 'admin')?.roleName).toBe(roleName);
      expect((await get<Record<string, string>>(UserAdminPath.queryUserRoleMap, lang))[adminId]).toBe(roleName);
      expect((await get<Row[]>(`${UserAdminPath.queryUserByDepId}?id=${group}`, lang)).map((u) => u.realname)).toEqual([realname]);
      expect((await get<DepartRoleHolder[]>(`${DepartRolePath.getDeptRoleUsers}?roleId=${role}`, lang)).map((u) => u.realname)).toEqual([realname]);
      const adminRole = picker.find((r) => r.roleCode === 'admin')?.id;
      expect((await get<Page<Row>>(`/sys/user/userRoleList?roleId=${String(adminRole)}`, lang)).records.map((u) => u.realname)).toEqual([realname]);
      const login = (await tryLogin(app, 'admin', ADMIN_PASSWORD, {}, lang)).envelope.result as LoginResult;
      expect(login.userInfo.realname).toBe(realname);
    }
  });

  it('keeps a seeded text whose form saves it back as shown, and a typed text as typed', async () => {
    const user = (await rows(roleEntity, 'roleCode=user', 'zh-CN'))[0] as Row;
    const edit = (payload: Row, lang: string) => injectAs(app, admin, { method: 'PUT', url: api(app, crudPath(roleEntity, 'edit')), headers: { lang }, payload });
    expect((await edit({ id: user.id, roleName: '普通用户', description: 'Everyone who signs in' }, 'zh-CN')).envelope.success).toBe(true);
    expect((await rows(roleEntity, 'roleCode=user', 'ja-JP'))[0]).toMatchObject({ roleName: '一般ユーザー', description: 'Everyone who signs in' });
    expect((await edit({ id: user.id, roleName: 'Staff' }, 'zh-CN')).envelope.success).toBe(true);
    for (const lang of ['zh-CN', 'en-US', 'ja-JP']) expect((await rows(roleEntity, 'roleCode=user', lang))[0]?.roleName).toBe('Staff');
  });
});
