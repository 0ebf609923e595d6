import * as z from 'zod';
import { idSchema } from '../ids.ts';
import type { EntityDeclaration } from './declaration.ts';
import { field } from './fields.ts';

/** What an access event is: a person let through, or a person refused (door states are door events, `doorEventEntity`). */
export const ACCESS_EVENT_KINDS = ['opening', 'denial'] as const;
export type AccessEventKind = (typeof ACCESS_EVENT_KINDS)[number];

/** How a person was recognised at a door (the device protocol's `method`); another value a device names is shown as it is. */
export const ACCESS_METHODS = ['card', 'vein', 'palm', 'remote', 'password', 'face', 'qrCode', 'idCard'] as const;
/** Why a device refused someone (a denial's `reason`). */
export const DENIAL_REASONS = ['unknown', 'outsideTime', 'frozen', 'noPermission'] as const;

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
 * Access events (openings and denials the devices report), stored by the gateway as they come: listed with
 * filters by person, door, device, time and result, and exported. Card numbers are never stored whole here: a device's
 * card is turned into the person it belongs to, and kept masked.
 */
export const accessEventEntity: EntityDeclaration = {
  name: 'accessEvent',
  title: 'accessEvent.title',
  basePath: '/sysAccessEvent',
  permissionPrefix: 'device:accessEvent',
  component: 'device/accessEvent',
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
    method: { label: 'accessEvent.field.method', kind: 'string', schema: z.string().max(16), widget: { kind: 'options', options: ACCESS_METHODS.map((m) => ({ value: m, label: `accessEvent.method.${m}` })) }, readOnly: true },
    // a denial's reason
    detail: { label: 'accessEvent.field.detail', kind: 'string', schema: z.string().max(32), widget: { kind: 'options', options: DENIAL_REASONS.map((r) => ({ value: r, label: `accessEvent.reason.${r}` })) }, readOnly: true },
    // the card shown at the door (an unknown or refused one too), masked: the whole number is never stored
    cardNoMasked: field.text('accessEvent.field.cardNoMasked', 32, { readOnly: true }),
    serverVerdict: {
      label: 'accessEvent.field.serverVerdict',
      kind: 'string',
      schema: z.enum(SERVER_VERDICTS),
      widget: { kind: 'options', options: SERVER_VERDICTS.map((v) => ({ value: v, label: `accessEvent.verdict.${v}` })) },
      readOnly: true,
    },
    // 1: the device let someone through whom the server would have refused, or whom it does not know (an unknown card)
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

/** A door's state as a `doorState` event names it, by stored value (the device protocol's names). */
export const DOOR_EVENT_STATES = ['open', 'closed', 'alarm'] as const;

/**
 * Door events: the states the devices report of their doors (opened, closed, held open in alarm), kept apart from the
 * passages of people, each (device, seq) once.
 */
export const doorEventEntity: EntityDeclaration = {
  name: 'doorEvent',
  title: 'doorEvent.title',
  basePath: '/sysDoorEvent',
  permissionPrefix: 'device:doorEvent',
  component: 'device/doorEvent',
  labelField: 'eventTime',
  fields: {
    eventTime: field.datetime('doorEvent.field.eventTime', { readOnly: true }),
    doorId: { label: 'doorEvent.field.doorId', kind: 'string', schema: idSchema, widget: { kind: 'entitySelect', entity: 'door', labelField: 'doorName' }, readOnly: true, references: { entity: 'door' } },
    state: {
      label: 'doorEvent.field.state',
      kind: 'string',
      schema: z.enum(DOOR_EVENT_STATES),
      widget: { kind: 'options', options: DOOR_EVENT_STATES.map((s) => ({ value: s, label: `door.state.${s}` })) },
      readOnly: true,
    },
    deviceId: { label: 'doorEvent.field.deviceId', kind: 'string', schema: idSchema, widget: { kind: 'entitySelect', entity: 'device', labelField: 'deviceName' }, readOnly: true, references: { entity: 'device' } },
    doorNo: field.integer('doorEvent.field.doorNo', 0, 64, { readOnly: true }),
  },
  columns: ['eventTime', 'doorId', 'state', 'deviceId', 'doorNo'],
  phoneColumns: ['eventTime', 'doorId', 'state'],
  search: { doorId: 'exact', deviceId: 'exact', state: 'exact', eventTime: 'range' },
  sortable: ['eventTime', 'state', 'createTime'],
  defaultSort: { field: 'eventTime', order: 'desc' },
  actions: ['list', 'export'],
  tenantScoped: true,
};

export const accessEventEntities: readonly EntityDeclaration[] = [accessEventEntity, doorEventEntity];

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
  'accessEvent.method.card': ['Card', '刷卡', 'カード'],
  'accessEvent.method.vein': ['Palm vein', '掌静脉', '手のひら静脈'],
  'accessEvent.method.palm': ['Palm vein', '掌静脉', '手のひら静脈'],
  'accessEvent.method.remote': ['Remote open', '远程开门', 'リモート開錠'],
  'accessEvent.method.password': ['Password', '密码', 'パスワード'],
  'accessEvent.method.face': ['Face', '人脸', '顔認証'],
  'accessEvent.method.qrCode': ['QR code', '二维码', 'QRコード'],
  'accessEvent.method.idCard': ['ID card', '身份证', '身分証'],
  'accessEvent.reason.unknown': ['Unknown person or card', '未知人员或卡', '不明な人員またはカード'],
  'accessEvent.reason.outsideTime': ['Outside the allowed time', '不在允许时段', '許可時間外'],
  'accessEvent.reason.frozen': ['Person frozen', '人员已冻结', '凍結された人員'],
  'accessEvent.reason.noPermission': ['No access to this door', '无此门权限', 'このドアの権限なし'],
  'doorEvent.title': ['Door events', '门状态记录', 'ドア状態記録'],
  'doorEvent.field.eventTime': ['Time', '时间', '日時'],
  'doorEvent.field.doorId': ['Door', '门', 'ドア'],
  'doorEvent.field.state': ['State', '状态', '状態'],
  'doorEvent.field.deviceId': ['Device', '设备', 'デバイス'],
  'doorEvent.field.doorNo': ['Door number', '门号', 'ドア番号'],
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
