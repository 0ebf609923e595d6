import { timeSettingTextSchema } from '../access/time-setting.ts';
import { KeyStatus, MAX_KEY_SLOTS } from '../keys.ts';
import type { EntityDeclaration } from './declaration.ts';
import { field, integerSchema, textSchema } from './fields.ts';
import { deviceRef, entityRef } from './storage-entities.ts';

/**
 * Keys of the key cabinets (SPEC section 2 "ks"): each in a slot of a key-cabinet device, with a name and a
 * description. Where a key is, who holds it and since when come from the device's events, never from the form.
 */
export const keyEntity: EntityDeclaration = {
  name: 'key',
  title: 'key.title',
  basePath: '/ks/key',
  permissionPrefix: 'ks:key',
  component: 'ks/key',
  labelField: 'keyName',
  fields: {
    keyName: field.text('key.field.keyName', 50, { required: true }),
    deviceId: deviceRef('key.field.deviceId', { required: true }),
    slotNo: field.integer('key.field.slotNo', 1, MAX_KEY_SLOTS, { required: true }),
    status: {
      label: 'key.field.status',
      kind: 'integer',
      schema: integerSchema(0, 1),
      widget: { kind: 'options', options: Object.entries(KeyStatus).map(([name, value]) => ({ value: String(value), label: `key.status.${name}` })) },
      readOnly: true,
    },
    holderId: entityRef('key.field.holderId', 'people', 'name', { readOnly: true }),
    takenTime: field.datetime('key.field.takenTime', { readOnly: true }),
    overdue: field.integer('key.field.overdue', 0, 1, { widget: { kind: 'switch' }, readOnly: true }),
    releaseInEmergency: field.integer('key.field.releaseInEmergency', 0, 1, { widget: { kind: 'switch' }, defaultValue: 0 }),
    description: field.text('key.field.description', 500),
  },
  columns: ['keyName', 'deviceId', 'slotNo', 'status', 'holderId', 'takenTime', 'overdue', 'releaseInEmergency'],
  phoneColumns: ['keyName', 'status', 'holderId'],
  detailFields: ['description'],
  search: { keyName: 'contains', deviceId: 'exact', status: 'exact', holderId: 'exact', overdue: 'exact' },
  sortable: ['keyName', 'slotNo', 'status', 'takenTime'],
  defaultSort: { field: 'slotNo', order: 'asc' },
  unique: [
    { field: 'slotNo', within: ['deviceId'], message: 'duplicate.keySlot' },
    { field: 'keyName', message: 'duplicate.keyName' },
  ],
  tenantScoped: true,
  deleteWarning: 'key.deleteWarning',
  // a take or a return shows in an open list without a reload
  reloadOn: ['keyState'],
};

/** Key people: the people who may take keys at all (a key role then says which keys, and when). */
export const keyPeopleEntity: EntityDeclaration = {
  name: 'keyPeople',
  title: 'keyPeople.title',
  basePath: '/ks/keyPeople',
  permissionPrefix: 'ks:keyPeople',
  component: 'ks/keyPeople',
  labelField: 'peopleId',
  fields: {
    peopleId: entityRef('keyPeople.field.peopleId', 'people', 'name', { required: true }),
    remark: field.text('keyPeople.field.remark', 500),
  },
  columns: ['peopleId', 'remark', 'createTime'],
  search: { peopleId: 'exact' },
  sortable: ['createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [{ field: 'peopleId', message: 'duplicate.keyPeople' }],
  tenantScoped: true,
};

/**
 * Key roles: device roles of the key kind (SPEC section 3). They give keys to people, directly, through their group or
 * as users (the person whose user number is the user's work number),
 * with the time settings of the access roles; a key taken outside every window of its holder's roles, or kept past
 * its end, is overdue.
 */
export const keyRoleEntity: EntityDeclaration = {
  name: 'keyRole',
  title: 'keyRole.title',
  basePath: '/ks/role',
  permissionPrefix: 'ks:role',
  component: 'ks/role',
  labelField: 'roleName',
  fields: {
    roleName: { label: 'deviceRole.field.roleName', kind: 'string', schema: textSchema(30, 2), widget: { kind: 'input' }, required: true },
    keyIds: field.links('keyRole.field.keyIds', { entity: 'key' }, 'keyName'),
    departIds: field.links('deviceRole.field.departIds', { entity: 'depart' }, 'departName', { widget: { kind: 'treeSelect', entity: 'depart', multiple: true } }),
    peopleIds: field.links('deviceRole.field.peopleIds', { entity: 'people' }, 'name'),
    // a user holds the key as the person whose user number is the user's work number
    userIds: field.links('deviceRole.field.userIds', { entity: 'user' }, 'username'),
    timeSetting: { label: 'deviceRole.field.timeSetting', kind: 'json', schema: timeSettingTextSchema, widget: { kind: 'timeSetting' }, required: true, defaultValue: '{"mode":"permanent"}' },
    remark: field.text('deviceRole.field.remark', 500),
  },
  columns: ['roleName', 'keyIds', 'departIds', 'peopleIds', 'userIds', 'timeSetting', 'createTime'],
  detailFields: ['remark'],
  search: { roleName: 'contains', keyIds: 'exact', departIds: 'exact', peopleIds: 'exact', userIds: 'exact' },
  sortable: ['roleName', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [{ field: 'roleName', message: 'duplicate.deviceRoleName' }],
  tenantScoped: true,
};

export const keyEntities: readonly EntityDeclaration[] = [keyEntity, keyPeopleEntity, keyRoleEntity];

/** Texts of the key screens, merged into `entityLabels`. */
export const keyLabels: Record<string, readonly [enUS: string, zhCN: string, jaJP: string]> = {
  'key.title': ['Keys', '钥匙管理', 'キー管理'],
  'key.field.keyName': ['Key name', '钥匙名称', 'キー名'],
  'key.field.deviceId': ['Key cabinet', '钥匙柜', 'キーキャビネット'],
  'key.field.slotNo': ['Slot', '钥匙位', 'スロット'],
  'key.field.status': ['Status', '状态', '状態'],
  'key.field.holderId': ['Held by', '持有人', '持ち出し者'],
  'key.field.takenTime': ['Taken at', '取出时间', '持ち出し日時'],
  'key.field.overdue': ['Overdue', '逾期未还', '返却期限切れ'],
  'key.field.releaseInEmergency': ['Release in emergency', '紧急时开启', '緊急時に開放'],
  'key.field.description': ['Description', '描述', '説明'],
  'key.status.inCabinet': ['In the cabinet', '在柜', '保管中'],
  'key.status.taken': ['Taken', '已取出', '持ち出し中'],
  'key.deleteWarning': ['Deleting a key removes it from the cabinet’s list and from every key role.', '删除钥匙会将其从钥匙柜的名单和所有钥匙角色中移除。', 'キーを削除すると、キャビネットの一覧とすべてのキーロールから外れます。'],
  'key.history': ['History', '取还记录', '履歴'],
  'key.historyTitle': ['History of {{name}}', '{{name}} 的取还记录', '{{name}} の履歴'],
  'key.historyEmpty': ['Not taken yet', '尚未被取出', 'まだ持ち出されていません'],
  'key.history.takeTime': ['Taken at', '取出时间', '持ち出し日時'],
  'key.history.returnTime': ['Returned at', '归还时间', '返却日時'],
  'key.history.people': ['Person', '人员', '人員'],
  'key.history.idCard': ['ID card', '卡号', 'IDカード'],
  'key.history.overdueTime': ['Overdue since', '逾期时间', '期限切れ日時'],
  'key.history.notReturned': ['Not returned', '未归还', '未返却'],
  'keyPeople.title': ['Key people', '钥匙人员', 'キー利用者'],
  'keyPeople.field.peopleId': ['Person', '人员', '人員'],
  'keyPeople.field.remark': ['Remark', '备注', '備考'],
  'keyRole.title': ['Key roles', '钥匙角色', 'キーロール'],
  'keyRole.field.keyIds': ['Keys', '钥匙', 'キー'],
};
