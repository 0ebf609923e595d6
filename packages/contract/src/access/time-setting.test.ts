import { describe, expect, it } from 'vitest';
import { TIME_SETTING_CASES } from './time-setting-cases.ts';
import { isTimeSettingActive, readTimeSetting, timeSettingSchema, timeSettingTextSchema, wallTimeAt } from './time-setting.ts';

describe('time setting evaluation', () => {
  it.each(TIME_SETTING_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(isTimeSettingActive(c.setting, Date.parse(c.at), { timeZone: c.timeZone, holidays: c.holidays })).toBe(c.expected);
  });

  it('reads wall-clock times in the zone, on both sides of a daylight-saving change', () => {
    expect(wallTimeAt(Date.parse('2025-03-09T06:59:00Z'), 'America/New_York')).toEqual({ day: '2025-03-09', minute: 60 + 59 });
    expect(wallTimeAt(Date.parse('2025-03-09T07:00:00Z'), 'America/New_York')).toEqual({ day: '2025-03-09', minute: 3 * 60 });
    expect(wallTimeAt(Date.parse('2025-03-10T16:30:00Z'), 'Asia/Shanghai')).toEqual({ day: '2025-03-11', minute: 30 });
  });
});

describe('time setting stored form', () => {
  const valid = [
    { mode: 'permanent' },
    { mode: 'custom', periods: [{ start: '22:00', end: '06:00' }], days: ['workday'] },
    { mode: 'custom', startDate: '2025-03-10', endDate: '2025-03-10', periods: [], days: [] },
    { mode: 'custom', startDate: null, endDate: '2025-12-31' },
  ];
  it.each(valid.map((v) => [JSON.stringify(v), v] as const))('accepts %s', (_text, value) => {
    expect(timeSettingSchema.safeParse(value).success).toBe(true);
    expect(timeSettingTextSchema.safeParse(JSON.stringify(value)).success).toBe(true);
  });

  const invalid: Array<[string, unknown, string]> = [
    ['an unknown mode', { mode: 'sometimes' }, ''],
    ['a time that is not HH:mm', { mode: 'custom', periods: [{ start: '8:00', end: '18:00' }] }, 'validation.clockTime'],
    ['an hour past 23', { mode: 'custom', periods: [{ start: '24:00', end: '06:00' }] }, 'validation.clockTime'],
    ['a period with equal start and end', { mode: 'custom', periods: [{ start: '08:00', end: '08:00' }] }, 'validation.periodEmpty'],
    ['a day that does not exist', { mode: 'custom', startDate: '2025-02-30' }, 'validation.calendarDay'],
    ['an end date before the start date', { mode: 'custom', startDate: '2025-03-10', endDate: '2025-03-09' }, 'validation.dateOrder'],
    ['an unknown day kind', { mode: 'custom', days: ['holiday'] }, 'validation.invalid'],
    ['eleven periods', { mode: 'custom', periods: Array.from({ length: 11 }, () => ({ start: '08:00', end: '09:00' })) }, 'validation.tooManyPeriods'],
  ];
  it.each(invalid)('refuses %s', (_name, value, message) => {
    const parsed = timeSettingTextSchema.safeParse(JSON.stringify(value));
    expect(parsed.success).toBe(false);
    if (message) expect(parsed.error?.issues[0]?.message).toBe(message);
  });

  it('refuses text that is no JSON; reads a missing setting as permanent and an unreadable one as none', () => {
    expect(timeSettingTextSchema.safeParse('{').error?.issues[0]?.message).toBe('validation.illegalJson');
    expect(readTimeSetting(null)).toEqual({ mode: 'permanent' });
    expect(readTimeSetting('{')).toBeNull();
    expect(readTimeSetting('{"mode":"custom","days":["holiday"]}')).toBeNull();
    expect(readTimeSetting('{"mode":"custom"}')).toEqual({ mode: 'custom', periods: [], days: [] });
  });
});
