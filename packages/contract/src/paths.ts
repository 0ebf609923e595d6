/** API paths below API_PREFIX. Spellings are a contract with existing callers. */
export const ApiPath = {
  health: '/health',
  docs: '/docs',
  randomImage: '/sys/randomImage/:key',
  login: '/sys/login',
  logout: '/sys/logout',
  userPermission: '/sys/permission/getUserPermissionByToken',
  currentUserDeparts: '/sys/user/getCurrentUserDeparts',
  selectDepart: '/sys/selectDepart',
  updatePassword: '/sys/user/updatePassword',
  /** PUT `{ lang }`: the console language the signed-in user chose, applied when they sign in on another browser */
  userLanguage: '/sys/user/language',
  thirdAppEnabledType: '/sys/thirdApp/getEnabledType',
  dictItems: '/sys/dict/getDictItems/:code',
  dashboardSummary: '/dashboard/summary',
  dashboardDevices: '/dashboard/devices',
  loginInfo: '/sys/loginfo',
  visitInfo: '/sys/visitInfo',
  duplicateCheck: '/sys/duplicate/check',
  checkRuleByCode: '/sys/checkRule/checkByCode',
  fillRuleExecute: '/sys/fillRule/executeRuleByCode/:code',
  dataSourceTest: '/sys/dataSource/testConnection',
  /** GET: the database kinds the server connects to, `ServerOption[]` (value: dbType) with each kind's driver */
  dataSourceKinds: '/sys/dataSource/kinds',
  /** spelled as the origin console's callers spell it */
  dictRefreshCache: '/sys/dict/refleshCache',
  /** GET ?ids=: enabled tenants for selectors (the caller's own unless he is a system administrator) */
  tenantQueryList: '/sys/tenant/queryList',
} as const;

export function randomImagePath(key: string): string {
  return ApiPath.randomImage.replace(':key', encodeURIComponent(key));
}

export function dictItemsPath(code: string): string {
  return ApiPath.dictItems.replace(':code', encodeURIComponent(code));
}
