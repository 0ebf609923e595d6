import dayjs from 'dayjs';

/** Server times come as ISO or 'YYYY-MM-DD HH:mm:ss'; people read them local, to the second. */
export function formatTime(value: string | null | undefined): string {
  if (!value) return '';
  const time = dayjs(value);
  return time.isValid() ? time.format('YYYY-MM-DD HH:mm:ss') : value;
}

/** A list column of such times: wide enough for `YYYY-MM-DD HH:mm:ss` and the cell's padding, never squeezed. */
export const TIME_COLUMN_WIDTH = 180;
