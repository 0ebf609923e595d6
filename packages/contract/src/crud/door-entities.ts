import * as z from 'zod';
import { idSchema } from '../ids.ts';
import type { EntityDeclaration } from './declaration.ts';
import { field, textSchema, timeSchema } from './fields.ts';

/** A door's state as its device reports it (`doorState` events) and as `sys_door.state` keeps it. */
export const DoorState = { closed: 0, open: 1, alarm: 2 } as const;
export type DoorState = (typeof DoorState)[keyof typeof DoorState];

/** The state names of the device protocol (`{ door, state }` of a doorState event) by stored value. */
export const DOOR_STATE_NAMES = ['closed', 'open', 'alarm'] as const;
export type DoorStateName = (typeof DOOR_STATE_NAMES)[number];

export const DOOR_STATE_OPTIONS = DOOR_STATE_NAMES.map((name, value) => ({ value: String(value), label: `door.state.${name}` }));

/** Data of a `doorState` real-time message: the doors whose state changed (a device reports several at once). */
export interface DoorStateNotice {
  doors: Array<{ id: string; doorName: string; deviceId: string; state: DoorState; stateTime: string }>;
}

/** A door's row on the door status page: its state and whether its device is online. */
export interface DoorStatusRow {
  id: string;
  doorName: string;
  doorNo: number;
  deviceId: string;
  deviceName: string | null;
  deviceOnline: boolean;
  areaId: string | null;
  state: DoorState;
  stateTime: string | null;
}

export const DoorPath = {
  /** POST `{ id }`: queues an openDoor command for the door's device; answered when queued (`result.commandId`) */
  open: '/sysDoor/open',
  /** GET `?doorId=`: ids of the groups (departments) the door is bound to */
  deptIdsByDoorId: '/sysDoor/deptIdsByDoorId',
  /** GET `?id=`: the state of a queued command (pending, sent, acked, failed) */
  command: '/sysDoor/command',
  /** GET: every door of the caller's tenant with its state and its device's presence */
  status: '/sysDoor/status',
} as const;

export const DoorPerm = {
  list: 'device:door:list',
  open: 'device:door:open',
  statusView: 'device:doorStatus:view',
} as const;

/** The door screen: a door is one lock of a device (its door number), bound to groups whose people may pass. */
export const doorEntity: EntityDeclaration = {
  name: 'door',
  title: 'door.title',
  basePath: '/sysDoor',
  permissionPrefix: 'device:door',
  component: 'device/door',
  labelField: 'doorName',
  fields: {
    doorName: field.text('door.field.doorName', 100, { required: true }),
    deviceId: { label: 'door.field.deviceId', kind: 'string', schema: idSchema, widget: { kind: 'entitySelect', entity: 'device', labelField: 'deviceName' }, required: true, references: { entity: 'device' } },
    doorNo: field.integer('door.field.doorNo', 1, 64, { required: true, defaultValue: 1 }),
    areaId: { label: 'door.field.areaId', kind: 'string', schema: idSchema, widget: { kind: 'entitySelect', entity: 'area', labelField: 'areaName' }, references: { entity: 'area' } },
    state: { label: 'door.field.state', kind: 'integer', schema: z.number().int().min(0).max(2), widget: { kind: 'options', options: DOOR_STATE_OPTIONS }, readOnly: true, defaultValue: DoorState.closed },
    stateTime: field.datetime('door.field.stateTime', { readOnly: true }),
    departIds: field.links('door.field.departIds', { entity: 'depart' }, 'departName', { widget: { kind: 'treeSelect', entity: 'depart', multiple: true } }),
  },
  columns: ['doorName', 'deviceId', 'doorNo', 'areaId', 'state', 'stateTime', 'departIds'],
  search: { doorName: 'contains', deviceId: 'exact', areaId: 'exact', state: 'exact', departIds: 'exact' },
  sortable: ['doorName', 'doorNo', 'state', 'stateTime', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [{ field: 'doorNo', within: ['deviceId'], message: 'door.duplicateNo', global: true }],
  tenantScoped: true,
  extraActions: ['open'],
};

/** SPEC section 4: a setting's weight has one or two digits; below 5 it is a default. */
export const SETTING_DEFAULT_WEIGHT_BELOW = 5;
export const settingWeightSchema = z
  .number({ error: (issue) => (issue.code === 'invalid_type' ? 'validation.integer' : undefined) })
  .int({ error: 'validation.integer' })
  .min(0, { error: 'validation.settingWeight' })
  .max(99, { error: 'validation.settingWeight' });

/** Listen values: one or more values separated by `|`, none empty, no spaces around them. */
export const LISTEN_VALUE_PATTERN = /^[^|\s]+(\|[^|\s]+)*$/;
export const listenValueSchema = z.string().trim().max(500).regex(LISTEN_VALUE_PATTERN, { error: 'validation.listenValue' });

export function listenValues(text: string | null | undefined): string[] {
  return text ? text.split('|').filter(Boolean) : [];
}

/**
 * Device settings (SPEC sections 3 and 4): a parameter (field name and value) for the devices of an area and/or a
 * model, in force between its effective and invalid times. Of the settings of one field name that fit a device, the
 * heaviest applies; one weighing below 5 is a default and applies only where no other setting fits.
 */
export const deviceSettingEntity: EntityDeclaration = {
  name: 'deviceSetting',
  title: 'deviceSetting.title',
  basePath: '/sysDeviceSetting',
  permissionPrefix: 'device:deviceSetting',
  component: 'device/deviceSetting',
  labelField: 'paramsTitle',
  fields: {
    paramsTitle: field.text('deviceSetting.field.paramsTitle', 100, { required: true }),
    fieldName: { label: 'deviceSetting.field.fieldName', kind: 'string', schema: z.string().trim().regex(/^[A-Za-z][A-Za-z0-9_.]{0,63}$/, { error: 'validation.settingFieldName' }), widget: { kind: 'input' }, required: true },
    fieldValue: field.text('deviceSetting.field.fieldValue', 500, { required: true, widget: { kind: 'input' } }),
    effectiveTime: { label: 'deviceSetting.field.effectiveTime', kind: 'datetime', schema: timeSchema, widget: { kind: 'datetime' } },
    invalidTime: { label: 'deviceSetting.field.invalidTime', kind: 'datetime', schema: timeSchema, widget: { kind: 'datetime' } },
    weight: { label: 'deviceSetting.field.weight', kind: 'integer', schema: settingWeightSchema, widget: { kind: 'number', min: 0, max: 99 }, required: true, defaultValue: 5 },
    areaId: { label: 'deviceSetting.field.areaId', kind: 'string', schema: idSchema, widget: { kind: 'entitySelect', entity: 'area', labelField: 'areaName' }, references: { entity: 'area' } },
    deviceModel: { label: 'deviceSetting.field.deviceModel', kind: 'string', schema: textSchema(100), widget: { kind: 'input' } },
    listenValue: { label: 'deviceSetting.field.listenValue', kind: 'string', schema: listenValueSchema, widget: { kind: 'input' } },
  },
  columns: ['paramsTitle', 'fieldName', 'fieldValue', 'weight', 'areaId', 'deviceModel', 'listenValue', 'effectiveTime', 'invalidTime'],
  search: { paramsTitle: 'contains', fieldName: 'contains', deviceModel: 'contains', areaId: 'exact', weight: 'exact', effectiveTime: 'range' },
  sortable: ['paramsTitle', 'fieldName', 'weight', 'effectiveTime', 'invalidTime', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  tenantScoped: true,
};

export const DeviceSettingPath = {
  /** GET `?deviceId=`: the settings in force for a device, one per field name */
  effective: '/sysDeviceSetting/effective',
} as const;

export interface SettingCandidate {
  fieldName: string;
  fieldValue: string;
  weight: number;
  areaId: string | null;
  deviceModel: string | null;
  effectiveTime: string | null;
  invalidTime: string | null;
}

/**
 * The settings in force for a device at `now` (ISO): per field name, of the settings that fit the device's area and
 * model and are in their time window, the heaviest; a default (weight below 5) only when no configured one fits.
 */
export function effectiveSettings<T extends SettingCandidate>(settings: readonly T[], device: { areaId: string | null; deviceModel: string | null }, now: string): T[] {
  const at = Date.parse(now);
  const fits = (s: T) =>
    (s.areaId === null || s.areaId === device.areaId) &&
    (s.deviceModel === null || s.deviceModel === device.deviceModel) &&
    (s.effectiveTime === null || Date.parse(s.effectiveTime) <= at) &&
    (s.invalidTime === null || Date.parse(s.invalidTime) > at);
  const best = new Map<string, T>();
  for (const setting of settings.filter(fits)) {
    const current = best.get(setting.fieldName);
    if (!current || setting.weight > current.weight) best.set(setting.fieldName, setting);
  }
  return [...best.values()].sort((a, b) => a.fieldName.localeCompare(b.fieldName));
}

/** Every declared screen of the doors and device settings. */
export const doorEntities: readonly EntityDeclaration[] = [doorEntity, deviceSettingEntity];
