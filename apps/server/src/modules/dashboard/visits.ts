import { LogOperateType, LogType } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { CurrentUser } from '../../platform/access.ts';
import { tenantScoped } from '../../platform/tenancy.ts';
import { formatWireTime, parseWireInstant } from '../../platform/wire-time.ts';

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

/** The site's calendar day (TIME_ZONE) `offset` days from the one holding `now`, as `yyyy-MM-dd`. */
function siteDay(now: number, zone: string, offset = 0): string {
  const [year, month, day] = formatWireTime(now, zone).slice(0, 10).split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + offset)).toISOString().slice(0, 10);
}

/** The instant the site's day begins, as stored (UTC ISO). */
function dayStart(day: string, zone: string): string {
  return new Date(parseWireInstant(`${day} 00:00:00`, zone) as number).toISOString();
}

/** Sign-ins of the caller's tenant; days are the site's calendar days (TIME_ZONE), like every time on the wire. */
export async function loginInfo(app: FastifyInstance, caller: CurrentUser): Promise<LoginInfo> {
  const todayStart = dayStart(siteDay(app.clock(), app.settings.timeZone), app.settings.timeZone);
  const total = await signIns(app, caller).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  const today = await signIns(app, caller)
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.count('ip').distinct().as('ips')])
    .where('create_time', '>=', todayStart)
    .executeTakeFirst();
  return { totalVisitCount: Number(total?.n ?? 0), todayVisitCount: Number(today?.n ?? 0), todayIp: Number(today?.ips ?? 0) };
}

/** The last seven days of sign-ins, oldest first, today last, days without any included with zeros. */
export async function visitInfo(app: FastifyInstance, caller: CurrentUser): Promise<VisitDay[]> {
  const zone = app.settings.timeZone;
  const days = Array.from({ length: 7 }, (_, i) => siteDay(app.clock(), zone, i - 6));
  const rows = await signIns(app, caller).select(['create_time', 'ip']).where('create_time', '>=', dayStart(days[0]!, zone)).execute();
  const byDay = new Map<string, Array<{ ip: string | null }>>();
  for (const row of rows) {
    if (!row.create_time) continue;
    const day = formatWireTime(row.create_time, zone).slice(0, 10);
    byDay.set(day, [...(byDay.get(day) ?? []), row]);
  }
  return days.map((tian) => {
    const that = byDay.get(tian) ?? [];
    return { tian, type: tian.slice(5), visit: that.length, ip: new Set(that.map((r) => r.ip)).size };
  });
}
