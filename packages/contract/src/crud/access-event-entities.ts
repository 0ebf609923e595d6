import * as z from 'zod';
import { idSchema } from '../ids.ts';
import type { EntityDeclaration } from './declaration.ts';
import { field } from './fields.ts';

/** What an access event is: a person let through, a person refused, or a door changing state. */
export const ACCESS_EVENT_KINDS = ['opening', 'denial', 'doorState'] as const;
export type AccessEventKind = (typeof ACCESS_EVENT_KINDS)[number];

/** 1 passed, 0 refused (door states have none). */
export const AccessResult = { passed: 1, refused: 0 } as const;

/**
 * What the server decides of an opening or a denial, with the contract's time-setting evaluator and the person's
 * door-access device roles at the event's device time: allowed, refused, or unknown when the device named nobody.
 */
export const ServerVerdict = { allowed: 'allowed', refused: 'refused', unknown: 'unknown' } as const;
export type ServerVerdict = (typeof ServerVerdict)[keyof typeof ServerVerdict];
export const SERVER_VERDICTS = Object.values(ServerVerdict);
/** The alarm code of an opening the server would have refused (one alarm per such event). */
export const SERVER_REFUSED_OPENING_ALARM = 'serverRefusedOpening';

/**
 * Access events (openings, denials and door states the devices report), stored by the gateway as they come: listed with
 * filters by person, door, device, time and result, and exported. Card numbers are never stored whole here: a device's
 * card is turned into the person it belongs to, and kept masked.
 */
export const accessEventEntity: EntityDeclaration = {
  name: 'accessEvent',
  title: 'accessEvent.title',
  basePath: '/sysAccessEvent',
  permissionPrefix: 'device:accessEvent',
  component: 'device/accessEvent',
  table: 'sys_access_event',
  labelField: 'eventTime',
  fields: {
    eventTime: field.datetime('accessEvent.field.eventTime', { readOnly: true }),
    kind: {
      label: 'accessEvent.field.kind',
      kind: 'string',
      schema: z.enum(ACCESS_EVENT_KINDS),
      widget: { kind: 'options', options: ACCESS_EVENT_KINDS.map((k) => ({ value: k, label: `accessEvent.kind.${k}` })) },
      readOnly: true,
    },
    result: {
      label: 'accessEvent.field.result',
      kind: 'integer',
      schema: z.number().int().min(0).max(1),
      widget: { kind: 'options', options: [{ value: '1', label: 'accessEvent.result.passed' }, { value: '0', label: 'accessEvent.result.refused' }] },
      readOnly: true,
    },
    peopleId: { label: 'accessEvent.field.peopleId', kind: 'string', schema: idSchema, widget: { kind: 'entitySelect', entity: 'people', labelField: 'name' }, readOnly: true, references: { entity: 'people' } },
    doorId: { label: 'accessEvent.field.doorId', kind: 'string', schema: idSchema, widget: { kind: 'entitySelect', entity: 'door', labelField: 'doorName' }, readOnly: true, references: { entity: 'door' } },
    deviceId: { label: 'accessEvent.field.deviceId', kind: 'string', schema: idSchema, widget: { kind: 'entitySelect', entity: 'device', labelField: 'deviceName' }, readOnly: true, references: { entity: 'device' } },
    doorNo: field.integer('accessEvent.field.doorNo', 0, 64, { readOnly: true }),
    method: field.text('accessEvent.field.method', 16, { readOnly: true }),
    detail: field.text('accessEvent.field.detail', 32, { readOnly: true }),
    // the card shown at the door (an unknown or refused one too), masked: the whole number is never stored
    cardNoMasked: field.text('accessEvent.field.cardNoMasked', 32, { readOnly: true }),
    serverVerdict: {
      label: 'accessEvent.field.serverVerdict',
      kind: 'string',
      schema: z.enum(SERVER_VERDICTS),
      widget: { kind: 'options', options: SERVER_VERDICTS.map((v) => ({ value: v, label: `accessEvent.verdict.${v}` })) },
      readOnly: true,
    },
    // 1: the device let someone through whom the server would have refused
    flagged: {
      label: 'accessEvent.field.flagged',
      kind: 'integer',
      schema: z.number().int().min(0).max(1),
      widget: { kind: 'options', options: [{ value: '1', label: 'accessEvent.flagged.yes' }, { value: '0', label: 'accessEvent.flagged.no' }] },
      readOnly: true,
    },
  },
  columns: ['eventTime', 'kind', 'result', 'serverVerdict', 'flagged', 'peopleId', 'cardNoMasked', 'doorId', 'deviceId', 'method', 'detail'],
  // on a phone: when, who, and whether the server would have let them through
  phoneColumns: ['eventTime', 'peopleId', 'kind', 'serverVerdict', 'flagged'],
  search: { peopleId: 'exact', doorId: 'exact', deviceId: 'exact', kind: 'exact', result: 'exact', serverVerdict: 'exact', flagged: 'exact', eventTime: 'range' },
  sortable: ['eventTime', 'kind', 'result', 'createTime'],
  defaultSort: { field: 'eventTime', order: 'desc' },
  actions: ['list', 'export'],
  tenantScoped: true,
};

export const accessEventEntities: readonly EntityDeclaration[] = [accessEventEntity];

/** Texts of the access event screen, merged into `entityLabels`. */
export const accessEventLabels: Record<string, readonly [enUS: string, zhCN: string, jaJP: string]> = {
  'accessEvent.title': ['Access events', '通行记录', '入退室記録'],
  'accessEvent.field.eventTime': ['Time', '时间', '日時'],
  'accessEvent.field.kind': ['Event', '事件', 'イベント'],
  'accessEvent.field.result': ['Result', '结果', '結果'],
  'accessEvent.field.peopleId': ['Person', '人员', '人員'],
  'accessEvent.field.doorId': ['Door', '门', 'ドア'],
  'accessEvent.field.deviceId': ['Device', '设备', 'デバイス'],
  'accessEvent.field.doorNo': ['Door number', '门号', 'ドア番号'],
  'accessEvent.field.method': ['Method', '方式', '方式'],
  'accessEvent.field.detail': ['Detail', '详情', '詳細'],
  'accessEvent.field.cardNoMasked': ['Card', '卡号', 'カード'],
  'accessEvent.kind.opening': ['Opening', '开门', '開錠'],
  'accessEvent.kind.denial': ['Denied', '拒绝通行', '通行拒否'],
  'accessEvent.kind.doorState': ['Door state', '门状态', 'ドア状態'],
  'accessEvent.result.passed': ['Passed', '通过', '通過'],
  'accessEvent.result.refused': ['Refused', '拒绝', '拒否'],
  'accessEvent.field.serverVerdict': ['Server verdict', '服务器判定', 'サーバー判定'],
  'accessEvent.verdict.allowed': ['Allowed', '允许', '許可'],
  'accessEvent.verdict.refused': ['Refused', '拒绝', '拒否'],
  'accessEvent.verdict.unknown': ['Unknown person', '未知人员', '不明な人員'],
  'accessEvent.field.flagged': ['Flagged', '异常标记', '要確認'],
  'accessEvent.flagged.yes': ['Opened against the rules', '违规开门', '規則外の開錠'],
  'accessEvent.flagged.no': ['No', '否', 'なし'],
};
