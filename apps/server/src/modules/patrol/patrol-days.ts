import { wallTimeAt } from '@isps/contract';
import { parseWireInstant } from '../../platform/wire-time.ts';

/** The site's calendar day (`yyyy-MM-dd`) of an instant. */
export const siteDayOf = (instant: number, timeZone: string): string => wallTimeAt(instant, timeZone).day;

/** The ISO weekday of a calendar day: 1 Monday … 7 Sunday. */
export const isoWeekdayOf = (day: string): string => String(((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7) + 1);

/** The instant (epoch ms) of a wall-clock `HH:mm` on a day in the site's zone, or null when that time does not exist. */
export const instantOfWatchTime = (day: string, watchTime: string, timeZone: string): number | null => parseWireInstant(`${day} ${watchTime}`, timeZone);
