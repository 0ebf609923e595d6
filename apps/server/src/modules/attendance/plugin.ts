import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { localDayMinute, monthOfDay } from './local-time.ts';
import { recomputeMonth, type MonthOutcome } from './month.ts';
import { recordPunches } from './punches.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** computes a tenant's month (`yyyy-MM`) of attendance again: its days that are over, and its statistics */
    recomputeAttendance(tenantId: string, month: string): Promise<MonthOutcome>;
    /** computes the current month of every tenant with a rule (the `attendanceMonth` scheduled job) */
    refreshAttendance(): Promise<string>;
    /** refreshes attendance once per site day, the first time it is called on a new day (the plugin's timer calls it); null: done today already */
    refreshAttendanceOnNewDay(): Promise<string | null>;
  }
}

export interface AttendanceOptions {
  /** how often the server looks whether a site day ended since it last computed attendance (ms) */
  dayCheckMs?: number;
}

/** Ten minutes: a day that ended is in the statistics within ten minutes, with no job for an administrator to add. */
const DAY_CHECK_MS = 600_000;

/** Attendance's device side: the punches among the devices' events, and the month computation the routes and the job call. */
export const attendancePlugin = fp<AttendanceOptions>(
  async (app: FastifyInstance, options) => {
    const today = () => localDayMinute(app.clock(), app.settings.timeZone).dayIndex;
    app.decorate('recomputeAttendance', (tenantId: string, month: string) => recomputeMonth(app.db, app.dialect, tenantId, month, today(), new Date(app.clock()).toISOString()));
    app.decorate('refreshAttendance', async () => {
      // yesterday's month: on the first of a month the last day of the one before is over now
      const month = monthOfDay(today() - 1);
      const tenants = await app.db.selectFrom('sys_attendance_rule').select('tenant_id').distinct().where('tenant_id', 'is not', null).execute();
      let people = 0;
      for (const { tenant_id } of tenants) people += (await app.recomputeAttendance(tenant_id!, month)).people;
      return `attendance of ${month} computed for ${tenants.length} tenants, ${people} people`;
    });
    // the days that ended are computed once a day in every server, whether or not an administrator added the job
    let refreshedDay: number | null = null;
    let refreshing: Promise<string | null> | null = null;
    app.decorate('refreshAttendanceOnNewDay', () => {
      const day = today();
      if (refreshedDay === day) return Promise.resolve(null);
      refreshing ??= app
        .refreshAttendance()
        .then((outcome) => {
          refreshedDay = day;
          return outcome;
        })
        .finally(() => {
          refreshing = null;
        });
      return refreshing;
    });
    let dayCheck: NodeJS.Timeout | null = null;
    app.addHook('onReady', async () => {
      dayCheck = setInterval(() => void app.refreshAttendanceOnNewDay().catch((error: unknown) => app.log.error({ err: error }, 'attendance refresh failed')), options.dayCheckMs ?? DAY_CHECK_MS);
      dayCheck.unref();
    });
    app.addHook('preClose', async () => {
      if (dayCheck) clearInterval(dayCheck);
    });
    app.deviceGateway.observe({
      store: async (db, device, events) => recordPunches(db, device, events, app.settings.timeZone, new Date(app.clock()).toISOString()),
    });
  },
  { name: 'attendance', dependencies: ['device-gateway'] },
);
