import { JOB_HANDLERS, withIdCheck } from '@isps/contract';

type Row = Record<string, unknown>;

/** What samples may point at: rows that must exist before them, created per test app (and per tenant). */
export interface Fixtures {
  dictId: string;
  /** a group the caller can see, for group roles */
  departId: string;
  permissionId: string;
  /** user names the caller can see, for agent settings */
  users: string[];
  /** a device of the caller's tenant, for doors */
  deviceId?: string;
  /** the code of a device plugin of the caller's tenant, for plugin data */
  pluginCode?: string;
  /** people of the caller's tenant, for key people (each sample takes the one of its number) */
  peopleIds?: string[];
  /** a patrol route and a patrol group of the caller's tenant, for patrol points and missions */
  patrolRouteId?: string;
  patrolGroupId?: string;
  /** a visitor and a user of the caller's tenant, for visits */
  visitorId?: string;
  hostId?: string;
}

/** A GB 11643 ID card number with a valid check character. */
const idCard = (n: number): string => withIdCheck(`11010519900101${String(n).padStart(3, '0')}`);

const pad = (n: number) => String(n).padStart(4, '0');

/** `yyyy-MM-dd HH:mm:ss` of an instant in UTC (the test servers' zone). */
const wireTimeAt = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/**
 * Stored rows (columns as in the table) of declared screens whose rows come from elsewhere than the generic add:
 * a package upload, device events. Tests insert them where they need rows of every screen.
 */
export const storedSamples: Record<string, (n: number, fx: Fixtures, tenantId: string) => Row> = {
  accessEvent: (n, fx, tenantId) => ({ id: `stored-ae-${n}`, device_id: fx.deviceId, seq: n, event_time: '2026-01-01T00:00:00.000Z', kind: 'opening', result: 1, people_id: null, door_id: null, door_no: 1, method: 'card', detail: null, tenant_id: tenantId }),
  visitorLogin: (n, fx, tenantId) => ({ id: `stored-vl-${n}`, visitor_id: fx.visitorId ?? null, visitor_name: `Sample visitor ${n}`, account_masked: '*******0001', ip: '127.0.0.1', method: 'api', result: 1, tenant_id: tenantId }),
  doorEvent: (n, fx, tenantId) => ({ id: `stored-de-${n}`, device_id: fx.deviceId, seq: n, event_time: '2026-01-01T00:00:00.000Z', door_id: null, door_no: 1, state: 'open', tenant_id: tenantId }),
  softUpdate: (n, _fx, tenantId) => ({ id: `stored-su-${n}`, version: `9.${n}.0`, device_model: null, apk_file: `softUpdate/20260101/${'0'.repeat(32)}_p${n}.apk`, file_name: `p${n}.apk`, file_size: 1, checksum: '0'.repeat(64), update_log: null, tenant_id: tenantId }),
  deviceRunLog: (n, fx, tenantId) => ({ id: `stored-rl-${n}`, device_id: fx.deviceId, event_seq: n, error_type: 'sensor', content: `error ${n}`, code: `E${n}`, report_ip: null, state: 0, error_time: '2026-01-01T00:00:00.000Z', tenant_id: tenantId }),
  alarm: (n, fx, tenantId) => ({ id: `stored-al-${n}`, device_id: fx.deviceId, event_seq: n, code: `tamper${n}`, level: 'M', state: 0, alarm_time: '2026-01-01T00:00:00.000Z', tenant_id: tenantId }),
  cabinetRecord: (n, fx, tenantId) => ({ id: `stored-cr-${n}`, device_id: fx.deviceId, seq: n, cabinet_id: null, cabinet_no: 1, open_time: '2026-01-01T00:00:00.000Z', close_time: null, id_card: '****0001', people_id: null, method: 'card', tenant_id: tenantId }),
  storageAppDevice: (n, fx, tenantId) => ({ id: `stored-ad-${n}`, device_id: fx.deviceId, app_version: `2.${n}.0`, version_code: n, last_check_time: '2026-01-01T00:00:00.000Z', remark: null, tenant_id: tenantId }),
  patrolTask: (n, _fx, tenantId) => ({ id: `stored-pt-${n}`, mission_id: `stored-pm-${n}`, route_id: `stored-pr-${n}`, depart_id: null, task_date: '2026-01-01', state: 'pending', done_count: 0, total_count: 1, missed_count: 0, in_order: 0, start_time: '2026-01-01T09:50:00.000Z', end_time: '2026-01-01T10:20:00.000Z', tenant_id: tenantId }),
  patrolQuest: (n, fx, tenantId) => ({ id: `stored-pq-${n}`, task_id: `stored-pt-${n}`, point_id: `stored-pp-${n}`, device_id: fx.deviceId, place_name: `Gate ${n}`, sort_no: 1, task_date: '2026-01-01', expected_time: '2026-01-01T10:00:00.000Z', window_start: '2026-01-01T09:50:00.000Z', window_end: '2026-01-01T10:10:00.000Z', late_until: '2026-01-01T10:20:00.000Z', result: 'onTime', out_of_order: 0, check_time: '2026-01-01T10:01:00.000Z', user_no: `U${n}`, people_id: null, record_id: `stored-prc-${n}`, alarm_id: null, tenant_id: tenantId }),
  patrolRecord: (n, fx, tenantId) => ({ id: `stored-prc-${n}`, device_id: fx.deviceId, seq: n, check_time: '2026-01-01T10:01:00.000Z', point: 'P1', point_id: null, user_no: `U${n}`, people_id: null, result: 'onTime', guard: 1, task_id: `stored-pt-${n}`, quest_id: `stored-pq-${n}`, tenant_id: tenantId }),
  attendance: (n, _fx, tenantId) => ({ id: `stored-at-${n}`, people_id: `stored-people-${n}`, depart_id: null, rule_id: null, day_index: 20_454 + n, day: '2026-01-01', month: '2026-01', status: 1, check_in: '2026-01-01T09:00:00.000Z', check_out: '2026-01-01T18:00:00.000Z', punch_count: 2, corrected: 0, correction_reason: null, tenant_id: tenantId }),
  attendanceMonth: (n, _fx, tenantId) => ({ id: `stored-am-${n}`, month: '2026-01', user_id: `stored-people-${n}`, user_name: `Sample ${n}`, depart_id: null, work_days: 20, normal_count: 18, late_count: 1, absense_count: 0, leave_early_count: 1, miss_card_count: 0, tenant_id: tenantId }),
  deviceLogFile: (n, fx, tenantId) => ({ id: `stored-lf-${n}`, device_id: fx.deviceId, file_name: `device-${n}.txt`, file_path: `logFile/20260101/${'0'.repeat(32)}_device-${n}.txt`, file_size: 1024 + n, upload_time: '2026-01-01T00:00:00.000Z', tenant_id: tenantId }),
  fileStorage: (n, _fx, tenantId) => ({ id: `stored-file-${n}`, file_path: `temp/20260101/${'1'.repeat(32)}_notes-${n}.txt`, file_name: `notes-${n}.txt`, file_type: 'txt', file_size: 100 + n, tenant_id: tenantId }),
};

/**
 * A valid new row of each declared entity that can be added; different `n` give different values of every unique
 * field. Shared by the engine's API tests and the browser tests that need rows of every screen.
 */
export const samples: Record<string, (n: number, fx: Fixtures) => Row> = {
  user: (n) => ({ username: `sample${n}`, realname: `Sample ${n}`, password: 'Sample#Pass1', workNo: `W${n}`, phone: `1370000${pad(n)}`, email: `sample${n}@example.com` }),
  userAgent: (n, fx) => ({ userName: fx.users[n % fx.users.length], agentUserName: fx.users[(n + 1) % fx.users.length], startTime: '2026-01-01T00:00:00.000Z', endTime: '2026-12-31T00:00:00.000Z', status: 1 }),
  role: (n) => ({ roleName: `Sample role ${n}`, roleCode: `sample_role_${n}`, roleType: 1 }),
  permission: (n) => ({ menuType: 1, name: `Sample menu ${n}`, url: `/sample/${n}`, component: `sample/${n}`, sortNo: n }),
  dataRule: (n, fx) => ({ permissionId: fx.permissionId, ruleName: `Sample rule ${n}`, ruleColumn: 'createBy', ruleConditions: 'eq', ruleValue: '#{sys_user_code}' }),
  departRole: (n, fx) => ({ departId: fx.departId, roleName: `Sample group role ${n}`, roleCode: `sample_group_role_${n}` }),
  depart: (n) => ({ departName: `Sample group ${n}`, departOrder: n }),
  position: (n) => ({ code: `SAMPLE${n}`, name: `Sample post ${n}`, postRank: '1' }),
  vendor: (n) => ({ tradeName: `Sample vendor ${n}`, gatherOffset: n }),
  category: (n) => ({ name: `Sample category ${n}`, code: `SC${n}` }),
  tenant: (n) => ({ name: `Sample tenant ${n}`, code: `st${n}`, status: 1 }),
  dict: (n) => ({ dictName: `Sample dictionary ${n}`, dictCode: `sample_dict_${n}` }),
  dictItem: (n, fx) => ({ dictId: fx.dictId, itemText: `Sample item ${n}`, itemValue: `v${n}` }),
  checkRule: (n) => ({ ruleName: `Sample check ${n}`, ruleCode: `sample_check_${n}`, ruleJson: JSON.stringify({ localRules: [], globalRules: [{ pattern: '^\\d+$', message: 'digits', priority: 1 }] }) }),
  fillRule: (n) => ({ ruleName: `Sample fill ${n}`, ruleCode: `sample_fill_${n}`, ruleClass: 'randomCode', ruleParams: '{"length": 8}' }),
  dataSource: (n) => ({ name: `Sample source ${n}`, code: `sample_${n}`, dbType: 'postgresql', dbUrl: `jdbc:postgresql://127.0.0.1:5432/db${n}`, dbUsername: 'reader', dbPassword: 'Reader#1' }),
  // the handler is unique: the samples 1, 2, 3 and 6 a duplicate test takes get four different ones
  quartzJob: (n) => ({ jobClassName: JOB_HANDLERS[(n + 2 * Math.floor(n / 6)) % JOB_HANDLERS.length]?.value, cronExpression: '0 0 2 * * ?', description: `Sample job ${n}` }),
  visitor: (n) => ({ name: `Sample visitor ${n}`, idCard: idCard(n), phone: `1360000${pad(n)}`, category: 'general', password: '123456', userNo: `V${pad(n)}` }),
  people: (n) => ({ name: `Sample person ${n}`, idCard: idCard(n), userNo: `U${n}`, cardNo: `C${pad(n)}0000`, sex: 1, password: '654321' }),
  deviceType: (n) => ({ name: `Sample device type ${n}`, deviceModel: `M${n}`, status: 1, handler: 'accessController' }),
  area: (n) => ({ areaName: `Sample area ${n}`, address: `Street ${n}` }),
  device: (n) => ({
    deviceName: `Sample device ${n}`,
    sn: `SAMPLE-SN-${n}`,
    mac: `02:00:00:00:${pad(n).slice(0, 2)}:${pad(n).slice(2)}`,
    ip: `10.${Math.floor(n / 250) % 250}.${n % 250}.10`,
    gateway: '10.0.0.1',
    subnetMask: '255.255.0.0',
    systemType: 'access',
    deviceKind: '1',
    location: 1,
  }),
  door: (n, fx) => ({ doorName: `Sample door ${n}`, deviceId: fx.deviceId, doorNo: (n % 60) + 1 }),
  deviceSetting: (n) => ({ paramsTitle: `Sample setting ${n}`, fieldName: `sample.field${n}`, fieldValue: String(n), weight: (n % 90) + 5, listenValue: `a${n}|b${n}` }),
  deviceRole: (n) => ({ roleName: `Sample device role ${n}`, roleType: String((n % 4) + 1), timeSetting: JSON.stringify({ mode: 'custom', periods: [{ start: '22:00', end: '06:00' }], days: ['workday'] }) }),
  devicePlugin: (n) => ({ name: `Sample plugin ${n}`, code: `sample_plugin_${n}`, version: `1.${n}.0`, deviceModel: `M${n}`, config: '{"interval": 30}', status: 1 }),
  pluginData: (n, fx) => ({ pluginCode: fx.pluginCode, deviceId: fx.deviceId, dataKey: `key${n}`, dataValue: `{"value": ${n}}` }),
  alarmPackage: (n) => ({ name: `Sample alarm package ${n}`, deviceModel: `M${n}`, version: `2.${n}.0`, description: `Sample ${n}` }),
  cabinet: (n, fx) => ({ deviceId: fx.deviceId, cabinetNo: (n % 500) + 1, attribute: 1, remark: `Sample cabinet ${n}` }),
  storageManager: (n, fx) => ({ userName: fx.users[n % fx.users.length], remark: `Sample manager ${n}` }),
  storageCheckUpdate: (n) => ({ versionName: `3.${n}.0`, versionCode: 300 + n, deviceModel: `M${n}`, description: `Sample ${n}` }),
  key: (n, fx) => ({ keyName: `Sample key ${n}`, deviceId: fx.deviceId, slotNo: (n % 200) + 1, description: `Sample ${n}` }),
  keyPeople: (n, fx) => ({ peopleId: fx.peopleIds?.[n % (fx.peopleIds.length || 1)], remark: `Sample key person ${n}` }),
  keyRole: (n) => ({ roleName: `Sample key role ${n}`, timeSetting: JSON.stringify({ mode: 'custom', periods: [{ start: '08:00', end: '18:00' }], days: ['weekday'] }) }),
  doorSchedule: (n) => ({ scheduleName: `Sample door schedule ${n}`, timeSetting: JSON.stringify({ mode: 'custom', periods: [{ start: '08:00', end: '18:00' }], days: ['weekday'] }), enabled: 1, remark: `Sample ${n}` }),
  patrolRoute: (n) => ({ routeName: `Sample route ${n}`, status: 1, weekDay: '1,2,3,4,5', tolerance: 10, inOrder: n % 2, description: `Sample ${n}` }),
  patrolPoint: (n, fx) => ({ routeId: fx.patrolRouteId, placeName: `Sample gate ${n}`, deviceId: fx.deviceId, watchTime: `${String(n % 24).padStart(2, '0')}:30`, sortNo: (n % 999) + 1 }),
  patrolMission: (n, fx) => ({ missionName: `Sample mission ${n}`, routeId: fx.patrolRouteId, departId: fx.patrolGroupId, status: 1 }),
  // attendance: the two rule screens share one table, so their names differ
  oaRule: (n) => attendanceRuleSample(`Sample OA rule ${n}`),
  attendanceRule: (n) => attendanceRuleSample(`Sample attendance rule ${n}`),
  // a public test address (RFC 5737): no name to resolve, nothing of this machine
  webhook: (n) => ({ name: `Sample hook ${n}`, url: `https://203.0.113.${(n % 200) + 1}/hook`, events: 'opening,alarm', secret: 'sample-secret-0123456789' }),
  order: (n) => ({ orderCode: `ORD-${pad(n)}`, ctype: '1', orderDate: '2026-01-01', orderMoney: '100.50', content: `Sample order ${n}`, jeecgOrderCustomerList: [{ name: `Customer ${n}`, sex: '1', idcard: idCard(n), telphone: `1350000${pad(n)}` }], jeecgOrderTicketList: [{ ticketCode: `CA${n}`, tickectDate: '2026-01-02' }] }),
  visit: (n, fx) => ({ visitorId: fx.visitorId, hostId: fx.hostId, startTime: wireTimeAt(Date.UTC(2026, 0, 1, 8) + n * 60_000), endTime: wireTimeAt(Date.UTC(2026, 0, 1, 18) + n * 60_000), remark: `Sample visit ${n}` }),
};

function attendanceRuleSample(ruleName: string): Row {
  return {
    ruleName,
    workTime: '09:00',
    offWorkTime: '18:00',
    absentMinutes: 120,
    restWeekdays: '6,7',
    festNewYear: '2026-01-01',
    festSpring: '2026-02-17',
    festChingMing: '2026-04-05',
    festMayDay: '2026-05-01',
    festDragonBoat: '2026-06-19',
    festMidAutumn: '2026-09-25',
    festNationalDay: '2026-10-01,2026-10-02',
  };
}
