import * as z from 'zod';
import { idSchema } from '../ids.ts';
import type { EntityDeclaration } from './declaration.ts';
import { field, integerSchema, textSchema } from './fields.ts';

/** A software package is at most 200 MB (an Android APK or a firmware tar). */
export const SOFT_UPDATE_MAX_BYTES = 200 * 1024 * 1024;
/** What a package may be: checked on its content (an APK is a ZIP holding AndroidManifest.xml; a tar has the ustar
 * magic, gzip-compressed or not), never on its name alone. */
export const SOFT_UPDATE_EXTENSIONS = ['apk', 'tar', 'tgz', 'gz'] as const;

/** Where a push of a package to one device stands: queued, downloading and installing (progress 0–100), done. */
export const SoftUpdateState = { queued: 0, running: 1, ok: 2, failed: 3 } as const;
export type SoftUpdateState = (typeof SoftUpdateState)[keyof typeof SoftUpdateState];
export const SOFT_UPDATE_STATE_NAMES = ['queued', 'running', 'ok', 'failed'] as const;
export const SOFT_UPDATE_STATE_OPTIONS = SOFT_UPDATE_STATE_NAMES.map((name, value) => ({ value: String(value), label: `softUpdate.state.${name}` }));

export const SoftUpdatePath = {
  /** POST multipart: fields `version`, `deviceModel`, `updateLog`, then the package as `file` (checked on its content); adds the row */
  upload: '/sysSoftUpdate/upload',
  /** POST `{ id, deviceIds }`: queues one softUpdate command per device; answers the pushes */
  push: '/sysSoftUpdate/push',
  /** GET `?id=`: every push of a package with its device, progress and state */
  pushes: '/sysSoftUpdate/pushes',
  /** GET `?id=` with the device's `X-Device-Sn` and `X-Device-Key` headers: the package's bytes (devices only) */
  download: '/device/softUpdate/package',
} as const;

/** Headers a device signs a download with: its serial number and its device key (docs/device-protocol.md). */
export const DEVICE_SN_HEADER = 'x-device-sn';
export const DEVICE_KEY_HEADER = 'x-device-key';

export const softUpdatePushBody = z.object({
  id: idSchema,
  deviceIds: z.array(idSchema).min(1).max(1000),
});

/** The payload of a `softUpdate` command. */
export interface SoftUpdateCommandPayload {
  updateId: string;
  version: string;
  /** the download below API_PREFIX (`/device/softUpdate/package?id=…`), resolved against the server the device was provisioned with */
  path: string;
  /** the same as an absolute URL under the server's PUBLIC_URL, only when one is configured; never from a request's Host header */
  url?: string;
  size: number;
  /** SHA-256 of the package, hex */
  sha256: string;
}

/** One push of a package to a device, as `pushes` answers it and the `softUpdate` real-time message carries it. */
export interface SoftUpdatePushRow {
  id: string;
  updateId: string;
  deviceId: string;
  deviceName: string;
  progress: number;
  state: SoftUpdateState;
  error: string | null;
}

/** Data of a `softUpdate` real-time message: pushes whose progress or state changed. */
export interface SoftUpdateNotice {
  pushes: SoftUpdatePushRow[];
}

export const SoftUpdatePerm = {
  list: 'device:softUpdate:list',
  add: 'device:softUpdate:add',
  push: 'device:softUpdate:push',
} as const;

/** Soft update (SPEC section 3): version, device model, software package, update log; pushed to chosen devices. */
export const softUpdateEntity: EntityDeclaration = {
  name: 'softUpdate',
  title: 'softUpdate.title',
  basePath: '/sysSoftUpdate',
  permissionPrefix: 'device:softUpdate',
  component: 'device/softUpdate',
  labelField: 'version',
  fields: {
    version: field.text('softUpdate.field.version', 64, { required: true }),
    deviceModel: field.text('softUpdate.field.deviceModel', 100),
    // the package is given once, with the upload that adds the row, and never replaced by an edit; the list names it
    // by the file a person uploaded: where the server stores it (apk_file) is no field and never leaves the server
    fileName: { label: 'softUpdate.field.apkFile', kind: 'string', schema: textSchema(255), widget: { kind: 'input' }, readOnly: true },
    fileSize: { label: 'softUpdate.field.fileSize', kind: 'integer', schema: integerSchema(0, Number.MAX_SAFE_INTEGER), widget: { kind: 'number' }, readOnly: true },
    checksum: field.text('softUpdate.field.checksum', 64, { readOnly: true }),
    updateLog: field.text('softUpdate.field.updateLog', 2000),
  },
  columns: ['version', 'deviceModel', 'fileName', 'fileSize', 'updateLog', 'createTime'],
  detailFields: ['checksum'],
  search: { version: 'contains', deviceModel: 'contains' },
  sortable: ['version', 'deviceModel', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [{ field: 'version', within: ['deviceModel'], message: 'duplicate.softUpdateVersion' }],
  tenantScoped: true,
  // adding is the upload (`SoftUpdatePath.upload`, device:softUpdate:add), not the generic add
  actions: ['list', 'edit', 'delete', 'export'],
  extraActions: ['add', 'push'],
};

/** What a device reports as a run error (`runError` events): kinds of error. */
export const RUN_LOG_STATE_OPTIONS = [
  { value: '0', label: 'deviceRunLog.state.open' },
  { value: '1', label: 'deviceRunLog.state.handled' },
] as const;

/** Device run log (SPEC section 3): device, error type, content, code, report IP, state, error time; from events. */
export const deviceRunLogEntity: EntityDeclaration = {
  name: 'deviceRunLog',
  title: 'deviceRunLog.title',
  basePath: '/sysDeviceRunLog',
  permissionPrefix: 'devices:log',
  component: 'devices/log',
  labelField: 'errorType',
  fields: {
    deviceId: { label: 'deviceRunLog.field.deviceId', kind: 'string', schema: idSchema, widget: { kind: 'entitySelect', entity: 'device', labelField: 'deviceName' }, readOnly: true, references: { entity: 'device' } },
    errorType: field.text('deviceRunLog.field.errorType', 64, { readOnly: true }),
    content: field.text('deviceRunLog.field.content', 2000, { readOnly: true }),
    code: field.text('deviceRunLog.field.code', 64, { readOnly: true }),
    reportIp: field.text('deviceRunLog.field.reportIp', 64, { readOnly: true }),
    state: { label: 'deviceRunLog.field.state', kind: 'integer', schema: integerSchema(0, 1), widget: { kind: 'options', options: RUN_LOG_STATE_OPTIONS }, readOnly: true },
    errorTime: field.datetime('deviceRunLog.field.errorTime', { readOnly: true }),
  },
  columns: ['deviceId', 'errorType', 'code', 'content', 'reportIp', 'state', 'errorTime'],
  search: { deviceId: 'exact', errorType: 'exact', code: 'contains', state: 'exact', errorTime: 'range' },
  sortable: ['errorType', 'code', 'state', 'errorTime'],
  defaultSort: { field: 'errorTime', order: 'desc' },
  tenantScoped: true,
  actions: ['list', 'export'],
};

/** An alarm's course: raised by the device, acknowledged by someone, closed. */
export const AlarmState = { open: 0, acknowledged: 1, closed: 2 } as const;
export const ALARM_STATE_OPTIONS = [
  { value: '0', label: 'alarm.state.open' },
  { value: '1', label: 'alarm.state.acknowledged' },
  { value: '2', label: 'alarm.state.closed' },
] as const;
export const ALARM_LEVEL_OPTIONS = [
  { value: 'L', label: 'alarm.level.L' },
  { value: 'M', label: 'alarm.level.M' },
  { value: 'H', label: 'alarm.level.H' },
] as const;

/**
 * The alarm codes the console names in the reader's language (`alarm.code.<code>`); a device may report others,
 * shown as they came.
 */
export const ALARM_CODES = ['tamper', 'forcedOpen', 'heldOpen', 'duress', 'lowBattery', 'videoLoss', 'sensorFault', 'fire', 'serverRefusedOpening', 'keyOverdue', 'patrolMissed'] as const;
export const ALARM_CODE_OPTIONS = ALARM_CODES.map((code) => ({ value: code, label: `alarm.code.${code}` }));

export const AlarmPath = {
  /** PUT `{ id }`: an open alarm becomes acknowledged */
  acknowledge: '/sysDeviceAlarm/acknowledge',
  /** PUT `{ id }`: an open or acknowledged alarm becomes closed */
  close: '/sysDeviceAlarm/close',
  /** PUT `AlarmBatchBody`: the chosen alarms (`ids`) or those matching `filter` that are open become acknowledged */
  acknowledgeBatch: '/sysDeviceAlarm/acknowledgeBatch',
  /** PUT `AlarmBatchBody`: the chosen or matching alarms not closed become closed */
  closeBatch: '/sysDeviceAlarm/closeBatch',
  /** GET `?to=acknowledge|close` plus the filter's fields: how many alarms a batch by that filter would change (`{ count }`) */
  batchCount: '/sysDeviceAlarm/batchCount',
} as const;

/** Which alarms a batch takes by what they are: code, device, area (the device's when raised) and time of raising. */
export const alarmFilter = z
  .object({
    code: textSchema(64).optional(),
    deviceId: idSchema.optional(),
    areaId: idSchema.optional(),
    level: z.enum(['L', 'M', 'H']).optional(),
    /** `yyyy-MM-dd HH:mm:ss` (or ISO 8601 with an offset) */
    alarmTime_begin: textSchema(32).optional(),
    alarmTime_end: textSchema(32).optional(),
  })
  .strict();
export type AlarmFilter = z.infer<typeof alarmFilter>;

/** A batch: chosen rows, or every alarm matching a filter (an empty filter: all of the tenant). */
export const alarmBatchBody = z.union([z.object({ ids: z.array(idSchema).min(1).max(1000) }).strict(), z.object({ filter: alarmFilter }).strict()]);
export type AlarmBatchBody = z.infer<typeof alarmBatchBody>;
export const ALARM_BATCH_ACTIONS = ['acknowledge', 'close'] as const;
export type AlarmBatchAction = (typeof ALARM_BATCH_ACTIONS)[number];

/** Alarms raised by devices (`alarm` events), acknowledged and closed in the console. */
export const alarmEntity: EntityDeclaration = {
  name: 'alarm',
  title: 'alarm.title',
  basePath: '/sysDeviceAlarm',
  permissionPrefix: 'device:alarm',
  component: 'device/alarm',
  labelField: 'code',
  fields: {
    deviceId: { label: 'alarm.field.deviceId', kind: 'string', schema: idSchema, widget: { kind: 'entitySelect', entity: 'device', labelField: 'deviceName' }, readOnly: true, references: { entity: 'device' } },
    // known codes read in the reader's language, others as the device sent them
    code: { label: 'alarm.field.code', kind: 'string', schema: textSchema(64), widget: { kind: 'options', options: ALARM_CODE_OPTIONS }, readOnly: true },
    areaId: { label: 'alarm.field.areaId', kind: 'string', schema: idSchema, widget: { kind: 'treeSelect', entity: 'area' }, readOnly: true, references: { entity: 'area' } },
    level: { label: 'alarm.field.level', kind: 'string', schema: z.enum(['L', 'M', 'H']), widget: { kind: 'options', options: ALARM_LEVEL_OPTIONS }, readOnly: true },
    alarmCount: { label: 'alarm.field.alarmCount', kind: 'integer', schema: integerSchema(1, 2_147_483_647), widget: { kind: 'number' }, readOnly: true },
    lastTime: field.datetime('alarm.field.lastTime', { readOnly: true }),
    state: { label: 'alarm.field.state', kind: 'integer', schema: integerSchema(0, 2), widget: { kind: 'options', options: ALARM_STATE_OPTIONS }, readOnly: true },
    alarmTime: field.datetime('alarm.field.alarmTime', { readOnly: true }),
    handledBy: field.text('alarm.field.handledBy', 64, { readOnly: true }),
    handledTime: field.datetime('alarm.field.handledTime', { readOnly: true }),
  },
  columns: ['deviceId', 'areaId', 'code', 'level', 'state', 'alarmCount', 'alarmTime', 'lastTime', 'handledBy', 'handledTime'],
  phoneColumns: ['code', 'state', 'alarmCount', 'lastTime'],
  search: { deviceId: 'exact', areaId: 'exact', code: 'exact', level: 'exact', state: 'exact', alarmTime: 'range' },
  sortable: ['code', 'level', 'state', 'alarmCount', 'alarmTime', 'lastTime'],
  defaultSort: { field: 'lastTime', order: 'desc' },
  tenantScoped: true,
  actions: ['list', 'delete', 'export'],
  extraActions: ['handle'],
  rowCommands: [
    { name: 'acknowledge', label: 'alarm.acknowledge', permission: 'handle', method: 'PUT', path: AlarmPath.acknowledge, confirm: 'alarm.acknowledgeConfirm', refusalAsWarning: true },
    { name: 'close', label: 'alarm.close', permission: 'handle', method: 'PUT', path: AlarmPath.close, confirm: 'alarm.closeConfirm', refusalAsWarning: true },
  ],
};

export const softUpdateEntities: readonly EntityDeclaration[] = [softUpdateEntity, deviceRunLogEntity, alarmEntity];

export const softUpdateLabels: Record<string, readonly [enUS: string, zhCN: string, jaJP: string]> = {
  'softUpdate.title': ['Software updates', '软件更新', 'ソフトウェア更新'],
  'softUpdate.field.version': ['Version', '版本号', 'バージョン'],
  'softUpdate.field.deviceModel': ['Device model', '设备型号', 'デバイス型番'],
  'softUpdate.field.apkFile': ['Software package', '软件包', 'ソフトウェアパッケージ'],
  'softUpdate.field.fileSize': ['Size (bytes)', '大小（字节）', 'サイズ（バイト）'],
  'softUpdate.field.checksum': ['SHA-256', 'SHA-256', 'SHA-256'],
  'softUpdate.field.updateLog': ['Update log', '更新日志', '更新履歴'],
  'softUpdate.push': ['Push to devices', '推送到设备', 'デバイスに配信'],
  'softUpdate.state.queued': ['Queued', '排队中', '待機中'],
  'softUpdate.state.running': ['Updating', '升级中', '更新中'],
  'softUpdate.state.ok': ['Updated', '升级成功', '更新完了'],
  'softUpdate.state.failed': ['Failed', '升级失败', '更新失敗'],
  'deviceRunLog.title': ['Device logs', '设备运行日志', 'デバイスログ'],
  'deviceRunLog.field.deviceId': ['Device', '设备', 'デバイス'],
  'deviceRunLog.field.errorType': ['Error type', '错误类型', 'エラー種別'],
  'deviceRunLog.field.content': ['Content', '内容', '内容'],
  'deviceRunLog.field.code': ['Code', '错误码', 'コード'],
  'deviceRunLog.field.reportIp': ['Reported from IP', '上报IP', '報告元IP'],
  'deviceRunLog.field.state': ['State', '状态', '状態'],
  'deviceRunLog.field.errorTime': ['Error time', '错误时间', 'エラー日時'],
  'deviceRunLog.state.open': ['Unhandled', '未处理', '未処理'],
  'deviceRunLog.state.handled': ['Handled', '已处理', '処理済み'],
  'alarm.title': ['Alarms', '报警记录', 'アラーム'],
  'alarm.field.deviceId': ['Device', '设备', 'デバイス'],
  'alarm.field.code': ['Alarm code', '报警代码', 'アラームコード'],
  'alarm.field.level': ['Level', '级别', 'レベル'],
  'alarm.field.state': ['State', '状态', '状態'],
  'alarm.field.alarmTime': ['Alarm time', '报警时间', '発報日時'],
  'alarm.field.handledBy': ['Handled by', '处理人', '対応者'],
  'alarm.field.handledTime': ['Handled at', '处理时间', '対応日時'],
  'alarm.state.open': ['Open', '未处理', '未対応'],
  'alarm.state.acknowledged': ['Acknowledged', '已确认', '確認済み'],
  'alarm.state.closed': ['Closed', '已关闭', 'クローズ'],
  'alarm.level.L': ['Normal', '一般', '通常'],
  'alarm.level.M': ['Important', '重要', '重要'],
  'alarm.level.H': ['Urgent', '紧急', '緊急'],
  'alarm.acknowledge': ['Acknowledge', '确认', '確認'],
  'alarm.close': ['Close', '关闭', 'クローズ'],
  'alarm.acknowledgeConfirm': ['Acknowledge alarm {{name}}?', '确认报警 {{name}}？', 'アラーム {{name}} を確認済みにしますか？'],
  'alarm.closeConfirm': ['Close alarm {{name}}?', '关闭报警 {{name}}？', 'アラーム {{name}} をクローズしますか？'],
  'alarm.field.areaId': ['Area', '区域', 'エリア'],
  'alarm.field.alarmCount': ['Count', '次数', '回数'],
  'alarm.field.lastTime': ['Last raised', '最近报警时间', '最終発報日時'],
  'alarm.code.tamper': ['Tamper', '防拆报警', 'いたずら検知'],
  'alarm.code.forcedOpen': ['Door forced open', '门被强行打开', 'ドアこじ開け'],
  'alarm.code.heldOpen': ['Door held open', '门长时间未关', 'ドア開放放置'],
  'alarm.code.duress': ['Duress', '胁迫报警', '脅迫通報'],
  'alarm.code.lowBattery': ['Low battery', '电池电量低', '電池残量低下'],
  'alarm.code.videoLoss': ['Video lost', '视频丢失', '映像消失'],
  'alarm.code.sensorFault': ['Sensor fault', '传感器故障', 'センサー故障'],
  'alarm.code.fire': ['Fire', '火警', '火災'],
  'alarm.code.serverRefusedOpening': ['Opened against the server’s refusal', '服务器拒绝后仍开门', 'サーバー拒否後の開扉'],
  'alarm.code.keyOverdue': ['Key not returned in time', '钥匙逾期未还', 'キーの返却期限切れ'],
  'alarm.code.patrolMissed': ['Patrol point missed', '巡更点漏巡', '巡回ポイント未巡回'],
};
