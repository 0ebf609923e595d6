import type { ReportCell } from '@isps/contract';
import type { TFunction } from 'i18next';

/** A cell as the reader sees it: alarm codes and denial reasons named, an empty name as "none" (as the xlsx has them). */
export function cellLabel(t: TFunction, column: string, value: ReportCell): string | number {
  if (value === null || value === '') return t('report.none');
  if (column === 'code' && typeof value === 'string') return t(`alarm.code.${value}`, { defaultValue: value });
  if (column === 'reason' && typeof value === 'string') return t(`report.reason.${value}`, { defaultValue: value });
  return value;
}

export const NAME_COLUMNS = new Set(['door', 'device', 'person', 'userNo', 'area', 'hour', 'reason', 'code']);
