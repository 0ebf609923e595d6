import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { createRoleWith } from '../../test/crud-helpers.ts';
import {
  INITIAL_ADMIN_PASSWORD,
  USER_PASSWORD,
  adminToken,
  api,
  buildTestApp,
  createTestUser,
  defaultTenantId,
  injectAs,
  login,
  testDialects,
  type TestApp,
} from '../../test/harness.ts';

/*
 * Calls made the way the origin console (the JeecgBoot-based ISPS console) makes them: its login form sends the
 * captcha key as the timestamp number it fetched the image with, plus `remember_me`; its password dialog sends PUT;
 * its login page asks which third-party logins are enabled.
 */
describe.each((await testDialects()).filter((d) => d !== 'mysql'))('origin console calls on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  const storedCode = async (key: string) => (JSON.parse((await app.cache.get(`captcha:${key}`)) ?? '{}') as { code: string }).code;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { LOGIN_CAPTCHA: 'on' } });
    app = t.app;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('logs in with the captcha key as a number and remember_me, then completes the due password change with PUT', async () => {
    const currdatetime = 1764066000123;
    const image = await injectAs(app, null, { method: 'GET', url: api(app, `/sys/randomImage/${currdatetime}`) });
    expect(image.envelope.success).toBe(true);
    const captcha = await storedCode(String(currdatetime));
    const login = await injectAs<{ token: string }>(app, null, {
      method: 'POST',
      url: api(app, '/sys/login'),
      payload: { username: 'admin', password: INITIAL_ADMIN_PASSWORD, captcha, checkKey: currdatetime, remember_me: true },
    });
    expect(login.statusCode).toBe(200);
    expect(login.envelope.success).toBe(true);
    const token = login.envelope.result.token;

    const changed = await injectAs(app, token, {
      method: 'PUT',
      url: api(app, '/sys/user/updatePassword'),
      payload: { username: 'admin', oldpassword: INITIAL_ADMIN_PASSWORD, password: 'Origin#Pass9', confirmpassword: 'Origin#Pass9' },
    });
    expect(changed.envelope).toMatchObject({ success: true, code: 200 });

    const nextKey = currdatetime + 1;
    await injectAs(app, null, { method: 'GET', url: api(app, `/sys/randomImage/${nextKey}`) });
    const again = await injectAs(app, null, {
      method: 'POST',
      url: api(app, '/sys/login'),
      payload: { username: 'admin', password: 'Origin#Pass9', captcha: await storedCode(String(nextKey)), checkKey: nextKey, remember_me: false },
    });
    expect(again.envelope.success).toBe(true);
  });

  it('draws the captcha for the origin’s 105×35 slot, scaled from its own drawing', async () => {
    const image = await injectAs<string>(app, null, { method: 'GET', url: api(app, '/sys/randomImage/1764066000999') });
    const svg = Buffer.from(image.envelope.result.split(',')[1] ?? '', 'base64').toString();
    expect(svg).toMatch(/^<svg[^>]* width="105" height="35"/);
    expect(svg).toMatch(/^<svg[^>]* viewBox="0,0,150,50"/);
  });

  it('refuses a captcha key that is neither text nor a whole number with a 400', async () => {
    for (const checkKey of [{ nested: 1 }, 1.5, true]) {
      const answer = await injectAs(app, null, { method: 'POST', url: api(app, '/sys/login'), payload: { username: 'admin', password: 'x', captcha: 'abcd', checkKey } });
      expect(answer.statusCode).toBe(400);
      expect(answer.envelope.success).toBe(false);
    }
  });

  it('counts sign-ins for the home page charts (/sys/loginfo, /sys/visitInfo) of the caller’s tenant only', async () => {
    const signIn = async (username: string, ip: string) => {
      const key = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
      await injectAs(app, null, { method: 'GET', url: api(app, `/sys/randomImage/${key}`) });
      const answer = await injectAs<{ token: string }>(app, null, {
        method: 'POST',
        url: api(app, '/sys/login'),
        payload: { username, password: username === 'admin' ? 'Origin#Pass9' : USER_PASSWORD, captcha: await storedCode(key), checkKey: key },
        remoteAddress: ip,
      });
      expect(answer.envelope.success).toBe(true);
      return answer.envelope.result.token;
    };
    const otherTenant = randomUUID();
    await app.db.insertInto('sys_tenant').values({ id: otherTenant, name: 'Other', code: 'other', begin_date: null, end_date: null, status: 1, create_by: 'test', create_time: null, update_by: null, update_time: null }).execute();
    await createRoleWith(app, 'viewer', ['dashboard:analysis:view', 'system:log:list']);
    await createTestUser(app, 'outsider', { roles: ['viewer'], tenantId: otherTenant });
    const admin = await signIn('admin', '127.0.0.2');
    await signIn('admin', '127.0.0.3');
    await signIn('admin', '127.0.0.3');
    const outsider = await signIn('outsider', '127.0.0.9');

    const info = await injectAs<{ totalVisitCount: number; todayVisitCount: number; todayIp: number }>(app, admin, { method: 'GET', url: api(app, '/sys/loginfo') });
    // two earlier sign-ins of this suite's admin (from the test's default address) and the three above
    expect(info.envelope.result).toEqual({ totalVisitCount: 5, todayVisitCount: 5, todayIp: 3 });
    const days = await injectAs<{ tian: string; type: string; visit: number; ip: number }[]>(app, admin, { method: 'GET', url: api(app, '/sys/visitInfo') });
    expect(days.envelope.result).toHaveLength(7);
    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    expect(days.envelope.result.at(-1)).toEqual({ tian: today, type: today.slice(5), visit: 5, ip: 3 });
    expect(days.envelope.result[0]).toMatchObject({ visit: 0, ip: 0 });
    const theirs = await injectAs<{ totalVisitCount: number }>(app, outsider, { method: 'GET', url: api(app, '/sys/loginfo') });
    expect(theirs.envelope.result).toEqual({ totalVisitCount: 1, todayVisitCount: 1, todayIp: 1 });
  });

  it('answers that no third-party login is enabled', async () => {
    const answer = await injectAs(app, null, { method: 'GET', url: api(app, '/sys/thirdApp/getEnabledType') });
    expect(answer.envelope).toMatchObject({ success: true, result: { wechat_enterprise: false, dingtalk: false } });
  });
});

/*
 * The origin console's system screens (ant-design-vue-jeecg's src/views/system and src/api/api.js), calling as they
 * call and reading what they read.
 */
describe.each((await testDialects()).filter((d) => d !== 'mysql'))('origin console system screens on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  const get = <T = unknown>(path: string, query: Record<string, string> = {}, token = admin) =>
    injectAs<T>(app, token, { method: 'GET', url: api(app, path), query: { _t: '1764066000', ...query } });
  const add = async (path: string, payload: Record<string, unknown>) => {
    const answer = await injectAs<{ id: string }>(app, admin, { method: 'POST', url: api(app, path), payload });
    expect(answer.envelope.success, answer.envelope.message).toBe(true);
    return answer.envelope.result.id;
  };
  let headOffice: string;
  let branch: string;
  let branchCode: string;
  let memberId: string;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
    headOffice = await add('/sys/sysDepart/add', { departName: 'Head office', departOrder: 1 });
    branch = await add('/sys/sysDepart/add', { departName: 'North branch', parentId: headOffice, departOrder: 1 });
    branchCode = (await app.db.selectFrom('sys_depart').select('org_code').where('id', '=', branch).executeTakeFirstOrThrow()).org_code;
    await createRoleWith(app, 'gatekeeper', ['system:user:list']);
    memberId = await createTestUser(app, 'porter', { roles: ['gatekeeper'], orgCodes: [branchCode] });
    await app.db.updateTable('sys_user').set({ work_no: 'W-7', phone: '13800000007' }).where('id', '=', memberId).execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('checks a dictionary item value while it is typed (DictItemModal: /sys/dictItem/dictItemCheck)', async () => {
    const sex = await app.db.selectFrom('sys_dict').select('id').where('dict_code', '=', 'sex').executeTakeFirstOrThrow();
    const item = await app.db.selectFrom('sys_dict_item').select(['id', 'item_value']).where('dict_id', '=', sex.id).executeTakeFirstOrThrow();
    const taken = await get('/sys/dictItem/dictItemCheck', { dictId: sex.id, itemValue: item.item_value }, admin);
    expect(taken.envelope).toMatchObject({ success: false, code: 500 });
    expect((await get('/sys/dictItem/dictItemCheck', { dictId: sex.id, itemValue: item.item_value, id: item.id })).envelope.success).toBe(true);
    expect((await get('/sys/dictItem/dictItemCheck', { dictId: sex.id, itemValue: 'free-value' })).envelope.success).toBe(true);
  });

  it('lists the enabled tenants for the user form (UserModal: /sys/tenant/queryList), all to an administrator only', async () => {
    const tenants = await get<Array<{ id: string; name: string }>>('/sys/tenant/queryList');
    expect(tenants.envelope.result.map((r) => r.id)).toContain(await defaultTenantId(app));
    expect(tenants.envelope.result[0]).toHaveProperty('name');
    const porter = await login(app, 'porter', USER_PASSWORD);
    const own = await get<Array<{ id: string }>>('/sys/tenant/queryList', {}, porter);
    expect(own.envelope.result.map((r) => r.id)).toEqual([await defaultTenantId(app)]);
  });

  it("pages a role's users (RoleUserList: /sys/user/userRoleList?roleId=)", async () => {
    const role = await app.db.selectFrom('sys_role').select('id').where('role_code', '=', 'gatekeeper').executeTakeFirstOrThrow();
    const page = await get<{ records: Array<Record<string, unknown>>; total: number }>('/sys/user/userRoleList', { roleId: role.id, pageNo: '1', pageSize: '10' });
    expect(page.envelope.result.total).toBe(1);
    expect(page.envelope.result.records[0]).toMatchObject({ id: memberId, username: 'porter', realname: 'porter', orgCodeTxt: 'North branch', avatar: null });
    expect(page.envelope.result.records[0]).toHaveProperty('status_dictText');
    expect((await get<{ total: number }>('/sys/user/userRoleList', { roleId: role.id, username: 'nobody' })).envelope.result.total).toBe(0);
  });

  it("names a user's groups for the user form (UserModal: /sys/user/userDepartList?userId=)", async () => {
    const groups = await get('/sys/user/userDepartList', { userId: memberId });
    expect(groups.envelope.result).toEqual([{ key: branch, value: branch, title: 'North branch' }]);
  });

  it('gives user rows the origin’s fields beside ours (UserList: /sys/user/list, queryById)', async () => {
    const page = await get<{ records: Array<Record<string, unknown>> }>('/sys/user/list', { pageNo: '1', pageSize: '50' });
    const porter = page.envelope.result.records.find((r) => r.id === memberId);
    const tenant = await defaultTenantId(app);
    // departIds are the groups a superior is responsible for, not the groups the user is in (selecteddeparts)
    expect(porter).toMatchObject({ orgCodeTxt: 'North branch', avatar: null, selecteddeparts: branch, userIdentity: 1, relTenantIds: tenant, departIds: '' });
    const adminRow = page.envelope.result.records.find((r) => r.username === 'admin');
    expect(adminRow).toHaveProperty('avatar');
    const one = await get<Record<string, unknown>>('/sys/user/queryById', { id: memberId });
    expect(one.envelope.result).toMatchObject({ orgCodeTxt: 'North branch', userIdentity: 1, relTenantIds: tenant });
  });

  it('keeps a superior’s identity and the groups he is responsible for as the origin’s user form sends them (UserModal: userIdentity, departIds)', async () => {
    const boss = await add('/sys/user/add', { username: 'gatehead', realname: 'Gate head', password: 'Gate#Head12', userIdentity: 2, departIds: `${headOffice},${branch}` });
    const row = (await get<Record<string, unknown>>('/sys/user/queryById', { id: boss })).envelope.result;
    expect(row).toMatchObject({ userIdentity: 2, selecteddeparts: '', relTenantIds: await defaultTenantId(app) });
    expect(String(row.departIds).split(',').sort()).toEqual([headOffice, branch].sort());
    expect(String(row.departIds_dictText).split(/,\s*/).sort()).toEqual(['Head office', 'North branch']);
    expect((await injectAs(app, admin, { method: 'PUT', url: api(app, '/sys/user/edit'), payload: { id: boss, userIdentity: 1, departIds: '' } })).envelope.success).toBe(true);
    expect((await get<Record<string, unknown>>('/sys/user/queryById', { id: boss })).envelope.result).toMatchObject({ userIdentity: 1, departIds: '' });
    expect((await injectAs(app, admin, { method: 'PUT', url: api(app, '/sys/user/edit'), payload: { id: boss, userIdentity: 3 } })).envelope.success).toBe(false);
  });

  it('restores users from the recycle bin by `userIds` (UserRecycleBinModal: PUT /sys/user/putRecycleBin)', async () => {
    const gone = await createTestUser(app, 'leaver');
    expect((await injectAs(app, admin, { method: 'DELETE', url: api(app, '/sys/user/delete'), query: { id: gone } })).envelope.success).toBe(true);
    const restored = await injectAs(app, admin, { method: 'PUT', url: api(app, '/sys/user/putRecycleBin'), payload: { userIds: gone } });
    expect(restored.envelope.success).toBe(true);
    expect((await app.db.selectFrom('sys_user').select('del_flag').where('id', '=', gone).executeTakeFirstOrThrow()).del_flag).toBe(0);
  });

  it('answers the role authorisation tree (RoleModal: /sys/role/queryTreeList) with the origin’s node fields', async () => {
    const tree = await get<{ treeList: Array<Record<string, unknown>>; ids: string[] }>('/sys/role/queryTreeList');
    const first = tree.envelope.result.treeList[0] as Record<string, unknown>;
    expect(first).toMatchObject({ key: expect.any(String), title: expect.any(String), slotTitle: expect.any(String), isLeaf: false });
    expect(first.value).toBe(first.key);
    expect(tree.envelope.result.ids.length).toBeGreaterThan(10);
  });

  it('loads the menu screen unpaged as one tree (PermissionList: getPermissionList() with no parameters)', async () => {
    const tree = await get<Array<Record<string, unknown> & { children?: Array<Record<string, unknown>> }>>('/sys/permission/list');
    expect(Array.isArray(tree.envelope.result)).toBe(true);
    const system = tree.envelope.result.find((r) => r.url === '/system');
    expect(system).toMatchObject({ id: expect.any(String), name: expect.any(String), menuType: 0, component: expect.any(String), route: true, leaf: false });
    expect(system?.children?.length).toBeGreaterThan(5);
    // our console pages it as before
    const paged = await get<{ records: unknown[]; total: number }>('/sys/permission/list', { pageNo: '1', pageSize: '10' });
    expect(paged.envelope.result.records).toHaveLength(10);
  });

  it('opens the menu tree level by level (getSystemMenuList, getSystemSubmenu, getSystemSubmenuBatch)', async () => {
    const roots = await get<Array<Record<string, unknown>>>('/sys/permission/getSystemMenuList');
    expect(roots.envelope.result.every((r) => r.menuType === 0)).toBe(true);
    // a non-leaf row holds an empty children list (the origin's SysPermissionTree), so the menu editor can expand it; a leaf holds none
    const expandable = (rows: Array<Record<string, unknown>>) => rows.every((r) => (r.leaf ? r.children === undefined : Array.isArray(r.children) && (r.children as unknown[]).length === 0));
    expect(expandable(roots.envelope.result)).toBe(true);
    const system = roots.envelope.result.find((r) => r.url === '/system') as Record<string, unknown>;
    expect(system.children).toEqual([]);
    const below = await get<Array<Record<string, unknown>>>('/sys/permission/getSystemSubmenu', { parentId: String(system.id) });
    expect(below.envelope.result.length).toBeGreaterThan(5);
    expect(below.envelope.result.every((r) => r.parentId === system.id)).toBe(true);
    expect(expandable(below.envelope.result)).toBe(true);
    const users = below.envelope.result.find((r) => r.url === '/system/user') as Record<string, unknown>;
    expect(users).toMatchObject({ leaf: false, children: [] });
    const batch = await get<Record<string, Array<Record<string, unknown>>>>('/sys/permission/getSystemSubmenuBatch', { parentIds: `${String(system.id)},${String(below.envelope.result[0]?.id)}` });
    expect(batch.envelope.result[String(system.id)]).toHaveLength(below.envelope.result.length);
    expect(expandable(batch.envelope.result[String(system.id)] ?? [])).toBe(true);
    expect(batch.envelope.result[String(system.id)]?.find((r) => r.url === '/system/user')?.children).toEqual([]);
  });

  it("lists and searches a menu's data rules (PermissionDataRuleList: getPermRuleListByPermId, queryPermissionRule)", async () => {
    const menu = await app.db.selectFrom('sys_permission').select('id').where('url', '=', '/system/user').executeTakeFirstOrThrow();
    await add('/sys/permission/dataRule/add', { permissionId: menu.id, ruleName: 'Own rows', ruleColumn: 'createBy', ruleConditions: 'eq', ruleValue: '#{sys_user_code}', status: '1' });
    await add('/sys/permission/dataRule/add', { permissionId: menu.id, ruleName: 'Tenant rows', ruleColumn: 'tenantId', ruleConditions: 'eq', ruleValue: '#{sys_tenant_id}', status: '1' });
    const all = await get<Array<Record<string, unknown>>>('/sys/permission/getPermRuleListByPermId', { permissionId: menu.id });
    expect(all.envelope.result.map((r) => r.ruleName).sort()).toEqual(['Own rows', 'Tenant rows']);
    expect(all.envelope.result.find((r) => r.ruleName === 'Own rows')).toMatchObject({ permissionId: menu.id, ruleColumn: 'createBy', ruleConditions: 'eq', ruleValue: '#{sys_user_code}', status: '1' });
    const found = await get<Array<Record<string, unknown>>>('/sys/permission/queryPermissionRule', { permissionId: menu.id, ruleName: '*Tenant*' });
    expect(found.envelope.result.map((r) => r.ruleName)).toEqual(['Tenant rows']);
  });

  it('draws the group tree as ids (queryIdTree), searches it (searchBy) and shows one’s own groups (queryMyDeptTreeList)', async () => {
    const ids = await get<Array<{ key: string; title: string; children?: Array<{ key: string }> }>>('/sys/sysDepart/queryIdTree');
    const head = ids.envelope.result.find((n) => n.key === headOffice);
    expect(head).toMatchObject({ value: headOffice, title: 'Head office', children: [{ key: branch, value: branch, title: 'North branch' }] });

    const found = await get<Array<Record<string, unknown>>>('/sys/sysDepart/searchBy', { keyWord: 'north' });
    expect(found.envelope.result).toEqual([expect.objectContaining({ id: branch, key: branch, title: 'North branch', departName: 'North branch', orgCode: branchCode, parentId: headOffice, isLeaf: true })]);
    const none = await get('/sys/sysDepart/searchBy', { keyWord: 'nowhere' });
    expect(none.envelope).toMatchObject({ success: false, code: 500 });
    const noneIn = async (lang: string) => (await injectAs(app, admin, { method: 'GET', url: api(app, '/sys/sysDepart/searchBy'), query: { keyWord: 'nowhere' }, headers: { lang } })).envelope.message;
    expect([await noneIn('zh-CN'), await noneIn('ja-JP'), await noneIn('en-US')]).toEqual(['未查询到匹配的部门', '検索に一致するグループがありません', 'No group matches the search']);

    const porter = await login(app, 'porter', USER_PASSWORD);
    const mine = await get<Array<Record<string, unknown>>>('/sys/sysDepart/queryMyDeptTreeList', {}, porter);
    expect(mine.envelope.result.map((n) => n.id)).toEqual([branch]);
  });

  it('pages the root categories with hasChild (SysCategoryList: /sys/category/rootList)', async () => {
    const root = await add('/sys/category/add', { name: 'Doors', code: 'C01' });
    await add('/sys/category/add', { name: 'Glass doors', code: 'C01A01', pid: root });
    await add('/sys/category/add', { name: 'Keys', code: 'C02' });
    const page = await get<{ records: Array<Record<string, unknown>>; total: number }>('/sys/category/rootList', { pageNo: '1', pageSize: '10', column: 'createTime', order: 'desc' });
    expect(page.envelope.result.total).toBe(2);
    expect(page.envelope.result.records.map((r) => [r.name, r.hasChild])).toEqual([
      ['Doors', '1'],
      ['Keys', '0'],
    ]);
    expect((await get<{ total: number }>('/sys/category/rootList', { name: '*Key*' })).envelope.result.total).toBe(1);
  });

  it('answers menu entries the origin resolves: its view as component, the title in the caller’s language (getUserPermissionByToken)', async () => {
    type Entry = { path: string; component: string; meta: { title: string; titleKey?: string; pageKey?: string }; children?: Entry[] };
    const menuIn = async (lang: string) =>
      (await injectAs<{ menu: Entry[] }>(app, admin, { method: 'GET', url: api(app, '/sys/permission/getUserPermissionByToken'), query: { token: admin, _t: '1764066000' }, headers: { lang } })).envelope.result.menu;
    const users = (menu: Entry[]) => menu.flatMap((e) => [e, ...(e.children ?? [])]).find((e) => e.path === '/system/user') as Entry;
    expect(users(await menuIn('en-US'))).toMatchObject({ component: 'system/UserList', meta: { title: 'Users', titleKey: 'menu.system.user', pageKey: 'system/user' } });
    expect(users(await menuIn('zh-CN')).meta.title).toBe('用户管理');
    const system = (await menuIn('ja-JP')).find((e) => e.path === '/system') as Entry;
    expect(system.component).toBe('layouts/RouteView');
  });

  it('fills a menu entry’s meta.permissionList and meta.permission with the page’s buttons the caller holds, meta.target for a new window (getUserPermissionByToken)', async () => {
    type Meta = { permissionList?: Array<{ action: string; type: string; describe: string }>; permission?: string[]; target?: string; internalOrExternal: boolean; url?: string | null };
    type Entry = { path: string; meta: Meta; children?: Entry[] };
    // an outside address opened in a new window, and one opened inside the console
    await add('/sys/permission/add', { menuType: 0, name: 'Vendor docs', url: 'https://docs.example.com/isps', component: 'layouts/IframePageView', internalOrExternal: 1, sortNo: 98 });
    await add('/sys/permission/add', { menuType: 0, name: 'Vendor status', url: 'https://status.example.com', component: 'layouts/IframePageView', internalOrExternal: 0, sortNo: 99 });
    const menu = (await injectAs<{ menu: Entry[] }>(app, admin, { method: 'GET', url: api(app, '/sys/permission/getUserPermissionByToken'), headers: { lang: 'en-US' } })).envelope.result.menu;
    expect(menu.find((e) => e.meta.url === 'https://docs.example.com/isps')?.meta.target).toBe('_blank');
    expect(menu.find((e) => e.meta.url === 'https://status.example.com')?.meta.target).toBeUndefined();
    const all = (entries: Entry[]): Entry[] => entries.flatMap((e) => [e, ...all(e.children ?? [])]);
    const users = all(menu).find((e) => e.path === '/system/user') as Entry;
    const buttons = await app.db.selectFrom('sys_permission as b').innerJoin('sys_permission as p', 'p.id', 'b.parent_id').select('b.perms').where('p.url', '=', '/system/user').where('b.menu_type', '=', 2).where('b.del_flag', '=', 0).execute();
    expect(buttons.length).toBeGreaterThan(0);
    expect(users.meta.permission?.sort()).toEqual(buttons.map((b) => b.perms).sort());
    expect(users.meta.permissionList?.[0]).toMatchObject({ action: expect.any(String), type: expect.stringMatching(/^[12]$/), describe: expect.any(String) });
    expect(users.meta.permissionList?.map((b) => b.action).sort()).toEqual(users.meta.permission);
    // a page without buttons carries neither; an inside page opens in place
    expect(all(menu).find((e) => e.path === '/system')?.meta.permissionList).toBeUndefined();
    expect(users.meta.target).toBeUndefined();
    for (const entry of all(menu)) expect(entry.meta.target === '_blank').toBe(entry.meta.internalOrExternal && /^https?:/.test(entry.meta.url ?? ''));
  });

  it('pages the people of a group and the groups below it (AddressListRight: /sys/user/queryByOrgCodeForAddressList)', async () => {
    const headCode = (await app.db.selectFrom('sys_depart').select('org_code').where('id', '=', headOffice).executeTakeFirstOrThrow()).org_code;
    const page = await get<{ records: Array<Record<string, unknown>>; total: number }>('/sys/user/queryByOrgCodeForAddressList', { orgCode: headCode, pageNo: '1', pageSize: '10' });
    expect(page.envelope.result.total).toBe(1);
    expect(page.envelope.result.records[0]).toMatchObject({ userId: memberId, realname: 'porter', workNo: 'W-7', departName: 'North branch', phone: '13800000007', email: null });
    expect((await get<{ total: number }>('/sys/user/queryByOrgCodeForAddressList', { orgCode: headCode, workNo: 'W-8' })).envelope.result.total).toBe(0);
  });

  it('counts the home page’s sign-ins by the site’s days in TIME_ZONE (/sys/loginfo, /sys/visitInfo)', async () => {
    const tokyo = await buildTestApp(dialect, { env: { TIME_ZONE: 'Asia/Tokyo' } });
    try {
      // 16:30 UTC on 1 March is half past one in the night of 2 March in Tokyo
      tokyo.clock.advance(Date.parse('2026-03-01T16:30:00.000Z') - tokyo.clock.now());
      const token = await adminToken(tokyo.app);
      const days = await injectAs<Array<{ tian: string; visit: number }>>(tokyo.app, token, { method: 'GET', url: api(tokyo.app, '/sys/visitInfo') });
      const today = days.envelope.result.at(-1)!;
      expect(today.tian).toBe('2026-03-02');
      expect(today.visit).toBeGreaterThan(0);
      expect(days.envelope.result.at(-2)).toMatchObject({ tian: '2026-03-01', visit: 0 });
      const info = await injectAs<{ todayVisitCount: number }>(tokyo.app, token, { method: 'GET', url: api(tokyo.app, '/sys/loginfo') });
      expect(info.envelope.result.todayVisitCount).toBe(today.visit);
    } finally {
      await tokyo.close();
    }
  });

  it('keeps an announcement’s msgAbstract (SysAnnouncementModal: /sys/annountCement/add, list, listByUser)', async () => {
    const written = await add('/sys/annountCement/add', {
      titile: 'Fire drill',
      msgCategory: '1',
      msgType: 'ALL',
      priority: 'M',
      startTime: '2026-03-01 08:00:00',
      endTime: '2099-03-01 08:00:00',
      msgAbstract: 'Drill on Friday at ten',
      msgContent: '<p>Everyone meets at the north gate.</p>',
    });
    const derived = await add('/sys/annountCement/add', { titile: 'Canteen', msgCategory: '1', msgType: 'ALL', msgContent: '<p>Closed <b>on</b> Monday.</p>' });
    const list = await get<{ records: Array<{ id: string; msgAbstract: string }> }>('/sys/annountCement/list', { pageNo: '1', pageSize: '10' });
    const abstractOf = (id: string) => list.envelope.result.records.find((r) => r.id === id)?.msgAbstract;
    expect(abstractOf(written)).toBe('Drill on Friday at ten');
    // none written: the beginning of the content's text, never its markup
    expect(abstractOf(derived)).toBe('Closed on Monday.');
    await injectAs(app, admin, { method: 'GET', url: api(app, '/sys/annountCement/doReleaseData'), query: { id: written } });
    const bell = await get<{ anntMsgList: Array<{ id: string; msgAbstract: string }> }>('/sys/annountCement/listByUser');
    expect(bell.envelope.result.anntMsgList.find((n) => n.id === written)?.msgAbstract).toBe('Drill on Friday at ten');
  });

  it('answers times as yyyy-MM-dd HH:mm:ss in TIME_ZONE and reads the range picker’s days in it (LogList: /sys/log/list?createTime_begin=&createTime_end=)', async () => {
    const shanghai = await buildTestApp(dialect, { env: { TIME_ZONE: 'Asia/Shanghai' } });
    try {
      // 17:30 UTC on 1 March is half past one in the night of 2 March in Shanghai
      shanghai.clock.advance(Date.parse('2026-03-01T17:30:00.000Z') - shanghai.clock.now());
      const token = await adminToken(shanghai.app);
      const logs = (query: Record<string, string>) =>
        injectAs<{ records: Array<Record<string, unknown>>; total: number }>(shanghai.app, token, {
          method: 'GET',
          url: api(shanghai.app, '/sys/log/list'),
          query: { _t: '1764066000', logType: '1', column: 'createTime', order: 'desc', field: 'id,,logContent,userid,username,ip,costTime,createTime', pageNo: '1', pageSize: '10', ...query },
        });
      const sameDay = (await logs({ createTime_begin: '2026-03-02', createTime_end: '2026-03-02' })).envelope.result;
      expect(sameDay.total).toBeGreaterThan(0);
      for (const record of sameDay.records) expect(String(record.createTime)).toMatch(/^2026-03-02 01:30:\d{2}$/);
      expect((await logs({ createTime_begin: '2026-03-01', createTime_end: '2026-03-01' })).envelope.result.total).toBe(0);
      expect((await logs({ createTime_begin: '2026-03-02 01:30:00', createTime_end: '2026-03-02 01:31:00' })).envelope.result.total).toBe(sameDay.total);
      expect((await logs({ createTime_begin: '2026-03-02T01:30:00+08:00' })).envelope.result.total).toBe(sameDay.total);
      const bad = await logs({ createTime_begin: '2026/03/02' });
      expect(bad.statusCode).toBe(400);
      expect(bad.envelope).toMatchObject({ success: false, code: 400 });
    } finally {
      await shanghai.close();
    }
  });
});
