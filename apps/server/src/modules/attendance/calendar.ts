import { AttendanceStatus, dateList, minuteOfClock, weekdayList } from '@isps/contract';
import type { SysAttendanceRule } from '../../db/schema.ts';
import { dateOfDay, weekdayOf } from './local-time.ts';

/** What a day is under a rule: a working day, a holiday (a festival or another holiday) or a rest day. */
export const DayKind = { workday: 0, holiday: 1, rest: 2 } as const;
export type DayKind = (typeof DayKind)[keyof typeof DayKind];

export type RuleRow = Pick<SysAttendanceRule, 'id' | 'work_time' | 'off_work_time' | 'absent_minutes' | 'rest_weekdays' | 'holidays' | 'workdays' | 'tenant_id'> & Partial<Record<FestivalColumn, string | null>>;
type FestivalColumn = 'fest_new_year' | 'fest_spring' | 'fest_ching_ming' | 'fest_may_day' | 'fest_dragon_boat' | 'fest_mid_autumn' | 'fest_national_day';
/** the columns of the contract's FESTIVALS, in order */
export const FESTIVAL_COLUMNS: readonly FestivalColumn[] = ['fest_new_year', 'fest_spring', 'fest_ching_ming', 'fest_may_day', 'fest_dragon_boat', 'fest_mid_autumn', 'fest_national_day'];

/** A rule read once for classifying days: its dates as sets, its shift in minutes. */
export interface RuleShape {
  holidays: ReadonlySet<string>;
  workdays: ReadonlySet<string>;
  rest: ReadonlySet<number>;
  /** minutes from the midnight the shift day began: an overnight shift's end is past 1440 */
  workMin: number;
  offMin: number;
  absentMin: number;
  /** a punch before this minute of a day belongs to the shift of the day before (0: none) */
  splitMin: number;
}

export function ruleShape(rule: RuleRow): RuleShape {
  const work = minuteOfClock(rule.work_time);
  const off = minuteOfClock(rule.off_work_time);
  const overnight = off < work;
  return {
    holidays: new Set([...FESTIVAL_COLUMNS.flatMap((c) => dateList(rule[c])), ...dateList(rule.holidays)]),
    workdays: new Set(dateList(rule.workdays)),
    rest: new Set(weekdayList(rule.rest_weekdays)),
    workMin: work,
    offMin: overnight ? off + 1440 : off,
    absentMin: work + rule.absent_minutes,
    // halfway through the time off between the end of one shift and the start of the next
    splitMin: overnight ? off + Math.floor((work - off) / 2) : 0,
  };
}

/** A holiday or festival is off even on a swapped day; a swapped working day works even on a rest weekday. */
export function dayKind(shape: RuleShape, dayIndex: number): DayKind {
  const date = dateOfDay(dayIndex);
  if (shape.holidays.has(date)) return DayKind.holiday;
  if (shape.workdays.has(date)) return DayKind.workday;
  return shape.rest.has(weekdayOf(dayIndex)) ? DayKind.rest : DayKind.workday;
}

/**
 * The result of a day from its counted punches' first and last minutes (from the shift day's midnight): the rule the
 * monthly SQL writes as a CASE, kept here as the reference the tests compare it with.
 */
export function classifyDay(shape: RuleShape, kind: DayKind, punches: { count: number; first: number; last: number }): AttendanceStatus {
  if (kind === DayKind.holiday) return AttendanceStatus.holiday;
  if (kind === DayKind.rest) return AttendanceStatus.rest;
  if (punches.count === 0) return AttendanceStatus.absent;
  if (punches.count === 1) return AttendanceStatus.missCard;
  if (punches.first > shape.absentMin) return AttendanceStatus.absent;
  if (punches.first > shape.workMin) return AttendanceStatus.late;
  if (punches.last < shape.offMin) return AttendanceStatus.leaveEarly;
  return AttendanceStatus.normal;
}

/** The shift day a punch at (`dayIndex`, `minute`) belongs to, and its minute counted from that day's midnight. */
export function shiftOf(shape: Pick<RuleShape, 'splitMin'>, dayIndex: number, minute: number): { day: number; minute: number } {
  return minute < shape.splitMin ? { day: dayIndex - 1, minute: minute + 1440 } : { day: dayIndex, minute };
}
