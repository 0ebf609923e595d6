/** The console's menu and button-permission tree (SPEC section 2). Titles are i18n keys `menu.<area>.<screen>`. */
export interface ScreenDefinition {
  key: string;
  /** button permissions `<area>:<screen>:<action>` */
  actions?: readonly string[];
  /** full permission codes that do not follow the `<area>:<screen>:<action>` pattern */
  extraPerms?: readonly string[];
  /** built and routed now; every other screen is seeded hidden and without a route until it exists */
  visible?: boolean;
  /** granted to every seeded role, not only to the administrator (the home screens) */
  everyone?: boolean;
  icon?: string;
}

export interface AreaDefinition {
  key: string;
  icon: string;
  redirect?: string;
  /** seeded roles (by code) that hold every page and button of the area, beside the administrator */
  roles?: readonly string[];
  screens: readonly ScreenDefinition[];
}

/** The seeded device-administrator role's code: it manages the devices, doors, people, device roles and alarms of its tenant. */
export const DEVICE_ADMIN_ROLE = 'device_admin';

/**
 * Buttons outside their areas that seeded roles hold to use their screens: a device administrator reads the groups
 * (people, doors and device roles name them) and the vendors (a device type names its manufacturer), no system page.
 */
export const SEEDED_ROLE_LOOKUPS: Readonly<Record<string, readonly string[]>> = {
  [DEVICE_ADMIN_ROLE]: ['system:depart:list', 'system:vendor:list'],
};

const CRUD = ['list', 'add', 'edit', 'delete', 'export', 'import'] as const;
const VIEW = ['view'] as const;

export const menuDefinition: readonly AreaDefinition[] = [
  {
    key: 'dashboard',
    icon: 'dashboard',
    redirect: '/dashboard/analysis',
    screens: [
      { key: 'analysis', actions: VIEW, visible: true, everyone: true, icon: 'area-chart' },
      { key: 'clock', visible: true, everyone: true, icon: 'clock-circle' },
      { key: 'panel', visible: true, everyone: true, icon: 'appstore' },
      { key: 'result' },
    ],
  },
  {
    key: 'device',
    icon: 'cluster',
    roles: [DEVICE_ADMIN_ROLE],
    screens: [
      { key: 'list', actions: [...CRUD, 'sync', 'capture', 'rotateKey', 'revokeKey'], visible: true },
      { key: 'area', actions: CRUD, visible: true },
      { key: 'door', actions: [...CRUD, 'open'], visible: true },
      { key: 'people', actions: [...CRUD, 'frozen', 'recycleBin', 'enroll', 'readIdCard'], visible: true },
      { key: 'deviceType', actions: CRUD, visible: true },
      { key: 'deviceCode', actions: [...CRUD, 'audit'], visible: true },
      { key: 'deviceRole', actions: CRUD, visible: true },
      { key: 'deviceSetting', actions: CRUD, visible: true },
      { key: 'softUpdate', actions: [...CRUD, 'push'], visible: true },
      { key: 'oaRule', actions: CRUD, visible: true },
      { key: 'attendance', actions: ['list', 'export', 'correct'], visible: true },
      { key: 'attendanceMonth', actions: ['list', 'export', 'recompute'], visible: true },
      { key: 'alarm', actions: ['list', 'delete', 'export', 'handle'], visible: true },
      { key: 'cabinet', actions: [...CRUD, 'allocate'], visible: true },
      { key: 'doorStatus', actions: VIEW, visible: true },
      { key: 'accessEvent', actions: ['list', 'export'], visible: true },
      { key: 'doorEvent', actions: ['list', 'export'], visible: true },
      { key: 'syncStatus', actions: ['view', 'align'], visible: true },
      { key: 'emergency', actions: ['view', 'edit', 'end', 'drill', 'rollCall'], visible: true },
      { key: 'doorSchedule', actions: CRUD, visible: true },
    ],
  },
  {
    key: 'storage',
    icon: 'database',
    screens: [
      { key: 'cabinet', actions: [...CRUD, 'allocate', 'open'], visible: true },
      { key: 'openRecord', actions: ['list', 'export'], visible: true },
      { key: 'appDevice', actions: ['list', 'edit', 'delete', 'export'], visible: true },
      { key: 'userInfo', actions: ['list'], visible: true },
      { key: 'manager', actions: CRUD, visible: true },
      { key: 'checkUpdate', actions: CRUD, visible: true },
      { key: 'interfaceTest', actions: VIEW, visible: true },
    ],
  },
  {
    key: 'ks',
    icon: 'key',
    screens: [
      { key: 'key', actions: CRUD, visible: true },
      { key: 'keyPeople', actions: CRUD, visible: true },
      { key: 'role', actions: CRUD, visible: true },
    ],
  },
  {
    key: 'watch',
    icon: 'eye',
    screens: [
      { key: 'watch', actions: CRUD, visible: true },
      { key: 'mission', actions: CRUD, visible: true },
      { key: 'position', actions: CRUD, visible: true },
      { key: 'quest', actions: CRUD, visible: true },
      { key: 'record', actions: ['list', 'export'], visible: true },
      { key: 'task', actions: CRUD, visible: true },
    ],
  },
  {
    key: 'report',
    icon: 'bar-chart',
    roles: [DEVICE_ADMIN_ROLE],
    screens: [
      { key: 'access', actions: ['view', 'export', 'schedule'], visible: true, icon: 'bar-chart' },
      { key: 'alarm', actions: ['view', 'export', 'schedule'], visible: true, icon: 'alert' },
    ],
  },
  {
    key: 'devices',
    icon: 'appstore',
    roles: [DEVICE_ADMIN_ROLE],
    screens: [
      { key: 'alarmPackage', actions: CRUD, visible: true },
      { key: 'logFile', actions: ['list', 'delete', 'sendLog'], visible: true },
      { key: 'log', actions: ['list', 'export'], visible: true },
      { key: 'pluginData', actions: CRUD, visible: true },
      { key: 'plugin', actions: CRUD, visible: true },
    ],
  },
  {
    key: 'vistor',
    icon: 'team',
    screens: [
      { key: 'list', actions: [...CRUD, 'frozen', 'recycleBin', 'issueCard', 'enroll'], visible: true },
      { key: 'apiLogin', actions: ['list', 'delete', 'export'], visible: true },
      { key: 'visit', actions: [...CRUD, 'approve', 'refuse', 'desk'], visible: true },
    ],
  },
  {
    key: 'system',
    icon: 'setting',
    screens: [
      { key: 'user', actions: [...CRUD, 'frozen', 'recycleBin', 'resetPassword', 'agent'], visible: true },
      { key: 'userAgent', actions: ['list', 'add', 'edit', 'delete'] },
      { key: 'role', actions: [...CRUD, 'authorize'], visible: true },
      { key: 'permission', actions: [...CRUD, 'dataRule'], visible: true },
      { key: 'dataRule', actions: CRUD },
      { key: 'depart', actions: [...CRUD, 'authorize'], visible: true },
      { key: 'departRole', actions: [...CRUD, 'authorize', 'user'] },
      { key: 'departUser', actions: ['list', 'add', 'delete'] },
      { key: 'dict', actions: [...CRUD, 'refreshCache', 'recycleBin'], visible: true },
      { key: 'dictItem', actions: CRUD, visible: true },
      { key: 'log', actions: ['list', 'export'], visible: true },
      { key: 'dataLog', actions: ['list', 'export', 'compare'], visible: true },
      { key: 'quartzJob', actions: [...CRUD, 'pause', 'resume', 'execute'], visible: true },
      { key: 'announcement', actions: [...CRUD, 'release', 'revoke'], visible: true },
      { key: 'category', actions: CRUD, visible: true },
      { key: 'checkRule', actions: CRUD, visible: true },
      { key: 'fillRule', actions: CRUD, visible: true },
      { key: 'dataSource', actions: [...CRUD, 'test'], visible: true },
      { key: 'position', actions: CRUD, visible: true },
      { key: 'vendor', actions: CRUD, visible: true },
      { key: 'tenant', actions: CRUD, visible: true },
      { key: 'apiKey', actions: ['list', 'add', 'revoke', 'rotate', 'delete'], visible: true, icon: 'api' },
      { key: 'addressBook', actions: ['list', 'export'], visible: true },
      { key: 'attendanceRule', actions: CRUD, visible: true },
      { key: 'userAnnouncement', actions: ['list', 'read'], visible: true },
      { key: 'webhook', actions: ['list', 'add', 'edit', 'delete', 'resend', 'test'], visible: true },
    ],
  },
  {
    key: 'monitor',
    icon: 'fund',
    screens: [
      { key: 'disk', actions: VIEW, visible: true },
      { key: 'httpTrace', actions: VIEW, visible: true },
      { key: 'jvm', actions: VIEW, visible: true },
      { key: 'redis', actions: VIEW, visible: true },
      { key: 'redisTerminal', actions: ['view', 'execute'], visible: true },
      { key: 'server', actions: VIEW, visible: true },
      { key: 'tomcat', actions: VIEW, visible: true },
      { key: 'apiDocs', extraPerms: ['system:api:docs'] },
    ],
  },
  {
    key: 'message',
    icon: 'message',
    screens: [
      { key: 'message', actions: CRUD, visible: true },
      { key: 'template', actions: [...CRUD, 'testSend'], visible: true },
      { key: 'fileStorage', actions: ['list', 'delete', 'export'], visible: true },
      { key: 'order', actions: CRUD, visible: true },
    ],
  },
  {
    key: 'exception',
    icon: 'warning',
    screens: [{ key: '403' }, { key: '404' }, { key: '500' }],
  },
];

export function areaTitleKey(area: AreaDefinition): string {
  return `menu.${area.key}`;
}

export function screenTitleKey(area: AreaDefinition, screen: ScreenDefinition): string {
  return `menu.${area.key}.${screen.key}`;
}

export function screenPermissionCodes(area: AreaDefinition, screen: ScreenDefinition): string[] {
  return [...(screen.actions ?? []).map((a) => `${area.key}:${screen.key}:${a}`), ...(screen.extraPerms ?? [])];
}

export function seededMenuTitleKeys(): string[] {
  return menuDefinition.flatMap((area) => [areaTitleKey(area), ...area.screens.map((s) => screenTitleKey(area, s))]);
}

export function seededPermissionCodes(): string[] {
  return menuDefinition.flatMap((area) => area.screens.flatMap((s) => screenPermissionCodes(area, s)));
}
