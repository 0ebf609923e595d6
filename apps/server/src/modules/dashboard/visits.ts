import { LogOperateType, LogType } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { CurrentUser } from '../../platform/access.ts';
import { tenantScoped } from '../../platform/tenancy.ts';

const DAY_MS = 86_400_000;

/** `/sys/loginfo` as the origin console's home page reads it: sign-ins ever, today, and today's distinct addresses. */
export interface LoginInfo {
  totalVisitCount: number;
  todayVisitCount: number;
  todayIp: number;
}

/** One day of `/sys/visitInfo`: `tian` is the date, `type` its month and day (the chart's label). */
export interface VisitDay {
  tian: string;
  type: string;
  visit: number;
  ip: number;
}

function signIns(app: FastifyInstance, caller: CurrentUser) {
  return tenantScoped(app.db.selectFrom('sys_log'), caller).where('log_type', '=', LogType.login).where('operate_type', '=', LogOperateType.login);
}

/** Sign-ins of the caller's tenant; days are UTC calendar days like the rest of the home page. */
export async function loginInfo(app: FastifyInstance, caller: CurrentUser): Promise<LoginInfo> {
  const todayStart = new Date(Math.floor(app.clock() / DAY_MS) * DAY_MS).toISOString();
  const total = await signIns(app, caller).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  const today = await signIns(app, caller)
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.count('ip').distinct().as('ips')])
    .where('create_time', '>=', todayStart)
    .executeTakeFirst();
  return { totalVisitCount: Number(total?.n ?? 0), todayVisitCount: Number(today?.n ?? 0), todayIp: Number(today?.ips ?? 0) };
}

/** The last seven days of sign-ins, oldest first, today last, days without any included with zeros. */
export async function visitInfo(app: FastifyInstance, caller: CurrentUser): Promise<VisitDay[]> {
  const firstDay = Math.floor(app.clock() / DAY_MS) * DAY_MS - 6 * DAY_MS;
  const rows = await signIns(app, caller).select(['create_time', 'ip']).where('create_time', '>=', new Date(firstDay).toISOString()).execute();
  return Array.from({ length: 7 }, (_, i) => {
    const tian = new Date(firstDay + i * DAY_MS).toISOString().slice(0, 10);
    const that = rows.filter((r) => r.create_time?.slice(0, 10) === tian);
    return { tian, type: tian.slice(5), visit: that.length, ip: new Set(that.map((r) => r.ip)).size };
  });
}
