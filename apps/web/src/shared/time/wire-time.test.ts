import dayjs from 'dayjs';
import { afterEach, describe, expect, it } from 'vitest';
import { formatTime, fromWire, setSiteTimeZone, siteTimeZone, toPickerValue, toWire } from './wire-time.ts';

describe('wire times in the console', () => {
  afterEach(() => setSiteTimeZone(null));

  it('shows a site time in the reader\'s own zone, to the second', () => {
    setSiteTimeZone('Asia/Tokyo');
    expect(formatTime('2024-01-15 12:04:05', 'datetime', 'Asia/Tokyo')).toBe('2024-01-15 12:04:05');
    expect(formatTime('2024-01-15 12:04:05', 'datetime', 'Europe/Berlin')).toBe('2024-01-15 04:04:05');
    expect(formatTime('2024-07-15 12:04:05', 'datetime', 'Europe/Berlin')).toBe('2024-07-15 05:04:05');
    expect(formatTime('2024-01-15 08:00:00', 'datetime', 'America/New_York')).toBe('2024-01-14 18:00:00');
    // ISO with an offset is an instant wherever the site is
    expect(formatTime('2024-01-15T03:04:05.000Z', 'datetime', 'Europe/Berlin')).toBe('2024-01-15 04:04:05');
  });

  it('keeps a date its day, and shows anything else as it came', () => {
    setSiteTimeZone('Asia/Tokyo');
    expect(formatTime('1990-05-01', 'date', 'America/Los_Angeles')).toBe('1990-05-01');
    expect(formatTime('soon', 'datetime', 'UTC')).toBe('soon');
    expect(formatTime(null)).toBe('');
  });

  it('sends a picked time in the site zone and a picked date as its day', () => {
    setSiteTimeZone('Asia/Tokyo');
    const picked = dayjs('2024-01-15T03:04:05Z');
    expect(toWire(picked)).toBe('2024-01-15 12:04:05');
    setSiteTimeZone('Europe/Berlin');
    expect(toWire(picked)).toBe('2024-01-15 04:04:05');
    expect(toWire(dayjs('1990-05-01'), 'date')).toBe('1990-05-01');
  });

  it('round-trips a site time through a picker', () => {
    setSiteTimeZone('Europe/Berlin');
    const picker = toPickerValue('2024-07-15 14:00:00');
    expect(picker?.toISOString()).toBe('2024-07-15T12:00:00.000Z');
    expect(toWire(picker as dayjs.Dayjs)).toBe('2024-07-15 14:00:00');
    expect(toPickerValue('1990-05-01', 'date')?.format('YYYY-MM-DD')).toBe('1990-05-01');
    expect(fromWire('')).toBeNull();
  });

  it('ignores a zone the browser does not know', () => {
    setSiteTimeZone('Mars/Base');
    expect(siteTimeZone()).toBe(dayjs.tz.guess());
  });
});
