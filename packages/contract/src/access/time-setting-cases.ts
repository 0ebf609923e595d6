import type { TimeSetting } from './time-setting.ts';

/**
 * The decision table of time settings: every case the server and the simulated devices must decide alike. Instants
 * are ISO 8601 with an offset; `timeZone` is the site's zone. 2025-03-07 is a Friday, 2025-03-10 a Monday.
 */
export interface TimeSettingCase {
  name: string;
  setting: TimeSetting;
  at: string;
  timeZone: string;
  holidays?: string[];
  expected: boolean;
}

const SH = 'Asia/Shanghai';
const NY = 'America/New_York';
const BERLIN = 'Europe/Berlin';
const custom = (parts: Partial<Extract<TimeSetting, { mode: 'custom' }>>): TimeSetting => ({ mode: 'custom', periods: [], days: [], ...parts });
const office = custom({ periods: [{ start: '08:00', end: '18:00' }] });
const night = custom({ periods: [{ start: '22:00', end: '06:00' }] });
const nightOf = (days: Array<'weekday' | 'weekend' | 'workday'>, bounds: { startDate?: string; endDate?: string } = {}) => custom({ periods: [{ start: '22:00', end: '06:00' }], days, ...bounds });

export const TIME_SETTING_CASES: readonly TimeSettingCase[] = [
  { name: 'permanent is always in force', setting: { mode: 'permanent' }, at: '2025-03-09T03:00:00+08:00', timeZone: SH, expected: true },
  { name: 'custom without bounds, periods or day kinds is always in force', setting: custom({}), at: '2025-03-09T03:00:00+08:00', timeZone: SH, expected: true },
  { name: 'inside a day period', setting: office, at: '2025-03-10T09:00:00+08:00', timeZone: SH, expected: true },
  { name: 'a period starts at its start minute', setting: office, at: '2025-03-10T08:00:00+08:00', timeZone: SH, expected: true },
  { name: 'before a day period', setting: office, at: '2025-03-10T07:59:00+08:00', timeZone: SH, expected: false },
  { name: 'a period is over at its end minute', setting: office, at: '2025-03-10T18:00:00+08:00', timeZone: SH, expected: false },
  { name: 'overnight period, evening part', setting: night, at: '2025-03-10T23:00:00+08:00', timeZone: SH, expected: true },
  { name: 'overnight period, morning part (end earlier than start is the next day)', setting: night, at: '2025-03-11T05:59:00+08:00', timeZone: SH, expected: true },
  { name: 'overnight period is over at its end the next morning', setting: night, at: '2025-03-11T06:00:00+08:00', timeZone: SH, expected: false },
  { name: 'overnight period, midday', setting: night, at: '2025-03-11T12:00:00+08:00', timeZone: SH, expected: false },
  { name: 'several periods: in the gap between them', setting: custom({ periods: [{ start: '08:00', end: '12:00' }, { start: '13:00', end: '17:00' }] }), at: '2025-03-10T12:30:00+08:00', timeZone: SH, expected: false },
  { name: 'several periods: in the second', setting: custom({ periods: [{ start: '08:00', end: '12:00' }, { start: '13:00', end: '17:00' }] }), at: '2025-03-10T13:30:00+08:00', timeZone: SH, expected: true },
  { name: 'weekday: Friday night', setting: nightOf(['weekday']), at: '2025-03-07T23:00:00+08:00', timeZone: SH, expected: true },
  { name: 'weekday: Saturday morning of a period started on Friday follows the start', setting: nightOf(['weekday']), at: '2025-03-08T03:00:00+08:00', timeZone: SH, expected: true },
  { name: 'weekday: Saturday night', setting: nightOf(['weekday']), at: '2025-03-08T23:00:00+08:00', timeZone: SH, expected: false },
  { name: 'weekday: Monday morning of a period started on Sunday', setting: nightOf(['weekday']), at: '2025-03-10T03:00:00+08:00', timeZone: SH, expected: false },
  { name: 'weekend: Sunday night', setting: nightOf(['weekend']), at: '2025-03-09T23:00:00+08:00', timeZone: SH, expected: true },
  { name: 'weekend: Monday morning of a period started on Sunday', setting: nightOf(['weekend']), at: '2025-03-10T03:00:00+08:00', timeZone: SH, expected: true },
  { name: 'weekend: Friday night', setting: nightOf(['weekend']), at: '2025-03-07T23:00:00+08:00', timeZone: SH, expected: false },
  { name: 'weekend: Saturday morning of a period started on Friday', setting: nightOf(['weekend']), at: '2025-03-08T03:00:00+08:00', timeZone: SH, expected: false },
  { name: 'weekend without periods: all Saturday', setting: custom({ days: ['weekend'] }), at: '2025-03-08T12:00:00+08:00', timeZone: SH, expected: true },
  { name: 'weekend without periods: not Friday', setting: custom({ days: ['weekend'] }), at: '2025-03-07T12:00:00+08:00', timeZone: SH, expected: false },
  { name: 'workday: a holiday Monday is no workday', setting: custom({ days: ['workday'], periods: [{ start: '08:00', end: '18:00' }] }), at: '2025-03-10T09:00:00+08:00', timeZone: SH, holidays: ['2025-03-10'], expected: false },
  { name: 'workday: the Tuesday after is', setting: custom({ days: ['workday'], periods: [{ start: '08:00', end: '18:00' }] }), at: '2025-03-11T09:00:00+08:00', timeZone: SH, holidays: ['2025-03-10'], expected: true },
  { name: 'workday: Saturday is none', setting: custom({ days: ['workday'] }), at: '2025-03-08T09:00:00+08:00', timeZone: SH, expected: false },
  { name: 'weekday ignores holidays', setting: custom({ days: ['weekday'] }), at: '2025-03-10T09:00:00+08:00', timeZone: SH, holidays: ['2025-03-10'], expected: true },
  { name: 'workday overnight: morning after a holiday follows the holiday', setting: nightOf(['workday']), at: '2025-03-11T03:00:00+08:00', timeZone: SH, holidays: ['2025-03-10'], expected: false },
  { name: 'workday overnight: the night of the day after a holiday', setting: nightOf(['workday']), at: '2025-03-11T23:00:00+08:00', timeZone: SH, holidays: ['2025-03-10'], expected: true },
  { name: 'weekend or workday: either kind lets a day in', setting: custom({ days: ['weekend', 'workday'] }), at: '2025-03-08T09:00:00+08:00', timeZone: SH, expected: true },
  { name: 'date bounds: the evening before the first day', setting: custom({ startDate: '2025-03-10', endDate: '2025-03-12' }), at: '2025-03-09T23:59:00+08:00', timeZone: SH, expected: false },
  { name: 'date bounds: the first minute of the first day', setting: custom({ startDate: '2025-03-10', endDate: '2025-03-12' }), at: '2025-03-10T00:00:00+08:00', timeZone: SH, expected: true },
  { name: 'date bounds: the last minute of the last day', setting: custom({ startDate: '2025-03-10', endDate: '2025-03-12' }), at: '2025-03-12T23:59:00+08:00', timeZone: SH, expected: true },
  { name: 'date bounds: the day after the last', setting: custom({ startDate: '2025-03-10', endDate: '2025-03-12' }), at: '2025-03-13T00:00:00+08:00', timeZone: SH, expected: false },
  { name: 'date bounds follow the start: a night begun on the last day runs into the next', setting: nightOf([], { endDate: '2025-03-12' }), at: '2025-03-13T05:00:00+08:00', timeZone: SH, expected: true },
  { name: 'date bounds follow the start: no night begins after the last day', setting: nightOf([], { endDate: '2025-03-12' }), at: '2025-03-13T22:30:00+08:00', timeZone: SH, expected: false },
  { name: 'date bounds follow the start: the morning of the first day belongs to the night before', setting: nightOf([], { startDate: '2025-03-10' }), at: '2025-03-10T03:00:00+08:00', timeZone: SH, expected: false },
  { name: 'date bounds across the new year', setting: custom({ endDate: '2025-12-31', periods: [{ start: '23:00', end: '01:00' }] }), at: '2026-01-01T00:30:00+08:00', timeZone: SH, expected: true },
  { name: 'the site zone decides: 09:00 in Shanghai', setting: office, at: '2025-03-10T01:00:00Z', timeZone: SH, expected: true },
  { name: 'the site zone decides: 01:00 in UTC', setting: office, at: '2025-03-10T01:00:00Z', timeZone: 'UTC', expected: false },
  { name: 'spring forward: the last minute before the change', setting: custom({ periods: [{ start: '01:30', end: '03:30' }] }), at: '2025-03-09T01:59:00-05:00', timeZone: NY, expected: true },
  { name: 'spring forward: 03:00 right after the change', setting: custom({ periods: [{ start: '01:30', end: '03:30' }] }), at: '2025-03-09T03:00:00-04:00', timeZone: NY, expected: true },
  { name: 'spring forward: over at 03:30', setting: custom({ periods: [{ start: '01:30', end: '03:30' }] }), at: '2025-03-09T03:30:00-04:00', timeZone: NY, expected: false },
  { name: 'spring forward: a period inside the skipped hour never holds', setting: custom({ periods: [{ start: '02:00', end: '02:30' }] }), at: '2025-03-09T03:15:00-04:00', timeZone: NY, expected: false },
  { name: 'fall back: the first 01:15', setting: custom({ periods: [{ start: '01:00', end: '01:30' }] }), at: '2025-11-02T01:15:00-04:00', timeZone: NY, expected: true },
  { name: 'fall back: the repeated 01:15', setting: custom({ periods: [{ start: '01:00', end: '01:30' }] }), at: '2025-11-02T01:15:00-05:00', timeZone: NY, expected: true },
  { name: 'fall back: the repeated 01:45', setting: custom({ periods: [{ start: '01:00', end: '01:30' }] }), at: '2025-11-02T01:45:00-05:00', timeZone: NY, expected: false },
  { name: 'overnight across spring forward: Sunday morning of a Saturday night', setting: nightOf(['weekend']), at: '2025-03-30T05:30:00+02:00', timeZone: BERLIN, expected: true },
  { name: 'overnight across spring forward: Monday morning of a Sunday night', setting: nightOf(['weekend']), at: '2025-03-31T05:00:00+02:00', timeZone: BERLIN, expected: true },
  { name: 'overnight across fall back: Monday morning of a Sunday night is no weekday night', setting: nightOf(['weekday']), at: '2025-10-27T05:00:00+01:00', timeZone: BERLIN, expected: false },
];
