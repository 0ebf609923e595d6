import { idSchema } from '../ids.ts';
import type { EntityDeclaration, FieldDeclaration } from './declaration.ts';
import { field, integerSchema, textSchema } from './fields.ts';

/** A plugin's or an alarm package's file is an uploaded file (/sys/common/upload) of at most 10 MB. */
export const DEVICE_PACKAGE_MAX_BYTES = 10 * 1024 * 1024;

export const PLUGIN_STATUS_OPTIONS = [
  { value: '1', label: 'devicePlugin.status.enabled' },
  { value: '0', label: 'devicePlugin.status.disabled' },
] as const;

/** The stored path of an uploaded file, checked by the server against the files it stores. */
const filePath = (label: string): FieldDeclaration => ({ label, kind: 'string', schema: textSchema(255), widget: { kind: 'file', maxBytes: DEVICE_PACKAGE_MAX_BYTES } });

/** Device plugins (SPEC section 2 'devices'): name, code, version, device model, file, configuration, description, status. */
export const devicePluginEntity: EntityDeclaration = {
  name: 'devicePlugin',
  title: 'devicePlugin.title',
  basePath: '/sysDevicePlugin',
  permissionPrefix: 'devices:plugin',
  component: 'devices/plugin',
  labelField: 'name',
  fields: {
    name: field.text('devicePlugin.field.name', 100, { required: true }),
    code: field.code('devicePlugin.field.code', 64, { required: true }),
    version: field.text('devicePlugin.field.version', 64, { required: true }),
    deviceModel: field.text('devicePlugin.field.deviceModel', 100),
    pluginFile: filePath('devicePlugin.field.pluginFile'),
    config: field.jsonObject('devicePlugin.field.config'),
    description: field.text('devicePlugin.field.description', 500),
    status: { label: 'devicePlugin.field.status', kind: 'integer', schema: integerSchema(0, 1), widget: { kind: 'options', options: PLUGIN_STATUS_OPTIONS }, required: true, defaultValue: 1 },
  },
  columns: ['name', 'code', 'version', 'deviceModel', 'pluginFile', 'status', 'description', 'createTime'],
  detailFields: ['config'],
  search: { name: 'contains', code: 'contains', deviceModel: 'contains', status: 'exact' },
  sortable: ['name', 'code', 'version', 'status', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [{ field: 'code', message: 'duplicate.pluginCode' }],
  tenantScoped: true,
};

/** Data a plugin keeps per device: a key and its JSON value (SPEC section 2 'devices: plugin data'). */
export const pluginDataEntity: EntityDeclaration = {
  name: 'pluginData',
  title: 'pluginData.title',
  basePath: '/sysPluginData',
  permissionPrefix: 'devices:pluginData',
  component: 'devices/pluginData',
  labelField: 'dataKey',
  fields: {
    pluginCode: { label: 'pluginData.field.pluginCode', kind: 'string', schema: textSchema(64), widget: { kind: 'entitySelect', entity: 'devicePlugin', labelField: 'name', valueField: 'code' }, required: true, references: { entity: 'devicePlugin', valueField: 'code' } },
    deviceId: { label: 'pluginData.field.deviceId', kind: 'string', schema: idSchema, widget: { kind: 'entitySelect', entity: 'device', labelField: 'deviceName' }, references: { entity: 'device' } },
    dataKey: field.text('pluginData.field.dataKey', 100, { required: true }),
    dataValue: field.jsonObject('pluginData.field.dataValue', { required: true }),
  },
  columns: ['pluginCode', 'deviceId', 'dataKey', 'dataValue', 'updateTime'],
  search: { pluginCode: 'exact', deviceId: 'exact', dataKey: 'contains' },
  sortable: ['pluginCode', 'dataKey', 'updateTime'],
  defaultSort: { field: 'updateTime', order: 'desc' },
  unique: [{ field: 'dataKey', within: ['pluginCode', 'deviceId'], message: 'duplicate.pluginDataKey' }],
  tenantScoped: true,
};

/** Log files devices uploaded: device, file name, size, upload time; listed and deleted (SPEC section 2 'devices: log files'). */
export const deviceLogFileEntity: EntityDeclaration = {
  name: 'deviceLogFile',
  title: 'deviceLogFile.title',
  basePath: '/sysDeviceLogFile',
  permissionPrefix: 'devices:logFile',
  component: 'devices/logFile',
  labelField: 'fileName',
  fields: {
    deviceId: { label: 'deviceLogFile.field.deviceId', kind: 'string', schema: idSchema, widget: { kind: 'entitySelect', entity: 'device', labelField: 'deviceName' }, readOnly: true, references: { entity: 'device' } },
    fileName: field.text('deviceLogFile.field.fileName', 255, { readOnly: true }),
    filePath: field.text('deviceLogFile.field.filePath', 255, { readOnly: true }),
    fileSize: { label: 'deviceLogFile.field.fileSize', kind: 'integer', schema: integerSchema(0, Number.MAX_SAFE_INTEGER), widget: { kind: 'number' }, readOnly: true },
    uploadTime: field.datetime('deviceLogFile.field.uploadTime', { readOnly: true }),
  },
  columns: ['deviceId', 'fileName', 'fileSize', 'uploadTime'],
  detailFields: ['filePath'],
  search: { deviceId: 'exact', fileName: 'contains', uploadTime: 'range' },
  sortable: ['fileName', 'fileSize', 'uploadTime'],
  defaultSort: { field: 'uploadTime', order: 'desc' },
  tenantScoped: true,
  actions: ['list', 'delete'],
};

/** A device's log upload is at most this large (docs/device-protocol.md, "sendLog"). */
export const DEVICE_LOG_MAX_BYTES = 20 * 1024 * 1024;
/** How long a device may take to upload a log it was asked for: the command's time to live and its token's. */
export const DEVICE_LOG_UPLOAD_TTL_MS = 10 * 60_000;
/** The kind of the command asking a device for its log (`SendLogCommandPayload`). */
export const SEND_LOG_COMMAND = 'sendLog';
/** The one-time token of a log upload, sent by the device beside its serial number and key. */
export const DEVICE_UPLOAD_TOKEN_HEADER = 'x-upload-token';
/** What a device's log file may be: a text log (.txt, .log) or a zip of them. */
export const DEVICE_LOG_EXTENSIONS = ['txt', 'log', 'zip'] as const;

export const DeviceLogFilePath = {
  /** POST `{ deviceId }`: queues a sendLog command for the device; answers `{ commandId }` */
  request: '/sysDeviceLogFile/request',
  /** POST multipart `file` with `X-Device-Sn`, `X-Device-Key` and `X-Upload-Token` (devices only): stores the log */
  upload: '/device/logFile/upload',
} as const;

export const DeviceLogFilePerm = { request: 'devices:logFile:sendLog', list: 'devices:logFile:list' } as const;

/** The payload of a `sendLog` command. */
export interface SendLogCommandPayload {
  /** the upload below API_PREFIX, resolved against the server the device is connected to */
  path: string;
  /** the same as an absolute URL under the server's PUBLIC_URL, only when one is configured */
  url?: string;
  /** one-time token, sent back in X-Upload-Token */
  token: string;
  /** the upload is refused past this time (milliseconds since the epoch) */
  expiresAt: number;
  maxBytes: number;
}

/** Alarm packages sent to devices of a model: name, device model, file, version, description. */
export const alarmPackageEntity: EntityDeclaration = {
  name: 'alarmPackage',
  title: 'alarmPackage.title',
  basePath: '/sysAlarmPackage',
  permissionPrefix: 'devices:alarmPackage',
  component: 'devices/alarmPackage',
  labelField: 'name',
  fields: {
    name: field.text('alarmPackage.field.name', 100, { required: true }),
    deviceModel: field.text('alarmPackage.field.deviceModel', 100),
    packageFile: filePath('alarmPackage.field.packageFile'),
    version: field.text('alarmPackage.field.version', 64, { required: true }),
    description: field.text('alarmPackage.field.description', 500),
  },
  columns: ['name', 'deviceModel', 'version', 'packageFile', 'description', 'createTime'],
  search: { name: 'contains', deviceModel: 'contains', version: 'contains' },
  sortable: ['name', 'deviceModel', 'version', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [{ field: 'version', within: ['name', 'deviceModel'], message: 'duplicate.alarmPackageVersion' }],
  tenantScoped: true,
};

export const deviceExtraEntities: readonly EntityDeclaration[] = [devicePluginEntity, pluginDataEntity, deviceLogFileEntity, alarmPackageEntity];

export const deviceExtraLabels: Record<string, readonly [enUS: string, zhCN: string, jaJP: string]> = {
  'devicePlugin.title': ['Device plugins', '设备插件', 'デバイスプラグイン'],
  'devicePlugin.field.name': ['Name', '名称', '名称'],
  'devicePlugin.field.code': ['Code', '编码', 'コード'],
  'devicePlugin.field.version': ['Version', '版本号', 'バージョン'],
  'devicePlugin.field.deviceModel': ['Device model', '设备型号', 'デバイス型番'],
  'devicePlugin.field.pluginFile': ['Plugin file', '插件文件', 'プラグインファイル'],
  'devicePlugin.field.config': ['Configuration', '配置', '設定'],
  'devicePlugin.field.description': ['Description', '描述', '説明'],
  'devicePlugin.field.status': ['Status', '状态', '状態'],
  'devicePlugin.status.enabled': ['Enabled', '启用', '有効'],
  'devicePlugin.status.disabled': ['Disabled', '停用', '無効'],
  'pluginData.title': ['Plugin data', '插件数据', 'プラグインデータ'],
  'pluginData.field.pluginCode': ['Plugin', '插件', 'プラグイン'],
  'pluginData.field.deviceId': ['Device', '设备', 'デバイス'],
  'pluginData.field.dataKey': ['Key', '键', 'キー'],
  'pluginData.field.dataValue': ['Value (JSON)', '值（JSON）', '値（JSON）'],
  'deviceLogFile.title': ['Log files', '日志文件', 'ログファイル'],
  'deviceLogFile.field.deviceId': ['Device', '设备', 'デバイス'],
  'deviceLogFile.field.fileName': ['File name', '文件名', 'ファイル名'],
  'deviceLogFile.field.filePath': ['Stored path', '存储路径', '保存先パス'],
  'deviceLogFile.field.fileSize': ['Size (bytes)', '大小（字节）', 'サイズ（バイト）'],
  'deviceLogFile.field.uploadTime': ['Uploaded at', '上传时间', 'アップロード日時'],
  'deviceLogFile.download': ['Download', '下载', 'ダウンロード'],
  'deviceLogFile.request': ['Ask for log', '索取日志', 'ログを取得'],
  'deviceLogFile.requestTitle': ['Ask a device for its log file', '让设备上传日志文件', 'デバイスにログファイルを求める'],
  'deviceLogFile.requestHint': ['The device uploads its log within 10 minutes; it then appears in this list.', '设备会在 10 分钟内上传日志，之后显示在此列表中。', 'デバイスは 10 分以内にログをアップロードし、この一覧に表示されます。'],
  'deviceLogFile.requestDevice': ['Device', '设备', 'デバイス'],
  'alarmPackage.title': ['Alarm packages', '报警包', 'アラームパッケージ'],
  'alarmPackage.field.name': ['Name', '名称', '名称'],
  'alarmPackage.field.deviceModel': ['Device model', '设备型号', 'デバイス型番'],
  'alarmPackage.field.packageFile': ['Package file', '包文件', 'パッケージファイル'],
  'alarmPackage.field.version': ['Version', '版本号', 'バージョン'],
  'alarmPackage.field.description': ['Description', '描述', '説明'],
  'crud.fileUpload': ['Upload file', '上传文件', 'ファイルをアップロード'],
  'crud.fileRemove': ['Remove file', '移除文件', 'ファイルを削除'],
  'crud.fileTooLarge': ['The file must be smaller than {{size}} MB', '文件必须小于 {{size}} MB', 'ファイルは {{size}} MB 未満にしてください'],
};
