import * as z from 'zod';
import { timeSettingTextSchema } from '../access/time-setting.ts';
import type { EntityDeclaration } from './declaration.ts';
import { field, textSchema } from './fields.ts';

/** Device role types (dictionary `device_role_type`): door access, device manager, attendance, patrol. */
export const DEVICE_ROLE_TYPES = ['1', '2', '3', '4'] as const;
export const DEVICE_ROLE_TYPE_DICT = 'device_role_type';

export const DeviceRolePath = {
  /** GET `?roleType=`: every device role of the caller's tenant for pickers, `[{ id, roleName, roleType }]` */
  queryall: '/deviceRole/queryall',
  /** GET `?userid=`: the ids of the device roles a user holds (listed among the role's users) */
  queryUserRole: '/deviceRole/queryUserRole',
  /** GET `?target=area|device|door`: the ids the caller may bind through a device role, or null for any */
  bindable: '/deviceRole/bindable',
} as const;

/** What a device role binds, as `DeviceRolePath.bindable` names it. */
export const DEVICE_ROLE_TARGETS = ['area', 'device', 'door'] as const;
export type DeviceRoleTarget = (typeof DEVICE_ROLE_TARGETS)[number];
const bindable = (target: DeviceRoleTarget) => `${DeviceRolePath.bindable}?target=${target}`;

/** A device role as a picker lists it. */
export interface DeviceRoleOption {
  id: string;
  roleName: string;
  roleType: string;
  roleType_dictText: string;
}

/**
 * Device roles (SPEC sections 3 and 6): who (users, the users of groups, people) may use which areas, devices and
 * doors, when (the time setting). Keys get their field with the key screen; their link table (sys_device_role_key) is
 * there already.
 */
export const deviceRoleEntity: EntityDeclaration = {
  name: 'deviceRole',
  title: 'deviceRole.title',
  basePath: '/deviceRole',
  permissionPrefix: 'device:deviceRole',
  component: 'device/deviceRole',
  labelField: 'roleName',
  fields: {
    roleName: { label: 'deviceRole.field.roleName', kind: 'string', schema: textSchema(30, 2), widget: { kind: 'input' }, required: true },
    roleType: field.dict('deviceRole.field.roleType', DEVICE_ROLE_TYPE_DICT, { required: true, defaultValue: '1', schema: z.enum(DEVICE_ROLE_TYPES, { error: 'validation.invalid' }) }),
    areaIds: field.links('deviceRole.field.areaIds', { entity: 'area' }, 'areaName', { widget: { kind: 'treeSelect', entity: 'area', multiple: true }, choosableFrom: bindable('area') }),
    deviceIds: field.links('deviceRole.field.deviceIds', { entity: 'device' }, 'deviceName', { choosableFrom: bindable('device') }),
    doorIds: field.links('deviceRole.field.doorIds', { entity: 'door' }, 'doorName', { choosableFrom: bindable('door') }),
    departIds: field.links('deviceRole.field.departIds', { entity: 'depart' }, 'departName', { widget: { kind: 'treeSelect', entity: 'depart', multiple: true } }),
    userIds: field.links('deviceRole.field.userIds', { entity: 'user' }, 'username'),
    peopleIds: field.links('deviceRole.field.peopleIds', { entity: 'people' }, 'name'),
    timeSetting: { label: 'deviceRole.field.timeSetting', kind: 'json', schema: timeSettingTextSchema, widget: { kind: 'timeSetting' }, required: true, defaultValue: '{"mode":"permanent"}' },
    remark: field.text('deviceRole.field.remark', 500),
  },
  columns: ['roleName', 'roleType', 'areaIds', 'deviceIds', 'doorIds', 'departIds', 'userIds', 'peopleIds', 'timeSetting', 'createTime'],
  detailFields: ['remark'],
  search: { roleName: 'contains', roleType: 'exact', areaIds: 'exact', deviceIds: 'exact', doorIds: 'exact', departIds: 'exact', userIds: 'exact', peopleIds: 'exact' },
  sortable: ['roleName', 'roleType', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [{ field: 'roleName', message: 'duplicate.deviceRoleName' }],
  tenantScoped: true,
};

/** Texts of the device role screen and its time-setting editor, merged into `entityLabels`. */
export const deviceRoleLabels: Record<string, readonly [enUS: string, zhCN: string, jaJP: string]> = {
  'deviceRole.title': ['Device roles', '设备角色', 'デバイスロール'],
  'deviceRole.field.roleName': ['Role name', '角色名称', 'ロール名'],
  'deviceRole.field.roleType': ['Role type', '角色类型', 'ロール種別'],
  'deviceRole.field.areaIds': ['Areas', '绑定区域', 'エリア'],
  'deviceRole.field.deviceIds': ['Devices', '绑定设备', 'デバイス'],
  'deviceRole.field.doorIds': ['Doors', '绑定门', 'ドア'],
  'deviceRole.field.departIds': ['Groups', '绑定部门', 'グループ'],
  'deviceRole.field.userIds': ['Users', '用户', 'ユーザー'],
  'deviceRole.field.peopleIds': ['People', '人员', '人員'],
  'deviceRole.field.timeSetting': ['Time setting', '时间设置', '時間設定'],
  'deviceRole.field.remark': ['Remark', '备注', '備考'],
  'timeSetting.permanent': ['Permanent', '永久', '無期限'],
  'timeSetting.custom': ['Custom', '自定义', 'カスタム'],
  'timeSetting.dates': ['Dates', '日期范围', '期間'],
  'timeSetting.startDate': ['From', '开始日期', '開始日'],
  'timeSetting.endDate': ['To', '结束日期', '終了日'],
  'timeSetting.periods': ['Time periods', '时间段', '時間帯'],
  'timeSetting.periodStart': ['Start', '开始', '開始'],
  'timeSetting.periodEnd': ['End', '结束', '終了'],
  'timeSetting.nextDay': ['next day', '次日', '翌日'],
  'timeSetting.addPeriod': ['Add a period', '添加时间段', '時間帯を追加'],
  'timeSetting.removePeriod': ['Remove the period', '删除时间段', '時間帯を削除'],
  'timeSetting.allDay': ['All day', '全天', '終日'],
  'timeSetting.days': ['Days', '日期类型', '曜日種別'],
  'timeSetting.everyDay': ['Every day', '每天', '毎日'],
  'timeSetting.day.weekday': ['Weekdays (Mon–Fri)', '工作日（周一至周五）', '平日（月〜金）'],
  'timeSetting.day.weekend': ['Weekends (Sat–Sun)', '周末（周六、周日）', '週末（土・日）'],
  'timeSetting.day.workday': ['Workdays (weekdays that are not holidays)', '上班日（非节假日的工作日）', '出勤日（祝日を除く平日）'],
  'timeSetting.unreadable': ['Unreadable time setting', '无法识别的时间设置', '読み取れない時間設定'],
};
