import dayjs from 'dayjs';

/** Server times come as ISO or 'YYYY-MM-DD HH:mm:ss'; people read them local, to the second. */
export function formatTime(value: string | null | undefined): string {
  if (!value) return '';
  const time = dayjs(value);
  return time.isValid() ? time.format('YYYY-MM-DD HH:mm:ss') : value;
}
