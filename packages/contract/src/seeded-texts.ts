import { migratedDictionaries, seededDictionaries } from './dictionaries.ts';
import { DEVICE_CREATOR, deviceDoorNames, parseDeviceDoorName } from './door-names.ts';
import type { Language } from './http.ts';
import { isMenuTitleKey, menuTitles } from './menu-titles.ts';

/**
 * Texts of the rows the product seeds, shown in the reader's language while they hold what the seed wrote. A seeded
 * row stores one fixed form (an English text or a title key); once a person writes another text it is shown as
 * written. Every answer that shows such a column goes through `shownSeededText`.
 */
export interface SeededText {
  /** what the seed stored */
  stored: string;
  texts: Readonly<Record<Language, string>>;
}

type Row = Readonly<Record<string, unknown>>;
type Texts = readonly [enUS: string, zhCN: string, jaJP: string];

const textsOf = ([en, zh, ja]: Texts): Record<Language, string> => ({ 'en-US': en, 'zh-CN': zh, 'ja-JP': ja });
const seedOf = (texts: Texts): SeededText => ({ stored: texts[0], texts: textsOf(texts) });

/** Seeded roles by role code (role name and description). */
export const seededRoleNames: Readonly<Record<string, Texts>> = {
  admin: ['System administrator', '系统管理员', 'システム管理者'],
  user: ['User', '普通用户', '一般ユーザー'],
  device_admin: ['Device administrator', '设备管理员', 'デバイス管理者'],
};
/** The seeded administrator account's real name, by user name. */
export const seededRealnames: Readonly<Record<string, Texts>> = { admin: ['Administrator', '管理员', '管理者'] };
/** The seeded tenant's name, by tenant code. */
export const seededTenantNames: Readonly<Record<string, Texts>> = { default: ['Default', '默认租户', 'デフォルト'] };

/** Names of seeded buttons by the last part of their permission code; the seed stores `<action> (<area>/<screen>)`. */
export const buttonTitles: Readonly<Record<string, Texts>> = {
  view: ['View', '查看', '表示'],
  list: ['List', '列表', '一覧'],
  add: ['Add', '添加', '追加'],
  edit: ['Edit', '编辑', '編集'],
  delete: ['Delete', '删除', '削除'],
  export: ['Export', '导出', 'エクスポート'],
  import: ['Import', '导入', 'インポート'],
  sync: ['Synchronise', '同步', '同期'],
  open: ['Open door', '开门', '解錠'],
  frozen: ['Freeze', '冻结', '凍結'],
  enroll: ['Enroll palm vein', '录入掌静脉', '手のひら静脈登録'],
  readIdCard: ['Read ID card', '读取身份证', '身分証読み取り'],
  desk: ['Arrivals desk', '到访登记', '受付'],
  issueCard: ['Issue card', '发卡', 'カード発行'],
  approve: ['Approve', '批准', '承認'],
  refuse: ['Refuse', '拒绝', '却下'],
  rotateKey: ['Rotate device key', '更换设备密钥', 'デバイスキー更新'],
  revokeKey: ['Revoke device key', '吊销设备密钥', 'デバイスキー失効'],
  recycleBin: ['Recycle bin', '回收站', 'ごみ箱'],
  audit: ['Review', '审核', '審査'],
  allocate: ['Allocate', '分配', '割り当て'],
  resetPassword: ['Reset password', '重置密码', 'パスワードリセット'],
  agent: ['Agent', '代理人', '代理人'],
  authorize: ['Authorise', '授权', '権限付与'],
  dataRule: ['Data rules', '数据规则', 'データルール'],
  user: ['Members', '成员', 'メンバー'],
  refreshCache: ['Refresh cache', '刷新缓存', 'キャッシュ更新'],
  compare: ['Compare', '对比', '比較'],
  pause: ['Pause', '暂停', '一時停止'],
  resume: ['Resume', '恢复', '再開'],
  execute: ['Run now', '立即执行', '今すぐ実行'],
  release: ['Publish', '发布', '公開'],
  revoke: ['Revoke', '撤销', '取り消し'],
  test: ['Test', '测试', 'テスト'],
  read: ['Read', '阅读', '閲覧'],
  testSend: ['Test send', '测试发送', 'テスト送信'],
  docs: ['API documents', '接口文档', 'API ドキュメント'],
  capture: ['Capture', '抓拍', 'キャプチャ'],
  push: ['Push', '推送', '配信'],
  sendLog: ['Ask for log', '索取日志', 'ログを取得'],
  handle: ['Handle', '处理', '対応'],
  schedule: ['Schedule', '定时发送', '定期送信'],
  end: ['End', '结束', '終了'],
  drill: ['Drill', '演练', '訓練'],
  rollCall: ['Roll call', '点名', '点呼'],
  align: ['Align', '校准', '整合'],
  correct: ['Correct', '更正', '訂正'],
  recompute: ['Recompute', '重新计算', '再計算'],
  rotate: ['Rotate', '轮换', 'ローテーション'],
  resend: ['Send again', '重新发送', '再送信'],
};

const dictionaries = [...seededDictionaries, ...migratedDictionaries];
const dictNames = new Map(dictionaries.map((d) => [d.code, seedOf([d.name, ...d.names])]));
const dictItems = new Map(dictionaries.flatMap((d) => d.items.map(([value, ...texts]) => [`${d.code}\u0000${value}`, seedOf(texts)] as const)));

const byColumn = (table: Readonly<Record<string, Texts>>, column: string) => (row: Row) => {
  const key = row[column];
  return typeof key === 'string' && Object.hasOwn(table, key) ? seedOf(table[key] as Texts) : undefined;
};

function permissionSeed(row: Row): SeededText | undefined {
  const name = row.name;
  if (typeof name !== 'string') return undefined;
  if (isMenuTitleKey(name)) return { stored: name, texts: { 'en-US': menuTitles['en-US'][name], 'zh-CN': menuTitles['zh-CN'][name], 'ja-JP': menuTitles['ja-JP'][name] } };
  const action = typeof row.perms === 'string' ? row.perms.split(':').pop() : undefined;
  if (!action || !Object.hasOwn(buttonTitles, action) || !new RegExp(`^${action} \\(\\w+/\\w+\\)$`).test(name)) return undefined;
  return { stored: name, texts: textsOf(buttonTitles[action] as Texts) };
}

/** A door its controller's hello created, still under the name it was given. */
function deviceDoorSeed(row: Row): SeededText | undefined {
  if (row.create_by !== DEVICE_CREATOR || typeof row.door_name !== 'string') return undefined;
  const parsed = parseDeviceDoorName(row.door_name);
  if (!parsed || parsed.doorNo !== Number(row.door_no)) return undefined;
  return seedOf(deviceDoorNames(parsed.deviceName, parsed.doorNo));
}

/**
 * Seeded text columns by entity name (the server reads each entity's table): the seed of a row from its columns. A
 * dictionary item is told by its dictionary's code, which the reader adds to the row as `dict_code`.
 */
const seededColumns: Readonly<Record<string, Readonly<Record<string, (row: Row) => SeededText | undefined>>>> = {
  role: { role_name: byColumn(seededRoleNames, 'role_code'), description: byColumn(seededRoleNames, 'role_code') },
  user: { realname: byColumn(seededRealnames, 'username') },
  // the address book lists the users
  addressBook: { realname: byColumn(seededRealnames, 'username') },
  tenant: { name: byColumn(seededTenantNames, 'code') },
  dict: {
    dict_name: (row) => dictNames.get(String(row.dict_code)),
    description: (row) => dictNames.get(String(row.dict_code)),
  },
  dictItem: { item_text: (row) => dictItems.get(`${String(row.dict_code)}\u0000${String(row.item_value)}`) },
  permission: { name: permissionSeed },
  door: { door_name: deviceDoorSeed },
};

/** The columns of the entity's rows that seeded rows fill with a translated text. */
export function seededTextColumns(entity: string): readonly string[] {
  return Object.keys(seededColumns[entity] ?? {});
}

function seedOfRow(entity: string, column: string, row: Row): SeededText | undefined {
  const seed = seededColumns[entity]?.[column]?.(row);
  return seed && seed.stored === row[column] ? seed : undefined;
}

/** The column's text in `lang`: a seeded row's untouched text translated, anything else as stored. */
export function shownSeededText<T>(lang: Language, entity: string, column: string, row: Row & Readonly<Record<string, T>>): T | string {
  return seedOfRow(entity, column, row)?.texts[lang] ?? (row[column] as T);
}

/**
 * A seeded text a client holds as it was shown in some language (the session's user info, say), in `lang`: after a
 * language switch the header must not keep greeting the administrator in the language of the sign-in.
 */
export function reshownSeededText(lang: Language, entity: string, column: string, row: Row): unknown {
  const seed = seededColumns[entity]?.[column]?.(row);
  const shown = row[column];
  return seed && (shown === seed.stored || Object.values(seed.texts).includes(shown as string)) ? seed.texts[lang] : shown;
}

/** The row with its seeded texts in `lang` (a copy when any changes). */
export function withSeededTexts<R extends Row>(lang: Language, entity: string, row: R): R {
  let shown = row;
  for (const column of seededTextColumns(entity)) {
    const text = seedOfRow(entity, column, row)?.texts[lang];
    if (text !== undefined && text !== row[column]) shown = { ...shown, [column]: text };
  }
  return shown;
}

/**
 * Whether `incoming` leaves a seeded text as it is: the form saves back what it showed (the text in some language),
 * which keeps the stored form so that every reader still sees it in his own language.
 */
export function keepsSeededText(entity: string, column: string, row: Row, incoming: unknown): boolean {
  const seed = seedOfRow(entity, column, row);
  return Boolean(seed) && (incoming === seed?.stored || Object.values(seed?.texts ?? {}).includes(incoming as string));
}

/** The text of a dictionary item in `lang`: a seeded item still holding its English text is translated. */
export function dictItemText(lang: Language, code: string, value: string, storedText: string): string {
  return shownSeededText(lang, 'dictItem', 'item_text', { dict_code: code, item_value: value, item_text: storedText });
}
