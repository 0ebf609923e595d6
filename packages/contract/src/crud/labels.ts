import type { Language } from '../http.ts';

/** Texts of the entity label keys (titles, field labels, option labels) in the three languages; the console merges
 * them into its catalogues and the server uses them for export headers and validation messages. */
const labels: Record<string, readonly [enUS: string, zhCN: string, jaJP: string]> = {
  'crud.field.id': ['ID', 'ID', 'ID'],
  'crud.field.createBy': ['Created by', '创建人', '作成者'],
  'crud.field.createTime': ['Created at', '创建时间', '作成日時'],
  'crud.field.updateBy': ['Updated by', '更新人', '更新者'],
  'crud.field.updateTime': ['Updated at', '更新时间', '更新日時'],
  'position.title': ['Positions', '职务管理', '役職管理'],
  'position.field.code': ['Position code', '职务编码', '役職コード'],
  'position.field.name': ['Position name', '职务名称', '役職名'],
  'position.field.postRank': ['Rank', '职级', '職級'],
  'vendor.title': ['Vendors', '厂商管理', 'ベンダー管理'],
  'vendor.field.tradeName': ['Trade name', '厂商名称', 'ベンダー名'],
  'vendor.field.gatherOffset': ['Gather offset', '采集偏移量', '収集オフセット'],
  'category.title': ['Categories', '分类字典', '分類辞書'],
  'category.field.pid': ['Parent category', '父级节点', '親分類'],
  'category.field.name': ['Category name', '分类名称', '分類名'],
  'category.field.code': ['Category code', '分类编码', '分類コード'],
  'tenant.title': ['Tenants', '租户管理', 'テナント管理'],
  'tenant.field.name': ['Tenant name', '租户名称', 'テナント名'],
  'tenant.field.code': ['Tenant code', '租户编码', 'テナントコード'],
  'tenant.field.beginDate': ['Start time', '开始时间', '開始日時'],
  'tenant.field.endDate': ['End time', '结束时间', '終了日時'],
  'tenant.field.status': ['Status', '状态', '状態'],
  'dict.title': ['Dictionaries', '数据字典', 'データ辞書'],
  'dict.field.dictName': ['Dictionary name', '字典名称', '辞書名'],
  'dict.field.dictCode': ['Dictionary code', '字典编码', '辞書コード'],
  'dict.field.description': ['Description', '描述', '説明'],
  'dictItem.title': ['Dictionary items', '字典项', '辞書項目'],
  'dictItem.field.dictId': ['Dictionary', '所属字典', '辞書'],
  'dictItem.field.itemText': ['Name', '名称', '名称'],
  'dictItem.field.itemValue': ['Value', '数据值', '値'],
  'dictItem.field.description': ['Description', '描述', '説明'],
  'dictItem.field.sortOrder': ['Sort order', '排序值', '並び順'],
  'dictItem.field.status': ['Enabled', '是否启用', '有効'],
  'checkRule.title': ['Check rules', '编码校验规则', 'チェックルール'],
  'checkRule.field.ruleName': ['Rule name', '规则名称', 'ルール名'],
  'checkRule.field.ruleCode': ['Rule code', '规则编码', 'ルールコード'],
  'checkRule.field.ruleJson': ['Rules', '规则内容', 'ルール内容'],
  'checkRule.field.ruleDescription': ['Description', '规则描述', '説明'],
  'fillRule.title': ['Fill rules', '填值规则', '採番ルール'],
  'fillRule.field.ruleName': ['Rule name', '规则名称', 'ルール名'],
  'fillRule.field.ruleCode': ['Rule code', '规则编码', 'ルールコード'],
  'fillRule.field.ruleClass': ['Implementation', '规则实现类', '実装'],
  'fillRule.field.ruleParams': ['Parameters', '规则参数', 'パラメータ'],
  'fillRule.impl.datedSerial': ['Date + serial number', '日期+流水号', '日付+連番'],
  'fillRule.impl.randomCode': ['Random code', '随机编码', 'ランダムコード'],
  'fillRule.impl.prefixedTime': ['Prefix + time', '前缀+时间', '接頭辞+時刻'],
  'dataSource.title': ['Data sources', '多数据源管理', 'データソース管理'],
  'dataSource.field.name': ['Data source name', '数据源名称', 'データソース名'],
  'dataSource.field.code': ['Data source code', '数据源编码', 'データソースコード'],
  'dataSource.field.dbType': ['Database type', '数据库类型', 'データベース種類'],
  'dataSource.field.dbDriver': ['Driver class', '驱动类', 'ドライバークラス'],
  'dataSource.field.dbUrl': ['Address', '数据源地址', 'アドレス'],
  'dataSource.field.dbName': ['Database name', '数据库名称', 'データベース名'],
  'dataSource.field.dbUsername': ['User name', '用户名', 'ユーザー名'],
  'dataSource.field.dbPassword': ['Password', '密码', 'パスワード'],
  'dataSource.field.remark': ['Remarks', '备注', '備考'],
  'dataSource.testConnection': ['Test connection', '测试连接', '接続テスト'],
  'addressBook.title': ['Address book', '通讯录', 'アドレス帳'],
  'addressBook.field.realname': ['Name', '姓名', '氏名'],
  'addressBook.field.username': ['Account', '账号', 'アカウント'],
  'addressBook.field.workNo': ['Job number', '工号', '社員番号'],
  'addressBook.field.phone': ['Phone', '手机号', '電話番号'],
  'addressBook.field.email': ['Email', '邮箱', 'メール'],
  'addressBook.field.orgCode': ['Group', '部门', 'グループ'],
};

const column: Record<Language, 0 | 1 | 2> = { 'en-US': 0, 'zh-CN': 1, 'ja-JP': 2 };

export const entityLabels: Record<Language, Record<string, string>> = {
  'zh-CN': Object.fromEntries(Object.entries(labels).map(([k, v]) => [k, v[column['zh-CN']]])),
  'en-US': Object.fromEntries(Object.entries(labels).map(([k, v]) => [k, v[column['en-US']]])),
  'ja-JP': Object.fromEntries(Object.entries(labels).map(([k, v]) => [k, v[column['ja-JP']]])),
};

/** The text of a label key, or the key itself when it has none. */
export function entityLabel(lang: Language, key: string): string {
  return entityLabels[lang][key] ?? key;
}
