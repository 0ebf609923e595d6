import * as z from 'zod';
import { idSchema } from '../ids.ts';
import { ID_TYPES, IdType, VISIT_STATES, VisitState, VISITOR_CATEGORIES, VisitorStatus, idNumberCrossCheck, idNumberSchema, visitorPasswordSchema } from '../visitor.ts';
import type { EntityDeclaration } from './declaration.ts';
import { field, phoneSchema, textSchema } from './fields.ts';
import { peopleEntity } from './people-entities.ts';
import { entityRef } from './storage-entities.ts';

/** Option labels of the visitor categories (the same keys the visitor area uses). */
export const VISITOR_CATEGORY_OPTIONS = VISITOR_CATEGORIES.map((value) => ({
  value,
  label: `visitor.category${value.charAt(0).toUpperCase()}${value.slice(1)}`,
}));

export { visitorPasswordSchema };

// SPEC section 3: visitors and people have one field set, declared once (the people's); the card number is write-only
// and palm-vein templates are read by the device sync alone, exactly as for people
const personField = peopleEntity.fields;

/** Visitors as the staff see them: the records the visitor area signs in against (SPEC sections 2 to 5). */
export const visitorEntity: EntityDeclaration = {
  name: 'visitor',
  title: 'visitor.title',
  basePath: '/sysVistor',
  permissionPrefix: 'vistor:list',
  component: 'vistor/list',
  labelField: 'name',
  fields: {
    name: field.text('visitor.field.name', 100, { required: true }),
    idType: field.dict('visitor.field.idType', 'id_type', { schema: z.enum(ID_TYPES, { error: 'validation.invalid' }), required: true, defaultValue: IdType.resident }),
    // checked against idType by the server (visitor module); lists show only its last four characters
    idCard: { label: 'visitor.field.idCard', kind: 'string', schema: idNumberSchema, widget: { kind: 'input' }, required: true, maskedInLists: true, crossCheck: idNumberCrossCheck() },
    phone: { label: 'visitor.field.phone', kind: 'string', schema: phoneSchema, widget: { kind: 'input' }, required: true },
    category: { label: 'visitor.field.category', kind: 'string', schema: z.enum(VISITOR_CATEGORIES, { error: 'validation.invalid' }), widget: { kind: 'options', options: VISITOR_CATEGORY_OPTIONS }, required: true, defaultValue: 'general' },
    password: field.password('visitor.field.password', 8, { schema: visitorPasswordSchema, required: true }),
    // SPEC section 3: a visitor can be linked to a console user (the host he visits)
    userId: { label: 'visitor.field.userId', kind: 'string', schema: idSchema, widget: { kind: 'entitySelect', entity: 'user', labelField: 'realname' }, references: { entity: 'user' } },
    status: field.dictInteger('visitor.field.status', 'user_status', { readOnly: true, defaultValue: VisitorStatus.normal }),
    cardNo: personField.cardNo!,
    cardNoMasked: personField.cardNoMasked!,
    userNo: personField.userNo!,
    sex: personField.sex!,
    departId: personField.departId!,
    picture: personField.picture!,
    palmLeft: personField.palmLeft!,
    palmRight: personField.palmRight!,
    // the door-access device roles that bind the visitor, as they bind people
    roleIds: field.links('visitor.field.roleIds', { entity: 'deviceRole' }, 'roleName'),
  },
  // the list keeps to what the desk looks for; the rest of the person's fields show in the details
  columns: ['name', 'idType', 'idCard', 'phone', 'category', 'cardNoMasked', 'palmLeft', 'palmRight', 'userId', 'status', 'createTime'],
  detailFields: ['userNo', 'sex', 'departId', 'picture', 'roleIds'],
  search: { name: 'contains', idCard: 'exact', phone: 'contains', category: 'exact', userNo: 'contains', departId: 'exact', userId: 'exact', status: 'exact', createTime: 'range' },
  sortable: ['name', 'phone', 'category', 'status', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [
    { field: 'phone', message: 'duplicate.phone' },
    { field: 'idCard', message: 'duplicate.idCard' },
    { field: 'userNo', message: 'duplicate.userNo' },
    // the card number is write-only: the server checks it (duplicate.cardNo) across people and visitors
  ],
  tenantScoped: true,
  softDelete: { recycleBin: true },
  // issueCard and enroll: the arrivals desk (visitor-desk.ts)
  extraActions: ['frozen', 'issueCard', 'enroll'],
};

/**
 * Visits (SPEC section 3): a visitor, the user he visits (the host), a validity window and the doors it opens. The
 * devices of those doors hold the visitor inside the window only; the host is told of the first opening.
 */
export const visitEntity: EntityDeclaration = {
  name: 'visit',
  title: 'visit.title',
  basePath: '/vistor/visit',
  permissionPrefix: 'vistor:visit',
  component: 'vistor/visit',
  // a visit is named by when it starts (the visitor's name is a reference, not the visit's own)
  labelField: 'startTime',
  fields: {
    visitorId: entityRef('visit.field.visitorId', 'visitor', 'name', { required: true }),
    hostId: { label: 'visit.field.hostId', kind: 'string', schema: idSchema, widget: { kind: 'entitySelect', entity: 'user', labelField: 'realname' }, references: { entity: 'user' }, required: true },
    startTime: field.datetime('visit.field.startTime', { required: true }),
    endTime: field.datetime('visit.field.endTime', { required: true }),
    doorIds: field.links('visit.field.doorIds', { entity: 'door' }, 'doorName', { choosableFrom: '/deviceRole/bindable?target=door' }),
    remark: { label: 'visit.field.remark', kind: 'string', schema: textSchema(500), widget: { kind: 'textarea' } },
    firstOpenTime: field.datetime('visit.field.firstOpenTime', { readOnly: true }),
    // set by the visitor's request and the host's decision (approve, refuse), never by the form: staff visits are approved
    state: field.dict('visit.field.state', 'visit_state', { schema: z.enum(VISIT_STATES, { error: 'validation.invalid' }), readOnly: true, defaultValue: VisitState.approved }),
    refuseReason: { label: 'visit.field.refuseReason', kind: 'string', schema: textSchema(500), widget: { kind: 'textarea' }, readOnly: true },
  },
  columns: ['visitorId', 'hostId', 'state', 'startTime', 'endTime', 'doorIds', 'firstOpenTime', 'createTime'],
  detailFields: ['remark', 'refuseReason'],
  search: { visitorId: 'exact', hostId: 'exact', state: 'exact', doorIds: 'exact', startTime: 'range', endTime: 'range' },
  sortable: ['startTime', 'endTime', 'createTime'],
  defaultSort: { field: 'startTime', order: 'desc' },
  tenantScoped: true,
  // the host's decision on a visitor's request (VisitPath); desk: the arrivals desk (visitor-desk.ts): ID card look-up and the visit's pass
  extraActions: ['approve', 'refuse', 'desk'],
};

/** Staff calls of the visit screen beyond the generic ones: the host's (or a visit editor's) decision on a request. */
export const VisitPath = {
  /** PUT `{ id, doorIds? }`: approve a requested visit, opening the doors chosen (the grant checks of the form) */
  approve: '/vistor/visit/approve',
  /** PUT `{ id, reason? }`: refuse a requested visit */
  refuse: '/vistor/visit/refuse',
  /** GET: the doors of the tenant the caller may open to a visitor on approving (VisitDoorOption[]) */
  approvableDoors: '/vistor/visit/approvableDoors',
} as const;

export interface VisitDoorOption {
  id: string;
  doorName: string;
}

/** How a visitor signed in: the visitor area's login page, or a program calling the API. */
export const VISITOR_LOGIN_METHODS = ['login', 'api'] as const;

/** The "API login list" (SPEC section 2, `vistor/apiLogin`): each visitor sign-in, written by the server, read-only. */
export const visitorLoginEntity: EntityDeclaration = {
  name: 'visitorLogin',
  title: 'visitorLogin.title',
  basePath: '/vistor/apiLogin',
  permissionPrefix: 'vistor:apiLogin',
  component: 'vistor/apiLogin',
  labelField: 'visitorName',
  fields: {
    visitorName: field.text('visitorLogin.field.visitorName', 100, { readOnly: true }),
    accountMasked: field.text('visitorLogin.field.account', 64, { readOnly: true }),
    ip: field.text('visitorLogin.field.ip', 64, { readOnly: true }),
    method: { label: 'visitorLogin.field.method', kind: 'string', schema: z.enum(VISITOR_LOGIN_METHODS), widget: { kind: 'options', options: VISITOR_LOGIN_METHODS.map((value) => ({ value, label: `visitorLogin.method.${value}` })) }, readOnly: true },
    result: { label: 'visitorLogin.field.result', kind: 'integer', schema: z.number().int(), widget: { kind: 'options', options: [{ value: '1', label: 'visitorLogin.result.ok' }, { value: '0', label: 'visitorLogin.result.refused' }] }, readOnly: true },
  },
  columns: ['createTime', 'visitorName', 'accountMasked', 'ip', 'method', 'result'],
  search: { visitorName: 'contains', ip: 'contains', method: 'exact', result: 'exact', createTime: 'range' },
  sortable: ['createTime', 'visitorName', 'result'],
  defaultSort: { field: 'createTime', order: 'desc' },
  tenantScoped: true,
  actions: ['list', 'delete', 'export'],
};

/** Every declared screen of the visitor area. */
export const visitorEntities: readonly EntityDeclaration[] = [visitorEntity, visitEntity, visitorLoginEntity];

/** Staff calls of the visitor screen beyond the generic ones. */
export const VisitorAdminPath = {
  /** PUT `{ ids: 'a,b', status: 1 | 2 }`: thaw (1) or freeze (2); freezing ends their sessions */
  frozenBatch: '/sysVistor/frozenBatch',
} as const;

/** Texts of the visit screen and the visitors' new fields, merged into `entityLabels`. */
export const visitLabels: Record<string, readonly [enUS: string, zhCN: string, jaJP: string]> = {
  'visitor.field.roleIds': ['Device roles', '设备角色', 'デバイスロール'],
  'visit.title': ['Visits', '来访登记', '来訪予定'],
  'visit.field.visitorId': ['Visitor', '访客', '来訪者'],
  'visit.field.hostId': ['Host', '被访人', '訪問先'],
  'visit.field.startTime': ['Valid from', '生效时间', '有効開始'],
  'visit.field.endTime': ['Valid until', '失效时间', '有効終了'],
  'visit.field.doorIds': ['Doors', '可通行门', '通行できるドア'],
  'visit.field.remark': ['Remark', '备注', '備考'],
  'visit.field.firstOpenTime': ['First opening', '首次开门', '初回の解錠'],
  'visit.field.state': ['State', '状态', '状態'],
  'visit.field.refuseReason': ['Reason refused', '拒绝原因', '却下の理由'],
  'visitorLogin.title': ['API logins', 'API 登录记录', 'API ログイン'],
  'visitorLogin.field.visitorName': ['Visitor', '访客', '来訪者'],
  'visitorLogin.field.account': ['Account', '账号', 'アカウント'],
  'visitorLogin.field.ip': ['Address', '登录地址', 'アドレス'],
  'visitorLogin.field.method': ['Method', '登录方式', '方式'],
  'visitorLogin.field.result': ['Result', '结果', '結果'],
  'visitorLogin.method.login': ['Visitor login', '访客登录', '来訪者ログイン'],
  'visitorLogin.method.api': ['API', 'API', 'API'],
  'visitorLogin.result.ok': ['Signed in', '成功', '成功'],
  'visitorLogin.result.refused': ['Refused', '失败', '失敗'],
};
