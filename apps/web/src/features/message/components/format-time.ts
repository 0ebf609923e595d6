import { formatTime as formatWireTime } from '../../../shared/time/index.ts';

/** A time from the wire (the site's zone) as people read it: in their own zone, to the second. */
export function formatTime(value: string | null | undefined): string {
  return formatWireTime(value, 'datetime');
}

/** A list column of such times: wide enough for `YYYY-MM-DD HH:mm:ss` and the cell's padding, never squeezed. */
export const TIME_COLUMN_WIDTH = 180;
