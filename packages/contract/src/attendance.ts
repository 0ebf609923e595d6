import * as z from 'zod';

/**
 * Time and attendance (SPEC section 2 "OA rule, attendance and monthly statistics", section 3 "OA rule / attendance
 * rule", "Attendance statistics"). People punch at attendance devices (`punch` events, or openings of a device their
 * attendance role names); each rule (of the groups it names) says when work starts and ends, which weekdays are rest,
 * and which dates are holidays, festivals or swapped working days. A day of a person is classified once it is over;
 * a month's statistics are counted from the days.
 *
 * Boundaries, in whole minutes of the site's zone (TIME_ZONE): a check-in at the working time is on time, one minute
 * after it is late; a check-in later than `absentMinutes` after the working time is an absence; a check-out at the
 * off-work time is not early. An off-work time before the working time is a shift crossing midnight: its check-out
 * belongs to the day the shift began.
 */

/** What a day of a person was. */
export const AttendanceStatus = { normal: 1, late: 2, leaveEarly: 3, absent: 4, missCard: 5, holiday: 6, rest: 7 } as const;
export type AttendanceStatus = (typeof AttendanceStatus)[keyof typeof AttendanceStatus];
export const ATTENDANCE_STATUSES = Object.entries(AttendanceStatus) as ReadonlyArray<[keyof typeof AttendanceStatus, AttendanceStatus]>;

/** The `role_type` of attendance roles among the device roles (dictionary `device_role_type`). */
export const ATTENDANCE_ROLE_TYPE = '3';

/** A punch within this many seconds of the person's previous counted punch is kept as a duplicate and not counted. */
export const DEFAULT_DUPLICATE_WINDOW_SECONDS = 60;

/** The seven festivals every rule names the dates of (SPEC section 5: all required), by field name. */
export const FESTIVALS = ['festNewYear', 'festSpring', 'festChingMing', 'festMayDay', 'festDragonBoat', 'festMidAutumn', 'festNationalDay'] as const;
export type Festival = (typeof FESTIVALS)[number];

export const AttendancePath = {
  /** GET `?year=`: the festival dates, holidays and swapped working days of China for a year (`AttendanceSuggestion`) */
  suggest: '/device/oaRule/suggest',
  /** PUT `{ id, status, reason }`: an operator's correction of a day (`device:attendance:correct`) */
  correct: '/device/attendance/correct',
  /** GET `?id=`: the punches a day was read from (`AttendancePunchRow[]`) */
  punches: '/device/attendance/punches',
  /** POST `{ month }`: computes the days and the statistics of a month again (`AttendanceRecomputed`) */
  recompute: '/device/attendanceMonth/recompute',
  /** GET `?peopleId=&month=`: a person's days of a month, for the calendar (`AttendanceCalendarDay[]`) */
  calendar: '/device/attendanceMonth/calendar',
} as const;


/** Minutes after midnight of an `HH:mm` time. */
export function minuteOfClock(text: string): number {
  const [h, m] = text.split(':').map(Number);
  return h! * 60 + m!;
}

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const realDate = (d: string) => DATE.test(d) && new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) === d;

/** Dates `yyyy-MM-dd` joined by commas (spaces allowed), as the rule form writes them. */
export function dateList(text: string | null | undefined): string[] {
  return (text ?? '')
    .split(/[,\s]+/)
    .map((d) => d.trim())
    .filter((d) => d.length > 0);
}
export const dateListSchema = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => dateList(v).every(realDate), { error: 'validation.dateList' });

/** ISO weekdays (1 Monday … 7 Sunday) joined by commas. */
export function weekdayList(text: string | null | undefined): number[] {
  return (text ?? '')
    .split(/[,\s]+/)
    .filter((d) => d.length > 0)
    .map(Number);
}
export const weekdayListSchema = z
  .string()
  .trim()
  .max(20)
  .refine((v) => weekdayList(v).every((d) => Number.isInteger(d) && d >= 1 && d <= 7), { error: 'validation.weekdays' });

/** `yyyy-MM` */
export const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
export const monthSchema = z.string().regex(MONTH, { error: 'validation.month' });

export const attendanceSuggestQuery = z.object({ year: z.coerce.number().int().min(2000).max(2100) });

/** What the library knows of a year: `official` when the State Council's schedule of that year is in it. */
export interface AttendanceSuggestion {
  year: number;
  official: boolean;
  /** per festival, its days off (or its day alone when the year's schedule is not published yet) */
  festivals: Record<Festival, string[]>;
  /** weekend days that are working days (调休) */
  workdays: string[];
}

export const attendanceCorrection = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'validation.invalid' }),
  status: z.number().int().min(AttendanceStatus.normal).max(AttendanceStatus.rest),
  reason: z.string().trim().min(1, { error: 'validation.required' }).max(200),
});
export type AttendanceCorrection = z.infer<typeof attendanceCorrection>;

export const attendanceRecompute = z.object({ month: monthSchema });
export interface AttendanceRecomputed {
  month: string;
  days: number;
  people: number;
}

/** One punch of a person: where and when (the time corrected by the device's clock offset, and the device's own). */
export interface AttendancePunchRow {
  id: string;
  deviceId: string;
  deviceName: string | null;
  punchTime: string;
  rawTime: string;
  source: 'punch' | 'opening';
  /** within the duplicate window of the punch before: kept, not counted */
  duplicate: boolean;
}

export interface AttendanceCalendarDay {
  id: string;
  day: string;
  status: AttendanceStatus;
  corrected: boolean;
}

/** What a `punch` event names (the device protocol): the person by user number (or id, or card), and the hand read. */
export const punchData = z.object({
  userNo: z.string().min(1).max(64).optional(),
  peopleId: z.string().min(1).max(64).optional(),
  cardNo: z.string().min(1).max(64).optional(),
  hand: z.string().max(16).optional(),
});
/** Who an `opening` names: an opening counts as a punch of a person whose attendance role names the device. */
export const openingPersonData = z.object({ peopleId: z.string().min(1).max(64).optional(), cardNo: z.string().min(1).max(64).optional(), userNo: z.string().min(1).max(64).optional() });
