const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' });
    formatters.set(zone, f);
  }
  return f;
}

/** The site-local day (days since 1970-01-01) and minute of that day of an instant, in whole minutes. */
export function localDayMinute(ms: number, zone: string): { dayIndex: number; minute: number } {
  if (zone === 'UTC' || zone === 'Etc/UTC') {
    const dayIndex = Math.floor(ms / DAY_MS);
    return { dayIndex, minute: Math.floor((ms - dayIndex * DAY_MS) / 60_000) };
  }
  const parts: Record<string, number> = {};
  for (const p of formatterOf(zone).formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { dayIndex: Date.UTC(parts.year!, parts.month! - 1, parts.day!) / DAY_MS, minute: (parts.hour! % 24) * 60 + parts.minute! };
}

/** `yyyy-MM-dd` of a day index. */
export const dateOfDay = (dayIndex: number): string => new Date(dayIndex * DAY_MS).toISOString().slice(0, 10);
/** The day index of `yyyy-MM-dd`. */
export const dayOfDate = (date: string): number => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
/** ISO weekday, 1 Monday … 7 Sunday (1970-01-01 was a Thursday). */
export const weekdayOf = (dayIndex: number): number => (((dayIndex + 3) % 7) + 7) % 7 + 1;

/** The first and last day indexes of a month `yyyy-MM`. */
export function monthDays(month: string): { first: number; last: number } {
  const [y, m] = month.split('-').map(Number);
  return { first: Date.UTC(y!, m! - 1, 1) / DAY_MS, last: Date.UTC(y!, m!, 1) / DAY_MS - 1 };
}

/** `yyyy-MM` of a day index. */
export const monthOfDay = (dayIndex: number): string => dateOfDay(dayIndex).slice(0, 7);
