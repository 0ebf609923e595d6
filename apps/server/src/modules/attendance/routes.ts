import {
  ATTENDANCE_STATUSES,
  attendanceCorrection,
  attendanceDayEntity,
  attendanceMonthEntity,
  AttendancePath,
  attendanceRecompute,
  attendanceRuleEntity,
  attendanceSuggestQuery,
  ID_PATTERN,
  monthSchema,
  oaRuleEntity,
  permissionCode,
  type AttendanceCalendarDay,
  type AttendancePunchRow,
  type AttendanceStatus,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { callerOf, type CurrentUser } from '../../platform/access.ts';
import { writeCallerLog } from '../../platform/audit-log.ts';
import { registerEntity, type EntityHooks } from '../../platform/crud/index.ts';
import { linkIds } from '../../platform/crud/values.ts';
import { refuse } from '../../platform/envelope.ts';
import { formatWireTime } from '../../platform/wire-time.ts';
import { ruleShape, shiftOf } from './calendar.ts';
import { localDayMinute } from './local-time.ts';
import { countMonth, monthScope } from './month.ts';
import { suggestDates } from './holidays.ts';

const tags = ['attendance'];

/** A group has at most one rule: the groups named must follow no other rule (of any screen: they share the table). */
async function assertGroupsFree(app: FastifyInstance, departIds: readonly string[], ruleId: string | null): Promise<void> {
  if (departIds.length === 0) return;
  let query = app.db
    .selectFrom('sys_attendance_rule_depart as rd')
    .innerJoin('sys_attendance_rule as r', 'r.id', 'rd.rule_id')
    .leftJoin('sys_depart as d', 'd.id', 'rd.depart_id')
    .select(['r.rule_name', 'd.depart_name'])
    .where('rd.depart_id', 'in', [...departIds]);
  if (ruleId) query = query.where('rd.rule_id', '<>', ruleId);
  const taken = await query.executeTakeFirst();
  if (taken) refuse('attendance.departHasRule', { depart: taken.depart_name ?? '', rule: taken.rule_name });
}

const ruleHooks: EntityHooks = {
  beforeAdd: async ({ app }, values) => assertGroupsFree(app, linkIds(values.departIds), null),
  beforeEdit: async ({ app }, values, existing) => {
    if (values.departIds !== undefined) await assertGroupsFree(app, linkIds(values.departIds), String(existing.id));
  },
  deleteLinked: async (trx, ids) => {
    await trx.deleteFrom('sys_attendance_calendar').where('rule_id', 'in', ids).execute();
  },
};

const STATUS_NAMES = new Map<number, string>(ATTENDANCE_STATUSES.map(([name, value]) => [value, name]));

/** Attendance rules (device and system screens), daily results, monthly statistics and their actions. */
export const attendanceRoutes: FastifyPluginAsyncZod = async (app) => {
  registerEntity(app, oaRuleEntity, ruleHooks);
  registerEntity(app, attendanceRuleEntity, ruleHooks);
  const days = registerEntity(app, attendanceDayEntity);
  registerEntity(app, attendanceMonthEntity);
  const zone = () => app.settings.timeZone;

  const callersDay = async (caller: CurrentUser, id: string) => {
    const day = await days.findById(caller, id);
    if (!day) refuse('attendance.dayNotFound');
    return day;
  };

  app.get(
    AttendancePath.suggest,
    {
      schema: { tags, summary: 'China’s festival days off and swapped working days of a year, for the rule form', querystring: attendanceSuggestQuery },
      config: { permission: [oaRuleEntity, attendanceRuleEntity].flatMap((e) => [permissionCode(e, 'add'), permissionCode(e, 'edit')]) },
    },
    async (request, reply) => reply.ok(suggestDates(request.query.year)),
  );

  app.put(
    AttendancePath.correct,
    { schema: { tags, summary: 'Corrects a day’s result, with a reason (operation log)', body: attendanceCorrection }, config: { permission: permissionCode(attendanceDayEntity, 'correct') } },
    async (request, reply) => {
      const caller = callerOf(request);
      const day = await callersDay(caller, request.body.id);
      const now = new Date(app.clock()).toISOString();
      await app.db
        .updateTable('sys_attendance_day')
        .set({ status: request.body.status, corrected: 1, correction_reason: request.body.reason, update_by: caller.username, update_time: now })
        .where('id', '=', String(day.id))
        .execute();
      const tenantId = day.tenant_id === null || day.tenant_id === undefined ? null : String(day.tenant_id);
      const today = localDayMinute(app.clock(), zone()).dayIndex;
      if (tenantId) await app.db.transaction().execute(async (trx) => countMonth(trx, await monthScope(trx, app.dialect, tenantId, String(day.month), today, now)));
      const person = await app.db.selectFrom('sys_people').select('name').where('id', '=', String(day.people_id)).executeTakeFirst();
      await writeCallerLog(reply, caller, { key: 'attendance.corrected', params: { people: person?.name ?? '', day: String(day.day), status: STATUS_NAMES.get(request.body.status) ?? '', reason: request.body.reason } });
      return reply.ok(null);
    },
  );

  app.get(
    AttendancePath.punches,
    { schema: { tags, summary: 'The punches a day was read from, duplicates included', querystring: z.object({ id: z.string().regex(ID_PATTERN) }) }, config: { permission: permissionCode(attendanceDayEntity, 'list') } },
    async (request, reply) => {
      const day = await callersDay(callerOf(request), request.query.id);
      const dayIndex = Number(day.day_index);
      const rule = day.rule_id ? await app.db.selectFrom('sys_attendance_rule').selectAll().where('id', '=', String(day.rule_id)).executeTakeFirst() : undefined;
      const split = rule ? ruleShape(rule) : { splitMin: 0 };
      const rows = await app.db
        .selectFrom('sys_attendance_punch as p')
        .leftJoin('sys_device as d', 'd.id', 'p.device_id')
        .select(['p.id', 'p.device_id', 'd.device_name', 'p.punch_time', 'p.raw_time', 'p.source', 'p.duplicate', 'p.day_index', 'p.minute'])
        .where('p.people_id', '=', String(day.people_id))
        .where('p.day_index', '>=', dayIndex)
        .where('p.day_index', '<=', dayIndex + 1)
        .orderBy('p.punch_time', 'asc')
        .execute();
      const punches: AttendancePunchRow[] = rows
        .filter((r) => shiftOf(split, r.day_index, r.minute).day === dayIndex)
        .map((r) => ({
          id: r.id,
          deviceId: r.device_id,
          deviceName: r.device_name ?? null,
          punchTime: formatWireTime(r.punch_time, zone()),
          rawTime: formatWireTime(r.raw_time, zone()),
          source: r.source === 'opening' ? 'opening' : 'punch',
          duplicate: Number(r.duplicate) === 1,
        }));
      return reply.ok(punches);
    },
  );

  app.post(
    AttendancePath.recompute,
    { schema: { tags, summary: 'Computes a month’s days and statistics again', body: attendanceRecompute }, config: { permission: permissionCode(attendanceMonthEntity, 'recompute') } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { month } = request.body;
      const outcome = caller.tenantScope === null ? { days: 0, people: 0 } : await app.recomputeAttendance(caller.tenantScope, month);
      await writeCallerLog(reply, caller, { key: 'attendance.recomputed', params: { month } });
      return reply.ok({ month, ...outcome });
    },
  );

  app.get(
    AttendancePath.calendar,
    {
      schema: { tags, summary: 'A person’s days of a month', querystring: z.object({ peopleId: z.string().regex(ID_PATTERN), month: monthSchema }) },
      config: { permission: permissionCode(attendanceMonthEntity, 'list') },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const rows = await days.scoped(caller).select(['id', 'day', 'status', 'corrected']).where('people_id', '=', request.query.peopleId).where('month', '=', request.query.month).orderBy('day', 'asc').execute();
      const calendar: AttendanceCalendarDay[] = rows.map((r) => ({ id: String(r.id), day: String(r.day), status: Number(r.status) as AttendanceStatus, corrected: Number(r.corrected) === 1 }));
      return reply.ok(calendar);
    },
  );
};
