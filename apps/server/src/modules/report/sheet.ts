import { entityLabel, translate, type Language, type MessageKey, type ReportCell, type ReportResult } from '@isps/contract';
import { tableWorkbook } from '../../platform/crud/excel.ts';
import { escapeHtml } from '../../platform/system-notices.ts';
import { formatWireTime } from '../../platform/wire-time.ts';

const has = (lang: Language, key: string) => translate(lang, key as MessageKey) !== key;

/** A cell as a reader sees it: alarm codes and denial reasons named in the reader's language, an empty name as "none". */
export function cellText(lang: Language, column: string, value: ReportCell): string | number {
  if (value === null || value === '') return translate(lang, 'report.none');
  if (column === 'code' && typeof value === 'string') return entityLabel(lang, `alarm.code.${value}`).replace(/^alarm\.code\./, '');
  if (column === 'reason' && typeof value === 'string') return has(lang, `report.reason.${value}`) ? translate(lang, `report.reason.${value}` as MessageKey) : value;
  return value;
}

export const reportName = (lang: Language, result: Pick<ReportResult, 'kind'>) => translate(lang, `report.name.${result.kind}` as MessageKey);
export const columnName = (lang: Language, column: string) => translate(lang, `report.column.${column}` as MessageKey);

/** A report as rows of cells in the reader's language, headers first. */
export function reportTable(lang: Language, result: ReportResult): { headers: string[]; rows: Array<Array<string | number>> } {
  return {
    headers: result.columns.map((c) => columnName(lang, c)),
    rows: result.rows.map((row) => result.columns.map((c) => cellText(lang, c, row[c] ?? null))),
  };
}

/** A report as an xlsx (at most REPORT_MAX_ROWS rows, so the sheet is small and made at once). */
export async function reportWorkbook(lang: Language, result: ReportResult): Promise<Buffer> {
  const { headers, rows } = reportTable(lang, result);
  return tableWorkbook(reportName(lang, result), headers, rows);
}

/** A report as an HTML table (for an HTML template's `${table}`) or as tab-separated lines (for a text one). */
export function reportBody(lang: Language, result: ReportResult, html: boolean): string {
  const { headers, rows } = reportTable(lang, result);
  if (!html) return [headers, ...rows].map((r) => r.join('\t')).join('\n');
  const line = (cells: ReadonlyArray<string | number>, tag: 'th' | 'td') => `<tr>${cells.map((c) => `<${tag}>${escapeHtml(String(c))}</${tag}>`).join('')}</tr>`;
  return `<table><thead>${line(headers, 'th')}</thead><tbody>${rows.map((r) => line(r, 'td')).join('')}</tbody></table>`;
}

export const periodText = (result: ReportResult, zone: string) => ({ begin: formatWireTime(result.begin, zone), end: formatWireTime(result.end, zone) });
