import * as z from 'zod';
import { TENANT_DICT } from '../http.ts';
import { idSchema } from '../ids.ts';
import { ID_TYPES, IdType, idNumberCrossCheck, idNumberSchema, isValidIdCard, visitorPasswordSchema } from '../visitor.ts';
import type { EntityDeclaration } from './declaration.ts';
import { codeSchema, field, integerSchema, textSchema } from './fields.ts';

/** SPEC section 4: people are normal or frozen (a frozen person opens no door until thawed). */
export const PeopleStatus = { normal: 1, frozen: 2 } as const;

/** A picture is at most 1 MB (SPEC section 9). */
export const PEOPLE_PICTURE_MAX_BYTES = 1024 * 1024;

/** The two hands a palm-vein template is registered for. */
export const PALM_HANDS = ['left', 'right'] as const;
export type PalmHand = (typeof PALM_HANDS)[number];

/** An 18-character resident ID card number (GB 11643) with a valid birth date and check character: people's resident ID rule. */
export function isResidentId18(value: string): boolean {
  const id = value.trim().toUpperCase();
  return /^\d{17}[\dX]$/.test(id) && isValidIdCard(id);
}

/** A door card number as the readers give it: 6 to 32 letters or digits (decimal or hexadecimal cards). */
export const cardNoSchema = z.string().trim().regex(/^[0-9A-Za-z]{6,32}$/, { error: 'validation.cardNo' });

/** What lists, exports and logs show of a card number: its last four characters. */
export function maskCardNo(cardNo: string): string {
  return `${'*'.repeat(Math.max(0, cardNo.length - 4))}${cardNo.slice(-4)}`;
}

export const PALM_OPTIONS = [
  { value: '1', label: 'people.palm.registered' },
  { value: '0', label: 'people.palm.none' },
] as const;

/**
 * People (SPEC sections 2 to 5): the persons whom doors and palm-vein readers let through. The full card number is
 * write-only (kept for the devices, checked unique by the server): rows show only `cardNoMasked`. Palm-vein templates
 * live in their own table that no list, export or log reads; rows carry only whether each hand is registered.
 */
export const peopleEntity: EntityDeclaration = {
  name: 'people',
  title: 'people.title',
  basePath: '/sysPeople',
  permissionPrefix: 'device:people',
  component: 'device/people',
  labelField: 'name',
  fields: {
    name: field.text('people.field.name', 100, { required: true }),
    idType: field.dict('people.field.idType', 'id_type', { schema: z.enum(ID_TYPES, { error: 'validation.invalid' }), required: true, defaultValue: IdType.resident }),
    // checked against idType by the server (people module: a resident ID card has 18 characters); lists show only its last four
    idCard: {
      label: 'people.field.idCard',
      kind: 'string',
      schema: idNumberSchema,
      widget: { kind: 'input' },
      maskedInLists: true,
      crossCheck: idNumberCrossCheck(isResidentId18),
    },
    cardNo: { label: 'people.field.cardNo', kind: 'string', schema: cardNoSchema, widget: { kind: 'input' }, writeOnly: true },
    cardNoMasked: field.text('people.field.cardNoMasked', 32, { readOnly: true }),
    userNo: { label: 'people.field.userNo', kind: 'string', schema: codeSchema(64), widget: { kind: 'input' } },
    sex: field.dictInteger('people.field.sex', 'sex'),
    departId: { label: 'people.field.departId', kind: 'string', schema: idSchema, widget: { kind: 'treeSelect', entity: 'depart' }, references: { entity: 'depart' } },
    // the device roles that bind the person (sys_device_role_people, seen from the person's side); a key role's links stay apart
    roleIds: field.links('people.field.roleIds', { entity: 'deviceRole' }, 'roleName'),
    picture: { label: 'people.field.picture', kind: 'string', schema: textSchema(255), widget: { kind: 'image', maxBytes: PEOPLE_PICTURE_MAX_BYTES } },
    palmLeft: { label: 'people.field.palmLeft', kind: 'integer', schema: integerSchema(0, 1), widget: { kind: 'options', options: PALM_OPTIONS }, readOnly: true },
    palmRight: { label: 'people.field.palmRight', kind: 'integer', schema: integerSchema(0, 1), widget: { kind: 'options', options: PALM_OPTIONS }, readOnly: true },
    tenantId: field.dict('people.field.tenantId', TENANT_DICT, { schema: idSchema, systemAdminOnly: true }),
    password: field.password('people.field.password', 8, { schema: visitorPasswordSchema }),
    status: field.dictInteger('people.field.status', 'user_status', { readOnly: true, defaultValue: PeopleStatus.normal }),
  },
  columns: ['name', 'userNo', 'idType', 'idCard', 'cardNoMasked', 'sex', 'departId', 'roleIds', 'palmLeft', 'palmRight', 'status', 'createTime'],
  detailFields: ['picture', 'tenantId'],
  search: { name: 'contains', userNo: 'contains', idCard: 'exact', sex: 'exact', departId: 'exact', status: 'exact', createTime: 'range' },
  sortable: ['name', 'userNo', 'sex', 'status', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [
    { field: 'idCard', message: 'duplicate.idCard' },
    { field: 'userNo', message: 'duplicate.userNo' },
    // the card number is write-only: the server checks it (duplicate.cardNo) in the people module
  ],
  tenantScoped: true,
  softDelete: { recycleBin: true },
  extraActions: ['frozen', 'enroll', 'readIdCard'],
};

/** Every declared screen of people. */
export const peopleEntities: readonly EntityDeclaration[] = [peopleEntity];

/** Calls of the people screen beyond the generic ones (SPEC section 7). */
export const PeoplePath = {
  /** PUT `{ ids: 'a,b', status: 1 | 2 }` (or `id` for one): thaw (1) or freeze (2) */
  frozenPeople: '/sysPeople/frozenPeople',
  /** POST `{ id, hand, deviceId? }`: enroll a palm at a capture device; answers the `Enrollment` (permission enroll) */
  enroll: '/sysPeople/enroll',
  /** GET `?id=`: how the enrollment goes (`Enrollment`) */
  enrollStatus: '/sysPeople/enrollStatus',
  /** POST `{ id }`: cancel a waiting enrollment */
  enrollCancel: '/sysPeople/enrollCancel',
  /** GET `?deviceId=`: the ID card number on the capture device's reader, or the 'No ID card detected' warning */
  readIdCard: '/sysPeople/readIdCard',
} as const;

export const frozenPeopleBody = z.object({
  ids: z.string().max(70_000).optional(),
  id: z.string().max(64).optional(),
  status: z.union([z.literal(PeopleStatus.normal), z.literal(PeopleStatus.frozen), z.enum(['1', '2']).transform(Number)]),
});

/** Texts of the people screen's labels and console texts, merged into `entityLabels`. */
export const peopleLabels: Record<string, readonly [enUS: string, zhCN: string, jaJP: string]> = {
  'people.title': ['People', '人员管理', '人員管理'],
  'people.field.name': ['Name', '姓名', '氏名'],
  'people.field.idCard': ['ID number', '证件号码', '身分証明書番号'],
  'people.field.idType': ['ID type', '证件类型', '身分証明書の種類'],
  'people.field.cardNo': ['Card number', '卡号', 'カード番号'],
  'people.field.cardNoMasked': ['Card number', '卡号', 'カード番号'],
  'people.field.userNo': ['User number', '用户编号', '利用者番号'],
  'people.field.sex': ['Gender', '性别', '性別'],
  'people.field.departId': ['Group', '所属部门', '所属グループ'],
  'people.field.roleIds': ['Device roles', '设备角色', 'デバイスロール'],
  'people.field.picture': ['Picture', '照片', '写真'],
  'people.field.palmLeft': ['Left palm vein', '左手掌静脉', '左手静脈'],
  'people.field.palmRight': ['Right palm vein', '右手掌静脉', '右手静脈'],
  'people.field.tenantId': ['Tenant', '租户', 'テナント'],
  'people.field.password': ['Password (6 to 8 digits)', '密码（6至8位数字）', 'パスワード（6〜8桁の数字）'],
  'people.field.status': ['Status', '状态', '状態'],
  'people.palm.registered': ['Registered', '已注册', '登録済み'],
  'people.palm.none': ['Not registered', '未注册', '未登録'],
  'people.freeze': ['Freeze', '冻结', '凍結'],
  'people.thaw': ['Thaw', '解冻', '凍結解除'],
  'people.freezeConfirm': ['Freeze {{name}}?', '确定冻结 {{name}} 吗？', '{{name}} を凍結しますか？'],
  'people.freezeHint': [
    'A frozen person opens no door until thawed.',
    '冻结后该人员在解冻前无法开门。',
    '凍結された人は凍結解除までドアを開けられません。',
  ],
  'people.enroll': ['Enroll palm', '录入掌静脉', '手のひら静脈を登録'],
  'people.enrollTitle': ['Enroll palm vein: {{name}}', '录入掌静脉：{{name}}', '手のひら静脈の登録：{{name}}'],
  'people.enrollDevice': ['Capture device', '采集设备', '取得デバイス'],
  'people.enrollNoDevice': ['No capture device: add a device and set it as capture device first.', '没有采集设备：请先添加设备并设为采集设备。', '取得デバイスがありません。先にデバイスを追加して取得デバイスに設定してください。'],
  'people.enrollHand': ['Hand', '手', '手'],
  'people.hand.left': ['Left palm', '左手', '左手'],
  'people.hand.right': ['Right palm', '右手', '右手'],
  'people.enrollStart': ['Start', '开始录入', '登録開始'],
  'people.enrollWaiting': ['{{hand}}: place it flat on the reader of {{device}}…', '{{hand}}：请平放在 {{device}} 的读取器上…', '{{hand}}：{{device}} のリーダーに平らにかざしてください…'],
  'people.enrollCancel': ['Cancel enrollment', '取消录入', '登録を中止'],
  'people.enrollDone': ['{{hand}}: registered.', '{{hand}}：已注册。', '{{hand}}：登録しました。'],
  'people.enrollFailed': ['Enrollment failed', '录入失败', '登録に失敗しました'],
  'people.enrollAgain': ['Try again', '重试', '再試行'],
  'people.enrollClose': ['Done', '完成', '完了'],
  'people.enrollFailure.timeout': ['No hand was placed on the reader in time.', '未在规定时间内将手放到读取器上。', '時間内に手がかざされませんでした。'],
  'people.enrollFailure.cancelled': ['The enrollment was cancelled.', '录入已取消。', '登録は中止されました。'],
  'people.enrollFailure.quality': ['The image quality was too poor: place the palm flat and try again.', '采集质量太差：请将手掌平放后重试。', '画像の品質が不十分です。手のひらを平らにして再試行してください。'],
  'people.enrollFailure.refused': ['The device’s answer was refused.', '设备的应答被拒绝。', 'デバイスの応答は拒否されました。'],
  'people.readIdCard': ['Read ID card', '读取身份证', '身分証を読み取る'],
};
