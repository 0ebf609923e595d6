import { ALARM_LEVELS, AttendanceStatus, CabinetStatus, DASHBOARD_SYSTEMS, DeviceEventKind, DoorState, type AlarmLevelName, type DashboardDevices, type DashboardSystem } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { CurrentUser } from '../../platform/access.ts';
import { tenantScoped } from '../../platform/tenancy.ts';
import { formatWireTime } from '../../platform/wire-time.ts';
import { seesFigure } from './service.ts';

const HOUR_MS = 3_600_000;

/**
 * The device figures of the home page, of the caller's tenant: devices online and offline (in all and per system), doors
 * open, open alarms (device alarms not yet closed and doors reporting an alarm; the device alarms per level too), today's
 * events, openings and denials per hour of the site's zone, today's attendance and the cabinets occupied and free, those
 * the caller's permissions cover, each counted by one grouped query. Events are counted per UTC hour in the database and each hour is
 * placed in the site's day (a zone with a half-hour offset files each hour under the hour it starts in).
 */
export async function dashboardDevices(app: FastifyInstance, caller: CurrentUser): Promise<DashboardDevices> {
  const count = <T extends { n: number | string }>(rows: T[], match: (row: T) => boolean) => rows.filter(match).reduce((sum, row) => sum + Number(row.n), 0);
  const emergency = caller.tenantScope === null ? undefined : await app.db.selectFrom('sys_emergency').select('id').where('active_key', '=', caller.tenantScope).executeTakeFirst();
  // only the figures the caller's permissions cover are counted and sent
  const figures: DashboardDevices = { emergencyActive: emergency !== undefined };
  if (seesFigure(caller, 'devicesOnline') || seesFigure(caller, 'devicesOffline') || seesFigure(caller, 'devicesBySystem')) {
    const devices = await tenantScoped(app.db.selectFrom('sys_device'), caller)
      .select(['online', 'system_type', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy(['online', 'system_type'])
      .execute();
    if (seesFigure(caller, 'devicesOnline')) figures.devicesOnline = count(devices, (r) => r.online === 1);
    if (seesFigure(caller, 'devicesOffline')) figures.devicesOffline = count(devices, (r) => r.online !== 1);
    if (seesFigure(caller, 'devicesBySystem')) {
      const systemOf = (row: { system_type: string | null }): DashboardSystem => (DASHBOARD_SYSTEMS.find((s) => s === row.system_type) ?? 'other');
      figures.devicesBySystem = DASHBOARD_SYSTEMS.map((system) => ({
        system,
        online: count(devices, (r) => systemOf(r) === system && r.online === 1),
        offline: count(devices, (r) => systemOf(r) === system && r.online !== 1),
      })).filter((s) => s.online + s.offline > 0);
    }
  }
  if (seesFigure(caller, 'doorsOpen') || seesFigure(caller, 'openAlarms')) {
    const doors = await tenantScoped(app.db.selectFrom('sys_door'), caller)
      .select(['state', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('state', 'in', [DoorState.open, DoorState.alarm])
      .groupBy('state')
      .execute();
    if (seesFigure(caller, 'doorsOpen')) figures.doorsOpen = count(doors, (r) => r.state === DoorState.open);
    if (seesFigure(caller, 'openAlarms')) {
      // alarms the devices raised that nobody closed yet (open or acknowledged)
      const alarms = await tenantScoped(app.db.selectFrom('sys_device_alarm'), caller)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('state', '<', 2)
        .executeTakeFirst();
      figures.openAlarms = Number(alarms?.n ?? 0) + count(doors, (r) => r.state === DoorState.alarm);
    }
  }
  if (seesFigure(caller, 'alarmsByLevel')) {
    const levels = await tenantScoped(app.db.selectFrom('sys_device_alarm'), caller)
      .select(['level', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('state', '<', 2)
      .groupBy('level')
      .execute();
    const levelOf = (row: { level: string }): AlarmLevelName => ALARM_LEVELS.find((l) => l === row.level) ?? 'L';
    figures.alarmsByLevel = Object.fromEntries(ALARM_LEVELS.map((level) => [level, count(levels, (r) => levelOf(r) === level)])) as Record<AlarmLevelName, number>;
  }
  if (seesFigure(caller, 'eventsByHour')) figures.eventsByHour = await eventsToday(app, caller);
  if (seesFigure(caller, 'accessByHour')) figures.accessByHour = await accessToday(app, caller);
  if (seesFigure(caller, 'attendanceToday')) {
    const statuses = await tenantScoped(app.db.selectFrom('sys_attendance_day'), caller)
      .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('day', '=', formatWireTime(app.clock(), app.settings.timeZone).slice(0, 10))
      .where('status', 'in', [AttendanceStatus.normal, AttendanceStatus.late, AttendanceStatus.absent])
      .groupBy('status')
      .execute();
    figures.attendanceToday = {
      normal: count(statuses, (r) => r.status === AttendanceStatus.normal),
      late: count(statuses, (r) => r.status === AttendanceStatus.late),
      absent: count(statuses, (r) => r.status === AttendanceStatus.absent),
    };
  }
  if (seesFigure(caller, 'cabinets')) {
    const cabinets = await tenantScoped(app.db.selectFrom('sys_cabinet'), caller)
      .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('status')
      .execute();
    figures.cabinets = { occupied: count(cabinets, (r) => r.status === CabinetStatus.assigned), free: count(cabinets, (r) => r.status !== CabinetStatus.assigned) };
  }
  return figures;
}

/**
 * Today's hours of the site's zone: rows since `since` (UTC ISO text) counted per UTC hour (`yyyy-MM-ddTHH`) are each
 * placed in the hour of the site's day they start in, or in none when they fall on another day.
 */
function siteHours(app: FastifyInstance): { since: string; hourOf: (utcHour: string) => number | null } {
  const zone = app.settings.timeZone;
  const now = app.clock();
  const today = formatWireTime(now, zone).slice(0, 10);
  // today in any zone lies within the last 24 hours plus the hours since the site's midnight
  const since = new Date(Math.floor(now / HOUR_MS) * HOUR_MS - 26 * HOUR_MS).toISOString();
  return {
    since,
    hourOf: (utcHour) => {
      const local = formatWireTime(`${utcHour}:00:00.000Z`, zone);
      return local.slice(0, 10) === today ? Number(local.slice(11, 13)) : null;
    },
  };
}

/** Today's device events per hour of the site's zone. */
async function eventsToday(app: FastifyInstance, caller: CurrentUser): Promise<number[]> {
  const { since, hourOf } = siteHours(app);
  const hour = sql<string>`substr(create_time, 1, 13)`;
  const buckets = await tenantScoped(app.db.selectFrom('sys_device_event'), caller)
    .select([hour.as('hour'), (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('create_time', '>=', since)
    .groupBy(hour)
    .execute();
  const eventsByHour = Array.from({ length: 24 }, () => 0);
  for (const bucket of buckets) {
    const at = hourOf(bucket.hour);
    if (at !== null) eventsByHour[at]! += Number(bucket.n);
  }
  return eventsByHour;
}

/** Today's openings and denials per hour of the site's zone, by the time each happened. */
async function accessToday(app: FastifyInstance, caller: CurrentUser): Promise<{ openings: number[]; denials: number[] }> {
  const { since, hourOf } = siteHours(app);
  const hour = sql<string>`substr(event_time, 1, 13)`;
  const buckets = await tenantScoped(app.db.selectFrom('sys_access_event'), caller)
    .select([hour.as('hour'), 'kind', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('event_time', '>=', since)
    .where('kind', 'in', [DeviceEventKind.opening, DeviceEventKind.denial])
    .groupBy([hour, 'kind'])
    .execute();
  const openings = Array.from({ length: 24 }, () => 0);
  const denials = Array.from({ length: 24 }, () => 0);
  for (const bucket of buckets) {
    const at = hourOf(bucket.hour);
    if (at !== null) (bucket.kind === DeviceEventKind.opening ? openings : denials)[at]! += Number(bucket.n);
  }
  return { openings, denials };
}
