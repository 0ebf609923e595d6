import * as z from 'zod';
import { idSchema } from '../ids.ts';
import { CabinetAttribute, CabinetStatus, MAX_DEVICE_CABINETS, StoragePath } from '../storage.ts';
import { ACCESS_METHODS } from './access-event-entities.ts';
import { DEVICE_PACKAGE_MAX_BYTES } from './device-extra-entities.ts';
import type { EntityDeclaration } from './declaration.ts';
import { field, integerSchema } from './fields.ts';

/** A field naming a row of another entity (a picker of its rows; the list shows its `labelField`). */
export const entityRef = (label: string, entity: string, labelField: string, extra: { readOnly?: boolean; required?: boolean } = {}) => ({
  label,
  kind: 'string' as const,
  schema: idSchema,
  widget: { kind: 'entitySelect' as const, entity, labelField },
  references: { entity },
  ...extra,
});
export const deviceRef = (label: string, extra: { readOnly?: boolean; required?: boolean } = {}) => entityRef(label, 'device', 'deviceName', extra);

/** How a cabinet was opened: as a door is, or released by the emergency scenario. */
const CABINET_OPEN_METHODS = [...ACCESS_METHODS, 'emergency'] as const;

/**
 * Cabinets (lockers) of the storage devices (SPEC section 3 'Cabinet/locker'): device, number, state, attribute, the
 * people holding it. The holders and the expiry are set by `allocateCabinet`, never by the form; a device's hello
 * adds the cabinets it reports.
 */
export const cabinetEntity: EntityDeclaration = {
  name: 'cabinet',
  title: 'cabinet.title',
  basePath: '/cabinet/cabinet',
  permissionPrefix: 'storage:cabinet',
  component: 'storage/cabinet',
  labelField: 'cabinetNo',
  fields: {
    deviceId: deviceRef('cabinet.field.deviceId', { required: true }),
    cabinetNo: field.integer('cabinet.field.cabinetNo', 1, MAX_DEVICE_CABINETS, { required: true }),
    status: {
      label: 'cabinet.field.status',
      kind: 'integer',
      schema: integerSchema(0, 2),
      widget: { kind: 'options', options: Object.entries(CabinetStatus).map(([name, value]) => ({ value: String(value), label: `cabinet.status.${name}` })) },
      readOnly: true,
    },
    attribute: {
      label: 'cabinet.field.attribute',
      kind: 'integer',
      schema: integerSchema(1, 2),
      widget: { kind: 'options', options: Object.entries(CabinetAttribute).map(([name, value]) => ({ value: String(value), label: `cabinet.attribute.${name}` })) },
      required: true,
      defaultValue: CabinetAttribute.single,
    },
    peopleIds: field.links('cabinet.field.peopleIds', { entity: 'people' }, 'name', { readOnly: true }),
    expireTime: field.datetime('cabinet.field.expireTime', { readOnly: true }),
    releaseInEmergency: field.integer('cabinet.field.releaseInEmergency', 0, 1, { widget: { kind: 'switch' }, defaultValue: 0 }),
    remark: field.text('cabinet.field.remark', 500),
  },
  columns: ['deviceId', 'cabinetNo', 'status', 'attribute', 'peopleIds', 'expireTime', 'releaseInEmergency', 'updateTime'],
  phoneColumns: ['cabinetNo', 'status', 'peopleIds'],
  detailFields: ['remark'],
  search: { deviceId: 'exact', cabinetNo: 'exact', status: 'exact', attribute: 'exact', peopleIds: 'exact' },
  sortable: ['cabinetNo', 'status', 'expireTime', 'updateTime'],
  defaultSort: { field: 'cabinetNo', order: 'asc' },
  unique: [{ field: 'cabinetNo', within: ['deviceId'], message: 'duplicate.cabinetNo' }],
  tenantScoped: true,
  extraActions: ['allocate', 'open'],
  deleteWarning: 'cabinet.deleteWarning',
  rowCommands: [
    { name: 'open', label: 'cabinet.open', permission: 'open', method: 'POST', path: StoragePath.openCabinet, confirm: 'cabinet.openConfirm', refusalAsWarning: true },
    { name: 'release', label: 'cabinet.release', permission: 'allocate', method: 'POST', path: StoragePath.releaseCabinet, confirm: 'cabinet.releaseConfirm', danger: true, refusalAsWarning: true },
  ],
};

/**
 * The allocate dialog's form as the engine knows forms: not a screen (no rows of its own), only the owner of the
 * people picker, whose choices (`/cabinet/allocation/linkOptions?field=peopleIds`) answer to those who may allocate,
 * whether or not they may read the people list.
 */
export const cabinetAllocationForm: EntityDeclaration = {
  name: 'cabinetAllocation',
  title: 'cabinet.allocate',
  basePath: '/cabinet/allocation',
  permissionPrefix: 'storage:cabinet',
  component: 'storage/cabinetAllocation',
  labelField: 'peopleIds',
  fields: { peopleIds: field.links('cabinet.allocatePeople', { entity: 'people' }, 'name') },
  columns: [],
  search: {},
  sortable: [],
  defaultSort: { field: 'createTime', order: 'desc' },
  actions: [],
};

/** Opening records (SPEC section 3): opening and closing time, cabinet, device, ID card (masked), user; from the devices' events. */
export const cabinetRecordEntity: EntityDeclaration = {
  name: 'cabinetRecord',
  title: 'cabinetRecord.title',
  basePath: '/cabinet/openRecord',
  permissionPrefix: 'storage:openRecord',
  component: 'storage/openRecord',
  labelField: 'openTime',
  fields: {
    openTime: field.datetime('cabinetRecord.field.openTime', { readOnly: true }),
    closeTime: field.datetime('cabinetRecord.field.closeTime', { readOnly: true }),
    cabinetNo: field.integer('cabinetRecord.field.cabinetNo', 1, MAX_DEVICE_CABINETS, { readOnly: true }),
    deviceId: deviceRef('cabinetRecord.field.deviceId', { readOnly: true }),
    idCard: { label: 'cabinetRecord.field.idCard', kind: 'string', schema: z.string().max(64), widget: { kind: 'input' }, readOnly: true },
    peopleId: entityRef('cabinetRecord.field.peopleId', 'people', 'name', { readOnly: true }),
    method: { label: 'cabinetRecord.field.method', kind: 'string', schema: z.string().max(16), widget: { kind: 'options', options: CABINET_OPEN_METHODS.map((m) => ({ value: m, label: `accessEvent.method.${m}` })) }, readOnly: true },
  },
  columns: ['openTime', 'closeTime', 'cabinetNo', 'deviceId', 'idCard', 'peopleId', 'method'],
  phoneColumns: ['openTime', 'cabinetNo', 'peopleId'],
  search: { deviceId: 'exact', cabinetNo: 'exact', peopleId: 'exact', openTime: 'range' },
  sortable: ['openTime', 'closeTime', 'cabinetNo'],
  defaultSort: { field: 'openTime', order: 'desc' },
  actions: ['list', 'export'],
  tenantScoped: true,
  // new records appear in an open list without a reload
  reloadOn: ['cabinetRecord'],
};

/** Storage managers: who manages which cabinet devices (they allocate those devices' cabinets). */
export const storageManagerEntity: EntityDeclaration = {
  name: 'storageManager',
  title: 'storageManager.title',
  basePath: '/cabinet/managerUser',
  permissionPrefix: 'storage:manager',
  component: 'storage/manager',
  labelField: 'userName',
  fields: {
    userName: { label: 'storageManager.field.userName', kind: 'string', schema: z.string().trim().min(1).max(100), widget: { kind: 'entitySelect', entity: 'user', labelField: 'username', valueField: 'username' }, references: { entity: 'user', valueField: 'username' }, required: true },
    deviceIds: field.links('storageManager.field.deviceIds', { entity: 'device' }, 'deviceName', { choosableFrom: StoragePath.manageableDevices }),
    remark: field.text('storageManager.field.remark', 500),
  },
  columns: ['userName', 'deviceIds', 'remark', 'createTime'],
  search: { userName: 'contains', deviceIds: 'exact' },
  sortable: ['userName', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [{ field: 'userName', message: 'duplicate.storageManager' }],
  tenantScoped: true,
};

/**
 * The cabinet terminals (devices of system storage) and the app version each runs: a terminal is listed by its hello
 * or its first update check, never added by hand.
 */
export const storageAppDeviceEntity: EntityDeclaration = {
  name: 'storageAppDevice',
  title: 'storageAppDevice.title',
  basePath: '/cabinet/appDevice',
  permissionPrefix: 'storage:appDevice',
  component: 'storage/appDevice',
  labelField: 'deviceId',
  fields: {
    deviceId: deviceRef('storageAppDevice.field.deviceId', { readOnly: true }),
    appVersion: field.text('storageAppDevice.field.appVersion', 64, { readOnly: true }),
    versionCode: field.integer('storageAppDevice.field.versionCode', 0, 2_000_000_000, { readOnly: true }),
    lastCheckTime: field.datetime('storageAppDevice.field.lastCheckTime', { readOnly: true }),
    remark: field.text('storageAppDevice.field.remark', 500),
  },
  columns: ['deviceId', 'appVersion', 'versionCode', 'lastCheckTime', 'remark'],
  search: { deviceId: 'exact', appVersion: 'contains' },
  sortable: ['appVersion', 'versionCode', 'lastCheckTime'],
  defaultSort: { field: 'lastCheckTime', order: 'desc' },
  unique: [{ field: 'deviceId', message: 'duplicate.storageAppDevice' }],
  tenantScoped: true,
  actions: ['list', 'edit', 'delete', 'export'],
};

/** App versions offered to the cabinet terminals, which ask for a newer one than theirs (`checkUpdateLatest`). */
export const storageCheckUpdateEntity: EntityDeclaration = {
  name: 'storageCheckUpdate',
  title: 'storageCheckUpdate.title',
  basePath: '/cabinet/checkUpdate',
  permissionPrefix: 'storage:checkUpdate',
  component: 'storage/checkUpdate',
  labelField: 'versionName',
  fields: {
    versionName: field.text('storageCheckUpdate.field.versionName', 64, { required: true }),
    versionCode: field.integer('storageCheckUpdate.field.versionCode', 1, 2_000_000_000, { required: true }),
    deviceModel: field.text('storageCheckUpdate.field.deviceModel', 100),
    packageFile: { label: 'storageCheckUpdate.field.packageFile', kind: 'string', schema: z.string().trim().min(1).max(255), widget: { kind: 'file', maxBytes: DEVICE_PACKAGE_MAX_BYTES } },
    forceUpdate: field.integer('storageCheckUpdate.field.forceUpdate', 0, 1, { widget: { kind: 'switch' }, defaultValue: 0 }),
    description: field.text('storageCheckUpdate.field.description', 500),
  },
  columns: ['versionName', 'versionCode', 'deviceModel', 'packageFile', 'forceUpdate', 'description', 'createTime'],
  search: { versionName: 'contains', deviceModel: 'contains' },
  sortable: ['versionName', 'versionCode', 'createTime'],
  defaultSort: { field: 'versionCode', order: 'desc' },
  unique: [{ field: 'versionCode', within: ['deviceModel'], message: 'duplicate.storageVersionCode' }],
  tenantScoped: true,
};

export const storageEntities: readonly EntityDeclaration[] = [cabinetEntity, cabinetRecordEntity, storageManagerEntity, storageAppDeviceEntity, storageCheckUpdateEntity];

/** Texts of the storage screens, merged into `entityLabels`. */
export const storageLabels: Record<string, readonly [enUS: string, zhCN: string, jaJP: string]> = {
  'cabinet.title': ['Lockers', '柜格管理', 'ロッカー'],
  'cabinet.field.deviceId': ['Device', '设备', 'デバイス'],
  'cabinet.field.cabinetNo': ['Cabinet number', '柜号', 'ロッカー番号'],
  'cabinet.field.status': ['Status', '状态', '状態'],
  'cabinet.field.attribute': ['Attribute', '属性', '属性'],
  'cabinet.field.peopleIds': ['Holders', '使用人员', '利用者'],
  'cabinet.field.expireTime': ['Allocated until', '分配截止时间', '割り当て期限'],
  'cabinet.field.releaseInEmergency': ['Release in emergency', '紧急时开启', '緊急時に開放'],
  'cabinet.field.remark': ['Remark', '备注', '備考'],
  'cabinet.status.unassigned': ['Unassigned', '未分配', '未割り当て'],
  'cabinet.status.assigned': ['Assigned', '已分配', '割り当て済み'],
  'cabinet.status.assignable': ['Assignable', '可分配', '割り当て可能'],
  'cabinet.attribute.single': ['One person', '单人', '1人用'],
  'cabinet.attribute.multi': ['Several people', '多人', '複数人用'],
  'cabinet.deleteWarning': ['Deleting a cabinet clears its allocation on the device.', '删除柜格将清除其在设备上的分配。', 'ロッカーを削除すると、デバイス上の割り当ても消去されます。'],
  'cabinet.open': ['Open remotely', '远程开柜', 'リモート開錠'],
  'cabinet.openConfirm': ['Open cabinet {{name}} now?', '确定立即打开 {{name}} 号柜吗？', '{{name}} 番のロッカーを今すぐ開けますか？'],
  'cabinet.release': ['Release', '释放', '解放'],
  'cabinet.releaseConfirm': ['Release cabinet {{name}}? Its holders lose it and the device clears it.', '确定释放 {{name}} 号柜吗？使用人员将失去该柜，设备将清除其分配。', '{{name}} 番のロッカーを解放しますか？利用者は使えなくなり、デバイスの割り当ても消去されます。'],
  'cabinet.allocate': ['Allocate', '分配', '割り当て'],
  'cabinet.allocateTitle': ['Allocate cabinet {{name}}', '分配 {{name}} 号柜', '{{name}} 番のロッカーを割り当て'],
  'cabinet.allocatePeople': ['People', '人员', '人員'],
  'cabinet.allocateExpire': ['Until (optional)', '截止时间（可选）', '期限（任意）'],
  'cabinet.tree': ['Cabinets by area and device', '按区域和设备查看柜格', 'エリアとデバイス別のロッカー'],
  'cabinet.treeEmpty': ['No cabinet devices yet', '暂无储物柜设备', 'ロッカーデバイスはまだありません'],
  'cabinet.treeNoArea': ['No area', '未分区域', 'エリアなし'],
  'cabinet.fullMode': ['Full-send mode', '全量下发模式', '全件送信モード'],
  'cabinetRecord.title': ['Opening records', '开柜记录', '開閉記録'],
  'cabinetRecord.field.openTime': ['Opened at', '开柜时间', '開錠日時'],
  'cabinetRecord.field.closeTime': ['Closed at', '关柜时间', '施錠日時'],
  'cabinetRecord.field.cabinetNo': ['Cabinet', '柜号', 'ロッカー'],
  'cabinetRecord.field.deviceId': ['Device', '设备', 'デバイス'],
  'cabinetRecord.field.idCard': ['ID card', '卡号', 'IDカード'],
  'cabinetRecord.field.peopleId': ['User', '用户', 'ユーザー'],
  'cabinetRecord.field.method': ['Method', '方式', '方式'],
  'accessEvent.method.emergency': ['Emergency release', '紧急开启', '緊急開放'],
  'storageManager.title': ['Managers', '管理员', '管理者'],
  'storageManager.field.userName': ['User', '用户', 'ユーザー'],
  'storageManager.field.deviceIds': ['Cabinet devices managed', '管理的储物柜设备', '管理するロッカーデバイス'],
  'storageManager.field.remark': ['Remark', '备注', '備考'],
  'storageAppDevice.title': ['App devices', '应用设备', 'アプリデバイス'],
  'storageAppDevice.field.deviceId': ['Terminal', '终端', '端末'],
  'storageAppDevice.field.appVersion': ['App version', '应用版本', 'アプリバージョン'],
  'storageAppDevice.field.versionCode': ['Version code', '版本号', 'バージョンコード'],
  'storageAppDevice.field.lastCheckTime': ['Last update check', '最近检查更新时间', '最終更新確認'],
  'storageAppDevice.field.remark': ['Remark', '备注', '備考'],
  'storageInterfaceTest.title': ['Interface test', '接口测试', 'インターフェーステスト'],
  'storageUserInfo.title': ['User info', '用户信息', 'ユーザー情報'],
  'storageUserInfo.field.name': ['Name', '姓名', '氏名'],
  'storageUserInfo.field.userNo': ['User number', '用户编号', '利用者番号'],
  'storageUserInfo.field.departName': ['Group', '所属部门', '所属グループ'],
  'storageUserInfo.field.cabinets': ['Cabinets held', '使用的柜格', '利用中のロッカー'],
  'storageUserInfo.field.cabinetCount': ['Number of cabinets', '柜格数', 'ロッカー数'],
  'storageUserInfo.field.lastOpenTime': ['Last opened', '最近开柜时间', '最終開錠日時'],
  'storageInterfaceTest.field.deviceId': ['Cabinet device', '储物柜设备', 'ロッカーデバイス'],
  'storageInterfaceTest.field.command': ['Command', '指令', 'コマンド'],
  'storageInterfaceTest.field.cabinetNo': ['Cabinet number', '柜号', 'ロッカー番号'],
  'storageInterfaceTest.command.status': ['Terminal status', '终端状态', '端末の状態'],
  'storageInterfaceTest.command.open': ['Open a cabinet', '打开柜门', 'ロッカーを開ける'],
  'storageInterfaceTest.command.clear': ['Clear a cabinet', '清空柜格', 'ロッカーを空にする'],
  'storageInterfaceTest.command.sync': ['Compare and align', '比对并对齐', '照合して揃える'],
  'storageCheckUpdate.title': ['Update checks', '更新检查', '更新チェック'],
  'storageCheckUpdate.field.versionName': ['Version', '版本名称', 'バージョン名'],
  'storageCheckUpdate.field.versionCode': ['Version code', '版本号', 'バージョンコード'],
  'storageCheckUpdate.field.deviceModel': ['Device model', '设备型号', 'デバイス型番'],
  'storageCheckUpdate.field.packageFile': ['App package', '应用安装包', 'アプリパッケージ'],
  'storageCheckUpdate.field.forceUpdate': ['Update required', '强制更新', '強制更新'],
  'storageCheckUpdate.field.description': ['What is new', '更新说明', '更新内容'],
};
