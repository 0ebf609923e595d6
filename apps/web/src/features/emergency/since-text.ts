import type { TFunction } from 'i18next';
import { formatTime } from '../../shared/time/index.ts';

/** When someone came in, and through which door when it is known: an unknown door is left unsaid, not shown as "—". */
export function sinceText(t: TFunction, since: string | null | undefined, doorName: string | null | undefined): string {
  const time = formatTime(since, 'datetime');
  return doorName ? t('emergency.since', { time, door: doorName }) : t('emergency.sinceNoDoor', { time });
}
