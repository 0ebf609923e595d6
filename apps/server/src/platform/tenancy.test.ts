import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AnnouncementPath,
  AnnouncementPerm,
  FilePath,
  MessagePath,
  MessagePerm,
  MessageTemplatePath,
  Perm,
  TENANT_DICT,
  TENANT_HEADER,
  UserAdminPath,
  dictItemsPath,
  ApiPath,
  crudPath,
  dataLogEntity,
  departEntity,
  entityPermissionCodes,
  logEntity,
  roleEntity,
  tenantEntity,
  userEntity,
  type DashboardSummary,
  type NoticeSummary,
  type Page,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { createRoleWith, sheetRows } from '../test/crud-helpers.ts';
import { USER_PASSWORD, adminToken, api, buildTestApp, createTestUser, defaultTenantId, injectAs, login, testDialects, tryLogin, type TestApp } from '../test/harness.ts';

type Row = Record<string, unknown> & { id: string };
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

function multipart(file: Buffer, filename: string, mimetype: string) {
  const boundary = `----isps${randomUUID()}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${mimetype}\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe.each(await testDialects())('tenancy on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  let tenantA: string;
  let tenantB: string;
  const tokens: Record<'adminA' | 'adminB' | 'tenantless', string> = { adminA: '', adminB: '', tenantless: '' };
  /** rows of tenant B, written by its user administrator */
  const b: Record<string, string> = {};
  /** rows of tenant A */
  const a: Record<string, string> = {};

  const call = <T = unknown>(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown, headers: Record<string, string> = {}) =>
    injectAs<T>(app, token, { method, url: api(app, path), headers: { lang: 'en-US', ...headers }, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const ok = async <T = Row>(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown, headers: Record<string, string> = {}) => {
    const answer = await call<T>(token, method, path, payload, headers);
    expect(answer.envelope.success, `${method} ${path}: ${answer.envelope.message}`).toBe(true);
    return answer.envelope.result;
  };
  const ids = async (token: string, path: string, headers: Record<string, string> = {}) =>
    (await ok<Page<Row>>(token, 'GET', `${path}${path.includes('?') ? '&' : '?'}pageSize=200`, undefined, headers)).records.map((r) => r.id);
  const upload = (token: string) => {
    const body = multipart(PNG, 'badge.png', 'image/png');
    return injectAs<string>(app, token, { method: 'POST', url: api(app, FilePath.upload), payload: body.payload, headers: body.headers });
  };
  const fetchFile = (token: string | null, stored: string) => app.inject({ method: 'GET', url: api(app, FilePath.static.replace('*', stored)), headers: token ? { 'X-Access-Token': token } : {} });

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
    tenantA = await defaultTenantId(app);
    tenantB = (await ok<{ id: string }>(admin, 'POST', crudPath(tenantEntity, 'add'), { name: 'Tenant B', code: 'tenant_b', status: 1 })).id;
    const codes = [
      ...[userEntity, roleEntity, departEntity].flatMap((e) => entityPermissionCodes(e)),
      `${logEntity.permissionPrefix}:list`,
      `${dataLogEntity.permissionPrefix}:list`,
      ...Object.values(AnnouncementPerm),
      ...Object.values(MessagePerm),
      Perm.dashboardView,
    ];
    await createRoleWith(app, 'tenant_manager', codes);
    await createTestUser(app, 'manager-a', { roles: ['tenant_manager'], tenantId: tenantA });
    await createTestUser(app, 'manager-b', { roles: ['tenant_manager'], tenantId: tenantB });
    await createTestUser(app, 'manager-none', { roles: ['tenant_manager'], tenantId: null });
    tokens.adminA = await login(app, 'manager-a', USER_PASSWORD);
    tokens.adminB = await login(app, 'manager-b', USER_PASSWORD);
    tokens.tenantless = await login(app, 'manager-none', USER_PASSWORD);

    for (const [token, rows] of [[tokens.adminA, a], [tokens.adminB, b]] as const) {
      const tag = token === tokens.adminA ? 'a' : 'b';
      rows.annt = (await ok(token, 'POST', AnnouncementPath.add, { titile: `Notice ${tag}`, msgContent: '<p>x</p>', msgCategory: '1', msgType: 'ALL', priority: 'L' })).id;
      await ok(token, 'GET', `${AnnouncementPath.release}?id=${rows.annt}`);
      rows.message = (await ok(token, 'POST', MessagePath.add, { esTitle: `Message ${tag}`, esContent: 'x', esReceiver: `someone-${tag}`, esType: 'email' })).id;
      rows.template = (await ok(token, 'POST', MessageTemplatePath.add, { templateCode: `code_${tag}`, templateName: `Template ${tag}`, templateContent: 'Hello', templateType: '1' })).id;
      rows.user = (await ok<{ id: string }>(token, 'POST', crudPath(userEntity, 'add'), { username: `staff-${tag}`, realname: `Staff ${tag}`, password: 'Staff#Pass11' })).id;
      rows.role = (await ok<{ id: string }>(token, 'POST', crudPath(roleEntity, 'add'), { roleName: `Role ${tag}`, roleCode: `role_${tag}`, roleType: 1 })).id;
      rows.depart = (await ok<{ id: string }>(token, 'POST', crudPath(departEntity, 'add'), { departName: `Group ${tag}` })).id;
      const uploaded = await upload(token);
      expect(uploaded.envelope.success, uploaded.envelope.message).toBe(true);
      rows.file = uploaded.envelope.result;
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('hides announcements, messages and templates of another tenant from list, queryById, edit and delete', async () => {
    const screens = [
      { list: AnnouncementPath.list, byId: AnnouncementPath.queryById, edit: AnnouncementPath.edit, del: AnnouncementPath.delete, key: 'annt', change: { titile: 'Changed by A' } },
      { list: MessagePath.list, byId: MessagePath.queryById, edit: MessagePath.edit, del: MessagePath.delete, key: 'message', change: { esTitle: 'Changed by A' } },
      { list: MessageTemplatePath.list, byId: MessageTemplatePath.queryById, edit: MessageTemplatePath.edit, del: MessageTemplatePath.delete, key: 'template', change: { templateName: 'Changed by A' } },
    ];
    for (const screen of screens) {
      const seenByA = await ids(tokens.adminA, screen.list);
      expect(seenByA).toContain(a[screen.key]);
      expect(seenByA).not.toContain(b[screen.key]);
      expect(await ids(tokens.adminB, screen.list)).toEqual([b[screen.key]]);
      expect(await ids(tokens.tenantless, screen.list)).toEqual([]);
      expect((await call(tokens.adminA, 'GET', `${screen.byId}?id=${b[screen.key]}`)).envelope.success).toBe(false);
      expect((await call(tokens.adminA, 'PUT', screen.edit, { id: b[screen.key], ...screen.change })).envelope.success).toBe(false);
      expect((await call(tokens.adminA, 'DELETE', `${screen.del}?id=${b[screen.key]}`)).envelope.success).toBe(false);
      const still = await ok<Row>(tokens.adminB, 'GET', `${screen.byId}?id=${b[screen.key]}`);
      expect(Object.values(still)).not.toContain('Changed by A');
    }
    // a test send names a template code: another tenant's is unknown
    const sent = await call(tokens.adminA, 'POST', MessageTemplatePath.sendMsg, { templateCode: 'code_b', receiver: 'manager-a', msgType: 'system' });
    expect(sent.envelope.success).toBe(false);
  });

  it('keeps the bell, read marks and announcement reads within the tenant', async () => {
    const bellB = await ok<NoticeSummary>(tokens.adminB, 'GET', AnnouncementPath.listByUser);
    expect(bellB.anntMsgList.map((n) => n.id)).toEqual([b.annt]);
    const bellA = await ok<NoticeSummary>(tokens.adminA, 'GET', AnnouncementPath.listByUser);
    expect(bellA.anntMsgList.map((n) => n.id)).toContain(a.annt);
    expect(bellA.anntMsgList.map((n) => n.id)).not.toContain(b.annt);
    expect((await ok<NoticeSummary>(tokens.tenantless, 'GET', AnnouncementPath.listByUser)).anntMsgTotal).toBe(0);
    expect(await ids(tokens.tenantless, AnnouncementPath.myList)).toEqual([]);

    // A cannot mark B's notice read, nor read it
    expect((await call(tokens.adminA, 'PUT', AnnouncementPath.markRead, { anntId: b.annt })).envelope.success).toBe(false);
    expect((await call(tokens.tenantless, 'GET', `${AnnouncementPath.queryById}?id=${b.annt}`)).envelope.success).toBe(false);
    await ok(tokens.adminA, 'PUT', AnnouncementPath.readAll);
    const sends = await app.db.selectFrom('sys_announcement_send').select(['user_id', 'read_flag', 'tenant_id']).where('annt_id', '=', b.annt!).execute();
    expect(sends.length).toBeGreaterThan(0);
    expect(sends.every((s) => s.tenant_id === tenantB && Number(s.read_flag) === 0)).toBe(true);
    // only B's users received B's announcement for everyone
    const recipients = await app.db.selectFrom('sys_user').select('tenant_id').where('id', 'in', sends.map((s) => s.user_id)).execute();
    expect(recipients.every((r) => r.tenant_id === tenantB)).toBe(true);
    expect((await ok<NoticeSummary>(tokens.adminB, 'GET', AnnouncementPath.listByUser)).anntMsgTotal).toBe(1);
  });

  it('hides users, roles and groups of another tenant from list, queryById, edit, delete and export', async () => {
    for (const [entity, key, change] of [
      [userEntity, 'user', { realname: 'Changed by A' }],
      [roleEntity, 'role', { roleName: 'Changed by A' }],
      [departEntity, 'depart', { departName: 'Changed by A' }],
    ] as const) {
      const seenByA = await ids(tokens.adminA, crudPath(entity, 'list'));
      expect(seenByA).toContain(a[key]);
      expect(seenByA).not.toContain(b[key]);
      expect(await ids(tokens.tenantless, crudPath(entity, 'list'))).toEqual([]);
      expect((await call(tokens.adminA, 'GET', `${crudPath(entity, 'queryById')}?id=${b[key]}`)).envelope.success).toBe(false);
      await call(tokens.adminA, 'PUT', crudPath(entity, 'edit'), { id: b[key], ...change });
      await call(tokens.adminA, 'DELETE', `${crudPath(entity, 'delete')}?id=${b[key]}`);
      const still = await ok<Row>(tokens.adminB, 'GET', `${crudPath(entity, 'queryById')}?id=${b[key]}`);
      expect(Object.values(still)).not.toContain('Changed by A');
      const exported = await injectAs(app, tokens.adminA, { method: 'GET', url: api(app, crudPath(entity, 'exportXls')) });
      expect(exported.statusCode).toBe(200);
      const cells = (await sheetRows(exported.rawPayload)).flat().map(String);
      expect(cells.some((c) => c.endsWith(' b'))).toBe(false);
      expect(cells.some((c) => c.endsWith(' a'))).toBe(true);
    }
  });

  it('names the roles of its own tenant\'s users only', async () => {
    await app.db.insertInto('sys_user_role').values({ id: randomUUID(), user_id: b.user!, role_id: b.role!, create_by: 'test', create_time: null, update_by: null, update_time: null }).execute();
    const mapOf = (token: string) => ok<Record<string, string>>(token, 'GET', UserAdminPath.queryUserRoleMap);
    expect(await mapOf(tokens.adminB)).toMatchObject({ [b.user!]: 'Role b' });
    expect(Object.keys(await mapOf(tokens.adminA))).not.toContain(b.user);
    expect(await mapOf(tokens.tenantless)).toEqual({});
  });

  it('shows each tenant its own uploads in the listing and in an authenticated static fetch', async () => {
    const listed = async (token: string) => (await ok<Page<{ filePath: string }>>(token, 'GET', `${FilePath.list}?pageSize=100`)).records.map((r) => r.filePath);
    expect(await listed(tokens.adminA)).toContain(a.file);
    expect(await listed(tokens.adminA)).not.toContain(b.file);
    expect(await listed(tokens.adminB)).toEqual([b.file]);
    expect(await listed(tokens.tenantless)).toEqual([]);
    expect((await fetchFile(tokens.adminB, b.file!)).statusCode).toBe(200);
    expect((await fetchFile(tokens.adminA, b.file!)).statusCode).toBe(404);
    expect((await fetchFile(tokens.tenantless, b.file!)).statusCode).toBe(404);
    expect((await fetchFile(admin, b.file!)).statusCode).toBe(404);
    const chosen = await app.inject({ method: 'GET', url: api(app, FilePath.static.replace('*', b.file!)), headers: { 'X-Access-Token': admin, [TENANT_HEADER]: tenantB } });
    expect(chosen.statusCode).toBe(200);
  });

  it('counts dashboard figures and reads logs of the own tenant only', async () => {
    const figures = async (token: string) => ok<DashboardSummary>(token, 'GET', ApiPath.dashboardSummary);
    const fromB = await figures(tokens.adminB);
    // B has its manager and the user it added, one role and one group, one sign-in
    expect(fromB).toMatchObject({ userCount: 2, roleCount: 1, departCount: 1, loginsToday: 1, onlineTokenCount: 1 });
    const fromA = await figures(tokens.adminA);
    expect(fromA.userCount).toBeGreaterThanOrEqual(3);
    expect(fromA.loginsToday).toBeGreaterThanOrEqual(1);
    expect(await figures(tokens.tenantless)).toMatchObject({ userCount: 0, roleCount: 0, departCount: 0, loginsToday: 0, onlineTokenCount: 0 });

    const logNames = async (token: string, logType: number) =>
      (await ok<Page<Row>>(token, 'GET', `${crudPath(logEntity, 'list')}?logType=${logType}&pageSize=200`)).records.map((r) => String(r.username));
    for (const logType of [1, 2]) {
      expect(await logNames(tokens.adminA, logType)).not.toContain('manager-b');
      expect(await logNames(tokens.adminB, logType)).toContain('manager-b');
      expect(new Set(await logNames(tokens.adminB, logType))).toEqual(new Set(['manager-b']));
      expect(await logNames(tokens.tenantless, logType)).toEqual([]);
    }
    const dataIds = async (token: string) => (await ok<Page<Row>>(token, 'GET', `${crudPath(dataLogEntity, 'list')}?pageSize=200`)).records.map((r) => String(r.dataId));
    expect(await dataIds(tokens.adminB)).toContain(b.user);
    expect(await dataIds(tokens.adminA)).not.toContain(b.user);
    expect(await dataIds(tokens.tenantless)).toEqual([]);
  });

  it('lets the system administrator work in his own tenant by default and in another only when he names it', async () => {
    const own = await ids(admin, AnnouncementPath.list);
    expect(own).toContain(a.annt);
    expect(own).not.toContain(b.annt);
    expect(await ids(admin, AnnouncementPath.list, { [TENANT_HEADER]: '0' })).toEqual(own);
    expect(await ids(admin, AnnouncementPath.list, { [TENANT_HEADER]: tenantB })).toEqual([b.annt]);
    expect(await ids(admin, crudPath(userEntity, 'list'), { [TENANT_HEADER]: tenantB })).toContain(b.user);
    expect(await ids(admin, crudPath(userEntity, 'list'))).not.toContain(b.user);
    // a tenant that does not exist (deleted since it was chosen) leaves him in his own
    expect(await ids(admin, AnnouncementPath.list, { [TENANT_HEADER]: randomUUID() })).toEqual(own);

    // another caller's header is ignored: A stays in A
    const viaHeader = await ids(tokens.adminA, AnnouncementPath.list, { [TENANT_HEADER]: tenantB });
    expect(viaHeader).toContain(a.annt);
    expect(viaHeader).not.toContain(b.annt);
    expect(await ids(tokens.tenantless, AnnouncementPath.list, { [TENANT_HEADER]: tenantB })).toEqual([]);

    // a write with a chosen tenant goes into that tenant
    const added = await ok<Row>(admin, 'POST', AnnouncementPath.add, { titile: 'From the administrator', msgContent: '<p>y</p>', msgCategory: '1', msgType: 'ALL', priority: 'L' }, { [TENANT_HEADER]: tenantB });
    expect(await ids(tokens.adminB, AnnouncementPath.list)).toContain(added.id);
    expect(await ids(tokens.adminA, AnnouncementPath.list)).not.toContain(added.id);
    const role = await ok<{ id: string }>(admin, 'POST', crudPath(roleEntity, 'add'), { roleName: 'Admin made', roleCode: 'admin_made_b', roleType: 1 }, { [TENANT_HEADER]: tenantB });
    expect(await ids(tokens.adminB, crudPath(roleEntity, 'list'))).toContain(role.id);
  });

  it('lets only the system administrator place a user, role or group in a tenant', async () => {
    const tenantOf = async (table: 'sys_user' | 'sys_role' | 'sys_depart', id: string) => (await app.db.selectFrom(table).select('tenant_id').where('id', '=', id).executeTakeFirstOrThrow()).tenant_id;
    // a tenant's administrator names another tenant: ignored, the rows stay in or go to his own
    const user = (await ok<{ id: string }>(tokens.adminA, 'POST', crudPath(userEntity, 'add'), { username: 'placed-by-a', realname: 'Placed', password: 'Staff#Pass11', tenantId: tenantB })).id;
    expect(await tenantOf('sys_user', user)).toBe(tenantA);
    await call(tokens.adminA, 'PUT', crudPath(roleEntity, 'edit'), { id: a.role, tenantId: tenantB });
    expect(await tenantOf('sys_role', a.role!)).toBe(tenantA);
    await call(tokens.adminA, 'PUT', crudPath(departEntity, 'edit'), { id: a.depart, tenantId: tenantB });
    expect(await tenantOf('sys_depart', a.depart!)).toBe(tenantA);

    // the system administrator places them, and lists name the tenant
    const placed = (await ok<{ id: string }>(admin, 'POST', crudPath(userEntity, 'add'), { username: 'placed-by-admin', realname: 'Placed', password: 'Staff#Pass11', tenantId: tenantB })).id;
    expect(await tenantOf('sys_user', placed)).toBe(tenantB);
    await ok(admin, 'PUT', crudPath(userEntity, 'edit'), { id: user, tenantId: tenantB });
    expect(await tenantOf('sys_user', user)).toBe(tenantB);
    await ok(admin, 'PUT', crudPath(roleEntity, 'edit'), { id: a.role, tenantId: tenantB });
    expect(await tenantOf('sys_role', a.role!)).toBe(tenantB);
    await ok(admin, 'PUT', crudPath(departEntity, 'edit'), { id: a.depart, tenantId: tenantB });
    expect(await tenantOf('sys_depart', a.depart!)).toBe(tenantB);
    const rows = (await ok<Page<Row>>(tokens.adminB, 'GET', `${crudPath(userEntity, 'list')}?pageSize=100`)).records;
    expect(rows.find((r) => r.id === user)).toMatchObject({ tenantId: tenantB, tenantId_dictText: 'Tenant B' });
    expect(await ids(tokens.adminA, crudPath(roleEntity, 'list'))).not.toContain(a.role);
    expect(await ids(tokens.adminB, crudPath(departEntity, 'list'))).toContain(a.depart);
    // an unknown tenant is refused
    const unknown = await call(admin, 'PUT', crudPath(userEntity, 'edit'), { id: user, tenantId: randomUUID() });
    expect(unknown.envelope.success).toBe(false);
  });

  it('lists every tenant to the system administrator only: others see their own in the tenant dictionary', async () => {
    const tenantsSeen = async (token: string) => (await ok<{ value: string }[]>(token, 'GET', dictItemsPath(TENANT_DICT))).map((o) => o.value).sort();
    expect(await tenantsSeen(admin)).toEqual([tenantA, tenantB].sort());
    expect(await tenantsSeen(tokens.adminA)).toEqual([tenantA]);
    expect(await tenantsSeen(tokens.adminB)).toEqual([tenantB]);
    expect(await tenantsSeen(tokens.tenantless)).toEqual([]);
    const signedIn = await tryLogin(app, 'manager-b', USER_PASSWORD);
    expect(signedIn.envelope.result.sysAllDictItems[TENANT_DICT]?.map((o) => o.value)).toEqual([tenantB]);
  });
});
