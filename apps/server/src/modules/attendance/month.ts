import { randomUUID } from 'node:crypto';
import { AttendanceStatus, DEVICE_CREATOR } from '@isps/contract';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DatabaseDialect } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { dayKind, DayKind, FESTIVAL_COLUMNS, ruleShape } from './calendar.ts';
import { dateOfDay, monthDays, monthOfDay } from './local-time.ts';

export interface MonthOutcome {
  days: number;
  people: number;
}

/** rows of one calendar insert (SQLite binds at most 32766 values: 15 columns each) */
const CALENDAR_CHUNK = 500;

/** What one month's statements of a tenant share. */
export interface MonthScope {
  dialect: DatabaseDialect;
  tenantId: string;
  month: string;
  first: number;
  /** the last day that is over (days after it are not computed yet) */
  lastComputed: number;
  /** some rule of the tenant has a shift crossing midnight: a punch's shift day then depends on the person's rule */
  overnight: boolean;
  now: string;
}

/** A parameter in a select list: PostgreSQL cannot infer its type; MySQL casts to char, which does not pad. */
function text(scope: Pick<MonthScope, 'dialect'>, value: string, length: number): RawBuilder<string> {
  if (scope.dialect === 'postgres') return sql<string>`cast(${value} as varchar(${sql.lit(length)}))`;
  if (scope.dialect === 'mysql') return sql<string>`cast(${value} as char(${sql.lit(length)}))`;
  return sql<string>`${value}`;
}

/**
 * The punches of the month grouped by person and shift day (`a`): their count and first and last minutes counted from
 * the shift day's midnight; `withTimes` adds the first and last punch's times (the daily rows show them; the
 * statistics need only the minutes, which the punches' index covers).
 */
function punchGroups(scope: MonthScope, withTimes: boolean): RawBuilder<unknown> {
  const { tenantId, first, lastComputed, overnight } = scope;
  // a punch before the rule's split minute belongs to the shift of the day before, at minute + 1440
  const early = sql<number>`case when p.minute < c.split_min then 1 else 0 end`;
  // without a shift crossing midnight a punch's day is its own: grouped in the order of the punches' index
  const shiftDay = overnight ? sql`p.day_index - ${early}` : sql`p.day_index`;
  const shiftMinute = overnight ? sql`p.minute + 1440 * ${early}` : sql`p.minute`;
  const rulesOfPunches = overnight
    ? sql`join sys_people pp on pp.id = p.people_id
      join sys_attendance_rule_depart prd on prd.depart_id = pp.depart_id
      join sys_attendance_calendar c on c.rule_id = prd.rule_id and c.day_index = p.day_index`
    : sql``;
  const times = withTimes ? sql`, min(p.punch_time) as first_time, max(p.punch_time) as last_time` : sql``;
  return sql`
    select p.people_id, ${shiftDay} as shift_day, count(*) as cnt, min(${shiftMinute}) as first_min, max(${shiftMinute}) as last_min ${times}
    from sys_attendance_punch p
    ${rulesOfPunches}
    where p.tenant_id = ${tenantId} and p.duplicate = 0 and p.day_index >= ${first} and p.day_index <= ${lastComputed + 1}
    group by ${shiftDay}, p.people_id`;
}

/** The result of a working day with punches (`a` grouped punches, `c` the calendar day): the SQL of `classifyDay`. */
const punchedDayStatus = sql<number>`case
    when a.cnt = 1 then ${sql.lit(AttendanceStatus.missCard)}
    when a.first_min > c.absent_min then ${sql.lit(AttendanceStatus.absent)}
    when a.first_min > c.work_min then ${sql.lit(AttendanceStatus.late)}
    when a.last_min < c.off_min then ${sql.lit(AttendanceStatus.leaveEarly)}
    else ${sql.lit(AttendanceStatus.normal)}
  end`;

/**
 * Every person's computed day of the month (people of a group with a rule, days of the rule's calendar that are
 * over), as a derived table: each person's calendar, the grouped punches of each day, and the day's result.
 */
function classifiedDays(scope: MonthScope): RawBuilder<unknown> {
  const { tenantId, first, lastComputed } = scope;
  return sql`
    select pe.id as people_id, pe.depart_id, pe.tenant_id, c.rule_id, c.day_index, c.day, c.month,
      case
        when c.kind = ${sql.lit(DayKind.holiday)} then ${sql.lit(AttendanceStatus.holiday)}
        when c.kind = ${sql.lit(DayKind.rest)} then ${sql.lit(AttendanceStatus.rest)}
        when a.cnt is null then ${sql.lit(AttendanceStatus.absent)}
        else ${punchedDayStatus}
      end as status,
      coalesce(a.cnt, 0) as cnt, a.first_time, a.last_time
    from sys_people pe
    join sys_attendance_rule_depart rd on rd.depart_id = pe.depart_id
    join sys_attendance_calendar c on c.rule_id = rd.rule_id and c.day_index >= ${first} and c.day_index <= ${lastComputed}
    left join (${punchGroups(scope, true)}) a on a.people_id = pe.id and a.shift_day = c.day_index
    where pe.tenant_id = ${tenantId} and pe.del_flag = 0`;
}

/**
 * PostgreSQL plans freshly written punches as a few rows (no statistics yet) and would run the grouped punches once
 * per person and day in a nested loop: the month's statements join by hashing instead (for this transaction only).
 */
async function joinByHashing(trx: Kysely<Database>, scope: Pick<MonthScope, 'dialect'>): Promise<void> {
  if (scope.dialect === 'postgres') await sql`set local enable_nestloop = off`.execute(trx);
}

/**
 * The month's statistics (SPEC section 3 "Attendance statistics"), in one INSERT…SELECT…GROUP BY, driven by the grouped
 * punches rather than by every person's every day: each working day of a person's rule counts absent until its
 * punches (a working day with punches, classified) or an operator's correction (a corrected day, as corrected) say
 * otherwise. Rows of three kinds (`src`) are summed per person: 1 the rule's working days, 2 the punched working days
 * not corrected by result, 3 the corrected days by result, with how many of them are working days of the calendar.
 */
export async function countMonth(trx: Kysely<Database>, scope: MonthScope): Promise<void> {
  const { tenantId, month, first, lastComputed } = scope;
  await trx.deleteFrom('sys_attendance_month').where('tenant_id', '=', tenantId).where('month', '=', month).execute();
  if (lastComputed < first) return;
  await joinByHashing(trx, scope);
  const workday = sql.lit(DayKind.workday);
  const judged = sql`u.src > 1`;
  const counted = (value: number) => sql<number>`sum(case when ${judged} and u.status = ${sql.lit(value)} then u.days else 0 end)`;
  // the working days neither punched nor corrected: absent
  const unpunched = sql<number>`(sum(case when u.src = 1 then u.days else 0 end) - sum(case when ${judged} then u.workdays else 0 end))`;
  await sql`
    insert into sys_attendance_month (id, create_by, create_time, month, user_id, user_name, depart_id, work_days, normal_count, late_count, absense_count, leave_early_count, miss_card_count, tenant_id)
    select concat(u.people_id, '-', ${text(scope, month, 7)}), ${text(scope, DEVICE_CREATOR, 64)}, ${text(scope, scope.now, 32)}, ${text(scope, month, 7)}, u.people_id, max(pe.name), max(pe.depart_id),
      ${unpunched} + sum(case when ${judged} and u.status <= ${sql.lit(AttendanceStatus.missCard)} then u.days else 0 end),
      ${counted(AttendanceStatus.normal)}, ${counted(AttendanceStatus.late)}, ${unpunched} + ${counted(AttendanceStatus.absent)},
      ${counted(AttendanceStatus.leaveEarly)}, ${counted(AttendanceStatus.missCard)}, ${text(scope, tenantId, 36)}
    from (
      select pe.id as people_id, 1 as src, 0 as status, w.days, w.days as workdays
      from sys_people pe
      join sys_attendance_rule_depart rd on rd.depart_id = pe.depart_id
      join (
        select rule_id, count(*) as days from sys_attendance_calendar
        where tenant_id = ${tenantId} and kind = ${workday} and day_index >= ${first} and day_index <= ${lastComputed}
        group by rule_id
      ) w on w.rule_id = rd.rule_id
      where pe.tenant_id = ${tenantId} and pe.del_flag = 0
      union all
      select a.people_id, 2, ${punchedDayStatus}, count(*), count(*)
      from (${punchGroups(scope, false)}) a
      join sys_people pe on pe.id = a.people_id
      join sys_attendance_rule_depart rd on rd.depart_id = pe.depart_id
      join sys_attendance_calendar c on c.rule_id = rd.rule_id and c.day_index = a.shift_day
      left join (
        select people_id, day_index from sys_attendance_day where tenant_id = ${tenantId} and month = ${month} and corrected = 1
      ) fixed on fixed.people_id = a.people_id and fixed.day_index = a.shift_day
      where c.kind = ${workday} and fixed.people_id is null and pe.del_flag = 0 and a.shift_day >= ${first} and a.shift_day <= ${lastComputed}
      group by a.people_id, ${punchedDayStatus}
      union all
      select d.people_id, 3, d.status, count(*), sum(case when c.kind = ${workday} then 1 else 0 end)
      from sys_attendance_day d
      join sys_people pe on pe.id = d.people_id
      join sys_attendance_rule_depart rd on rd.depart_id = pe.depart_id
      join sys_attendance_calendar c on c.rule_id = rd.rule_id and c.day_index = d.day_index
      where d.tenant_id = ${tenantId} and d.month = ${month} and d.corrected = 1 and pe.del_flag = 0 and d.day_index <= ${lastComputed}
      group by d.people_id, d.status
    ) u
    join sys_people pe on pe.id = u.people_id
    group by u.people_id
  `.execute(trx);
}

/** The daily results of the month, in one INSERT…SELECT; days an operator corrected stay as they are. */
async function writeDays(trx: Kysely<Database>, scope: MonthScope): Promise<void> {
  const { tenantId, month } = scope;
  await trx.deleteFrom('sys_attendance_day').where('tenant_id', '=', tenantId).where('month', '=', month).where('corrected', '=', 0).execute();
  if (scope.lastComputed < scope.first) return;
  await joinByHashing(trx, scope);
  await sql`
    insert into sys_attendance_day (id, create_by, create_time, people_id, depart_id, rule_id, day_index, day, month, status, check_in, check_out, punch_count, corrected, tenant_id)
    select concat(k.people_id, '-', k.day_index), ${text(scope, DEVICE_CREATOR, 64)}, ${text(scope, scope.now, 32)}, k.people_id, k.depart_id, k.rule_id, k.day_index, k.day, k.month, k.status,
      k.first_time, case when k.cnt > 1 then k.last_time end, k.cnt, 0, k.tenant_id
    from (${classifiedDays(scope)}) k
    where not exists (select 1 from sys_attendance_day d where d.tenant_id = k.tenant_id and d.people_id = k.people_id and d.day_index = k.day_index)
    -- in the order of the day's key: each index of the days grows at a few places, not all over its pages
    order by k.people_id, k.day_index
  `.execute(trx);
}

/** The scope of a month whose calendars are written (a correction counts its month again with it). */
export async function monthScope(db: Kysely<Database>, dialect: DatabaseDialect, tenantId: string, month: string, todayIndex: number, now: string): Promise<MonthScope> {
  const { first, last } = monthDays(month);
  const overnight = await db
    .selectFrom('sys_attendance_calendar')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('day_index', '>=', first)
    .where('day_index', '<=', last + 1)
    .where('split_min', '>', 0)
    .executeTakeFirst();
  return { dialect, tenantId, month, first, lastComputed: Math.min(last, todayIndex - 1), overnight: overnight !== undefined, now };
}

/**
 * Computes a month of a tenant again, set-based: the rules' calendars of the month are written in JS (a row per rule
 * and day), then one INSERT…SELECT writes every person's days and one INSERT…SELECT…GROUP BY counts the month, both
 * from the punches grouped by person and shift day. No statement runs per person. Days an operator corrected are
 * kept. Only days that are over (before `todayIndex`) are computed.
 */
export async function recomputeMonth(db: Kysely<Database>, dialect: DatabaseDialect, tenantId: string, month: string, todayIndex: number, now = new Date().toISOString()): Promise<MonthOutcome> {
  const { first, last } = monthDays(month);
  return db.transaction().execute(async (trx) => {
    await writeCalendars(trx, tenantId, first, last, now);
    const scope = await monthScope(trx, dialect, tenantId, month, todayIndex, now);
    await writeDays(trx, scope);
    await countMonth(trx, scope);
    const totals = await trx
      .selectFrom('sys_attendance_day')
      .select((eb) => [eb.fn.countAll<number | string>().as('days'), eb.fn.count<number | string>('people_id').distinct().as('people')])
      .where('tenant_id', '=', tenantId)
      .where('month', '=', month)
      .executeTakeFirst();
    return { days: Number(totals?.days ?? 0), people: Number(totals?.people ?? 0) };
  });
}

/** Each rule's calendar of the month and the day after it (an overnight shift's check-out falls on it). */
async function writeCalendars(trx: Kysely<Database>, tenantId: string, first: number, last: number, now: string): Promise<void> {
  const rules = await trx.selectFrom('sys_attendance_rule').select(['id', 'work_time', 'off_work_time', 'absent_minutes', 'rest_weekdays', 'holidays', 'workdays', 'tenant_id', ...FESTIVAL_COLUMNS]).where('tenant_id', '=', tenantId).execute();
  await trx.deleteFrom('sys_attendance_calendar').where('tenant_id', '=', tenantId).where('day_index', '>=', first).where('day_index', '<=', last + 1).execute();
  const calendar = rules.flatMap((rule) => {
    const shape = ruleShape(rule);
    return Array.from({ length: last + 2 - first }, (_, i) => first + i).map((dayIndex) => ({
      id: randomUUID(),
      create_by: DEVICE_CREATOR,
      create_time: now,
      update_by: null,
      update_time: null,
      rule_id: rule.id,
      day_index: dayIndex,
      day: dateOfDay(dayIndex),
      month: monthOfDay(dayIndex),
      kind: dayKind(shape, dayIndex),
      work_min: shape.workMin,
      off_min: shape.offMin,
      absent_min: shape.absentMin,
      split_min: shape.splitMin,
      tenant_id: tenantId,
    }));
  });
  for (let i = 0; i < calendar.length; i += CALENDAR_CHUNK) await trx.insertInto('sys_attendance_calendar').values(calendar.slice(i, i + CALENDAR_CHUNK)).execute();
}
