import { clockTimeSchema } from '../access/time-setting.ts';
import { ATTENDANCE_STATUSES, dateListSchema, DEFAULT_DUPLICATE_WINDOW_SECONDS, FESTIVALS, weekdayListSchema } from '../attendance.ts';
import type { EntityDeclaration, FieldDeclaration } from './declaration.ts';
import { field, integerSchema } from './fields.ts';
import { entityRef } from './storage-entities.ts';

const dates = (label: string, extra: { required?: boolean } = {}): FieldDeclaration => ({ label, kind: 'string', schema: dateListSchema, widget: { kind: 'textarea' }, ...extra });

const festivalFields = Object.fromEntries(FESTIVALS.map((f) => [f, dates(`oaRule.field.${f}`, { required: true })])) as Record<(typeof FESTIVALS)[number], FieldDeclaration>;

/**
 * Attendance rules (SPEC section 3 "OA rule / attendance rule"): a person follows the rule of their group, and a
 * group has at most one rule. `absentMinutes` is counted from the working time: a check-in later than that is an
 * absence, not a late arrival.
 */
export const oaRuleEntity: EntityDeclaration = {
  name: 'oaRule',
  title: 'oaRule.title',
  basePath: '/device/oaRule',
  permissionPrefix: 'device:oaRule',
  component: 'device/oaRule',
  labelField: 'ruleName',
  fields: {
    ruleName: field.text('oaRule.field.ruleName', 50, { required: true }),
    workTime: { label: 'oaRule.field.workTime', kind: 'string', schema: clockTimeSchema, widget: { kind: 'input' }, required: true, defaultValue: '09:00' },
    offWorkTime: { label: 'oaRule.field.offWorkTime', kind: 'string', schema: clockTimeSchema, widget: { kind: 'input' }, required: true, defaultValue: '18:00' },
    absentMinutes: field.integer('oaRule.field.absentMinutes', 1, 720, { required: true, defaultValue: 120 }),
    restWeekdays: { label: 'oaRule.field.restWeekdays', kind: 'string', schema: weekdayListSchema, widget: { kind: 'input' }, defaultValue: '6,7' },
    departIds: field.links('oaRule.field.departIds', { entity: 'depart' }, 'departName', { widget: { kind: 'treeSelect', entity: 'depart', multiple: true } }),
    duplicateSeconds: field.integer('oaRule.field.duplicateSeconds', 0, 3600, { defaultValue: DEFAULT_DUPLICATE_WINDOW_SECONDS }),
    ...festivalFields,
    holidays: dates('oaRule.field.holidays'),
    workdays: dates('oaRule.field.workdays'),
    remark: field.text('oaRule.field.remark', 500),
  },
  columns: ['ruleName', 'workTime', 'offWorkTime', 'absentMinutes', 'restWeekdays', 'departIds', 'createTime'],
  phoneColumns: ['ruleName', 'workTime', 'offWorkTime'],
  detailFields: [...FESTIVALS, 'holidays', 'workdays', 'duplicateSeconds', 'remark'],
  search: { ruleName: 'contains', departIds: 'exact' },
  sortable: ['ruleName', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [{ field: 'ruleName', message: 'duplicate.attendanceRuleName' }],
  tenantScoped: true,
};

/** The system area's attendance rules: the very same rules (and table) under the system screen's permissions. */
export const attendanceRuleEntity: EntityDeclaration = {
  ...oaRuleEntity,
  name: 'attendanceRule',
  basePath: '/sys/attendanceRule',
  permissionPrefix: 'system:attendanceRule',
  component: 'system/attendanceRule',
  title: 'attendanceRule.title',
};

const statusField: FieldDeclaration = {
  label: 'attendance.field.status',
  kind: 'integer',
  schema: integerSchema(1, 7),
  widget: { kind: 'options', options: ATTENDANCE_STATUSES.map(([name, value]) => ({ value: String(value), label: `attendance.status.${name}` })) },
  readOnly: true,
};

/** Daily results, one per person and day, computed from the punches; an operator may correct one (`correct`). */
export const attendanceDayEntity: EntityDeclaration = {
  name: 'attendance',
  title: 'attendance.title',
  basePath: '/device/attendance',
  permissionPrefix: 'device:attendance',
  component: 'device/attendance',
  labelField: 'day',
  fields: {
    day: field.text('attendance.field.day', 10, { readOnly: true }),
    month: field.text('attendance.field.month', 7, { readOnly: true }),
    peopleId: entityRef('attendance.field.peopleId', 'people', 'name', { readOnly: true }),
    departId: entityRef('attendance.field.departId', 'depart', 'departName', { readOnly: true }),
    status: statusField,
    checkIn: field.datetime('attendance.field.checkIn', { readOnly: true }),
    checkOut: field.datetime('attendance.field.checkOut', { readOnly: true }),
    punchCount: field.integer('attendance.field.punchCount', 0, 100000, { readOnly: true }),
    corrected: field.integer('attendance.field.corrected', 0, 1, { widget: { kind: 'switch' }, readOnly: true }),
    correctionReason: field.text('attendance.field.correctionReason', 200, { readOnly: true }),
    ruleId: entityRef('attendance.field.ruleId', 'oaRule', 'ruleName', { readOnly: true }),
  },
  columns: ['day', 'peopleId', 'departId', 'status', 'checkIn', 'checkOut', 'punchCount', 'corrected', 'correctionReason'],
  phoneColumns: ['day', 'peopleId', 'status'],
  search: { month: 'exact', peopleId: 'exact', departId: 'exact', status: 'exact', day: 'range' },
  // every index of the days is written for each of a month's 31 rows per person: few sorts, few indexes
  sortable: ['day'],
  defaultSort: { field: 'day', order: 'desc' },
  actions: ['list', 'export'],
  extraActions: ['correct'],
  tenantScoped: true,
};

/** Monthly statistics (SPEC section 3 "Attendance statistics", its field names kept, `absenseCount` included). */
export const attendanceMonthEntity: EntityDeclaration = {
  name: 'attendanceMonth',
  title: 'attendanceMonth.title',
  basePath: '/device/attendanceMonth',
  permissionPrefix: 'device:attendanceMonth',
  component: 'device/attendanceMonth',
  labelField: 'userName',
  fields: {
    month: field.text('attendanceMonth.field.month', 7, { readOnly: true }),
    userId: entityRef('attendanceMonth.field.userId', 'people', 'name', { readOnly: true }),
    userName: field.text('attendanceMonth.field.userName', 100, { readOnly: true }),
    departId: entityRef('attendance.field.departId', 'depart', 'departName', { readOnly: true }),
    workDays: field.integer('attendanceMonth.field.workDays', 0, 31, { readOnly: true }),
    normalCount: field.integer('attendanceMonth.field.normalCount', 0, 31, { readOnly: true }),
    lateCount: field.integer('attendanceMonth.field.lateCount', 0, 31, { readOnly: true }),
    absenseCount: field.integer('attendanceMonth.field.absenseCount', 0, 31, { readOnly: true }),
    leaveEarlyCount: field.integer('attendanceMonth.field.leaveEarlyCount', 0, 31, { readOnly: true }),
    missCardCount: field.integer('attendanceMonth.field.missCardCount', 0, 31, { readOnly: true }),
  },
  columns: ['month', 'userName', 'departId', 'workDays', 'normalCount', 'lateCount', 'absenseCount', 'leaveEarlyCount', 'missCardCount'],
  phoneColumns: ['userName', 'month', 'normalCount'],
  search: { month: 'exact', userId: 'exact', departId: 'exact', userName: 'contains' },
  sortable: ['userName', 'lateCount', 'absenseCount'],
  defaultSort: { field: 'userName', order: 'asc' },
  actions: ['list', 'export'],
  extraActions: ['recompute'],
  tenantScoped: true,
};

export const attendanceEntities: readonly EntityDeclaration[] = [oaRuleEntity, attendanceRuleEntity, attendanceDayEntity, attendanceMonthEntity];

const festivalLabels: Record<string, readonly [string, string, string]> = {
  'oaRule.field.festNewYear': ["New Year's Day", '元旦', '元日'],
  'oaRule.field.festSpring': ['Spring Festival', '春节', '春節'],
  'oaRule.field.festChingMing': ['Ching Ming', '清明节', '清明節'],
  'oaRule.field.festMayDay': ['May Day', '劳动节', 'メーデー'],
  'oaRule.field.festDragonBoat': ['Dragon Boat Festival', '端午节', '端午節'],
  'oaRule.field.festMidAutumn': ['Mid-Autumn Festival', '中秋节', '中秋節'],
  'oaRule.field.festNationalDay': ['National Day', '国庆节', '国慶節'],
};

/** Texts of the attendance screens, merged into `entityLabels`. */
export const attendanceLabels: Record<string, readonly [enUS: string, zhCN: string, jaJP: string]> = {
  'oaRule.title': ['OA rules', 'OA 规则', 'OA ルール'],
  'attendanceRule.title': ['Attendance rules', '考勤规则', '勤怠ルール'],
  'oaRule.field.ruleName': ['Rule name', '规则名称', 'ルール名'],
  'oaRule.field.workTime': ['Working time', '上班时间', '始業時刻'],
  'oaRule.field.offWorkTime': ['Off-work time', '下班时间', '終業時刻'],
  'oaRule.field.absentMinutes': ['Absent after (minutes late)', '旷工时间（迟到分钟数）', '欠勤とみなす遅刻（分）'],
  'oaRule.field.restWeekdays': ['Rest weekdays (1 Mon … 7 Sun)', '休息日（1 周一 … 7 周日）', '休日の曜日（1 月 … 7 日）'],
  'oaRule.field.departIds': ['Groups', '适用部门', '対象グループ'],
  'oaRule.field.duplicateSeconds': ['Repeat punches within (seconds)', '重复打卡间隔（秒）', '重複打刻の間隔（秒）'],
  'oaRule.field.holidays': ['Other holidays', '其他节假日', 'その他の休日'],
  'oaRule.field.workdays': ['Swapped working days', '调休上班日', '振替出勤日'],
  'oaRule.field.remark': ['Remark', '备注', '備考'],
  ...festivalLabels,
  'oaRule.suggest': ['Suggest dates for {{year}}', '推荐 {{year}} 年日期', '{{year}}年の日付を提案'],
  'oaRule.suggestOfficial': ['Dates of the published {{year}} schedule filled in: check them before saving.', '已填入 {{year}} 年公布的安排，请核对后保存。', '{{year}}年の公表日程を入力しました。保存前に確認してください。'],
  'oaRule.suggestEstimated': ['The {{year}} schedule is not published yet: each festival’s own day is filled in; check them before saving.', '{{year}} 年安排尚未公布，已填入各节日当天，请核对后保存。', '{{year}}年の日程は未公表のため、各祝日当日のみ入力しました。保存前に確認してください。'],
  'oaRule.datesHint': ['Dates such as 2026-05-01, 2026-05-02', '日期，如 2026-05-01, 2026-05-02', '日付（例: 2026-05-01, 2026-05-02）'],
  'attendance.title': ['Attendance', '考勤记录', '勤怠記録'],
  'attendance.field.day': ['Day', '日期', '日付'],
  'attendance.field.month': ['Month', '月份', '月'],
  'attendance.field.peopleId': ['Person', '人员', '人員'],
  'attendance.field.departId': ['Group', '部门', 'グループ'],
  'attendance.field.status': ['Result', '考勤结果', '結果'],
  'attendance.field.checkIn': ['Check-in', '签到时间', '出勤打刻'],
  'attendance.field.checkOut': ['Check-out', '签退时间', '退勤打刻'],
  'attendance.field.punchCount': ['Punches', '打卡次数', '打刻数'],
  'attendance.field.corrected': ['Corrected', '已修正', '修正済み'],
  'attendance.field.correctionReason': ['Correction reason', '修正原因', '修正理由'],
  'attendance.field.ruleId': ['Rule', '考勤规则', 'ルール'],
  'attendance.status.normal': ['Normal', '正常', '正常'],
  'attendance.status.late': ['Late', '迟到', '遅刻'],
  'attendance.status.leaveEarly': ['Left early', '早退', '早退'],
  'attendance.status.absent': ['Absent', '旷工', '欠勤'],
  'attendance.status.missCard': ['Missing punch', '缺卡', '打刻漏れ'],
  'attendance.status.holiday': ['Holiday', '节假日', '休日'],
  'attendance.status.rest': ['Rest day', '休息日', '公休日'],
  'attendance.correct': ['Correct', '修正', '修正'],
  'attendance.correctTitle': ['Correct {{day}}', '修正 {{day}}', '{{day}} を修正'],
  'attendance.reason': ['Reason', '原因', '理由'],
  'attendance.punches': ['Punches', '打卡记录', '打刻'],
  'attendance.punchesTitle': ['Punches of {{day}}', '{{day}} 的打卡记录', '{{day}} の打刻'],
  'attendance.noPunches': ['No punches', '无打卡记录', '打刻なし'],
  'attendance.punch.time': ['Time', '时间', '日時'],
  'attendance.punch.rawTime': ['Device time', '设备时间', 'デバイス時刻'],
  'attendance.punch.device': ['Device', '设备', 'デバイス'],
  'attendance.punch.source': ['From', '来源', '種別'],
  'attendance.punch.source.punch': ['Punch', '打卡', '打刻'],
  'attendance.punch.source.opening': ['Door opening', '开门', '解錠'],
  'attendance.punch.duplicate': ['Repeat, not counted', '重复，不计', '重複（不算入）'],
  'attendanceMonth.title': ['Monthly attendance', '月度考勤统计', '月次勤怠統計'],
  'attendanceMonth.field.month': ['Month', '月份', '月'],
  'attendanceMonth.field.userId': ['Person', '人员', '人員'],
  'attendanceMonth.field.userName': ['Name', '姓名', '氏名'],
  'attendanceMonth.field.workDays': ['Working days', '应出勤天数', '所定労働日数'],
  'attendanceMonth.field.normalCount': ['Normal', '正常', '正常'],
  'attendanceMonth.field.lateCount': ['Late', '迟到', '遅刻'],
  'attendanceMonth.field.absenseCount': ['Absent', '旷工', '欠勤'],
  'attendanceMonth.field.leaveEarlyCount': ['Left early', '早退', '早退'],
  'attendanceMonth.field.missCardCount': ['Missing punches', '缺卡', '打刻漏れ'],
  'attendanceMonth.recompute': ['Recompute', '重新计算', '再計算'],
  'attendanceMonth.recomputeMonth': ['Month to recompute', '重新计算的月份', '再計算する月'],
  'attendanceMonth.recomputed': ['{{month}} recomputed: {{people}} people, {{days}} days', '已重新计算 {{month}}：{{people}} 人，{{days}} 天', '{{month}} を再計算しました: {{people}} 人、{{days}} 日'],
  'attendanceMonth.calendar': ['Calendar', '日历', 'カレンダー'],
  'attendanceMonth.calendarTitle': ['{{name}} in {{month}}', '{{name}} 的 {{month}}', '{{name}} の {{month}}'],
};
