import { timeSettingTextSchema } from '../access/time-setting.ts';
import { DoorSchedulePath } from '../door-schedule.ts';
import type { EntityDeclaration } from './declaration.ts';
import { field, textSchema } from './fields.ts';

/**
 * Door schedules: which doors stand unlocked when (the time-setting rules of the device roles: periods, weekdays,
 * dates), while enabled. Locked outside the periods and on holidays; the emergency overrides them.
 */
export const doorScheduleEntity: EntityDeclaration = {
  name: 'doorSchedule',
  title: 'doorSchedule.title',
  basePath: '/doorSchedule',
  permissionPrefix: 'device:doorSchedule',
  component: 'device/doorSchedule',
  labelField: 'scheduleName',
  fields: {
    scheduleName: { label: 'doorSchedule.field.scheduleName', kind: 'string', schema: textSchema(50, 1), widget: { kind: 'input' }, required: true },
    doorIds: field.links('doorSchedule.field.doorIds', { entity: 'door' }, 'doorName', { choosableFrom: DoorSchedulePath.bindableDoors }),
    timeSetting: { label: 'doorSchedule.field.timeSetting', kind: 'json', schema: timeSettingTextSchema, widget: { kind: 'timeSetting' }, required: true, defaultValue: '{"mode":"custom","periods":[{"start":"08:00","end":"18:00"}],"days":["weekday"]}' },
    enabled: field.integer('doorSchedule.field.enabled', 0, 1, { widget: { kind: 'switch' }, defaultValue: 1 }),
    remark: field.text('doorSchedule.field.remark', 500),
  },
  columns: ['scheduleName', 'doorIds', 'timeSetting', 'enabled', 'createTime'],
  phoneColumns: ['scheduleName', 'doorIds', 'enabled'],
  detailFields: ['remark'],
  search: { scheduleName: 'contains', doorIds: 'exact', enabled: 'exact' },
  sortable: ['scheduleName', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [{ field: 'scheduleName', message: 'duplicate.doorScheduleName' }],
  tenantScoped: true,
};

export const doorScheduleEntities: readonly EntityDeclaration[] = [doorScheduleEntity];

/** Texts of the door schedule screen, merged into `entityLabels`. */
export const doorScheduleLabels: Record<string, readonly [enUS: string, zhCN: string, jaJP: string]> = {
  'doorSchedule.title': ['Door schedules', '门常开计划', 'ドアスケジュール'],
  'doorSchedule.field.scheduleName': ['Schedule name', '计划名称', 'スケジュール名'],
  'doorSchedule.field.doorIds': ['Doors', '门', 'ドア'],
  'doorSchedule.field.timeSetting': ['Unlocked during', '常开时间', '解錠時間'],
  'doorSchedule.field.enabled': ['Enabled', '启用', '有効'],
  'doorSchedule.field.remark': ['Remark', '备注', '備考'],
};
