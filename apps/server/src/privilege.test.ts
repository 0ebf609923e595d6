import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_HEADER, AccountPath, ApiKeyPath, ApiPath, AttendancePath, MetricsPath, MonitorPath, REPORT_SCREENS, reportPath, cabinetEntity, keyEntity, patrolEntities, PatrolPath, StoragePath, storageCheckUpdateEntity, orderEntity, VisitorPath, entityActions, entityDeclarations, importJobPath } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { createRoleWith, uploadFile, workbookOf } from './test/crud-helpers.ts';
import { USER_PASSWORD, adminToken, api, buildTestApp, createTestUser, injectAs, login, testDialects, type Answer, type TestApp } from './test/harness.ts';

/*
 * The privilege suite: a fixture of two tenants and every kind of seat, and each privilege property tried from each
 * seat through every route that reaches it. The routes that change users, roles, groups or permissions are taken from
 * the route catalogue, so a new one is either probed here, proven in a named test file, or fails this suite.
 */

// adminKey: an API key a system administrator made with every code he holds; it is a caller of its own kind, never a
// system administrator, so it reaches no grant a holder of those codes could not (issue 32)
type Seat = 'sysadmin' | 'secondAdmin' | 'userAdminA' | 'userAdminB' | 'menuManager' | 'dataSourceTester' | 'selfRegistered' | 'visitor' | 'adminKey';
const SEATS: Seat[] = ['sysadmin', 'secondAdmin', 'userAdminA', 'userAdminB', 'menuManager', 'dataSourceTester', 'selfRegistered', 'visitor'];
/** holders of the system administrator role */
const AUDIT = { create_by: 'test', create_time: null, update_by: null, update_time: null };
const SYSTEM_ADMINS: Seat[] = ['sysadmin', 'secondAdmin'];
const ATTACKERS: Seat[] = [...SEATS.filter((s) => !SYSTEM_ADMINS.includes(s)), 'adminKey'];

const USER_ADMIN_CODES = [
  'system:user:list', 'system:user:add', 'system:user:edit', 'system:user:delete', 'system:user:import', 'system:user:export',
  'system:user:frozen', 'system:user:resetPassword', 'system:user:recycleBin', 'system:role:list', 'system:depart:list',
  'system:departUser:delete', 'system:userAgent:list', 'system:userAgent:add', 'system:userAgent:edit', 'system:userAgent:delete',
  'system:departRole:list', 'system:departRole:user', 'system:departRole:authorize', 'system:depart:authorize',
  'system:apiKey:list', 'system:apiKey:add', 'system:apiKey:rotate',
];
const MENU_MANAGER_CODES = [
  'system:permission:list', 'system:permission:add', 'system:permission:edit', 'system:permission:delete', 'system:permission:import',
  'system:role:list', 'system:role:add', 'system:role:edit', 'system:role:delete', 'system:role:import', 'system:role:authorize',
];
// a tenant's administrator looks after its webhooks too; only the loopback leave is not his
const WEBHOOK_CODES = ['system:webhook:list', 'system:webhook:add', 'system:webhook:edit', 'system:webhook:delete', 'system:webhook:resend', 'system:webhook:test'];
const DATA_SOURCE_CODES = ['system:dataSource:list', 'system:dataSource:add', 'system:dataSource:edit', 'system:dataSource:export', 'system:dataSource:test'];

/** What a probe tries: one request that would widen someone's rights, and a check that nothing widened. */
interface Probe {
  route: string;
  what: string;
  attempt: (token: string) => Promise<Answer>;
  /** true when the effect the attempt aimed at did not happen */
  held: () => Promise<boolean>;
  /** undo an effect a system administrator was allowed to have, so the next seat starts from the same state */
  reset?: () => Promise<void>;
  /** system administrators may do this (the probe then checks they still can); false for what nobody may do */
  adminMay: boolean;
}

/** Routes whose privilege properties are proven in another test file, which must name the route. */
const PROVEN_ELSEWHERE: Record<string, string> = {
  // a visit hands out doors: the author must be able to bind them (platform/grants.ts)
  'POST /api/vistor/visit/add': 'modules/visitor/visits.test.ts',
  'PUT /api/vistor/visit/edit': 'modules/visitor/visits.test.ts',
  'DELETE /api/vistor/visit/delete': 'modules/visitor/visits.test.ts',
  'DELETE /api/vistor/visit/deleteBatch': 'modules/visitor/visits.test.ts',
  'POST /api/vistor/visit/importExcel': 'modules/visitor/visits.test.ts',
  // approving a visitor's request hands its doors to him: the same grant rule, and only the host or a visit editor decides
  'PUT /api/vistor/visit/approve': 'modules/visitor/visit-requests.test.ts',
  'PUT /api/vistor/visit/refuse': 'modules/visitor/visit-requests.test.ts',
  'POST /api/sys/user/register': 'modules/account/account.test.ts',
  // SPEC section 7's declared calls run the flows above them
  'POST /api/auth/register': 'modules/account/account.test.ts',
  'POST /api/auth/forge-password': 'modules/account/account.test.ts',
  'POST /api/account/sms': 'modules/account/account.test.ts',
  'POST /api/sys/login': 'modules/system/system.test.ts',
  'POST /api/sys/sms': 'modules/account/account-security.test.ts',
  'POST /api/sys/phoneLogin': 'modules/account/account-security.test.ts',
  'POST /api/sys/user/passwordReset/account': 'modules/account/account.test.ts',
  'POST /api/sys/user/passwordReset/sendCode': 'modules/account/account-security.test.ts',
  'POST /api/sys/user/passwordReset/verify': 'modules/account/account-security.test.ts',
  'POST /api/sys/user/passwordReset/password': 'modules/account/account-security.test.ts',
  'POST /api/sys/twoFactor/enroll': 'modules/account/account-security.test.ts',
  'POST /api/sys/twoFactor/confirm': 'modules/account/account-security.test.ts',
  'POST /api/sys/twoFactor/disable': 'modules/account/account-security.test.ts',
  'POST /api/sys/twoFactor/challenge/enroll': 'modules/account/account-security.test.ts',
  'POST /api/sys/twoFactor/login': 'modules/account/account-security.test.ts',
  'PUT /api/sys/account/settings': 'modules/account/account-security.test.ts',
  'POST /api/sys/activation/activate': 'modules/account/account-security.test.ts',
  'POST /api/sys/activation/issue': 'modules/account/account-security.test.ts',
  'POST /api/vistor/login': 'modules/visitor/visitor.test.ts',
  'POST /api/sys/user/updatePassword': 'modules/system/system.test.ts',
  // the same handler as POST, for the origin console's password dialog
  'PUT /api/sys/user/updatePassword': 'modules/system/origin-wire.test.ts',
  // device roles grant areas, devices and doors to their holders (the rule in platform/grants.ts)
  'POST /api/deviceRole/add': 'modules/device/device-role.test.ts',
  // a person's form hands out device roles (people.roleIds): the device-role grant rule holds there too
  'POST /api/sysPeople/add': 'modules/people/people.test.ts',
  'PUT /api/sysPeople/edit': 'modules/people/people.test.ts',
  'POST /api/sysPeople/importExcel': 'modules/people/people.test.ts',
  'PUT /api/deviceRole/edit': 'modules/device/device-role.test.ts',
  'DELETE /api/deviceRole/delete': 'modules/device/device-role.test.ts',
  'DELETE /api/deviceRole/deleteBatch': 'modules/device/device-role.test.ts',
  'POST /api/deviceRole/importExcel': 'modules/device/device-role.test.ts',
  // key roles give keys to people, and key people take the keys roles give: only from managers of those keys' cabinets
  'POST /api/ks/role/add': 'modules/keys/keys.test.ts',
  'PUT /api/ks/role/edit': 'modules/keys/keys.test.ts',
  'DELETE /api/ks/role/delete': 'modules/keys/keys.test.ts',
  'DELETE /api/ks/role/deleteBatch': 'modules/keys/keys.test.ts',
  'POST /api/ks/keyPeople/add': 'modules/keys/keys.test.ts',
  'PUT /api/ks/keyPeople/edit': 'modules/keys/keys.test.ts',
  'DELETE /api/ks/keyPeople/delete': 'modules/keys/keys.test.ts',
  'DELETE /api/ks/keyPeople/deleteBatch': 'modules/keys/keys.test.ts',
  // patrol tasks are made for the caller's tenant only
  'POST /api/watch/task/generate': 'modules/patrol/patrol.test.ts',
  // a cabinet goes to people only from an operator who manages its device; naming managers is handing devices over
  'POST /api/cabinet/cabinet/allocateCabinet': 'modules/storage/storage.test.ts',
  'POST /api/cabinet/cabinet/releaseCabinet': 'modules/storage/storage.test.ts',
  'POST /api/cabinet/cabinet/openCabinet': 'modules/storage/storage.test.ts',
  'POST /api/cabinet/managerUser/add': 'modules/storage/storage.test.ts',
  'PUT /api/cabinet/managerUser/edit': 'modules/storage/storage.test.ts',
  'DELETE /api/cabinet/managerUser/delete': 'modules/storage/storage.test.ts',
  'DELETE /api/cabinet/managerUser/deleteBatch': 'modules/storage/storage.test.ts',
  // attendance: a correction and a recompute each need their own permission, and stay in the caller's tenant
  'PUT /api/device/attendance/correct': 'modules/attendance/attendance.test.ts',
  'POST /api/device/attendanceMonth/recompute': 'modules/attendance/attendance.test.ts',
  // door schedules unlock doors: only doors a device role of their author covers (the rule in platform/grants.ts)
  'POST /api/doorSchedule/add': 'modules/door-schedule/door-schedule.test.ts',
  'PUT /api/doorSchedule/edit': 'modules/door-schedule/door-schedule.test.ts',
  'DELETE /api/doorSchedule/delete': 'modules/door-schedule/door-schedule.test.ts',
  'DELETE /api/doorSchedule/deleteBatch': 'modules/door-schedule/door-schedule.test.ts',
  'POST /api/doorSchedule/importExcel': 'modules/door-schedule/door-schedule.test.ts',
};

/** Routes on the privilege paths that change nobody's rights, each with the reason. */
const NOT_A_GRANT: Record<string, string> = {
  // a report schedule mails a report of the caller's own tenant to users of that tenant only, and gives them no right (modules/report/report.test.ts)
  ...Object.fromEntries(
    (Object.keys(REPORT_SCREENS) as Array<keyof typeof REPORT_SCREENS>).flatMap((screen) =>
      ([['POST', 'scheduleAdd'], ['PUT', 'scheduleEdit'], ['DELETE', 'scheduleDelete'], ['POST', 'scheduleSend']] as const).map(([method, verb]) => [
        `${method} /api${reportPath(screen, verb)}`,
        'a report schedule mails the caller’s tenant’s figures to users of that tenant only; it grants nothing (modules/report/report.test.ts)',
      ]),
    ),
  ),
  'DELETE /api/sys/webhook/delete': 'removing a webhook stops deliveries; it grants nothing',
  'DELETE /api/sys/webhook/deleteBatch': 'removing webhooks stops deliveries; it grants nothing',
  'POST /api/sys/webhook/resend': 'queues one of the tenant’s own deliveries again, to the address its webhook holds (checked at each attempt)',
  'POST /api/sys/webhook/test': 'queues a test event to one of the tenant’s own webhooks, to the address it holds (checked at each attempt)',
  'POST /api/sys/logout': 'ends the caller’s own session',
  'PUT /api/sys/apiKey/revoke': 'revoking an API key takes rights away, never gives any (modules/system/api-key.test.ts)',
  'DELETE /api/sys/apiKey/delete': 'deleting an API key takes rights away, never gives any (modules/system/api-key.test.ts)',
  'POST /api/sys/selectDepart': 'chooses among the caller’s own groups (group roles only count in groups the user belongs to)',
  'PUT /api/sys/user/language': 'keeps the caller’s own console language (user-language.test.ts); it changes no one’s rights',
  'POST /api/vistor/register': 'creates a visitor account, which holds no console rights',
  'POST /api/vistor/logout': 'ends the caller’s own visitor session',
  'POST /api/vistor/myVisit/ask': 'a visitor’s request opens no door until a host approves it (visit-requests.test.ts)',
  'PUT /api/vistor/myVisit/cancel': 'withdraws the caller’s own pending request, which opened nothing',
  'PUT /api/vistor/message/read': 'marks the caller’s own visitor messages read',
  'DELETE /api/vistor/apiLogin/delete': 'removes a record of a visitor sign-in; it gives no one any right',
  'DELETE /api/vistor/apiLogin/deleteBatch': 'removes records of visitor sign-ins; it gives no one any right',
  'POST /api/sys/sysDepart/add': 'a new group holds no permissions until they are granted through saveDepartPermission',
  'PUT /api/sys/sysDepart/edit': 'names and places a group; its permissions change only through saveDepartPermission',
  'DELETE /api/sys/sysDepart/delete': 'removing a group removes rights, never adds them',
  'DELETE /api/sys/sysDepart/deleteBatch': 'removing groups removes rights, never adds them',
  'POST /api/sys/sysDepart/importExcel': 'imported groups hold no permissions',
  'POST /api/sys/sysDepartRole/add': 'a new group role holds no permissions until saveDeptRolePermission',
  'PUT /api/sys/sysDepartRole/edit': 'names a group role; its permissions change only through saveDeptRolePermission',
  'DELETE /api/sys/sysDepartRole/delete': 'removing a group role removes rights',
  'DELETE /api/sys/sysDepartRole/deleteBatch': 'removing group roles removes rights',
  'POST /api/sys/sysDepartRole/importExcel': 'imported group roles hold no permissions',
  'POST /api/sys/role/add': 'a new role holds no permissions until saveRolePermission; the administrator code is unique and taken',
  'POST /api/sys/role/importExcel': 'imported roles hold no permissions; the administrator code is unique and taken',
  'DELETE /api/sys/role/deleteBatch': 'probed through delete (one code path)',
  'DELETE /api/sys/user/deleteBatch': 'probed through delete (one code path)',
  'PUT /api/sys/sysUserAgent/edit': 'probed through add (the same hooks)',
  'DELETE /api/sys/sysUserAgent/delete': 'removing an agent removes rights',
  'DELETE /api/sys/sysUserAgent/deleteBatch': 'removing agents removes rights',
  'DELETE /api/sys/permission/delete': 'probed through edit and add; removing an entry removes rights',
  'DELETE /api/sys/permission/deleteBatch': 'removing entries removes rights',
  'POST /api/sys/permission/dataRule/add': 'a data rule narrows the rows of a menu; it grants nothing',
  'PUT /api/sys/permission/dataRule/edit': 'a data rule narrows the rows of a menu; it grants nothing',
  'DELETE /api/sys/permission/dataRule/delete': 'probed through the role data-rule save',
  'DELETE /api/sys/permission/dataRule/deleteBatch': 'probed through the role data-rule save',
  'POST /api/sys/sysDepartPermission/datarule': 'same rule as the role data-rule save, on groups',
  'POST /api/sys/sysDepartRole/datarule': 'same rule as the role data-rule save, on group roles',
  'POST /api/sys/tenant/add': 'a tenant is an organisation record; membership changes go through the user, role and group forms',
  'PUT /api/sys/tenant/edit': 'a tenant is an organisation record',
  'DELETE /api/sys/tenant/delete': 'a tenant is an organisation record',
  'DELETE /api/sys/tenant/deleteBatch': 'a tenant is an organisation record',
  'POST /api/sys/tenant/importExcel': 'a tenant is an organisation record',
  'POST /api/sysVistor/add': 'visitor records hold no console rights',
  'PUT /api/sysVistor/edit': 'visitor records hold no console rights',
  'DELETE /api/sysVistor/delete': 'visitor records hold no console rights',
  'DELETE /api/sysVistor/deleteBatch': 'visitor records hold no console rights',
  'PUT /api/sysVistor/putRecycleBin': 'visitor records hold no console rights',
  'DELETE /api/sysVistor/deleteRecycleBin': 'visitor records hold no console rights',
  'POST /api/sysVistor/importExcel': 'visitor records hold no console rights',
  'PUT /api/sysVistor/frozenBatch': 'visitor records hold no console rights',
  'DELETE /api/sysPeople/delete': 'people records hold no console rights',
  'DELETE /api/sysPeople/deleteBatch': 'people records hold no console rights',
  'PUT /api/sysPeople/putRecycleBin': 'people records hold no console rights',
  'DELETE /api/sysPeople/deleteRecycleBin': 'people records hold no console rights',
  'PUT /api/sysPeople/frozenPeople': 'people records hold no console rights',
  // stopping an import stores nothing more; the rows it stored went through the add route's checks
  ...Object.fromEntries(entityDeclarations.filter((e) => entityActions(e).includes('import')).map((e) => [`PUT /api${importJobPath(e, 'cancel')}`, 'stops an import job; it grants nothing'])),
  'POST /api/sysPeople/enroll': 'a palm-vein template of a person holds no console rights (enrollment.test.ts)',
  'POST /api/sysPeople/enrollCancel': 'ending an enrollment grants nothing (enrollment.test.ts)',
  'POST /api/vistor/desk/issueCard': 'a visitor’s door card holds no console rights (modules/visitor/desk.test.ts)',
  'POST /api/vistor/desk/enroll': 'a palm-vein template of a visitor holds no console rights (modules/visitor/desk.test.ts)',
  'POST /api/vistor/desk/enrollCancel': 'ending an enrollment grants nothing (modules/visitor/desk.test.ts)',
  ...Object.fromEntries(
    [cabinetEntity, storageCheckUpdateEntity].flatMap((e) =>
      [['POST', 'add'], ['PUT', 'edit'], ['DELETE', 'delete'], ['DELETE', 'deleteBatch'], ['POST', 'importExcel']].map(([method, verb]) => [`${method} /api${e.basePath}/${verb}`, 'cabinets, terminals and app versions are records of devices; a cabinet goes to people only through allocateCabinet']),
    ),
  ),
  'POST /api/cabinet/managerUser/importExcel': 'each imported manager goes through the add route’s check (prepareRow runs beforeAdd), proven in storage.test.ts',
  'PUT /api/cabinet/appDevice/edit': 'a terminal’s remark; terminals hold no rights',
  'DELETE /api/cabinet/appDevice/delete': 'a terminal’s row; terminals hold no rights',
  'DELETE /api/cabinet/appDevice/deleteBatch': 'terminals’ rows; terminals hold no rights',
  ...Object.fromEntries(
    [['POST', 'add'], ['PUT', 'edit'], ['DELETE', 'delete'], ['DELETE', 'deleteBatch'], ['POST', 'importExcel']].map(([method, verb]) => [`${method} /api${keyEntity.basePath}/${verb}`, 'keys are records of key cabinets; a key goes to people only through key roles and key people']),
  ),
  'POST /api/ks/role/importExcel': 'each imported key role goes through the add route’s check (prepareRow runs beforeAdd), proven in keys.test.ts',
  'POST /api/ks/keyPeople/importExcel': 'each imported key person goes through the add route’s check (prepareRow runs beforeAdd), proven in keys.test.ts',
  // patrol routes, points, missions and tasks say where and when guards walk; who may patrol a device is a device role (type 4)
  ...Object.fromEntries(
    patrolEntities.flatMap((entity) =>
      [['POST', 'add'], ['PUT', 'edit'], ['DELETE', 'delete'], ['DELETE', 'deleteBatch'], ['POST', 'importExcel']]
        .filter(([, verb]) => entityActions(entity).includes((verb === 'deleteBatch' ? 'delete' : verb === 'importExcel' ? 'import' : verb) as never))
        .map(([method, verb]) => [`${method} /api${entity.basePath}/${verb}`, 'patrol plans and their runs; they give nobody a right (patrol roles are device roles)']),
    ),
  ),
  // floor plans say where doors and devices are drawn; opening a door from the plan is the door's own open call
  'PUT /api/sysArea/floorPlan/save': 'places an area’s doors and devices on its plan (device:area:edit); it grants nobody a door (modules/device/floor-plan.test.ts)',
  'POST /api/sysArea/floorPlan/upload': 'an area’s plan image (device:area:edit); it grants nothing (modules/device/floor-plan.test.ts)',
  'DELETE /api/sysArea/floorPlan/image': 'removes an area’s plan image and places; it grants nothing (modules/device/floor-plan.test.ts)',
  // orders and their lines are business records: they name no user, role, group or permission
  ...Object.fromEntries(
    [['POST', 'add'], ['PUT', 'edit'], ['DELETE', 'delete'], ['DELETE', 'deleteBatch'], ['POST', 'importExcel']].map(([method, verb]) => [`${method} /api${orderEntity.basePath}/${verb}`, 'orders, their customers and tickets give nobody a right (modules/message/order.test.ts)']),
  ),
  'POST /api/cabinet/interfaceTest/send': 'a test command to a cabinet device of the caller’s tenant; it changes nobody’s rights (storage.test.ts)',
};

/** The contract constants a test may name a path by (`AccountPath.sms` for '/sys/sms'). */
function namesOf(path: string): string[] {
  const tables = { AccountPath, ApiPath, VisitorPath, StoragePath, PatrolPath, AttendancePath } as Record<string, Record<string, string>>;
  return Object.entries(tables).flatMap(([table, paths]) => Object.entries(paths).filter(([, value]) => value === path).map(([key]) => `${table}.${key}`));
}

/** The routes that can change who may do what: every write on users, roles, groups, permissions, tenants and accounts. */
function privilegeRoutes(app: FastifyInstance): string[] {
  const prefix = app.settings.apiPrefix;
  const paths = [
    /^\/sys\/(user|role|permission|sysDepart|sysDepartRole|sysDepartPermission|sysUserAgent|tenant)\//,
    /^\/sys\/(sms|phoneLogin|login|logout|selectDepart)$/,
    /^\/sys\/(twoFactor|activation|account)\//,
    /^\/(auth|account)\//,
    /^\/cas\//,
    /^\/(vistor|sysVistor)\//,
    /^\/deviceRole\//,
    // people are the persons devices let through, not console accounts: their writes are listed as no grant
    /^\/sysPeople\//,
    // cabinets go to people, and managers are handed cabinet devices
    /^\/cabinet\//,
    // keys go to people through key roles and key people
    /^\/ks\//,
    // patrol: where and when guards walk
    /^\/watch\//,
    // attendance results: correcting a day is a right of its own
    /^\/device\/(attendance|attendanceMonth)\//,
    // door schedules: which doors stand unlocked when
    /^\/doorSchedule\//,
    // report schedules name users (their recipients)
    /^\/report\//,
    // floor plans: where doors are drawn, and the plan the door status page opens doors from
    /^\/sysArea\/floorPlan/,
    // webhooks: only a system administrator lets one reach the console's own loopback
    /^\/sys\/webhook\//,
    // API keys act with permission codes in a tenant: making or rotating one is granting them
    /^\/sys\/apiKey\//,
    // the order list (one-to-many lines written with each order)
    /^\/test\/jeecgOrderMain\//,
  ];
  return app.routeCatalogue
    .filter((r) => r.method !== 'GET' && r.method !== 'HEAD' && r.url.startsWith(prefix))
    .filter((r) => paths.some((p) => p.test(r.url.slice(prefix.length))))
    .map((r) => `${r.method} ${r.url}`);
}

describe.each((await testDialects()).filter((d) => d !== 'mysql'))('privilege boundaries on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  const tokens = {} as Record<Seat, string>;
  const ids: Record<string, string> = {};
  const probes: Probe[] = [];

  // an API key seat sends its key instead of a session token
  const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: Record<string, unknown>) =>
    token.startsWith('isps_')
      ? injectAs(app, null, { method, url: api(app, path), ...(payload ? { payload } : {}), headers: { lang: 'en-US', [API_KEY_HEADER]: token } })
      : injectAs(app, token, { method, url: api(app, path), ...(payload ? { payload } : {}), headers: { lang: 'en-US' } });
  const userRow = (id: string) => app.db.selectFrom('sys_user').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const rolesOf = async (userId: string) => (await app.db.selectFrom('sys_user_role').select('role_id').where('user_id', '=', userId).execute()).map((r) => r.role_id);
  const permissionsOfRole = async (roleId: string) => (await app.db.selectFrom('sys_role_permission').select('permission_id').where('role_id', '=', roleId).execute()).map((r) => r.permission_id).sort();
  const permissionId = async (code: string) => (await app.db.selectFrom('sys_permission').select('id').where('perms', '=', code).executeTakeFirstOrThrow()).id;
  const roleId = async (code: string) => (await app.db.selectFrom('sys_role').select('id').where('role_code', '=', code).executeTakeFirstOrThrow()).id;

  /** A seat's token, signed in again when a system administrator's probe ended its sessions (freeze, password reset). */
  async function tokenOf(seat: Seat): Promise<string> {
    if (seat === 'visitor' || seat === 'sysadmin' || seat === 'adminKey') return tokens[seat];
    const alive = await injectAs(app, tokens[seat], { method: 'GET', url: api(app, ApiPath.currentUserDeparts) });
    if (alive.statusCode === 401) tokens[seat] = await login(app, (await userRow(ids[seat]!)).username, USER_PASSWORD);
    return tokens[seat];
  }

  async function placeInTenant(userId: string, tenantId: string) {
    await app.db.updateTable('sys_user').set({ tenant_id: tenantId }).where('id', '=', userId).execute();
  }

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    tokens.sysadmin = await adminToken(app);
    ids.tenantA = (await app.db.selectFrom('sys_tenant').select('id').where('code', '=', 'default').executeTakeFirstOrThrow()).id;
    ids.tenantB = randomUUID();
    await app.db.insertInto('sys_tenant').values({ id: ids.tenantB, name: 'Tenant B', code: 'tenant-b', begin_date: null, end_date: null, status: 1, ...AUDIT }).execute();
    ids.adminRole = await roleId('admin');
    ids.sysadminId = (await app.db.selectFrom('sys_user').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;

    await createRoleWith(app, 'useradmin', [...USER_ADMIN_CODES, ...WEBHOOK_CODES]);
    await createRoleWith(app, 'menumanager', MENU_MANAGER_CODES);
    await createRoleWith(app, 'dstester', DATA_SOURCE_CODES);
    await createRoleWith(app, 'clerk', ['system:position:list']);
    await createRoleWith(app, 'auditor', ['system:log:list']);
    for (const code of ['useradmin', 'menumanager', 'dstester', 'clerk', 'auditor']) ids[code] = await roleId(code);
    // the fixture's roles belong to the first tenant, like roles its administrators create
    await app.db.updateTable('sys_role').set({ tenant_id: ids.tenantA }).where('role_code', 'in', ['useradmin', 'menumanager', 'dstester', 'clerk', 'auditor']).execute();

    const seat = async (name: string, roles: string[], tenantId: string | null) => {
      const id = await createTestUser(app, name, { roles, tenantId });
      return id;
    };
    ids.secondAdmin = await seat('second-admin', ['admin'], ids.tenantA);
    ids.userAdminA = await seat('useradmin-a', ['useradmin', 'clerk'], ids.tenantA);
    ids.userAdminB = await seat('useradmin-b', ['useradmin', 'clerk'], ids.tenantB);
    ids.menuManager = await seat('menu-manager', ['menumanager'], ids.tenantA);
    ids.dataSourceTester = await seat('ds-tester', ['dstester'], ids.tenantA);
    // what self-registration makes: the plain user role and no tenant
    ids.selfRegistered = await seat('self-registered', ['user'], null);
    ids.victimA = await seat('victim-a', ['clerk'], ids.tenantA);
    ids.deletedAdmin = await seat('deleted-admin', ['admin'], ids.tenantA);
    for (const s of ['secondAdmin', 'userAdminA', 'userAdminB', 'menuManager', 'dataSourceTester', 'selfRegistered'] as const) {
      const username = (await userRow(ids[s]!)).username;
      tokens[s] = await login(app, username, USER_PASSWORD);
    }
    for (const id of [ids.secondAdmin, ids.userAdminA, ids.userAdminB, ids.victimA, ids.deletedAdmin]) await placeInTenant(id!, (await userRow(id!)).tenant_id ?? ids.tenantA!);
    expect((await call(tokens.sysadmin, 'DELETE', `/sys/user/delete?id=${ids.deletedAdmin}`)).envelope.success).toBe(true);
    ids.secondAdminHash = (await userRow(ids.secondAdmin)).password;

    const visitor = await injectAs<{ token: string }>(app, null, {
      method: 'POST',
      url: api(app, '/vistor/register'),
      payload: { name: 'Guest', idCard: '110105199003070017', phone: '13900000077', password: '246813', confirmPassword: '246813', category: 'general' },
    });
    expect(visitor.envelope.success).toBe(true);
    const visitorLogin = await injectAs<{ token: string }>(app, null, { method: 'POST', url: api(app, '/vistor/login'), payload: { account: '13900000077', password: '246813' } });
    tokens.visitor = visitorLogin.envelope.result.token;

    // a group holding the user administrators' menus, with a group role, for the group probes
    ids.group = randomUUID();
    await app.db
      .insertInto('sys_depart')
      .values({ id: ids.group, parent_id: null, depart_name: 'Front desk', org_code: 'Z01', org_type: '1', depart_order: 9, mobile: null, address: null, memo: null, del_flag: 0, tenant_id: ids.tenantA, ...AUDIT })
      .execute();
    ids.groupRole = randomUUID();
    await app.db
      .insertInto('sys_depart_role')
      .values({ id: ids.groupRole, depart_id: ids.group, role_name: 'Desk lead', role_code: 'desk-lead', description: null, tenant_id: ids.tenantA, ...AUDIT })
      .execute();
    await app.db.insertInto('sys_user_depart').values({ ...AUDIT, id: randomUUID(), user_id: ids.secondAdmin!, dep_id: ids.group }).execute();
    // held by none of the seats but the system administrators
    ids.foreignPermission = await permissionId('system:quartzJob:execute');
    ids.userListPermission = await permissionId('system:user:list');
    ids.positionListPermission = await permissionId('system:position:list');

    // two webhooks of the first tenant: one to a public address, one a system administrator let reach the loopback
    for (const [key, url, allow] of [['publicHook', 'https://203.0.113.7/hook', 0], ['loopbackHook', 'http://127.0.0.1:9/allowed', 1]] as const) {
      const hook = await call(tokens.sysadmin, 'POST', '/sys/webhook/add', { name: key, url, events: 'opening', secret: 'probe-secret-0123456789', allowLoopback: allow });
      expect(hook.envelope.success, hook.envelope.message).toBe(true);
      ids[key] = (hook.envelope.result as { id: string }).id;
    }
    // a tenant none of the seats belongs to, for the API key probes
    ids.tenantC = randomUUID();
    await app.db.insertInto('sys_tenant').values({ id: ids.tenantC, name: 'Tenant C', code: 'tenant-c', begin_date: null, end_date: null, status: 1, ...AUDIT }).execute();
    const adminCodes = (await call(tokens.sysadmin, 'GET', ApiPath.userPermission)).envelope.result as { auth: { action: string }[] };
    const adminKey = await call(tokens.sysadmin, 'POST', ApiKeyPath.add, {
      name: 'admin-everything',
      tenantId: ids.tenantA,
      permCodes: [...new Set(adminCodes.auth.map((a) => a.action))].slice(0, 500),
      expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    });
    expect(adminKey.envelope.success).toBe(true);
    tokens.adminKey = (adminKey.envelope.result as { secret: string }).secret;
    // a key only a system administrator could make (a code no other seat holds), for the rotation probe
    const rotatable = await call(tokens.sysadmin, 'POST', ApiKeyPath.add, { name: 'job-runner', tenantId: ids.tenantA, permCodes: ['system:quartzJob:execute'], expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString() });
    ids.rotatableKey = (rotatable.envelope.result as { id: string }).id;

    buildProbes();
  });
  afterAll(async () => {
    await t?.close();
  });

  function buildProbes() {
    const victimRoles = async () => (await rolesOf(ids.victimA!)).sort().join(',');
    const resetVictim = async () => {
      await app.db.deleteFrom('sys_user_role').where('user_id', '=', ids.victimA!).execute();
      await app.db.insertInto('sys_user_role').values({ ...AUDIT, id: randomUUID(), user_id: ids.victimA!, role_id: ids.clerk! }).execute();
    };
    let added = 0;
    const newUser = () => `probe-user-${++added}`;
    const noUserNamed = (name: () => string) => async () => !(await app.db.selectFrom('sys_user').select('id').where('username', '=', name()).executeTakeFirst());
    let lastName = '';

    const keyNamed = (name: () => string) => async () => !(await app.db.selectFrom('sys_api_key').select('id').where('name', '=', name()).executeTakeFirst());
    const dropKeyNamed = (name: () => string) => async () => void (await app.db.deleteFrom('sys_api_key').where('name', '=', name()).execute());
    const inAMonth = () => new Date(Date.now() + 30 * 86_400_000).toISOString();
    let keys = 0;
    let lastKey = '';

    probes.push(
      {
        route: 'POST /api/sys/apiKey/add',
        what: 'creates an API key holding a code the caller does not hold',
        adminMay: true,
        attempt: (token) => call(token, 'POST', ApiKeyPath.add, { name: (lastKey = `probe-key-${++keys}`), tenantId: ids.tenantA, permCodes: ['system:quartzJob:execute'], expiresAt: inAMonth() }),
        held: keyNamed(() => lastKey),
        reset: dropKeyNamed(() => lastKey),
      },
      {
        route: 'POST /api/sys/apiKey/add',
        what: 'creates an API key for a tenant that is not the caller’s',
        adminMay: true,
        attempt: (token) => call(token, 'POST', ApiKeyPath.add, { name: (lastKey = `probe-key-${++keys}`), tenantId: ids.tenantC, permCodes: ['system:user:list'], expiresAt: inAMonth() }),
        held: keyNamed(() => lastKey),
        reset: dropKeyNamed(() => lastKey),
      },
      {
        route: 'POST /api/sys/apiKey/rotate',
        what: 'rotates a key holding a code the caller does not hold into a successor of his own',
        adminMay: true,
        attempt: (token) => call(token, 'POST', ApiKeyPath.rotate, { id: ids.rotatableKey, overlapHours: 1 }),
        held: async () => !(await app.db.selectFrom('sys_api_key').select('id').where('rotated_from', '=', ids.rotatableKey!).executeTakeFirst()),
        reset: async () => {
          await app.db.deleteFrom('sys_api_key').where('rotated_from', '=', ids.rotatableKey!).execute();
          await app.db.updateTable('sys_api_key').set({ valid_until: null }).where('id', '=', ids.rotatableKey!).execute();
        },
      },
      {
        route: 'POST /api/sys/user/add',
        what: 'creates a user holding the system administrator role',
        adminMay: true,
        attempt: (token) => call(token, 'POST', '/sys/user/add', { username: (lastName = newUser()), realname: 'Probe', password: 'Probe#Pass1', selectedroles: ids.adminRole }),
        held: noUserNamed(() => lastName),
        reset: async () => void (await app.db.deleteFrom('sys_user_role').where('user_id', 'in', app.db.selectFrom('sys_user').select('id').where('username', '=', lastName)).execute()),
      },
      {
        route: 'POST /api/sys/user/add',
        what: 'creates a user holding a role the caller does not hold',
        adminMay: true,
        attempt: (token) => call(token, 'POST', '/sys/user/add', { username: (lastName = newUser()), realname: 'Probe', password: 'Probe#Pass1', selectedroles: ids.auditor }),
        held: noUserNamed(() => lastName),
      },
      {
        route: 'PUT /api/sys/user/edit',
        what: 'gives another user the system administrator role',
        adminMay: true,
        attempt: (token) => call(token, 'PUT', '/sys/user/edit', { id: ids.victimA, selectedroles: `${ids.clerk},${ids.adminRole}` }),
        held: async () => !(await rolesOf(ids.victimA!)).includes(ids.adminRole!),
        reset: resetVictim,
      },
      {
        route: 'PUT /api/sys/user/edit',
        what: 'gives another user a role the caller does not hold',
        adminMay: true,
        attempt: (token) => call(token, 'PUT', '/sys/user/edit', { id: ids.victimA, selectedroles: `${ids.clerk},${ids.auditor}` }),
        held: async () => (await victimRoles()) === ids.clerk,
        reset: resetVictim,
      },
      {
        route: 'PUT /api/sys/user/edit',
        what: 'changes the phone of a system administrator role holder',
        adminMay: true,
        attempt: (token) => call(token, 'PUT', '/sys/user/edit', { id: ids.secondAdmin, phone: '13700000001' }),
        held: async () => (await userRow(ids.secondAdmin!)).phone !== '13700000001',
        reset: async () => void (await app.db.updateTable('sys_user').set({ phone: null }).where('id', '=', ids.secondAdmin!).execute()),
      },
      {
        route: 'POST /api/sys/user/importExcel',
        what: 'imports a user holding the system administrator role',
        // a workbook carries no passwords (the export has none), so an import with one is refused for everyone
        adminMay: false,
        attempt: async (token) => {
          lastName = newUser();
          const adminRoleName = (await app.db.selectFrom('sys_role').select('role_name').where('id', '=', ids.adminRole!).executeTakeFirstOrThrow()).role_name;
          const file = await workbookOf(['username', 'realname', 'password', 'selectedroles'], [[lastName, 'Probe', 'Probe#Pass1', adminRoleName]]);
          return uploadFile(app, token, '/sys/user/importExcel', file);
        },
        held: async () => {
          const user = await app.db.selectFrom('sys_user').select('id').where('username', '=', lastName).executeTakeFirst();
          return !user || !(await rolesOf(user.id)).includes(ids.adminRole!);
        },
      },
      {
        route: 'PUT /api/sys/user/frozenBatch',
        what: 'freezes a system administrator role holder',
        adminMay: true,
        attempt: (token) => call(token, 'PUT', '/sys/user/frozenBatch', { ids: ids.secondAdmin, status: 2 }),
        held: async () => Number((await userRow(ids.secondAdmin!)).status) === 1,
        reset: async () => void (await app.db.updateTable('sys_user').set({ status: 1 }).where('id', '=', ids.secondAdmin!).execute()),
      },
      {
        route: 'DELETE /api/sys/user/delete',
        what: 'deletes a system administrator role holder',
        adminMay: true,
        attempt: (token) => call(token, 'DELETE', `/sys/user/delete?id=${ids.secondAdmin}`),
        held: async () => Number((await userRow(ids.secondAdmin!)).del_flag) === 0,
        reset: async () => void (await app.db.updateTable('sys_user').set({ del_flag: 0 }).where('id', '=', ids.secondAdmin!).execute()),
      },
      {
        route: 'PUT /api/sys/user/changePassword',
        what: 'resets the password of a system administrator role holder',
        adminMay: true,
        attempt: (token) => call(token, 'PUT', '/sys/user/changePassword', { username: 'second-admin', password: 'Taken#Over1', confirmpassword: 'Taken#Over1' }),
        held: async () => (await userRow(ids.secondAdmin!)).password === ids.secondAdminHash,
        reset: async () => void (await app.db.updateTable('sys_user').set({ password: ids.secondAdminHash!, must_change_password: 0 }).where('id', '=', ids.secondAdmin!).execute()),
      },
      {
        route: 'PUT /api/sys/user/putRecycleBin',
        what: 'restores a deleted system administrator role holder',
        adminMay: true,
        attempt: (token) => call(token, 'PUT', '/sys/user/putRecycleBin', { ids: ids.deletedAdmin, userIds: ids.deletedAdmin }),
        held: async () => Number((await userRow(ids.deletedAdmin!)).del_flag) !== 0,
        reset: async () => void (await app.db.updateTable('sys_user').set({ del_flag: 1 }).where('id', '=', ids.deletedAdmin!).execute()),
      },
      {
        route: 'DELETE /api/sys/user/deleteRecycleBin',
        what: 'completely deletes a system administrator role holder',
        adminMay: true,
        attempt: async (token) => {
          // a fresh deleted holder each time, since a complete delete cannot be undone
          ids.doomedAdmin = await createTestUser(app, (lastName = newUser()), { roles: ['admin'], tenantId: ids.tenantA! });
          await app.db.updateTable('sys_user').set({ del_flag: 1 }).where('id', '=', ids.doomedAdmin).execute();
          return call(token, 'DELETE', `/sys/user/deleteRecycleBin?ids=${ids.doomedAdmin}&userIds=${ids.doomedAdmin}`);
        },
        held: async () => Boolean(await app.db.selectFrom('sys_user').select('id').where('id', '=', ids.doomedAdmin!).executeTakeFirst()),
      },
      {
        route: 'POST /api/sys/user/editSysDepartWithUser',
        what: 'puts a system administrator role holder into a group',
        adminMay: true,
        attempt: (token) => call(token, 'POST', '/sys/user/editSysDepartWithUser', { depId: ids.group, userIdList: ids.sysadminId }),
        held: async () => !(await app.db.selectFrom('sys_user_depart').select('id').where('user_id', '=', ids.sysadminId!).where('dep_id', '=', ids.group!).executeTakeFirst()),
        reset: async () => void (await app.db.deleteFrom('sys_user_depart').where('user_id', '=', ids.sysadminId!).where('dep_id', '=', ids.group!).execute()),
      },
      {
        route: 'DELETE /api/sys/user/deleteUserInDepartBatch',
        what: 'takes a system administrator role holder out of a group',
        adminMay: true,
        attempt: (token) => call(token, 'DELETE', `/sys/user/deleteUserInDepartBatch?depId=${ids.group}&userIds=${ids.secondAdmin}`),
        held: async () => Boolean(await app.db.selectFrom('sys_user_depart').select('id').where('user_id', '=', ids.secondAdmin!).where('dep_id', '=', ids.group!).executeTakeFirst()),
        reset: async () => {
          if (!(await app.db.selectFrom('sys_user_depart').select('id').where('user_id', '=', ids.secondAdmin!).where('dep_id', '=', ids.group!).executeTakeFirst())) {
            await app.db.insertInto('sys_user_depart').values({ ...AUDIT, id: randomUUID(), user_id: ids.secondAdmin!, dep_id: ids.group! }).execute();
          }
        },
      },
      {
        route: 'POST /api/sys/sysUserAgent/add',
        what: 'makes the caller the agent of a system administrator role holder',
        adminMay: true,
        attempt: (token) => call(token, 'POST', '/sys/sysUserAgent/add', { userName: 'second-admin', agentUserName: 'useradmin-a', startTime: '2026-01-01 00:00:00', endTime: '2036-01-01 00:00:00', status: 1 }),
        held: async () => !(await app.db.selectFrom('sys_user_agent').select('id').where('user_name', '=', 'second-admin').executeTakeFirst()),
        reset: async () => void (await app.db.deleteFrom('sys_user_agent').where('user_name', '=', 'second-admin').execute()),
      },
      {
        route: 'POST /api/sys/sysDepartRole/deptRoleUserAdd',
        what: 'gives a system administrator role holder a group role',
        adminMay: true,
        attempt: (token) => call(token, 'POST', '/sys/sysDepartRole/deptRoleUserAdd', { userId: ids.secondAdmin, newRoleId: ids.groupRole, oldRoleId: '' }),
        held: async () => !(await app.db.selectFrom('sys_depart_role_user').select('id').where('user_id', '=', ids.secondAdmin!).executeTakeFirst()),
        reset: async () => void (await app.db.deleteFrom('sys_depart_role_user').where('user_id', '=', ids.secondAdmin!).execute()),
      },
      {
        route: 'POST /api/sys/permission/saveRolePermission',
        what: 'gives the caller’s own kind of role a permission the caller does not hold',
        adminMay: true,
        attempt: async (token) => call(token, 'POST', '/sys/permission/saveRolePermission', { roleId: ids.clerk, permissionIds: [...(await permissionsOfRole(ids.clerk!)), ids.foreignPermission].join(',') }),
        held: async () => !(await permissionsOfRole(ids.clerk!)).includes(ids.foreignPermission!),
        reset: async () => void (await app.db.deleteFrom('sys_role_permission').where('role_id', '=', ids.clerk!).where('permission_id', '=', ids.foreignPermission!).execute()),
      },
      {
        route: 'POST /api/sys/permission/saveDepartPermission',
        what: 'gives a group a permission the caller does not hold',
        adminMay: true,
        attempt: (token) => call(token, 'POST', '/sys/permission/saveDepartPermission', { departId: ids.group, permissionIds: ids.foreignPermission }),
        held: async () => !(await app.db.selectFrom('sys_depart_permission').select('id').where('depart_id', '=', ids.group!).where('permission_id', '=', ids.foreignPermission!).executeTakeFirst()),
        reset: async () => void (await app.db.deleteFrom('sys_depart_permission').where('depart_id', '=', ids.group!).execute()),
      },
      {
        route: 'POST /api/sys/sysDepart/saveDeptRolePermission',
        what: 'gives a group role a permission the caller does not hold',
        adminMay: true,
        attempt: async (token) => {
          // the group holds it (as a system administrator granted), so only the caller's own rights bound the save
          if (!(await app.db.selectFrom('sys_depart_permission').select('id').where('depart_id', '=', ids.group!).where('permission_id', '=', ids.foreignPermission!).executeTakeFirst())) {
            await app.db.insertInto('sys_depart_permission').values({ id: randomUUID(), depart_id: ids.group!, permission_id: ids.foreignPermission!, ...AUDIT }).execute();
          }
          return call(token, 'POST', '/sys/sysDepart/saveDeptRolePermission', { roleId: ids.groupRole, permissionIds: ids.foreignPermission });
        },
        held: async () => !(await app.db.selectFrom('sys_depart_role_permission').select('id').where('role_id', '=', ids.groupRole!).where('permission_id', '=', ids.foreignPermission!).executeTakeFirst()),
        reset: async () => void (await app.db.deleteFrom('sys_depart_role_permission').where('role_id', '=', ids.groupRole!).execute()),
      },
      {
        route: 'POST /api/sys/role/datarule',
        what: 'sets data rules on a role for a menu the caller does not hold',
        adminMay: false,
        attempt: async (token) => call(token, 'POST', '/sys/role/datarule', { roleId: ids.clerk, permissionId: ids.userListPermission, dataRuleIds: '' }),
        // an empty rule set on a menu the role does not hold must not attach the menu to the role
        held: async () => !(await permissionsOfRole(ids.clerk!)).includes(ids.userListPermission!),
      },
      {
        route: 'PUT /api/sys/permission/edit',
        what: 'rewrites a seeded permission code into another code',
        adminMay: false,
        attempt: (token) => call(token, 'PUT', '/sys/permission/edit', { id: ids.positionListPermission, perms: 'system:role:add' }),
        held: async () => (await app.db.selectFrom('sys_permission').select('perms').where('id', '=', ids.positionListPermission!).executeTakeFirstOrThrow()).perms === 'system:position:list',
        reset: async () => void (await app.db.updateTable('sys_permission').set({ perms: 'system:position:list' }).where('id', '=', ids.positionListPermission!).execute()),
      },
      {
        route: 'POST /api/sys/permission/add',
        what: 'adds an entry whose code is not in the code registry',
        adminMay: false,
        attempt: (token) => call(token, 'POST', '/sys/permission/add', { name: 'probe', menuType: 2, perms: 'probe:anything:goes', parentId: ids.positionListPermission }),
        held: async () => !(await app.db.selectFrom('sys_permission').select('id').where('perms', '=', 'probe:anything:goes').executeTakeFirst()),
      },
      {
        route: 'PUT /api/sys/role/edit',
        what: 'renames the system administrator role’s code',
        adminMay: false,
        attempt: (token) => call(token, 'PUT', '/sys/role/edit', { id: ids.adminRole, roleCode: 'not-admin', roleName: 'Renamed' }),
        held: async () => (await app.db.selectFrom('sys_role').select('role_code').where('id', '=', ids.adminRole!).executeTakeFirstOrThrow()).role_code === 'admin',
      },
      {
        route: 'DELETE /api/sys/role/delete',
        what: 'deletes the system administrator role',
        adminMay: false,
        attempt: (token) => call(token, 'DELETE', `/sys/role/delete?id=${ids.adminRole}`),
        held: async () => Boolean(await app.db.selectFrom('sys_role').select('id').where('id', '=', ids.adminRole!).executeTakeFirst()),
      },
      {
        route: 'POST /api/sys/webhook/add',
        what: 'adds a webhook allowed to reach the console’s own loopback',
        adminMay: true,
        attempt: (token) => call(token, 'POST', '/sys/webhook/add', { name: (lastName = `probe-hook-${++added}`), url: 'http://127.0.0.1:9/hook', events: 'opening', secret: 'probe-secret-0123456789', allowLoopback: 1 }),
        held: async () => !(await app.db.selectFrom('sys_webhook').select('id').where('name', '=', lastName).where('allow_loopback', '=', 1).executeTakeFirst()),
      },
      {
        route: 'PUT /api/sys/webhook/edit',
        what: 'lets a webhook reach the console’s own loopback',
        adminMay: true,
        attempt: (token) => call(token, 'PUT', '/sys/webhook/edit', { id: ids.publicHook, url: 'http://127.0.0.1:6379/', allowLoopback: 1 }),
        held: async () => (await app.db.selectFrom('sys_webhook').select('allow_loopback').where('id', '=', ids.publicHook!).executeTakeFirstOrThrow()).allow_loopback === 0,
        reset: async () => void (await app.db.updateTable('sys_webhook').set({ url: 'https://203.0.113.7/hook', allow_loopback: 0 }).where('id', '=', ids.publicHook!).execute()),
      },
      {
        route: 'PUT /api/sys/webhook/edit',
        what: 'points a webhook a system administrator let reach the loopback at another loopback port',
        adminMay: true,
        attempt: (token) => call(token, 'PUT', '/sys/webhook/edit', { id: ids.loopbackHook, url: 'http://127.0.0.1:6379/' }),
        held: async () => {
          const row = await app.db.selectFrom('sys_webhook').select(['url', 'allow_loopback']).where('id', '=', ids.loopbackHook!).executeTakeFirstOrThrow();
          return !(row.url === 'http://127.0.0.1:6379/' && row.allow_loopback === 1);
        },
        reset: async () => void (await app.db.updateTable('sys_webhook').set({ url: 'http://127.0.0.1:9/allowed', allow_loopback: 1 }).where('id', '=', ids.loopbackHook!).execute()),
      },
      {
        route: 'POST /api/sys/permission/importExcel',
        what: 'imports an entry whose code is not in the code registry',
        adminMay: false,
        attempt: async (token) => uploadFile(app, token, '/sys/permission/importExcel', await workbookOf(['name', 'menuType', 'perms'], [['probe import', 2, 'probe:import:code']])),
        held: async () => !(await app.db.selectFrom('sys_permission').select('id').where('perms', '=', 'probe:import:code').executeTakeFirst()),
      },
    );
  }

  it('probes every route that changes users, roles, groups or permissions, or names the test that proves it', () => {
    const probed = new Set(probes.map((p) => p.route));
    const uncovered: string[] = [];
    for (const route of privilegeRoutes(app)) {
      if (probed.has(route) || NOT_A_GRANT[route]) continue;
      const elsewhere = PROVEN_ELSEWHERE[route];
      const file = elsewhere ? join(import.meta.dirname, elsewhere) : null;
      const path = route.split(' ')[1]!.slice(app.settings.apiPrefix.length);
      const text = file && existsSync(file) ? readFileSync(file, 'utf8') : '';
      if (text && (text.includes(path) || namesOf(path).some((name) => text.includes(name)))) continue;
      uncovered.push(route);
    }
    expect(uncovered).toEqual([]);
  });

  it('no seat that is not a system administrator reaches a grant or an administrator holder, through any route', async () => {
    const widened: string[] = [];
    for (const probe of probes) {
      for (const seat of ATTACKERS) {
        const answer = await probe.attempt(await tokenOf(seat));
        if (!(await probe.held())) {
          widened.push(`${seat} ${probe.route}: ${probe.what}`);
          await probe.reset?.();
        }
        // never a 5xx, whatever the seat
        if (answer.statusCode >= 500) widened.push(`${seat} ${probe.route}: HTTP ${answer.statusCode}`);
      }
    }
    expect(widened).toEqual([]);
  });

  it('system administrators can do what is theirs, and nobody can do what no one may', async () => {
    const wrong: string[] = [];
    for (const probe of probes) {
      for (const seat of SYSTEM_ADMINS) {
        const answer = await probe.attempt(await tokenOf(seat));
        const held = await probe.held();
        if (probe.adminMay && held) wrong.push(`${seat} could not: ${probe.route} ${probe.what} (${answer.envelope.message} ${JSON.stringify(answer.envelope.result).slice(0, 300)})`);
        if (!probe.adminMay && !held) wrong.push(`${seat} could: ${probe.route} ${probe.what}`);
        if (!held) await probe.reset?.();
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a user without a tenant sees no tenant-scoped rows, and a tenant sees only its own', async () => {
    // a tenantless user with every list right: nothing of any tenant is visible
    await createRoleWith(app, 'lister', entityDeclarations.filter((e) => e.tenantScoped).map((e) => `${e.permissionPrefix}:list`).concat(['system:announcement:list', 'message:message:list', 'message:template:list', 'system:log:list']));
    await createTestUser(app, 'tenantless-lister', { roles: ['lister'], tenantId: null });
    const lister = await login(app, 'tenantless-lister', USER_PASSWORD);
    const lists = [
      ...entityDeclarations.filter((e) => e.tenantScoped).map((e) => `${e.basePath}/list`),
      '/sys/annountCement/list',
      '/sys/message/sysMessage/list',
      '/sys/message/sysMessageTemplate/list',
      '/sys/log/list?logType=1',
      '/sys/log/list?logType=2',
    ];
    const seen: string[] = [];
    for (const path of lists) {
      const answer = await call(lister, 'GET', path);
      const total = (answer.envelope.result as { total?: number } | null)?.total ?? 0;
      if (answer.statusCode !== 200 || total !== 0) seen.push(`${path}: HTTP ${answer.statusCode}, ${total} rows`);
    }
    expect(seen).toEqual([]);

    // tenant B's user administrator sees none of tenant A's users, and cannot change one
    const listB = await call(tokens.userAdminB, 'GET', '/sys/user/list?pageSize=200');
    const names = (listB.envelope.result as { records: { username: string }[] }).records.map((r) => r.username);
    expect(names).toContain('useradmin-b');
    expect(names).not.toContain('victim-a');
    await call(tokens.userAdminB, 'PUT', '/sys/user/edit', { id: ids.victimA, realname: 'Changed by B' });
    expect((await userRow(ids.victimA!)).realname).not.toBe('Changed by B');
  });

  it('monitoring (the seven screens and /metrics) is for system administrators only', async () => {
    const routes: Array<['GET' | 'POST', string]> = [
      ['GET', MonitorPath.disk],
      ['GET', MonitorPath.httpTrace],
      ['GET', MonitorPath.runtime],
      ['GET', MonitorPath.webServer],
      ['GET', MonitorPath.server],
      ['GET', MonitorPath.redisInfo],
      ['POST', MonitorPath.redisTerminal],
    ];
    const reached: string[] = [];
    for (const seat of SEATS) {
      const token = await tokenOf(seat);
      for (const [method, path] of routes) {
        const answer = await call(token, method, path, method === 'POST' ? { command: 'PING' } : undefined);
        const admitted = answer.statusCode === 200;
        if (admitted !== SYSTEM_ADMINS.includes(seat)) reached.push(`${seat} ${method} ${path}: HTTP ${answer.statusCode}`);
      }
      const metrics = await app.inject({ method: 'GET', url: MetricsPath, headers: { 'X-Access-Token': token } });
      if ((metrics.statusCode === 200) !== SYSTEM_ADMINS.includes(seat)) reached.push(`${seat} GET ${MetricsPath}: HTTP ${metrics.statusCode}`);
    }
    expect(reached).toEqual([]);
  });

  it('a data-source tester who is not a system administrator cannot test connections, and nobody reads a stored password', async () => {
    const added = await call(tokens.sysadmin, 'POST', '/sys/dataSource/add', { code: 'probe_ds', name: 'Probe', dbType: 'postgresql', dbUrl: 'postgres://127.0.0.1:5432/test', dbUsername: 'postgres', dbPassword: 'Secret#Stored1' });
    expect(added.envelope.success).toBe(true);
    const id = (added.envelope.result as { id: string }).id;
    const tested = await call(tokens.dataSourceTester, 'POST', '/sys/dataSource/testConnection', { id });
    expect(tested.envelope.success).toBe(false);
    for (const seat of ['sysadmin', 'dataSourceTester'] as const) {
      for (const path of [`/sys/dataSource/list`, `/sys/dataSource/queryById?id=${id}`]) {
        const answer = await call(tokens[seat], 'GET', path);
        expect(answer.body).not.toContain('Secret#Stored1');
      }
    }
  });
});
