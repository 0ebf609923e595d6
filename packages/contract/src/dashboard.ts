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

/**
 * GET /dashboard/devices: what an operator wants first. Doors open and in alarm are the doors' last reported states;
 * `eventsByHour` counts the device events received today, hour 0 to 23 of the site's TIME_ZONE.
 */
export interface DashboardDevices {
  devicesOnline?: number;
  devicesOffline?: number;
  doorsOpen?: number;
  /** device alarms not yet closed, plus doors reporting an alarm now */
  openAlarms?: number;
  eventsByHour?: number[];
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
} as const satisfies Record<keyof DashboardSummary | keyof Omit<DashboardDevices, 'emergencyActive'>, string>;
