import {
  REPORT_COLUMNS,
  REPORT_FILTERS,
  REPORT_MAX_DAYS,
  REPORT_MAX_ROWS,
  type ReportCell,
  type ReportFilters,
  type ReportKind,
  type ReportResult,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { sql, type RawBuilder } from 'kysely';
import type { CurrentUser } from '../../platform/access.ts';
import { AppError } from '../../platform/envelope.ts';
import { tenantScoped } from '../../platform/tenancy.ts';
import { formatWireTime, requireWireTime } from '../../platform/wire-time.ts';

const DAY_MS = 86_400_000;
/** door alarms whose lengths the door-open report measures */
export const DOOR_OPEN_CODES = ['heldOpen', 'forcedOpen'] as const;

/** A report's period as stored instants (UTC ISO), begin included and end excluded; a 400 when it is none or too long. */
export function reportPeriod(begin: string, end: string, zone: string): { begin: string; end: string } {
  const from = requireWireTime(begin, zone, 'datetime', 'begin');
  const to = requireWireTime(end, zone, 'datetime', 'end');
  const span = Date.parse(to) - Date.parse(from);
  if (span <= 0) throw new AppError('badRequest', 'report.periodOrder');
  if (span > REPORT_MAX_DAYS * DAY_MS) throw new AppError('badRequest', 'report.periodTooLong', { days: REPORT_MAX_DAYS });
  return { begin: from, end: to };
}

const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

/** Seconds from `start` to `end` (stored ISO texts) in the database's own arithmetic; null when `end` is null. */
function secondsBetween(dialect: FastifyInstance['dialect'], start: RawBuilder<unknown>, end: RawBuilder<unknown>): RawBuilder<number | null> {
  if (dialect === 'postgres') return sql<number | null>`round(extract(epoch from (cast(${end} as timestamptz) - cast(${start} as timestamptz))))`;
  if (dialect === 'mysql') {
    const local = (t: RawBuilder<unknown>) => sql`cast(replace(replace(${t}, 'T', ' '), 'Z', '') as datetime(3))`;
    return sql<number | null>`timestampdiff(second, ${local(start)}, ${local(end)})`;
  }
  return sql<number | null>`cast(round((julianday(${end}) - julianday(${start})) * 86400) as integer)`;
}

/** The whole hours the zone is ahead of UTC at an instant (hour buckets are of the zone's clock). */
function zoneHourOffset(at: string, zone: string): number {
  const wall = formatWireTime(at, zone);
  const asUtc = Date.parse(`${wall.replace(' ', 'T')}Z`);
  return Math.round((asUtc - Date.parse(at)) / 3_600_000);
}

/**
 * One report of the caller's tenant over a period: set-based queries (grouped counts in the database), at most
 * REPORT_MAX_ROWS rows, biggest first (hours in clock order).
 */
export async function runReport(app: FastifyInstance, caller: CurrentUser, kind: ReportKind, period: { begin: string; end: string }, given: ReportFilters): Promise<ReportResult> {
  const filters: ReportFilters = Object.fromEntries(REPORT_FILTERS[kind].filter((f) => given[f]).map((f) => [f, given[f]]));
  const rows = kind === 'alarmsByCode' ? await alarmsByCode(app, caller, period, filters) : kind === 'doorOpenTimes' ? await doorOpenTimes(app, caller, period, filters) : await accessReport(app, caller, kind, period, filters);
  return { kind, begin: period.begin, end: period.end, columns: REPORT_COLUMNS[kind], rows: rows.slice(0, REPORT_MAX_ROWS), capped: rows.length > REPORT_MAX_ROWS };
}

type Row = Record<string, ReportCell>;

async function accessReport(app: FastifyInstance, caller: CurrentUser, kind: ReportKind, period: { begin: string; end: string }, filters: ReportFilters): Promise<Row[]> {
  let q = tenantScoped(app.db.selectFrom('sys_access_event as a'), caller, 'a.tenant_id')
    .leftJoin('sys_door as d', 'd.id', 'a.door_id')
    .where('a.event_time', '>=', period.begin)
    .where('a.event_time', '<', period.end)
    .where('a.kind', 'in', kind === 'denialsByReason' ? ['denial'] : ['opening', 'denial']);
  if (filters.doorId) q = q.where('a.door_id', '=', filters.doorId);
  if (filters.peopleId) q = q.where('a.people_id', '=', filters.peopleId);
  if (filters.deviceId) q = q.where('a.device_id', '=', filters.deviceId);
  if (filters.areaId) q = q.where('d.area_id', '=', filters.areaId);
  if (filters.departId) {
    const departId = filters.departId;
    q = q.where('a.people_id', 'in', (eb) => tenantScoped(eb.selectFrom('sys_people').select('sys_people.id'), caller, 'sys_people.tenant_id').where('sys_people.depart_id', '=', departId));
  }
  const passed = sql<number>`sum(case when a.result = 1 then 1 else 0 end)`;
  const refused = sql<number>`sum(case when a.result = 0 then 1 else 0 end)`;
  const total = sql<number>`count(*)`;
  const limit = REPORT_MAX_ROWS + 1;
  const figures = (r: { passed: unknown; refused: unknown; total: unknown }) => ({ passed: num(r.passed), refused: num(r.refused), total: num(r.total) });

  if (kind === 'accessByDoor') {
    const found = await q
      .leftJoin('sys_device as dev', 'dev.id', 'a.device_id')
      .select(['a.device_id', 'a.door_no', 'd.door_name', 'dev.device_name', passed.as('passed'), refused.as('refused'), total.as('total')])
      .groupBy(['a.device_id', 'a.door_no', 'd.door_name', 'dev.device_name'])
      .orderBy(sql`count(*)`, 'desc')
      .orderBy('a.device_id')
      .orderBy('a.door_no')
      .limit(limit)
      .execute();
    return found.map((r) => ({ key: `${r.device_id}|${r.door_no ?? ''}`, door: r.door_name ?? (r.door_no === null ? null : `#${r.door_no}`), device: r.device_name ?? null, ...figures(r) }));
  }
  if (kind === 'accessByPerson') {
    const found = await q
      .leftJoin('sys_people as p', 'p.id', 'a.people_id')
      .select(['a.people_id', 'p.name', 'p.user_no', passed.as('passed'), refused.as('refused'), total.as('total')])
      .groupBy(['a.people_id', 'p.name', 'p.user_no'])
      .orderBy(sql`count(*)`, 'desc')
      .orderBy('a.people_id')
      .limit(limit)
      .execute();
    return found.map((r) => ({ key: r.people_id ?? '-', person: r.name ?? null, userNo: r.user_no ?? null, ...figures(r) }));
  }
  if (kind === 'accessByArea') {
    const found = await q
      .leftJoin('sys_area as ar', 'ar.id', 'd.area_id')
      .select(['d.area_id', 'ar.area_name', passed.as('passed'), refused.as('refused'), total.as('total')])
      .groupBy(['d.area_id', 'ar.area_name'])
      .orderBy(sql`count(*)`, 'desc')
      .orderBy('d.area_id')
      .limit(limit)
      .execute();
    return found.map((r) => ({ key: r.area_id ?? '-', area: r.area_name ?? null, ...figures(r) }));
  }
  if (kind === 'accessByHour') {
    const hour = sql<string>`substr(a.event_time, 12, 2)`;
    const found = await q.select([hour.as('hour'), passed.as('passed'), refused.as('refused'), total.as('total')]).groupBy(hour).execute();
    // the stored times are UTC: the buckets are moved to the site's clock
    const shift = zoneHourOffset(period.begin, app.settings.timeZone);
    const byHour = new Map(found.map((r) => [(((Number(r.hour) + shift) % 24) + 24) % 24, figures(r)]));
    return Array.from({ length: 24 }, (_, h) => ({ key: String(h), hour: String(h).padStart(2, '0'), ...(byHour.get(h) ?? { passed: 0, refused: 0, total: 0 }) }));
  }
  // denials by reason
  const found = await q
    .select(['a.detail', total.as('count')])
    .groupBy('a.detail')
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('a.detail')
    .limit(limit)
    .execute();
  return found.map((r) => ({ key: r.detail ?? '-', reason: r.detail ?? null, count: num(r.count) }));
}

async function alarmsByCode(app: FastifyInstance, caller: CurrentUser, period: { begin: string; end: string }, filters: ReportFilters): Promise<Row[]> {
  let q = tenantScoped(app.db.selectFrom('sys_device_alarm as al'), caller, 'al.tenant_id')
    .leftJoin('sys_device as dev', 'dev.id', 'al.device_id')
    .where('al.alarm_time', '>=', period.begin)
    .where('al.alarm_time', '<', period.end);
  if (filters.deviceId) q = q.where('al.device_id', '=', filters.deviceId);
  if (filters.areaId) q = q.where('al.area_id', '=', filters.areaId);
  const found = await q
    .select(['al.code', 'al.device_id', 'dev.device_name', sql<number>`count(*)`.as('count'), sql<number>`sum(al.alarm_count)`.as('events')])
    .groupBy(['al.code', 'al.device_id', 'dev.device_name'])
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('al.code')
    .orderBy('al.device_id')
    .limit(REPORT_MAX_ROWS + 1)
    .execute();
  return found.map((r) => ({ key: `${r.code}|${r.device_id}`, code: r.code, device: r.device_name ?? null, count: num(r.count), events: num(r.events) }));
}

/**
 * Held-open and forced-open alarms per device and code, and how long the doors stood so: an alarm lasts from its
 * time to the first `closed` state its device reported after it (alarms carry no door); one with no such state yet
 * is counted but not measured.
 */
async function doorOpenTimes(app: FastifyInstance, caller: CurrentUser, period: { begin: string; end: string }, filters: ReportFilters): Promise<Row[]> {
  let inner = tenantScoped(app.db.selectFrom('sys_device_alarm as al'), caller, 'al.tenant_id')
    .where('al.code', 'in', [...DOOR_OPEN_CODES])
    .where('al.alarm_time', '>=', period.begin)
    .where('al.alarm_time', '<', period.end);
  if (filters.deviceId) inner = inner.where('al.device_id', '=', filters.deviceId);
  if (filters.areaId) inner = inner.where('al.area_id', '=', filters.areaId);
  const timed = inner.select((eb) => [
    'al.device_id',
    'al.code',
    'al.alarm_time',
    eb
      .selectFrom('sys_door_event as e')
      .select((e) => e.fn.min('e.event_time').as('t'))
      .whereRef('e.device_id', '=', 'al.device_id')
      .where('e.state', '=', 'closed')
      .whereRef('e.event_time', '>=', 'al.alarm_time')
      .as('end_time'),
  ]);
  const seconds = secondsBetween(app.dialect, sql.ref('x.alarm_time'), sql.ref('x.end_time'));
  const found = await app.db
    .selectFrom(timed.as('x'))
    .leftJoin('sys_device as dev', 'dev.id', 'x.device_id')
    .select([
      'x.device_id',
      'x.code',
      'dev.device_name',
      sql<number>`count(*)`.as('count'),
      sql<number>`count(x.end_time)`.as('measured'),
      sql<number | null>`sum(${seconds})`.as('totalSeconds'),
      sql<number | null>`max(${seconds})`.as('longestSeconds'),
    ])
    .groupBy(['x.device_id', 'x.code', 'dev.device_name'])
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('x.device_id')
    .orderBy('x.code')
    .limit(REPORT_MAX_ROWS + 1)
    .execute();
  return found.map((r) => ({ key: `${r.device_id}|${r.code}`, device: r.device_name ?? null, code: r.code, count: num(r.count), measured: num(r.measured), totalSeconds: num(r.totalSeconds), longestSeconds: num(r.longestSeconds) }));
}
