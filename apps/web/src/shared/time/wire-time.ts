import type { FieldKind } from '@isps/contract';
import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * Times on the wire (DESIGN section 5) are `YYYY-MM-DD HH:mm:ss` in the site's TIME_ZONE, which the server names in the
 * permission answer; people read and pick them in their own zone (DESIGN section 8).
 */
export const WIRE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const WIRE_DATE_FORMAT = 'YYYY-MM-DD';

const WALL_CLOCK = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/;
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

let siteZone: string | null = null;

function knownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The reader's zone: the browser's. */
export function userTimeZone(): string {
  return dayjs.tz.guess();
}

/** The zone the wire's times are in: the server's TIME_ZONE once known, the reader's until then. */
export function siteTimeZone(): string {
  return siteZone ?? userTimeZone();
}

export function setSiteTimeZone(zone: string | null | undefined): void {
  siteZone = zone && knownZone(zone) ? zone : null;
}

/** A time from the wire as an instant, or null when the value is none. */
export function fromWire(value: unknown, zone = siteTimeZone()): Dayjs | null {
  if (value === null || value === undefined || value === '') return null;
  if (dayjs.isDayjs(value)) return value;
  const text = String(value).trim();
  if (WALL_CLOCK.test(text)) {
    const time = dayjs.tz(text, zone);
    return time.isValid() ? time : null;
  }
  if (WITH_OFFSET.test(text)) {
    const time = dayjs(text);
    return time.isValid() ? time : null;
  }
  return null;
}

/**
 * The text a person reads: a time from the wire in their own zone, `YYYY-MM-DD HH:mm:ss`; a date stays its day.
 * Anything that is no time is shown as it came.
 */
export function formatTime(value: unknown, kind: FieldKind = 'datetime', readerZone = userTimeZone()): string {
  if (value === null || value === undefined || value === '') return '';
  if (kind === 'date') {
    const day = /^\d{4}-\d{2}-\d{2}/.exec(String(value));
    return day ? day[0] : String(value);
  }
  const time = fromWire(value);
  return time ? time.tz(readerZone).format(WIRE_TIME_FORMAT) : String(value);
}

/** A picked value as the wire takes it: a time in the site zone, a date as the day picked. */
export function toWire(value: Dayjs, kind: FieldKind = 'datetime'): string {
  if (kind === 'date') return value.format(WIRE_DATE_FORMAT);
  return value.tz(siteTimeZone()).format(WIRE_TIME_FORMAT);
}

/** A picker's value from the wire: the instant in the reader's (the browser's) zone; a date, that day. */
export function toPickerValue(value: unknown, kind: FieldKind = 'datetime'): Dayjs | undefined {
  if (kind === 'date') {
    const day = /^\d{4}-\d{2}-\d{2}/.exec(String(value ?? ''));
    return day ? dayjs(day[0]) : undefined;
  }
  return fromWire(value)?.local() ?? undefined;
}
