import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPath, alarmEntity, type DashboardDevices, type DashboardSummary, crudPath, deviceEntity, deviceRoleEntity, doorEntity, peopleEntity, userEntity, type LinkOption, type MenuItem, type Page, type PermissionResult } from '@isps/contract';
import { createRoleWith } from '../../test/crud-helpers.ts';
import { adminToken, api, buildTestApp, createNamespace, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp, type TestNamespace } from '../../test/harness.ts';
import { deviceAdminGrants } from '../migrations/1500-device-admin-grants.ts';
import { RoleCode, SEED_BY } from './index.ts';

const dialects = await testDialects();

const paths = (items: readonly MenuItem[]): string[] => items.flatMap((item) => [item.path, ...paths(item.children ?? [])]);

async function deviceAdminRoleId(t: TestApp): Promise<string> {
  return (await t.app.db.selectFrom('sys_role').select('id').where('role_code', '=', RoleCode.deviceAdmin).executeTakeFirstOrThrow()).id;
}

async function grantedUrls(t: TestApp): Promise<{ urls: string[]; perms: string[] }> {
  const rows = await t.app.db
    .selectFrom('sys_role_permission as rp')
    .innerJoin('sys_permission as p', 'p.id', 'rp.permission_id')
    .select(['p.url', 'p.perms'])
    .where('rp.role_id', '=', await deviceAdminRoleId(t))
    .execute();
  return { urls: rows.flatMap((r) => (r.url ? [r.url] : [])), perms: rows.flatMap((r) => (r.perms ? [r.perms] : [])) };
}

/** An installed console of the release before: its device administrator holds the home screens only, as seeded then. */
async function asBeforeThisRelease(t: TestApp, grantedBy: string): Promise<void> {
  const roleId = await deviceAdminRoleId(t);
  const home = await t.app.db.selectFrom('sys_permission').select(['id', 'url', 'parent_id']).where('url', 'in', ['/dashboard', '/dashboard/analysis', '/dashboard/clock']).execute();
  const buttons = await t.app.db.selectFrom('sys_permission').select('id').where('parent_id', 'in', home.filter((r) => r.url !== '/dashboard').map((r) => r.id)).execute();
  await t.app.db.deleteFrom('sys_role_permission').where('role_id', '=', roleId).execute();
  const now = new Date().toISOString();
  await t.app.db
    .insertInto('sys_role_permission')
    .values([...home, ...buttons].map((p, i) => ({ id: `old-grant-${i}`, role_id: roleId, permission_id: p.id, create_by: grantedBy, create_time: now, update_by: null, update_time: null })))
    .execute();
}

describe('the seeded device administrator (sqlite)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    await createTestUser(t.app, 'device_keeper', { roles: [RoleCode.deviceAdmin] });
    token = await login(t.app, 'device_keeper', USER_PASSWORD);
  });
  afterAll(async () => t?.close());

  it('holds the device pages and buttons of a new console, and no system page', async () => {
    const answer = await injectAs<PermissionResult>(t.app, token, { method: 'GET', url: api(t.app, ApiPath.userPermission) });
    const menu = paths(answer.envelope.result.menu);
    expect(menu).toEqual(expect.arrayContaining(['/dashboard/analysis', '/device/list', '/device/door', '/device/people', '/device/deviceRole', '/device/alarm', '/device/doorStatus', '/devices/log']));
    expect(menu.filter((p) => p.startsWith('/system') || p.startsWith('/monitor') || p.startsWith('/message'))).toEqual([]);
    const actions = answer.envelope.result.auth.map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['device:list:add', 'device:door:open', 'device:people:edit', 'device:deviceRole:delete', 'device:alarm:handle']));
    // groups and vendors are read for the pickers of people, doors, device roles and device types: no system page
    expect(actions.filter((a) => a.startsWith('system:')).sort()).toEqual(['system:depart:list', 'system:vendor:list']);
  });

  it('manages devices, doors, people, device roles and alarms of its tenant, and is refused the user list', async () => {
    for (const entity of [deviceEntity, doorEntity, peopleEntity, deviceRoleEntity, alarmEntity]) {
      const list = await injectAs(t.app, token, { method: 'GET', url: api(t.app, crudPath(entity, 'list')) });
      expect([entity.name, list.statusCode, list.envelope.success]).toEqual([entity.name, 200, true]);
    }
    const users = await injectAs(t.app, token, { method: 'GET', url: api(t.app, crudPath(userEntity, 'list')) });
    expect([users.statusCode, users.envelope.code]).toEqual([403, 510]);
  });
});

describe('the device role form of a device administrator (sqlite)', () => {
  let t: TestApp;
  let keeper: string;
  const options = (token: string, query: string, lang = 'en-US') =>
    injectAs<Page<LinkOption>>(t.app, token, { method: 'GET', url: `${api(t.app, crudPath(deviceRoleEntity, 'linkOptions'))}?${query}`, headers: { lang } });

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    const otherTenant = randomUUID();
    await t.app.db.insertInto('sys_tenant').values({ id: otherTenant, name: 'Other', code: 'other-picker', begin_date: null, end_date: null, status: 1, create_by: 'test', create_time: null, update_by: null, update_time: null }).execute();
    await createTestUser(t.app, 'picker_keeper', { roles: [RoleCode.deviceAdmin] });
    await createTestUser(t.app, 'picker_colleague');
    await createTestUser(t.app, 'picker_outsider', { tenantId: otherTenant });
    await t.app.db.updateTable('sys_user').set({ phone: '13800000001', email: 'colleague@example.com' }).where('username', '=', 'picker_colleague').execute();
    await createRoleWith(t.app, 'role_reader', ['device:deviceRole:list']);
    await createRoleWith(t.app, 'role_editor', ['device:deviceRole:edit']);
    await createTestUser(t.app, 'picker_reader', { roles: ['role_reader'] });
    await createTestUser(t.app, 'picker_editor', { roles: ['role_editor'] });
    keeper = await login(t.app, 'picker_keeper', USER_PASSWORD);
  });
  afterAll(async () => t?.close());

  it("picks among the users of its own tenant, by id and name only, while the user list stays refused", async () => {
    const answer = await options(keeper, 'field=userIds&pageSize=1000');
    expect([answer.statusCode, answer.envelope.success]).toEqual([200, true]);
    const records = answer.envelope.result.records;
    const names = records.map((r) => r.label);
    expect(names).toEqual(expect.arrayContaining(['picker_keeper', 'picker_colleague']));
    expect(names).not.toContain('picker_outsider');
    expect(answer.envelope.result.total).toBe(records.length);
    for (const record of records) expect(Object.keys(record).sort()).toEqual(['label', 'value']);
    expect(answer.body).not.toContain('13800000001');
    expect(answer.body).not.toContain('colleague@example.com');
    const colleague = await t.app.db.selectFrom('sys_user').select('id').where('username', '=', 'picker_colleague').executeTakeFirstOrThrow();
    expect(records.find((r) => r.label === 'picker_colleague')?.value).toBe(colleague.id);
    const users = await injectAs(t.app, keeper, { method: 'GET', url: api(t.app, crudPath(userEntity, 'list')) });
    expect([users.statusCode, users.envelope.code]).toEqual([403, 510]);
  });

  it('filters the choices by their label and pages them within the bound', async () => {
    const found = await options(keeper, 'field=userIds&keyword=COLLEAGUE');
    expect(found.envelope.result.records.map((r) => r.label)).toEqual(['picker_colleague']);
    // a wildcard is a character like any other
    expect((await options(keeper, 'field=userIds&keyword=picker%25')).envelope.result.records).toEqual([]);
    // colleague, editor, keeper, reader of this tenant; never the outsider
    const paged = await options(keeper, 'field=userIds&keyword=picker_&pageSize=1&pageNo=3');
    expect(paged.envelope.result).toMatchObject({ size: 1, current: 3, total: 4, pages: 4 });
    expect(paged.envelope.result.records.map((r) => r.label)).toEqual(['picker_keeper']);
    expect((await options(keeper, 'field=userIds&pageSize=99999')).envelope.result.size).toBe(1000);
  });

  it('offers the other pickers of the form through the same route', async () => {
    for (const field of ['departIds', 'peopleIds', 'deviceIds', 'doorIds', 'areaIds']) {
      const answer = await options(keeper, `field=${field}`);
      expect([field, answer.statusCode, answer.envelope.success]).toEqual([field, 200, true]);
    }
  });

  it('answers an unknown field with a localised refusal, and refuses callers who may neither add nor edit device roles', async () => {
    for (const [lang, text] of [['en-US', 'The field roleName offers no choices'], ['zh-CN', '字段 roleName 没有可选项'], ['ja-JP', '項目 roleName には選択肢がありません']] as const) {
      const refused = await options(keeper, 'field=roleName', lang);
      expect([refused.statusCode, refused.envelope.code, refused.envelope.success, refused.envelope.message]).toEqual([400, 400, false, text]);
    }
    expect((await options(keeper, '')).statusCode).toBe(400);
    const reader = await login(t.app, 'picker_reader', USER_PASSWORD);
    const denied = await options(reader, 'field=userIds');
    expect([denied.statusCode, denied.envelope.code]).toEqual([403, 510]);
    expect(denied.envelope.message).toContain('device:deviceRole:add');
    expect(denied.envelope.message).toContain('device:deviceRole:edit');
    // editing is enough
    const editor = await login(t.app, 'picker_editor', USER_PASSWORD);
    expect((await options(editor, 'field=userIds')).statusCode).toBe(200);
  });
});

describe('the home page figures', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    await createTestUser(t.app, 'figure_keeper', { roles: [RoleCode.deviceAdmin] });
    await createTestUser(t.app, 'plain_user', { roles: [RoleCode.user] });
  });
  afterAll(async () => t?.close());

  it('sends a device administrator the device figures and no user, session or sign-in figure', async () => {
    const token = await login(t.app, 'figure_keeper', USER_PASSWORD);
    const summary = await injectAs<DashboardSummary>(t.app, token, { method: 'GET', url: api(t.app, ApiPath.dashboardSummary) });
    expect([summary.statusCode, summary.envelope.result]).toEqual([200, {}]);
    const devices = await injectAs<DashboardDevices>(t.app, token, { method: 'GET', url: api(t.app, ApiPath.dashboardDevices) });
    const hours = () => Array.from({ length: 24 }, () => 0);
    expect(devices.envelope.result).toEqual({
      devicesOnline: 0,
      devicesOffline: 0,
      doorsOpen: 0,
      openAlarms: 0,
      eventsByHour: hours(),
      devicesBySystem: [],
      accessByHour: { openings: hours(), denials: hours() },
      alarmsByLevel: { L: 0, M: 0, H: 0 },
      attendanceToday: { normal: 0, late: 0, absent: 0 },
      cabinets: { occupied: 0, free: 0 },
      emergencyActive: false,
    });
    for (const path of [ApiPath.loginInfo, ApiPath.visitInfo]) {
      const refused = await injectAs(t.app, token, { method: 'GET', url: api(t.app, path) });
      expect([path, refused.statusCode, refused.envelope.code]).toEqual([path, 403, 510]);
    }
  });

  it('sends a plain user only whether an emergency is on, and the administrator every figure', async () => {
    const plain = await login(t.app, 'plain_user', USER_PASSWORD);
    expect((await injectAs(t.app, plain, { method: 'GET', url: api(t.app, ApiPath.dashboardSummary) })).envelope.result).toEqual({});
    expect((await injectAs(t.app, plain, { method: 'GET', url: api(t.app, ApiPath.dashboardDevices) })).envelope.result).toEqual({ emergencyActive: false });
    const admin = await adminToken(t.app);
    const summary = await injectAs<DashboardSummary>(t.app, admin, { method: 'GET', url: api(t.app, ApiPath.dashboardSummary) });
    expect(Object.keys(summary.envelope.result).sort()).toEqual(['departCount', 'loginsLast7Days', 'loginsToday', 'onlineTokenCount', 'roleCount', 'userCount']);
    const devices = await injectAs<DashboardDevices>(t.app, admin, { method: 'GET', url: api(t.app, ApiPath.dashboardDevices) });
    expect(Object.keys(devices.envelope.result).sort()).toEqual(['accessByHour', 'alarmsByLevel', 'attendanceToday', 'cabinets', 'devicesBySystem', 'devicesOffline', 'devicesOnline', 'doorsOpen', 'emergencyActive', 'eventsByHour', 'openAlarms']);
  });
});

describe.each(dialects)('an installed console on %s', (dialect) => {
  let namespace: TestNamespace;
  afterAll(async () => {
    await namespace?.drop().catch(() => undefined);
  });

  it('gives its untouched device administrator the device menus, and a newly released device button too', async () => {
    namespace = await createNamespace(dialect);
    const first = await buildTestApp(dialect, { namespace });
    await asBeforeThisRelease(first, SEED_BY);
    // an older release had no alarm handling either
    await first.app.db.deleteFrom('sys_permission').where('perms', '=', 'device:alarm:handle').execute();
    expect((await grantedUrls(first)).urls).not.toContain('/device/list');
    // this release's migration, then the next start's menu sync (which adds the alarm button)
    await deviceAdminGrants.up(first.app.db);
    expect((await grantedUrls(first)).urls).toContain('/device/list');
    await first.close();

    const second = await buildTestApp(dialect, { namespace });
    try {
      const { urls, perms } = await grantedUrls(second);
      expect(urls).toEqual(expect.arrayContaining(['/dashboard/analysis', '/device', '/device/list', '/device/people', '/device/alarm', '/devices/log']));
      expect(perms).toEqual(expect.arrayContaining(['device:list:delete', 'device:alarm:handle', 'dashboard:analysis:view', 'system:depart:list', 'system:vendor:list']));
      expect(urls.filter((u) => u.startsWith('/system'))).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it('never widens a device administrator an administrator has edited', async () => {
    const first = await buildTestApp(dialect, { namespace });
    await asBeforeThisRelease(first, 'admin');
    await deviceAdminGrants.up(first.app.db);
    await first.close();
    const second = await buildTestApp(dialect, { namespace });
    try {
      const { urls } = await grantedUrls(second);
      expect(urls.filter((u) => u.startsWith('/device'))).toEqual([]);
    } finally {
      await second.close();
      await namespace.drop();
    }
  });
});
