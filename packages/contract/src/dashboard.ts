/** GET /dashboard/summary: counts for the home page. Days are UTC calendar days, oldest first, today last. */
export interface DashboardSummary {
  userCount: number;
  roleCount: number;
  departCount: number;
  /** sessions whose token has not expired */
  onlineTokenCount: number;
  loginsToday: number;
  loginsLast7Days: Array<{ date: string; count: number }>;
}

/**
 * GET /dashboard/devices: what an operator wants first. Doors open and in alarm are the doors' last reported states;
 * `eventsByHour` counts the device events received today, hour 0 to 23 of the site's TIME_ZONE.
 */
export interface DashboardDevices {
  devicesOnline: number;
  devicesOffline: number;
  doorsOpen: number;
  /** device alarms not yet closed, plus doors reporting an alarm now */
  openAlarms: number;
  eventsByHour: number[];
  emergencyActive: boolean;
}
