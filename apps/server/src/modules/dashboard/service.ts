import { DashboardFigurePermission, LogOperateType, LogType, type DashboardSummary } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { CurrentUser } from '../../platform/access.ts';
import { tenantScoped } from '../../platform/tenancy.ts';

const DAY_MS = 86_400_000;

/** Whether the caller's permissions cover a home-page figure. */
export function seesFigure(caller: CurrentUser, figure: keyof typeof DashboardFigurePermission): boolean {
  return caller.permissions.has(DashboardFigurePermission[figure]);
}

/**
 * Counts for the home page, of the caller's tenant only and of those their permissions cover (the others are neither
 * counted nor sent); days are UTC calendar days, oldest first, today last.
 */
export async function dashboardSummary(app: FastifyInstance, caller: CurrentUser): Promise<DashboardSummary> {
  const count = async (table: 'sys_user' | 'sys_role' | 'sys_depart') => {
    let query = tenantScoped(app.db.selectFrom(table), caller).select((eb) => eb.fn.countAll().as('n'));
    if (table !== 'sys_role') query = query.where('del_flag', '=', 0);
    return Number((await query.executeTakeFirst())?.n ?? 0);
  };
  const summary: DashboardSummary = {};
  if (seesFigure(caller, 'userCount')) summary.userCount = await count('sys_user');
  if (seesFigure(caller, 'roleCount')) summary.roleCount = await count('sys_role');
  if (seesFigure(caller, 'departCount')) summary.departCount = await count('sys_depart');
  if (seesFigure(caller, 'onlineTokenCount')) {
    const online = await tenantScoped(app.db.selectFrom('sys_user_token as t').innerJoin('sys_user as u', 'u.id', 't.user_id'), caller, 'u.tenant_id')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('t.expires_at', '>', new Date(app.clock()).toISOString())
      .executeTakeFirst();
    summary.onlineTokenCount = Number(online?.n ?? 0);
  }
  if (seesFigure(caller, 'loginsToday') || seesFigure(caller, 'loginsLast7Days')) {
    const todayStart = Math.floor(app.clock() / DAY_MS) * DAY_MS;
    const firstDay = todayStart - 6 * DAY_MS;
    const day = sql<string>`substr(create_time, 1, 10)`;
    const logins = await tenantScoped(app.db.selectFrom('sys_log'), caller)
      .select([day.as('day'), (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('log_type', '=', LogType.login)
      .where('operate_type', '=', LogOperateType.login)
      .where('create_time', '>=', new Date(firstDay).toISOString())
      .groupBy(day)
      .execute();
    const days = Array.from({ length: 7 }, (_, i) => {
      const date = new Date(firstDay + i * DAY_MS).toISOString().slice(0, 10);
      return { date, count: logins.filter((row) => row.day === date).reduce((sum, row) => sum + Number(row.n), 0) };
    });
    if (seesFigure(caller, 'loginsToday')) summary.loginsToday = days[6]?.count ?? 0;
    if (seesFigure(caller, 'loginsLast7Days')) summary.loginsLast7Days = days;
  }
  return summary;
}
