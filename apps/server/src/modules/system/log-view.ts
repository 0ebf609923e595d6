import { LogOperateType, LogType, entityLabel, type Language } from '@isps/contract';
import { logContentIn } from '../../platform/audit-log.ts';

type Row = Record<string, unknown>;

const nameOf = (values: Record<string, number>) => new Map(Object.entries(values).map(([name, value]) => [value, name]));
const typeNames = nameOf(LogType);
const operateNames = nameOf(LogOperateType);

/**
 * A log row as the reader reads it: its message in his language (entries stored as plain text as they are), with the
 * origin console's field names beside ours (`logContent`, `userid`, `logType_dictText`, `operateType_dictText`).
 */
export function showLogRow(lang: Language, row: Row, stored: Row): void {
  const content = logContentIn(lang, { content: String(stored.content ?? ''), log_params: (stored.log_params as string | null | undefined) ?? null });
  const label = (prefix: string, names: Map<number, string>, value: unknown) => {
    const name = names.get(Number(value));
    return name ? entityLabel(lang, `${prefix}.${name}`) : String(value ?? '');
  };
  Object.assign(row, {
    content,
    logContent: content,
    userid: stored.userid ?? null,
    logType_dictText: label('log.type', typeNames, stored.log_type),
    operateType_dictText: label('log.operate', operateNames, stored.operate_type),
  });
}
