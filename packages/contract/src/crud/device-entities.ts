import * as z from 'zod';
import { SYNC_MODES, SYNC_STATUSES } from '../access/sync.ts';
import { DEVICE_SN_PATTERN, DEVICE_SYSTEMS } from '../device.ts';
import { TENANT_DICT } from '../http.ts';
import { idSchema } from '../ids.ts';
import type { EntityDeclaration } from './declaration.ts';
import { field, integerSchema, textSchema } from './fields.ts';

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const MAC = /^[0-9A-Fa-f]{2}([:-][0-9A-Fa-f]{2}){5}$/;

/** A dotted IPv4 address (device IP, gateway). */
export const ipv4Schema = z.string().trim().regex(IPV4, { error: 'validation.ip' });
/** A subnet mask: an IPv4 address whose bits are ones followed by zeros (255.255.255.0). */
export const subnetMaskSchema = z
  .string()
  .trim()
  .refine((value) => {
    if (!IPV4.test(value)) return false;
    const bits = value.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
    const inverted = 0xffffffff - bits;
    // ones then zeros: the inverted mask plus one is a power of two
    return (inverted & (inverted + 1)) === 0;
  }, { error: 'validation.subnetMask' });
export const macSchema = z.string().trim().regex(MAC, { error: 'validation.mac' });

/** Device handlers the server runs for a device type: what it does with the devices' events and commands. */
export const DEVICE_HANDLERS = ['accessController', 'abDoorController', 'veinReader', 'cabinetController', 'quakeSensor', 'camera'] as const;
export const DEVICE_HANDLER_OPTIONS = DEVICE_HANDLERS.map((value) => ({ value, label: `deviceType.handler.${value}` }));

export const DEVICE_SYSTEM_OPTIONS = DEVICE_SYSTEMS.map((value) => ({ value, label: `device.system.${value}` }));
/** 1 inside, 2 outside */
export const DEVICE_LOCATION_OPTIONS = [
  { value: '1', label: 'device.location.inside' },
  { value: '2', label: 'device.location.outside' },
] as const;
export const DEVICE_ONLINE_OPTIONS = [
  { value: '1', label: 'device.online' },
  { value: '0', label: 'device.offline' },
] as const;
/** SPEC section 4, data sync mode: increment sends a device the differences, full replaces its whole access list. */
export const DEVICE_SYNC_MODE_OPTIONS = SYNC_MODES.map((value) => ({ value, label: `device.syncMode.${value}` }));
/** A background image is at most 1 MB (SPEC section 3). */
export const DEVICE_IMAGE_MAX_BYTES = 1024 * 1024;

export const deviceTypeEntity: EntityDeclaration = {
  name: 'deviceType',
  title: 'deviceType.title',
  basePath: '/sysDeviceType',
  permissionPrefix: 'device:deviceType',
  component: 'device/deviceType',
  labelField: 'name',
  fields: {
    name: field.text('deviceType.field.name', 100, { required: true, column: 'type_name' }),
    manufacturerId: { label: 'deviceType.field.manufacturerId', kind: 'string', schema: idSchema, widget: { kind: 'entitySelect', entity: 'vendor', labelField: 'tradeName' }, references: { entity: 'vendor' } },
    deviceModel: field.text('deviceType.field.deviceModel', 100),
    status: field.dictInteger('deviceType.field.status', 'device_type_status', { required: true, defaultValue: 1, schema: integerSchema(1, 2) }),
    handler: { label: 'deviceType.field.handler', kind: 'string', schema: z.enum(DEVICE_HANDLERS, { error: 'validation.invalid' }), widget: { kind: 'options', options: DEVICE_HANDLER_OPTIONS } },
    tenantId: field.dict('deviceType.field.tenantId', TENANT_DICT, { schema: idSchema, systemAdminOnly: true }),
  },
  columns: ['name', 'manufacturerId', 'deviceModel', 'status', 'handler', 'createTime'],
  detailFields: ['tenantId'],
  search: { name: 'contains', deviceModel: 'contains', status: 'exact', handler: 'exact' },
  sortable: ['name', 'deviceModel', 'status', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [{ field: 'name', message: 'duplicate.deviceTypeName' }],
  tenantScoped: true,
};

/** Areas: where devices and doors are, as a tree (SPEC section 3: areaName, parentArea, address, remark). */
export const areaEntity: EntityDeclaration = {
  name: 'area',
  title: 'area.title',
  basePath: '/sysArea',
  permissionPrefix: 'device:area',
  component: 'device/area',
  labelField: 'areaName',
  fields: {
    areaName: field.text('area.field.areaName', 100, { required: true }),
    parentArea: { label: 'area.field.parentArea', kind: 'string', schema: z.string().max(36), widget: { kind: 'treeSelect' }, column: 'parent_id' },
    address: field.text('area.field.address', 255),
    remark: field.text('area.field.remark', 500),
  },
  columns: ['areaName', 'address', 'remark', 'createTime'],
  search: { areaName: 'contains', address: 'contains', parentArea: 'exact' },
  sortable: ['areaName', 'address', 'createTime'],
  defaultSort: { field: 'createTime', order: 'asc' },
  unique: [{ field: 'areaName', within: ['parentArea'], message: 'duplicate.areaName', topMessage: 'duplicate.areaNameTop' }],
  tenantScoped: true,
  tree: { parentField: 'parentArea', labelField: 'areaName' },
};

/**
 * Devices (SPEC section 3). The network status is the gateway's to write and stays current on an open list through
 * the `deviceConnect` / `deviceDisConnect` real-time messages. Deleting a device clears its allocations, so the
 * console warns first.
 */
export const deviceEntity: EntityDeclaration = {
  name: 'device',
  title: 'device.title',
  basePath: '/sysDevice',
  permissionPrefix: 'device:list',
  component: 'device/list',
  labelField: 'deviceName',
  fields: {
    deviceName: field.text('device.field.deviceName', 100, { required: true }),
    sn: { label: 'device.field.sn', kind: 'string', schema: z.string().trim().regex(DEVICE_SN_PATTERN, { error: 'validation.invalid' }), widget: { kind: 'input' }, required: true },
    mac: { label: 'device.field.mac', kind: 'string', schema: macSchema, widget: { kind: 'input' } },
    ip: { label: 'device.field.ip', kind: 'string', schema: ipv4Schema, widget: { kind: 'input' } },
    gateway: { label: 'device.field.gateway', kind: 'string', schema: ipv4Schema, widget: { kind: 'input' } },
    subnetMask: { label: 'device.field.subnetMask', kind: 'string', schema: subnetMaskSchema, widget: { kind: 'input' } },
    tenantId: field.dict('device.field.tenantId', TENANT_DICT, { schema: idSchema, systemAdminOnly: true }),
    systemType: { label: 'device.field.systemType', kind: 'string', schema: z.enum(DEVICE_SYSTEMS, { error: 'validation.invalid' }), widget: { kind: 'options', options: DEVICE_SYSTEM_OPTIONS } },
    deviceKind: field.dict('device.field.deviceKind', 'device_kind', { schema: z.enum(['1', '2', '3'], { error: 'validation.invalid' }) }),
    deviceModel: field.text('device.field.deviceModel', 100),
    backgroundImage: { label: 'device.field.backgroundImage', kind: 'string', schema: textSchema(255), widget: { kind: 'image', maxBytes: DEVICE_IMAGE_MAX_BYTES } },
    location: { label: 'device.field.location', kind: 'integer', schema: integerSchema(1, 2), widget: { kind: 'options', options: DEVICE_LOCATION_OPTIONS } },
    areaId: { label: 'device.field.areaId', kind: 'string', schema: idSchema, widget: { kind: 'treeSelect', entity: 'area' }, references: { entity: 'area' } },
    online: { label: 'device.field.online', kind: 'integer', schema: integerSchema(0, 1), widget: { kind: 'options', options: DEVICE_ONLINE_OPTIONS }, readOnly: true },
    // full: every change (and every reconnect) replaces the device's list, e.g. a device whose cabinets are reassigned
    syncMode: { label: 'device.field.syncMode', kind: 'string', schema: z.enum(SYNC_MODES, { error: 'validation.invalid' }), widget: { kind: 'options', options: DEVICE_SYNC_MODE_OPTIONS }, defaultValue: 'increment' },
    // where its access list stands (kept by the access sync from its command queue; see SyncStatus)
    syncState: { label: 'device.field.syncState', kind: 'string', schema: z.enum(SYNC_STATUSES), widget: { kind: 'options', options: SYNC_STATUSES.map((value) => ({ value, label: `device.syncState.${value}` })) }, readOnly: true },
    syncPending: field.integer('device.field.syncPending', 0, 1_000_000, { readOnly: true }),
    syncReason: field.text('device.field.syncReason', 255, { readOnly: true }),
    syncAlignedTime: field.datetime('device.field.syncAlignedTime', { readOnly: true }),
  },
  columns: ['deviceName', 'sn', 'ip', 'systemType', 'deviceKind', 'deviceModel', 'location', 'areaId', 'online', 'syncState'],
  phoneColumns: ['deviceName', 'online'],
  detailFields: ['mac', 'gateway', 'subnetMask', 'tenantId', 'backgroundImage', 'syncMode', 'syncPending', 'syncReason', 'syncAlignedTime', 'createTime'],
  search: { deviceName: 'contains', sn: 'contains', ip: 'contains', systemType: 'exact', deviceKind: 'exact', online: 'exact', areaId: 'exact', syncMode: 'exact', syncState: 'exact' },
  sortable: ['deviceName', 'sn', 'ip', 'systemType', 'deviceKind', 'online', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [
    { field: 'deviceName', message: 'duplicate.deviceName' },
    // a serial number is one physical device whichever tenant holds it (the database keeps it unique)
    { field: 'sn', message: 'duplicate.deviceSn', global: true },
    { field: 'mac', message: 'duplicate.deviceMac', global: true },
    { field: 'ip', message: 'duplicate.deviceIp' },
  ],
  tenantScoped: true,
  extraActions: ['capture', 'rotateKey', 'revokeKey'],
  live: { field: 'online', on: { deviceConnect: 1, deviceDisConnect: 0 }, badges: { '1': 'success', '0': 'default' } },
  deleteWarning: 'device.deleteWarning',
  rowCommands: [
    { name: 'setCapture', label: 'device.setCapture', permission: 'capture', method: 'GET', path: '/sysDevice/setCapture', refusalAsWarning: true },
    // a compare-and-align of the people the device holds (an offline device is refused with the spec's message)
    { name: 'syncPeople', label: 'device.syncPeople', permission: 'sync', method: 'POST', path: '/sysDevice/syncPeople', refusalAsWarning: true },
    // the device takes a new key over the link; a suspected key is revoked at once (the device is disconnected)
    { name: 'rotateKey', label: 'device.rotateKey', permission: 'rotateKey', method: 'POST', path: '/sysDevice/rotateKey', confirm: 'device.rotateKeyConfirm', refusalAsWarning: true },
    { name: 'revokeKey', label: 'device.revokeKey', permission: 'revokeKey', method: 'POST', path: '/sysDevice/revokeKey', confirm: 'device.revokeKeyConfirm', danger: true },
  ],
};

/**
 * Device codes on their own routes (`DeviceCodePath`): listed, issued, audited and deleted; never edited. Not an engine
 * entity (the approval issues a key), so it stays out of `entityDeclarations`: its page draws the generic screen.
 */
export const deviceCodeScreen: EntityDeclaration = {
  name: 'deviceCode',
  title: 'deviceCode.title',
  basePath: '/sysDeviceCode',
  permissionPrefix: 'device:deviceCode',
  component: 'device/deviceCode',
  labelField: 'sn',
  fields: {
    sn: { label: 'deviceCode.field.sn', kind: 'string', schema: z.string().trim().regex(DEVICE_SN_PATTERN, { error: 'validation.invalid' }), widget: { kind: 'input' }, required: true },
    activationCode: { label: 'deviceCode.field.activationCode', kind: 'string', schema: textSchema(64), widget: { kind: 'input' }, readOnly: true },
    authorizationCode: field.text('deviceCode.field.authorizationCode', 64),
    auditStatus: { label: 'deviceCode.field.auditStatus', kind: 'integer', schema: integerSchema(0, 2), widget: { kind: 'options', options: [
      { value: '0', label: 'deviceCode.audit.pending' },
      { value: '1', label: 'deviceCode.audit.agree' },
      { value: '2', label: 'deviceCode.audit.disagree' },
    ] }, readOnly: true },
    // the list answers a boolean
    keyIssued: { label: 'deviceCode.field.keyIssued', kind: 'string', schema: z.string(), widget: { kind: 'options', options: [
      { value: 'true', label: 'deviceCode.key.issued' },
      { value: 'false', label: 'deviceCode.key.none' },
    ] }, readOnly: true },
    auditBy: field.text('deviceCode.field.auditBy', 64, { readOnly: true }),
    auditTime: field.datetime('deviceCode.field.auditTime', { readOnly: true }),
    remark: field.text('deviceCode.field.remark', 500),
    tenantId: field.dict('deviceCode.field.tenantId', TENANT_DICT, { schema: idSchema, readOnly: true }),
  },
  columns: ['sn', 'activationCode', 'authorizationCode', 'auditStatus', 'keyIssued', 'auditTime', 'createTime'],
  detailFields: ['auditBy', 'remark', 'tenantId'],
  search: { sn: 'exact', auditStatus: 'exact' },
  sortable: [],
  defaultSort: { field: 'createTime', order: 'desc' },
  tenantScoped: true,
  actions: ['list', 'add', 'delete'],
  extraActions: ['audit'],
  rowCommands: [
    { name: 'agree', label: 'deviceCode.agree', permission: 'audit', method: 'PUT', path: '/sysDeviceCode/audit', params: { auditStatus: 1 }, confirm: 'deviceCode.agreeConfirm', showResult: 'deviceKey' },
    { name: 'disagree', label: 'deviceCode.disagree', permission: 'audit', method: 'PUT', path: '/sysDeviceCode/audit', params: { auditStatus: 2 }, confirm: 'deviceCode.disagreeConfirm', danger: true },
  ],
};

/** Every declared (engine) screen of the device area. */
export const deviceEntities: readonly EntityDeclaration[] = [deviceTypeEntity, areaEntity, deviceEntity];

/** Device calls beyond the generic ones (SPEC section 7). */
export const DevicePath = {
  /** GET: `{ records: [{ id, title, sn }], capDevice }` — the caller's devices and the current capture device */
  captureList: '/sysDevice/capturelist',
  /** GET `?id=`: the capture device of the caller's tenant; refused when the device is offline */
  setCapture: '/sysDevice/setCapture',
  /** POST `{ id }`: sends the device a new key over the link (refused when it is offline) */
  rotateKey: '/sysDevice/rotateKey',
  /** POST `{ id }`: the device's key stops working at once and the device is disconnected */
  revokeKey: '/sysDevice/revokeKey',
} as const;

export interface CaptureDeviceList {
  records: Array<{ id: string; title: string; sn: string }>;
  capDevice: string | null;
}

/** Texts of the device screens' labels and console texts, merged into `entityLabels`. */
export const deviceLabels: Record<string, readonly [enUS: string, zhCN: string, jaJP: string]> = {
  'deviceType.title': ['Device types', '设备类型', 'デバイス種別'],
  'deviceType.field.name': ['Type name', '类型名称', '種別名'],
  'deviceType.field.manufacturerId': ['Manufacturer', '厂商', 'メーカー'],
  'deviceType.field.deviceModel': ['Device model', '设备型号', 'デバイス型番'],
  'deviceType.field.status': ['Status', '状态', '状態'],
  'deviceType.field.handler': ['Handler', '处理程序', 'ハンドラー'],
  'deviceType.field.tenantId': ['Tenant', '租户', 'テナント'],
  'deviceType.handler.accessController': ['Access controller', '门禁控制器', '入退室コントローラー'],
  'deviceType.handler.abDoorController': ['AB door controller', 'AB门控制器', 'ABドアコントローラー'],
  'deviceType.handler.veinReader': ['Palm-vein reader', '掌静脉读取器', '手のひら静脈リーダー'],
  'deviceType.handler.cabinetController': ['Cabinet controller', '储物柜控制器', 'ロッカーコントローラー'],
  'deviceType.handler.quakeSensor': ['Earthquake sensor', '地震传感器', '地震センサー'],
  'deviceType.handler.camera': ['Camera', '摄像头', 'カメラ'],
  'area.title': ['Areas', '区域管理', 'エリア管理'],
  'area.field.areaName': ['Area name', '区域名称', 'エリア名'],
  'area.field.parentArea': ['Parent area', '上级区域', '親エリア'],
  'area.field.address': ['Address', '地址', '住所'],
  'area.field.remark': ['Remarks', '备注', '備考'],
  'device.title': ['Device list', '设备列表', 'デバイス一覧'],
  'device.field.deviceName': ['Device name', '设备名称', 'デバイス名'],
  'device.field.sn': ['Serial number', '序列号', 'シリアル番号'],
  'device.field.mac': ['MAC address', 'MAC地址', 'MACアドレス'],
  'device.field.ip': ['IP address', 'IP地址', 'IPアドレス'],
  'device.field.gateway': ['Gateway', '网关', 'ゲートウェイ'],
  'device.field.subnetMask': ['Subnet mask', '子网掩码', 'サブネットマスク'],
  'device.field.tenantId': ['Tenant', '租户', 'テナント'],
  'device.field.systemType': ['System', '所属系统', 'システム'],
  'device.field.deviceKind': ['Device kind', '设备种类', 'デバイス区分'],
  'device.field.deviceModel': ['Device model', '设备型号', 'デバイス型番'],
  'device.field.backgroundImage': ['Background image', '背景图片', '背景画像'],
  'device.field.location': ['Location', '位置', '設置場所'],
  'device.field.areaId': ['Area', '所属区域', 'エリア'],
  'device.field.online': ['Network status', '网络状态', 'ネットワーク状態'],
  'device.field.syncMode': ['Data sync mode', '数据同步模式', 'データ同期モード'],
  'device.syncMode.increment': ['Increment (changes only)', '增量（仅下发变化）', '増分（変更分のみ）'],
  'device.syncMode.full': ['Full (whole list each time)', '全量（每次下发全部）', '全件（毎回すべて）'],
  'device.field.syncState': ['Sync status', '同步状态', '同期状態'],
  'device.field.syncPending': ['Changes waiting', '待同步变更', '未反映の変更'],
  'device.field.syncReason': ['Sync failure reason', '同步失败原因', '同期失敗の理由'],
  'device.field.syncAlignedTime': ['Last aligned', '最近对齐时间', '最終同期日時'],
  'device.syncState.inSync': ['In sync', '已同步', '同期済み'],
  'device.syncState.pending': ['Pending', '待同步', '同期待ち'],
  'device.syncState.failed': ['Failed', '同步失败', '同期失敗'],
  'device.system.abDoor': ['AB door', 'AB门', 'ABドア'],
  'device.system.access': ['Access control', '门禁', '入退室管理'],
  'device.system.storage': ['Storage', '储物柜', '保管庫'],
  'device.system.quake': ['Earthquake alarm', '地震报警', '地震警報'],
  'device.system.ks': ['Key cabinet', '钥匙柜', 'キーキャビネット'],
  'device.location.inside': ['Inside', '内部', '内側'],
  'device.location.outside': ['Outside', '外部', '外側'],
  'device.online': ['Online', '在线', 'オンライン'],
  'device.offline': ['Offline', '离线', 'オフライン'],
  'device.deleteWarning': [
    'Deleting a device clears all of its cabinet and personnel allocation data.',
    '删除设备将清除该设备的所有储物柜和人员分配数据。',
    'デバイスを削除すると、そのデバイスのロッカーと人員の割り当てデータがすべて消去されます。',
  ],
  'device.setCapture': ['Set as capture device', '设为采集设备', '取得デバイスに設定'],
  'device.syncPeople': ['Sync people', '同步人员', '人員を同期'],
  'device.rotateKey': ['Rotate key', '更换密钥', 'キーを更新'],
  'device.revokeKey': ['Revoke key', '吊销密钥', 'キーを失効'],
  'device.rotateKeyConfirm': [
    'Send {{name}} a new device key? Its current key stops working once the device confirms the new one.',
    '向 {{name}} 下发新的设备密钥？设备确认新密钥后，当前密钥即失效。',
    '{{name}} に新しいデバイスキーを送信しますか？デバイスが新しいキーを確認すると、現在のキーは使えなくなります。',
  ],
  'device.revokeKeyConfirm': [
    'Revoke the key of {{name}} now? The device is disconnected and cannot sign in until its code is approved again.',
    '立即吊销 {{name}} 的密钥？设备将被断开，在设备码重新审核通过前无法登录。',
    '{{name}} のキーを今すぐ失効させますか？デバイスは切断され、コードが再承認されるまでサインインできません。',
  ],
  'device.captureDevice': ['Capture device', '采集设备', '取得デバイス'],
  'device.captureNone': ['None', '未设置', '未設定'],
  'crud.imageTooLarge': ['The image must be smaller than {{size}} KB', '图片必须小于 {{size}} KB', '画像は {{size}} KB 未満にしてください'],
  'crud.imageUpload': ['Upload image', '上传图片', '画像をアップロード'],
  'crud.imageRemove': ['Remove image', '移除图片', '画像を削除'],
  'deviceCode.title': ['Device codes', '设备激活码', 'デバイスコード'],
  'deviceCode.field.sn': ['Serial number', '序列号', 'シリアル番号'],
  'deviceCode.field.activationCode': ['Activation code', '激活码', 'アクティベーションコード'],
  'deviceCode.field.authorizationCode': ['Authorization code', '授权码', '認可コード'],
  'deviceCode.field.auditStatus': ['Audit result', '审核结果', '審査結果'],
  'deviceCode.field.keyIssued': ['Key issued', '已发放密钥', '鍵発行済み'],
  'deviceCode.field.auditBy': ['Audited by', '审核人', '審査者'],
  'deviceCode.field.auditTime': ['Audited at', '审核时间', '審査日時'],
  'deviceCode.field.remark': ['Remarks', '备注', '備考'],
  'deviceCode.field.tenantId': ['Tenant', '租户', 'テナント'],
  'deviceCode.audit.pending': ['Pending', '待审核', '審査待ち'],
  'deviceCode.audit.agree': ['Agreed', '已同意', '承認済み'],
  'deviceCode.audit.disagree': ['Disagreed', '已拒绝', '却下'],
  'deviceCode.key.issued': ['Issued', '已发放', '発行済み'],
  'deviceCode.key.none': ['Not issued', '未发放', '未発行'],
  'deviceCode.agree': ['Agree', '同意', '承認'],
  'deviceCode.disagree': ['Disagree', '拒绝', '却下'],
  'deviceCode.agreeConfirm': [
    'Agree to device {{name}}? A new device key is issued and shown once; any earlier key stops working.',
    '同意设备 {{name}}？将发放新的设备密钥（仅显示一次），之前的密钥随即失效。',
    'デバイス {{name}} を承認しますか？新しいデバイス鍵が発行され一度だけ表示されます。以前の鍵は使えなくなります。',
  ],
  'deviceCode.disagreeConfirm': [
    'Disagree to device {{name}}? Its key is withdrawn and it can no longer connect.',
    '拒绝设备 {{name}}？其密钥将被收回，设备将无法再连接。',
    'デバイス {{name}} を却下しますか？鍵は取り消され、接続できなくなります。',
  ],
  'deviceCode.deviceKey': ['Device key (shown only now)', '设备密钥（仅显示这一次）', 'デバイス鍵（今回のみ表示）'],
};
