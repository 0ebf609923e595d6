/**
 * GET /dashboard/summary: counts for the home page. Days are UTC calendar days, oldest first, today last. A figure
 * the caller's permissions do not cover (DashboardFigurePermission) is left out.
 */
export interface DashboardSummary {
  userCount?: number;
  roleCount?: number;
  departCount?: number;
  /** sessions whose token has not expired */
  onlineTokenCount?: number;
  loginsToday?: number;
  loginsLast7Days?: Array<{ date: string; count: number }>;
}

/** The device systems of the home page's device chart: those a hello names, and `other` for devices that name none. */
export const DASHBOARD_SYSTEMS = ['abDoor', 'access', 'storage', 'quake', 'ks', 'other'] as const;
export type DashboardSystem = (typeof DASHBOARD_SYSTEMS)[number];

/** The levels of device alarms, lowest first (L normal, M important, H urgent). */
export const ALARM_LEVELS = ['L', 'M', 'H'] as const;
export type AlarmLevelName = (typeof ALARM_LEVELS)[number];

/**
 * GET /dashboard/devices: what an operator wants first. Doors open and in alarm are the doors' last reported states;
 * `eventsByHour` counts the device events received today, hour 0 to 23 of the site's TIME_ZONE; `accessByHour` the
 * openings and denials of today's access events by the hour they happened, in the same zone.
 */
export interface DashboardDevices {
  devicesOnline?: number;
  devicesOffline?: number;
  doorsOpen?: number;
  /** device alarms not yet closed, plus doors reporting an alarm now */
  openAlarms?: number;
  eventsByHour?: number[];
  /** devices online and offline per device system, in the order of DASHBOARD_SYSTEMS, systems without devices left out */
  devicesBySystem?: Array<{ system: DashboardSystem; online: number; offline: number }>;
  /** today's openings and denials, hour 0 to 23 of the site's TIME_ZONE */
  accessByHour?: { openings: number[]; denials: number[] };
  /** device alarms not yet closed (open or acknowledged) per level; an unknown level counts as L */
  alarmsByLevel?: Record<AlarmLevelName, number>;
  /** today's daily attendance results (the site's day) that are normal, late and absent */
  attendanceToday?: { normal: number; late: number; absent: number };
  /** storage cabinets allocated to someone (occupied) and the others (free) */
  cabinets?: { occupied: number; free: number };
  /** whether an emergency is on: everyone who sees the home page is told */
  emergencyActive: boolean;
}

/**
 * The permission each home-page figure needs (issue 26): the server leaves out, and the console does not show, a
 * figure the reader's permissions do not cover, so a device administrator sees device figures and no user, session
 * or sign-in counts. The origin console's sign-in charts (/sys/loginfo, /sys/visitInfo) need the sign-in figures'.
 */
export const DashboardFigurePermission = {
  userCount: 'system:user:list',
  roleCount: 'system:role:list',
  // those who manage groups: a device administrator reads them for its pickers only
  departCount: 'system:depart:add',
  onlineTokenCount: 'system:user:list',
  loginsToday: 'system:log:list',
  loginsLast7Days: 'system:log:list',
  devicesOnline: 'device:list:list',
  devicesOffline: 'device:list:list',
  doorsOpen: 'device:door:list',
  openAlarms: 'device:alarm:list',
  eventsByHour: 'device:accessEvent:list',
  devicesBySystem: 'device:list:list',
  accessByHour: 'device:accessEvent:list',
  alarmsByLevel: 'device:alarm:list',
  attendanceToday: 'device:attendance:list',
  cabinets: 'device:cabinet:list',
} as const satisfies Record<keyof DashboardSummary | keyof Omit<DashboardDevices, 'emergencyActive'>, string>;
