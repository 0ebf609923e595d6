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
