import * as z from 'zod';

/**
 * The time setting of a device role (SPEC sections 3 and 4): permanent, or custom with date bounds, time periods and
 * day kinds. One evaluator, used by the server and by the simulated devices, so both decide alike.
 *
 * Rules:
 * - permanent: always in force.
 * - custom: in force at an instant when some period holds it and the period's start day passes the date bounds and
 *   the day kinds. No period means the whole day; no day kind means every day; a missing bound is open.
 * - A period `HH:mm–HH:mm` whose end is earlier than its start ends the next day (22:00–06:00). The day of such a
 *   period, for the day kinds and the date bounds alike, is the day it starts: Friday 22:00–06:00 is a weekday
 *   period even on Saturday morning.
 * - Day kinds: weekday Monday to Friday, weekend Saturday and Sunday, workday a weekday that is not a holiday.
 * - Wall times are read in the site's time zone (TIME_ZONE) at the instant; across a daylight-saving change a period
 *   covers the wall-clock times that exist that day (a skipped hour is never in force, a repeated one is twice).
 */

export const TIME_SETTING_MODES = ['permanent', 'custom'] as const;
export type TimeSettingMode = (typeof TIME_SETTING_MODES)[number];
export const DAY_KINDS = ['weekday', 'weekend', 'workday'] as const;
export type DayKind = (typeof DAY_KINDS)[number];

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

const isRealDay = (day: string) => DAY.test(day) && new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day;

export const clockTimeSchema = z.string().regex(HH_MM, { error: 'validation.clockTime' });
export const calendarDaySchema = z.string().refine(isRealDay, { error: 'validation.calendarDay' });

export const timePeriodSchema = z
  .object({ start: clockTimeSchema, end: clockTimeSchema })
  .refine((p) => p.start !== p.end, { error: 'validation.periodEmpty' });
export type TimePeriod = z.infer<typeof timePeriodSchema>;

export const MAX_TIME_PERIODS = 10;

export const timeSettingSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('permanent') }),
  z
    .object({
      mode: z.literal('custom'),
      startDate: calendarDaySchema.nullish(),
      endDate: calendarDaySchema.nullish(),
      periods: z.array(timePeriodSchema).max(MAX_TIME_PERIODS, { error: 'validation.tooManyPeriods' }).default([]),
      days: z.array(z.enum(DAY_KINDS, { error: 'validation.invalid' })).max(DAY_KINDS.length).default([]),
    })
    .refine((s) => !s.startDate || !s.endDate || s.startDate <= s.endDate, { error: 'validation.dateOrder' }),
]);
export type TimeSetting = z.infer<typeof timeSettingSchema>;

export const PERMANENT: TimeSetting = { mode: 'permanent' };

/** The stored form: the setting as JSON text (a device role's `timeSetting`). */
export const timeSettingTextSchema = z.string().superRefine((text, ctx) => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'validation.illegalJson' });
    return;
  }
  const checked = timeSettingSchema.safeParse(parsed);
  if (!checked.success) ctx.addIssue({ code: 'custom', message: checked.error.issues[0]?.message ?? 'validation.invalid' });
});

/**
 * The setting of stored or delivered text: empty text is permanent (a role without a time setting always applies);
 * text that is no valid setting is null, which nobody may take as in force.
 */
export function readTimeSetting(text: string | null | undefined): TimeSetting | null {
  if (!text) return PERMANENT;
  try {
    const parsed = timeSettingSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export interface EvaluationContext {
  /** IANA zone of the site (TIME_ZONE) */
  timeZone: string;
  /** holidays as `yyyy-MM-dd` days of the site */
  holidays?: Iterable<string>;
}

interface WallTime {
  /** yyyy-MM-dd */
  day: string;
  /** minutes since midnight */
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock day and minute of an instant in a zone. */
export function wallTimeAt(instant: number | Date, timeZone: string): WallTime {
  const parts = Object.fromEntries(formatterOf(timeZone).formatToParts(instant).map((p) => [p.type, p.value]));
  return { day: `${parts.year}-${parts.month}-${parts.day}`, minute: Number(parts.hour) * 60 + Number(parts.minute) };
}

const minuteOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
const dayBefore = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
/** 0 Sunday … 6 Saturday (the calendar's, whatever the zone) */
const weekdayOf = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay();

/** Whether a day is of a day kind. */
export function isDayOfKind(day: string, kind: DayKind, holidays: ReadonlySet<string>): boolean {
  const weekday = weekdayOf(day);
  const monToFri = weekday >= 1 && weekday <= 5;
  if (kind === 'weekday') return monToFri;
  if (kind === 'weekend') return !monToFri;
  return monToFri && !holidays.has(day);
}

/** The start days whose period holds `minute` of `day`: the same day, or the day before for a period past midnight. */
function startDaysOf(period: TimePeriod | null, at: WallTime): string[] {
  if (!period) return [at.day];
  const [start, end] = [minuteOf(period.start), minuteOf(period.end)];
  if (start < end) return start <= at.minute && at.minute < end ? [at.day] : [];
  const days: string[] = [];
  if (at.minute >= start) days.push(at.day);
  if (at.minute < end) days.push(dayBefore(at.day));
  return days;
}

/** Whether a time setting is in force at an instant (epoch milliseconds or a Date) in the site's zone. */
export function isTimeSettingActive(setting: TimeSetting, instant: number | Date, context: EvaluationContext): boolean {
  if (setting.mode === 'permanent') return true;
  const at = wallTimeAt(instant, context.timeZone);
  const holidays = new Set(context.holidays ?? []);
  const dayPasses = (day: string) =>
    (!setting.startDate || day >= setting.startDate) &&
    (!setting.endDate || day <= setting.endDate) &&
    (setting.days.length === 0 || setting.days.some((kind) => isDayOfKind(day, kind, holidays)));
  const periods: Array<TimePeriod | null> = setting.periods.length > 0 ? setting.periods : [null];
  return periods.some((period) => startDaysOf(period, at).some(dayPasses));
}
