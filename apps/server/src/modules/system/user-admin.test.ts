import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LANGUAGES,
  UserAdminPath,
  crudPath,
  departEntity,
  entityLabel,
  entityPermissionCodes,
  permissionCode,
  roleEntity,
  translate,
  userAgentEntity,
  userEntity,
  type ImportReport,
  type Page,
  type TreeRow,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { createRoleWith, sheetRows, uploadFile, workbookOf } from '../../test/crud-helpers.ts';
import { USER_PASSWORD, adminToken, api, buildTestApp, createTestUser, injectAs, login, testDialects, tryLogin, type TestApp } from '../../test/harness.ts';

type Row = Record<string, unknown> & { id: string };
const PASSWORD = 'Start#Pass1';

describe.each(await testDialects())('users, groups and agents on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  let adminId: string;
  const call = <T = Row>(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: Record<string, unknown>, lang = 'en-US') =>
    injectAs<T>(app, token, { method, url: api(app, path), ...(payload ? { payload } : {}), headers: { lang } });
  const list = (query: string, token = admin) => call<Page<Row>>(token, 'GET', `${crudPath(userEntity, 'list')}?pageSize=100&${query}`);
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
    adminId = (await list('username=admin')).envelope.result.records[0]!.id;
    for (const [code, name] of [['clerk', 'Clerk'], ['guard', 'Guard']] as const) {
      ids[code] = (await call<{ id: string }>(admin, 'POST', crudPath(roleEntity, 'add'), { roleName: name, roleCode: code, roleType: 1 })).envelope.result.id;
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('generates org codes from the place in the tree and lists the groups as a tree', async () => {
    const addGroup = async (departName: string, parentId?: string) => (await call<{ id: string }>(admin, 'POST', crudPath(departEntity, 'add'), { departName, parentId })).envelope.result.id;
    ids.head = await addGroup('Head office');
    ids.sales = await addGroup('Sales', ids.head);
    ids.it = await addGroup('IT', ids.head);
    ids.branch = await addGroup('Branch');
    const tree = (await call<TreeRow[]>(admin, 'GET', crudPath(departEntity, 'queryTreeList'))).envelope.result;
    const head = tree.find((n) => n.id === ids.head)!;
    const branch = tree.find((n) => n.id === ids.branch)!;
    expect(head.orgCode).toMatch(/^[A-Z]\d{2}$/);
    expect(branch.orgCode).not.toBe(head.orgCode);
    expect(head.orgType).toBe('1');
    expect(head.children?.map((c) => c.orgCode).sort()).toEqual([`${String(head.orgCode)}A01`, `${String(head.orgCode)}A02`]);
    expect(head.children?.[0]?.orgType).toBe('2');
    // a code sent by the client is ignored: the server owns it
    const edited = await call(admin, 'PUT', crudPath(departEntity, 'edit'), { id: ids.it, departName: 'IT services', orgCode: 'HACK' });
    expect(edited.envelope.success).toBe(true);
    expect((await call<Row>(admin, 'GET', `${crudPath(departEntity, 'queryById')}?id=${ids.it}`)).envelope.result.orgCode).not.toBe('HACK');
  });

  it('adds users with roles and groups, refuses weak passwords and every duplicate of the spec in each language', async () => {
    const base = { username: 'zhang', realname: 'Zhang San', password: PASSWORD, phone: '13800000001', email: 'zhang@example.com', workNo: 'W-001', sex: 1 };
    for (const lang of LANGUAGES) {
      const weak = await call(admin, 'POST', crudPath(userEntity, 'add'), { ...base, password: 'abc12345' }, lang);
      expect(weak.statusCode).toBe(400);
      expect(weak.envelope.message).toBe(translate(lang, 'password.weak'));
      const missing = await call(admin, 'POST', crudPath(userEntity, 'add'), { ...base, realname: '' }, lang);
      expect(missing.envelope.message).toBe(translate(lang, 'validation.required', { field: entityLabel(lang, 'user.field.realname') }));
    }
    const added = await call<{ id: string }>(admin, 'POST', crudPath(userEntity, 'add'), { ...base, selectedroles: `${ids.clerk},${ids.guard}`, selecteddeparts: ids.sales });
    expect(added.envelope.message).toBe(translate('en-US', 'crud.added'));
    ids.zhang = added.envelope.result.id;
    for (const lang of LANGUAGES) {
      const again = (over: Record<string, unknown>) => call(admin, 'POST', crudPath(userEntity, 'add'), { ...base, username: 'li', phone: '13800000002', email: 'li@example.com', workNo: 'W-002', ...over }, lang);
      expect((await again({ username: 'zhang' })).envelope.message).toBe(translate(lang, 'duplicate.userName'));
      expect((await again({ phone: base.phone })).envelope.message).toBe(translate(lang, 'duplicate.phone'));
      expect((await again({ email: base.email })).envelope.message).toBe(translate(lang, 'duplicate.email'));
      expect((await again({ workNo: base.workNo })).envelope.message).toBe(translate(lang, 'duplicate.workNo'));
      expect((await again({ selectedroles: 'no-such-role' })).statusCode).toBe(400);
    }
    const row = (await list('username=zhang')).envelope.result.records[0]!;
    expect(row).not.toHaveProperty('password');
    expect(String(row.selectedroles).split(',').sort()).toEqual([ids.clerk, ids.guard].sort());
    expect(row.selectedroles_dictText).toBe('Clerk, Guard');
    expect(row.selecteddeparts_dictText).toBe('Sales');
    expect(row.status).toBe(1);
    // seeded dictionary texts come in the reader's language
    const inChinese = (await call<Page<Row>>(admin, 'GET', `${crudPath(userEntity, 'list')}?username=zhang`, undefined, 'zh-CN')).envelope.result.records[0]!;
    expect(inChinese).toMatchObject({ status_dictText: '正常', sex_dictText: '男' });
    const options = (await call<Array<{ value: string; text: string }>>(admin, 'GET', '/sys/dict/getDictItems/user_status', undefined, 'ja-JP')).envelope.result;
    expect(options.map((o) => o.text)).toEqual(['正常', '凍結', '承認待ち']);
    const sales = (await call<Row>(admin, 'GET', `${crudPath(departEntity, 'queryById')}?id=${ids.sales}`)).envelope.result;
    expect(row.orgCode).toBe(sales.orgCode);
    // the password an administrator chose must be replaced at the first sign-in
    const first = await login(app, 'zhang', PASSWORD);
    const blocked = await injectAs(app, first, { method: 'GET', url: api(app, '/sys/user/getCurrentUserDeparts'), headers: { lang: 'en-US' } });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.envelope.message).toBe(translate('en-US', 'login.mustChangePassword'));
  });

  it('searches by group and by role, and edits the links', async () => {
    await call(admin, 'POST', crudPath(userEntity, 'add'), { username: 'wang', realname: 'Wang Wu', password: PASSWORD, selectedroles: ids.guard, selecteddeparts: `${ids.it},${ids.branch}` });
    const names = async (query: string) => (await list(query)).envelope.result.records.map((r) => r.username).sort();
    expect(await names(`selecteddeparts=${ids.sales}`)).toEqual(['zhang']);
    expect(await names(`selecteddeparts=${ids.branch}`)).toEqual(['wang']);
    expect(await names(`selectedroles=${ids.guard}`)).toEqual(['wang', 'zhang']);
    expect(await names(`selectedroles=${encodeURIComponent("x' or '1'='1")}`)).toEqual(['admin', 'wang', 'zhang']);
    expect((await call(admin, 'PUT', crudPath(userEntity, 'edit'), { id: ids.zhang, selectedroles: ids.clerk, selecteddeparts: '' })).envelope.success).toBe(true);
    const zhang = (await call<Row>(admin, 'GET', `${crudPath(userEntity, 'queryById')}?id=${ids.zhang}`)).envelope.result;
    expect(zhang).toMatchObject({ selectedroles: ids.clerk, selecteddeparts: '', orgCode: null });
    expect((await call<string[]>(admin, 'GET', `${UserAdminPath.queryUserRole}?userid=${ids.zhang}`)).envelope.result).toEqual([ids.clerk]);
    const byGroup = (await call<Array<{ username: string }>>(admin, 'GET', `${UserAdminPath.queryUserByDepId}?id=${ids.it}`)).envelope.result;
    expect(byGroup.map((u) => u.username)).toEqual(['wang']);
    const roleMap = (await call<Record<string, string>>(admin, 'GET', UserAdminPath.queryUserRoleMap)).envelope.result;
    expect(roleMap[ids.zhang!]).toBe('Clerk');
    expect((await call(admin, 'GET', `${UserAdminPath.checkOnlyUser}?username=wang`)).envelope.message).toBe(translate('en-US', 'duplicate.userName'));
    expect((await call(admin, 'GET', `${UserAdminPath.checkOnlyUser}?username=nobody`)).envelope.success).toBe(true);
    expect((await call(admin, 'GET', `${UserAdminPath.checkOnlyUser}?phone=13800000001&id=${ids.zhang}`)).envelope.success).toBe(true);
    // deleting a group takes its members out of it
    expect((await call(admin, 'DELETE', `${crudPath(departEntity, 'delete')}?id=${ids.branch}`)).envelope.success).toBe(true);
    const wang = (await list('username=wang')).envelope.result.records[0]!;
    expect(wang.selecteddeparts).toBe(ids.it);
  });

  it('exports roles and groups by name and imports users back with an initial password they must replace', async () => {
    await call(admin, 'POST', crudPath(userEntity, 'add'), { username: 'li', realname: 'Li Si', password: PASSWORD, phone: '13800000077', selectedroles: `${ids.clerk},${ids.guard}`, selecteddeparts: ids.sales });
    const file = await injectAs(app, admin, { method: 'GET', url: `${api(app, crudPath(userEntity, 'exportXls'))}?username=li`, headers: { lang: 'zh-CN' } });
    const sheet = await sheetRows(file.rawPayload);
    const header = sheet[0] as string[];
    expect(sheet[1]?.[header.indexOf(entityLabel('zh-CN', 'user.field.roles'))]).toBe('Clerk, Guard');
    expect(sheet[1]?.[header.indexOf(entityLabel('zh-CN', 'user.field.departs'))]).toBe('Sales');
    expect(header).not.toContain(entityLabel('zh-CN', 'user.field.password'));
    const li = (await list('username=li')).envelope.result.records[0]!;
    await call(admin, 'DELETE', `${crudPath(userEntity, 'delete')}?id=${li.id}`);
    await call(admin, 'DELETE', `${crudPath(userEntity, 'deleteRecycleBin')}?ids=${li.id}`);
    // no initial password: the row is refused; a weak one refuses the whole file before any row
    expect((await uploadFile(app, admin, crudPath(userEntity, 'importExcel'), file.rawPayload)).envelope.result).toMatchObject({ added: 0, failed: 1 });
    const weak = await uploadFile(app, admin, crudPath(userEntity, 'importExcel'), file.rawPayload, 'en-US', { password: 'weakpass' });
    expect([weak.statusCode, weak.envelope.message]).toEqual([400, translate('en-US', 'password.weak')]);
    const imported = await uploadFile(app, admin, crudPath(userEntity, 'importExcel'), file.rawPayload, 'en-US', { password: 'Import#Pass5' });
    expect(imported.envelope.result).toMatchObject({ total: 1, added: 1, failed: 0 });
    const back = (await list('username=li')).envelope.result.records[0]!;
    expect(back).toMatchObject({ realname: 'Li Si', phone: '13800000077', selecteddeparts: ids.sales, selectedroles_dictText: 'Clerk, Guard' });
    expect((await tryLogin(app, 'li', 'Import#Pass5')).envelope.result).toMatchObject({ userInfo: { mustChangePassword: true } });
    // a name nobody has is refused for that row only
    const unknown = await workbookOf([entityLabel('en-US', 'user.field.username'), entityLabel('en-US', 'user.field.realname'), entityLabel('en-US', 'user.field.roles')], [['ghost', 'Ghost', 'No such role']]);
    const refused = await uploadFile(app, admin, crudPath(userEntity, 'importExcel'), unknown, 'en-US', { password: 'Import#Pass5' });
    expect((refused.envelope.result as ImportReport).rows[0]).toMatchObject({ success: false });
  });

  it('freezes (ending sessions, refusing sign-in) and thaws; resets passwords with the spec rules', async () => {
    const token = await login(app, 'wang', PASSWORD);
    const frozen = await call(admin, 'PUT', UserAdminPath.frozenBatch, { ids: ids.zhang, status: 2 }, 'zh-CN');
    expect(frozen.envelope.message).toBe(translate('zh-CN', 'userAdmin.frozenBatch', { count: 1 }));
    const wangId = (await list('username=wang')).envelope.result.records[0]!.id;
    await call(admin, 'PUT', UserAdminPath.frozenBatch, { ids: wangId, status: 2 });
    expect((await injectAs(app, token, { method: 'GET', url: api(app, '/sys/user/getCurrentUserDeparts') })).statusCode).toBe(401);
    expect((await tryLogin(app, 'wang', PASSWORD, {}, 'ja-JP')).envelope.message).toBe(translate('ja-JP', 'login.frozen'));
    expect((await call(admin, 'PUT', UserAdminPath.frozenBatch, { ids: `${ids.zhang},${wangId}`, status: 1 })).envelope.result).toEqual({ count: 2 });
    expect((await call(admin, 'PUT', UserAdminPath.frozenBatch, { ids: '', status: 2 })).envelope.message).toBe(translate('en-US', 'crud.selectRecord'));

    const session = await login(app, 'wang', PASSWORD);
    const reset = (password: string, confirmpassword = password, lang = 'en-US') => call(admin, 'PUT', UserAdminPath.changePassword, { username: 'wang', password, confirmpassword }, lang);
    expect((await reset('New#Pass123', 'Other#Pass123', 'zh-CN')).envelope.message).toBe(translate('zh-CN', 'password.mismatch'));
    expect((await reset('weakpass')).envelope.message).toBe(translate('en-US', 'password.weak'));
    expect((await reset('New#Pass123')).envelope.message).toBe(translate('en-US', 'userAdmin.passwordReset', { username: 'wang' }));
    expect((await injectAs(app, session, { method: 'GET', url: api(app, '/sys/user/getCurrentUserDeparts') })).statusCode).toBe(401);
    expect((await tryLogin(app, 'wang', PASSWORD)).envelope.success).toBe(false);
    expect((await tryLogin(app, 'wang', 'New#Pass123')).envelope.success).toBe(true);
  });

  it('refuses every operation on the administrator account', async () => {
    for (const lang of LANGUAGES) {
      const protectedMessage = translate(lang, 'error.adminProtected');
      expect((await call(admin, 'PUT', UserAdminPath.frozenBatch, { ids: adminId, status: 2 }, lang)).envelope.message).toBe(protectedMessage);
      expect((await call(admin, 'DELETE', `${crudPath(userEntity, 'delete')}?id=${adminId}`, undefined, lang)).envelope.message).toBe(protectedMessage);
      expect((await call(admin, 'DELETE', `${crudPath(userEntity, 'deleteBatch')}?ids=${ids.zhang},${adminId}`, undefined, lang)).envelope.message).toBe(protectedMessage);
      expect((await call(admin, 'PUT', UserAdminPath.changePassword, { username: 'admin', password: 'New#Pass123', confirmpassword: 'New#Pass123' }, lang)).envelope.message).toBe(protectedMessage);
      expect((await call(admin, 'PUT', crudPath(userEntity, 'edit'), { id: adminId, selectedroles: ids.clerk }, lang)).envelope.message).toBe(protectedMessage);
      expect((await call(admin, 'PUT', crudPath(userEntity, 'edit'), { id: adminId, username: 'root' }, lang)).envelope.message).toBe(protectedMessage);
      const agent = await call(admin, 'POST', crudPath(userAgentEntity, 'add'), { userName: 'admin', agentUserName: 'wang', startTime: '2026-01-01 08:00:00', endTime: '2026-02-01 08:00:00' }, lang);
      expect(agent.envelope.message).toBe(protectedMessage);
    }
    // the administrator's own profile may still be edited
    expect((await call(admin, 'PUT', crudPath(userEntity, 'edit'), { id: adminId, realname: 'Administrator' })).envelope.success).toBe(true);
    expect((await list('status=2')).envelope.result.total).toBe(0);
    expect((await list(`username=zhang`)).envelope.result.total).toBe(1);
  });

  it('keeps deleted users in the recycle bin: restore one or several, delete completely', async () => {
    for (const username of ['r1', 'r2', 'r3']) await call(admin, 'POST', crudPath(userEntity, 'add'), { username, realname: username, password: PASSWORD, selectedroles: ids.clerk });
    const byName = Object.fromEntries((await list('username=r*')).envelope.result.records.map((r) => [r.username, r.id]));
    expect((await call(admin, 'DELETE', `${crudPath(userEntity, 'deleteBatch')}?ids=${byName.r1},${byName.r2},${byName.r3}`)).envelope.success).toBe(true);
    expect((await list('username=r*')).envelope.result.total).toBe(0);
    expect((await tryLogin(app, 'r1', PASSWORD)).envelope.success).toBe(false);
    const bin = (await call<Page<Row>>(admin, 'GET', `${crudPath(userEntity, 'recycleBin')}?username=r*`)).envelope.result;
    expect(bin.records.map((r) => r.username).sort()).toEqual(['r1', 'r2', 'r3']);
    // a deleted user's name is still taken, and the message says where it is
    expect((await call(admin, 'POST', crudPath(userEntity, 'add'), { username: 'r1', realname: 'again', password: PASSWORD })).envelope.message).toBe(
      translate('en-US', 'crud.duplicateInRecycleBin', { message: translate('en-US', 'duplicate.userName') }),
    );
    expect((await call(admin, 'PUT', crudPath(userEntity, 'putRecycleBin'), { ids: byName.r1 })).envelope.success).toBe(true);
    expect((await call(admin, 'PUT', crudPath(userEntity, 'putRecycleBin'), { ids: `${byName.r2},${byName.r3}` })).envelope.success).toBe(true);
    expect((await list('username=r*')).envelope.result.records.map((r) => r.selectedroles_dictText)).toEqual(['Clerk', 'Clerk', 'Clerk']);
    await call(admin, 'DELETE', `${crudPath(userEntity, 'deleteBatch')}?ids=${byName.r3}`);
    expect((await call(admin, 'DELETE', `${crudPath(userEntity, 'deleteRecycleBin')}?ids=${byName.r3}`)).envelope.success).toBe(true);
    expect((await call<Page<Row>>(admin, 'GET', `${crudPath(userEntity, 'recycleBin')}?username=r*`)).envelope.result.total).toBe(0);
    const links = await app.db.selectFrom('sys_user_role').select('id').where('user_id', '=', byName.r3!).execute();
    expect(links).toHaveLength(0);
    // the name is free again once the user is gone completely
    expect((await call(admin, 'POST', crudPath(userEntity, 'add'), { username: 'r3', realname: 'again', password: PASSWORD })).envelope.success).toBe(true);
  });

  it('sets up agents: times in order, not oneself, one setting per user', async () => {
    const setting = { userName: 'zhang', agentUserName: 'wang', startTime: '2026-01-01 08:00:00', endTime: '2026-02-01 08:00:00' };
    for (const lang of LANGUAGES) {
      expect((await call(admin, 'POST', crudPath(userAgentEntity, 'add'), { ...setting, endTime: '2025-12-01 08:00:00' }, lang)).envelope.message).toBe(translate(lang, 'validation.endBeforeStart'));
      expect((await call(admin, 'POST', crudPath(userAgentEntity, 'add'), { ...setting, agentUserName: 'zhang' }, lang)).envelope.message).toBe(translate(lang, 'userAdmin.agentSelf'));
      expect((await call(admin, 'POST', crudPath(userAgentEntity, 'add'), { ...setting, startTime: '' }, lang)).envelope.message).toBe(
        translate(lang, 'validation.required', { field: entityLabel(lang, 'userAgent.field.startTime') }),
      );
    }
    expect((await call(admin, 'POST', crudPath(userAgentEntity, 'add'), setting)).envelope.success).toBe(true);
    expect((await call(admin, 'POST', crudPath(userAgentEntity, 'add'), setting)).envelope.message).toBe(translate('en-US', 'duplicate.userAgent'));
    const agent = (await call<Page<Row>>(admin, 'GET', `${crudPath(userAgentEntity, 'list')}?userName=zhang`)).envelope.result.records[0]!;
    expect(agent).toMatchObject({ userName: 'zhang', agentUserName: 'wang', status: 1 });
    expect((await call(admin, 'PUT', crudPath(userAgentEntity, 'edit'), { id: agent.id, status: 0 })).envelope.success).toBe(true);
  });

  it("puts existing users into a group and takes them out; without the permission the spec's refusal", async () => {
    await createRoleWith(app, 'group_viewer', [permissionCode(departEntity, 'list')]);
    await createTestUser(app, 'groupviewer', { roles: ['group_viewer'] });
    const viewer = await login(app, 'groupviewer', USER_PASSWORD);
    for (const lang of LANGUAGES) {
      const refused = await call(viewer, 'POST', UserAdminPath.addUsersToDepart, { depId: ids.sales!, userIdList: ids.zhang! }, lang);
      expect(refused.envelope.message).toBe(translate(lang, 'depart.noAddPermission'));
    }
    const added = await call(admin, 'POST', UserAdminPath.addUsersToDepart, { depId: ids.sales!, userIdList: ids.zhang! });
    expect(added.envelope.message).toBe(translate('en-US', 'depart.usersAdded', { count: 1 }));
    // adding again changes nothing
    expect((await call(admin, 'POST', UserAdminPath.addUsersToDepart, { depId: ids.sales!, userIdList: ids.zhang! })).envelope.result).toEqual({ count: 0 });
    const members = async () => (await call<Array<{ username: string }>>(admin, 'GET', `${UserAdminPath.queryUserByDepId}?id=${ids.sales}`)).envelope.result.map((u) => u.username);
    expect(await members()).toContain('zhang');
    const sales = (await call<Row>(admin, 'GET', `${crudPath(departEntity, 'queryById')}?id=${ids.sales}`)).envelope.result;
    expect((await list('username=zhang')).envelope.result.records[0]?.orgCode).toBe(sales.orgCode);
    const removed = await call(admin, 'DELETE', `${UserAdminPath.removeUsersFromDepart}?depId=${ids.sales}&userIds=${ids.zhang}`);
    expect(removed.envelope.message).toBe(translate('en-US', 'depart.usersRemoved', { count: 1 }));
    expect(await members()).not.toContain('zhang');
    expect((await call(admin, 'POST', UserAdminPath.addUsersToDepart, { depId: ids.sales!, userIdList: 'nobody' })).statusCode).toBe(400);
  });

  it("keeps each tenant admin to the tenant's own users, groups and agent settings", async () => {
    const tenant = async (code: string) => (await call<{ id: string }>(admin, 'POST', '/sys/tenant/add', { name: `Tenant ${code}`, code, status: 1 })).envelope.result.id;
    const tenants = { A: await tenant('ua'), B: await tenant('ub') };
    await createRoleWith(app, 'user_tenant_admin', [userEntity, departEntity, userAgentEntity].flatMap(entityPermissionCodes));
    const tokens: Record<string, string> = {};
    for (const [name, tenantId] of Object.entries(tenants)) {
      await createTestUser(app, `tadmin${name}`, { roles: ['user_tenant_admin'], tenantId });
      tokens[name] = await login(app, `tadmin${name}`, USER_PASSWORD);
      const group = (await call<{ id: string }>(tokens[name]!, 'POST', crudPath(departEntity, 'add'), { departName: `Group ${name}` })).envelope.result.id;
      const added = await call(tokens[name]!, 'POST', crudPath(userEntity, 'add'), { username: `member${name}`, realname: `Member ${name}`, password: PASSWORD, selecteddeparts: group });
      expect(added.envelope.success).toBe(true);
      await call(tokens[name]!, 'POST', crudPath(userAgentEntity, 'add'), { userName: `member${name}`, agentUserName: `tadmin${name}`, startTime: '2026-01-01 08:00:00', endTime: '2026-02-01 08:00:00' });
    }
    for (const [name, token] of Object.entries(tokens)) {
      const other = name === 'A' ? 'B' : 'A';
      const users = (await call<Page<Row>>(token, 'GET', `${crudPath(userEntity, 'list')}?pageSize=100`)).envelope.result.records.map((r) => r.username).sort();
      expect(users).toEqual([`member${name}`, `tadmin${name}`]);
      const groupRows = (await call<Page<Row>>(token, 'GET', `${crudPath(departEntity, 'list')}?pageSize=100`)).envelope.result.records;
      expect(groupRows.map((r) => r.departName)).toEqual([`Group ${name}`]);
      const agents = (await call<Page<Row>>(token, 'GET', `${crudPath(userAgentEntity, 'list')}?pageSize=100`)).envelope.result.records;
      expect(agents.map((r) => r.userName)).toEqual([`member${name}`]);
      const foreign = (await call<Page<Row>>(tokens[other]!, 'GET', `${crudPath(userEntity, 'list')}?username=member${other}`)).envelope.result.records[0]!;
      expect((await call(token, 'GET', `${crudPath(userEntity, 'queryById')}?id=${foreign.id}`)).statusCode).toBe(404);
      expect((await call(token, 'PUT', UserAdminPath.frozenBatch, { ids: foreign.id, status: 2 })).statusCode).toBe(404);
      expect((await call(token, 'PUT', UserAdminPath.changePassword, { username: `member${other}`, password: PASSWORD, confirmpassword: PASSWORD })).statusCode).toBe(404);
      // a group of the other tenant cannot be linked
      const foreignGroup = (await call<Page<Row>>(tokens[other]!, 'GET', crudPath(departEntity, 'list'))).envelope.result.records[0]!;
      expect((await call(token, 'PUT', crudPath(userEntity, 'edit'), { id: (await call<Page<Row>>(token, 'GET', `${crudPath(userEntity, 'list')}?username=member${name}`)).envelope.result.records[0]!.id, selecteddeparts: foreignGroup.id })).statusCode).toBe(400);
      const exported = await injectAs(app, token, { method: 'GET', url: api(app, crudPath(userEntity, 'exportXls')) });
      expect((await sheetRows(exported.rawPayload)).length - 1).toBe(2);
    }
  });

  it('gives a holder of the list permission only 510 for every change', async () => {
    await createRoleWith(app, 'user_viewer', [permissionCode(userEntity, 'list')]);
    await createTestUser(app, 'viewer', { roles: ['user_viewer'] });
    const viewer = await login(app, 'viewer', USER_PASSWORD);
    expect((await list('', viewer)).statusCode).toBe(200);
    const denied = [
      call(viewer, 'POST', crudPath(userEntity, 'add'), { username: 'x', realname: 'x', password: PASSWORD }),
      call(viewer, 'PUT', crudPath(userEntity, 'edit'), { id: ids.zhang, realname: 'x' }),
      call(viewer, 'DELETE', `${crudPath(userEntity, 'delete')}?id=${ids.zhang}`),
      call(viewer, 'PUT', UserAdminPath.frozenBatch, { ids: ids.zhang, status: 2 }),
      call(viewer, 'PUT', UserAdminPath.changePassword, { username: 'zhang', password: PASSWORD, confirmpassword: PASSWORD }),
      call(viewer, 'GET', crudPath(userEntity, 'recycleBin')),
      call(viewer, 'GET', crudPath(userEntity, 'exportXls')),
    ];
    for (const answer of await Promise.all(denied)) expect([answer.statusCode, answer.envelope.code]).toEqual([403, 510]);
    expect(entityPermissionCodes(userEntity)).toEqual(expect.arrayContaining(['system:user:frozen', 'system:user:resetPassword', 'system:user:agent', 'system:user:recycleBin']));
  });
});
