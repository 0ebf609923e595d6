import { DoorState, type DashboardDevices } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { CurrentUser } from '../../platform/access.ts';
import { tenantScoped } from '../../platform/tenancy.ts';
import { formatWireTime } from '../../platform/wire-time.ts';
import { seesFigure } from './service.ts';

const HOUR_MS = 3_600_000;

/**
 * The device figures of the home page, of the caller's tenant: devices online and offline, doors open, open alarms (device
 * alarms not yet closed and doors reporting an alarm) and today's events per hour of the site's zone, those the caller's
 * permissions cover. Events are counted per UTC hour in the database and each hour is
 * placed in the site's day (a zone with a half-hour offset files each hour under the hour it starts in).
 */
export async function dashboardDevices(app: FastifyInstance, caller: CurrentUser): Promise<DashboardDevices> {
  const count = <T extends { n: number | string }>(rows: T[], match: (row: T) => boolean) => rows.filter(match).reduce((sum, row) => sum + Number(row.n), 0);
  const emergency = caller.tenantScope === null ? undefined : await app.db.selectFrom('sys_emergency').select('id').where('active_key', '=', caller.tenantScope).executeTakeFirst();
  // only the figures the caller's permissions cover are counted and sent
  const figures: DashboardDevices = { emergencyActive: emergency !== undefined };
  if (seesFigure(caller, 'devicesOnline') || seesFigure(caller, 'devicesOffline')) {
    const devices = await tenantScoped(app.db.selectFrom('sys_device'), caller)
      .select(['online', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('online')
      .execute();
    if (seesFigure(caller, 'devicesOnline')) figures.devicesOnline = count(devices, (r) => r.online === 1);
    if (seesFigure(caller, 'devicesOffline')) figures.devicesOffline = count(devices, (r) => r.online !== 1);
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
  if (seesFigure(caller, 'eventsByHour')) figures.eventsByHour = await eventsToday(app, caller);
  return figures;
}

/** Today's device events per hour of the site's zone. */
async function eventsToday(app: FastifyInstance, caller: CurrentUser): Promise<number[]> {
  const zone = app.settings.timeZone;
  const now = app.clock();
  const today = formatWireTime(now, zone).slice(0, 10);
  // today in any zone lies within the last 24 hours plus the hours since the site's midnight
  const since = new Date(Math.floor(now / HOUR_MS) * HOUR_MS - 26 * HOUR_MS).toISOString();
  const hour = sql<string>`substr(create_time, 1, 13)`;
  const buckets = await tenantScoped(app.db.selectFrom('sys_device_event'), caller)
    .select([hour.as('hour'), (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('create_time', '>=', since)
    .groupBy(hour)
    .execute();
  const eventsByHour = Array.from({ length: 24 }, () => 0);
  for (const bucket of buckets) {
    const local = formatWireTime(`${bucket.hour}:00:00.000Z`, zone);
    if (local.slice(0, 10) === today) eventsByHour[Number(local.slice(11, 13))]! += Number(bucket.n);
  }
  return eventsByHour;
}
