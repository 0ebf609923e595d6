import { AUDIT_FIELDS, entityDeclarations, type EntityDeclaration, type FieldDeclaration, type FieldKind } from '@isps/contract';
import { formatTime as formatWireTime } from '../time/index.ts';

/** A list row as the engine returns it: declared fields, id, audit fields and `<field>_dictText` siblings. */
export type CrudRow = Record<string, unknown> & { id: string; children?: CrudRow[] };

const auditKinds: Record<string, FieldKind> = { createBy: 'string', createTime: 'datetime', updateBy: 'string', updateTime: 'datetime' };

/** The i18n key of a field's label: declared, or the shared one of an audit field. */
export function fieldLabelKey(entity: EntityDeclaration, name: string): string {
  return entity.fields[name]?.label ?? `crud.field.${name}`;
}

export function fieldKind(entity: EntityDeclaration, name: string): FieldKind {
  return entity.fields[name]?.kind ?? auditKinds[name] ?? 'string';
}

export function fieldOf(entity: EntityDeclaration, name: string): FieldDeclaration | undefined {
  return entity.fields[name];
}

/** Fields a super query may name: everything readable (never a write-only field). */
export function queryableFields(entity: EntityDeclaration): string[] {
  const declared = Object.keys(entity.fields).filter((name) => !entity.fields[name]?.writeOnly);
  return [...declared, ...Object.keys(AUDIT_FIELDS)];
}

/** DESIGN section 8: a time from the wire (site zone) shown in the user's zone; a date as its day. */
export function formatTime(value: unknown, kind: FieldKind): string {
  return formatWireTime(value, kind);
}

/**
 * The width of a time column: room for `YYYY-MM-DD HH:mm:ss` (or the date alone) and the cell's padding, so a list
 * with a right-fixed actions column scrolls sideways instead of squeezing a time under it. Other columns: none.
 */
export function columnWidth(entity: EntityDeclaration, name: string): number | undefined {
  const kind = fieldKind(entity, name);
  return kind === 'datetime' ? 180 : kind === 'date' ? 120 : undefined;
}

type Translate = (key: string, params?: Record<string, unknown>) => string;

/** A cell of free text a person wrote (not a picked value, a time or a number): long ones are cut in lists. */
export function isFreeText(entity: EntityDeclaration, name: string): boolean {
  const field = entity.fields[name];
  if (!field || field.dict || field.link || field.references || field.translated) return false;
  return field.kind === 'string' || field.kind === 'json' ? ['input', 'textarea', 'json'].includes(field.widget.kind) : false;
}

/** "2 local, 1 global": a stored check rule set in a list cell or a detail view. */
export function checkRulesSummary(value: unknown, t: Translate): string {
  if (typeof value !== 'string' || value.trim() === '') return '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return value;
  }
  const count = (name: string) => {
    const list = parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>)[name] : undefined;
    return Array.isArray(list) ? list.length : 0;
  };
  return t('crud.checkRules.summary', { local: count('localRules'), global: count('globalRules') });
}

/** "2025-01-01 – 2025-12-31 · 22:00–06:00 (next day) · Workdays": a stored time setting in a list cell or a detail view. */
export function timeSettingSummary(value: unknown, t: Translate): string {
  if (typeof value !== 'string' || value.trim() === '') return '';
  let parsed: { mode?: string; startDate?: string | null; endDate?: string | null; periods?: Array<{ start: string; end: string }>; days?: string[] };
  try {
    parsed = JSON.parse(value) as typeof parsed;
  } catch {
    return t('timeSetting.unreadable');
  }
  if (parsed.mode !== 'custom') return t('timeSetting.permanent');
  const parts: string[] = [];
  if (parsed.startDate || parsed.endDate) parts.push(`${parsed.startDate ?? ''} – ${parsed.endDate ?? ''}`);
  const periods = parsed.periods ?? [];
  parts.push(periods.length === 0 ? t('timeSetting.allDay') : periods.map((p) => `${p.start}–${p.end}${p.end < p.start ? ` (${t('timeSetting.nextDay')})` : ''}`).join(', '));
  const days = parsed.days ?? [];
  parts.push(days.length === 0 ? t('timeSetting.everyDay') : days.map((d) => t(`timeSetting.day.${d}`)).join(', '));
  return parts.join(' · ');
}

/** The text a cell shows: the dictionary text, an option's label, a formatted time or the value itself. */
export function displayValue(entity: EntityDeclaration, name: string, row: Record<string, unknown>, t: Translate): string {
  const field = entity.fields[name];
  const value = row[name];
  // a dictionary value, linked rows, or the row a reference names (the server answers its label in the reader's tenant)
  if ((field?.dict || field?.link || field?.references) && typeof row[`${name}_dictText`] === 'string') return row[`${name}_dictText`] as string;
  const kind = fieldKind(entity, name);
  if (kind === 'datetime' || kind === 'date') return formatTime(value, kind);
  if (field?.translated && typeof value === 'string' && value !== '') return t(value);
  if (field?.widget.kind === 'options' && field.widget.multiple && typeof value === 'string') {
    const { options } = field.widget;
    return value.split(',').filter(Boolean).map((v) => t(options.find((o) => o.value === v)?.label ?? v)).join(', ');
  }
  if (field?.widget.kind === 'options') {
    const option = field.widget.options.find((o) => o.value === String(value));
    return option ? t(option.label) : value === null || value === undefined ? '' : String(value);
  }
  if (field?.widget.kind === 'switch') return value === 1 || value === '1' ? t('crud.yes') : t('crud.no');
  if (field?.widget.kind === 'checkRules') return checkRulesSummary(value, t);
  if (field?.widget.kind === 'timeSetting') return timeSettingSummary(value, t);
  return value === null || value === undefined ? '' : String(value);
}

/** Declarations by name, for fields that pick a row of another entity. */
export function findEntity(name: string): EntityDeclaration | undefined {
  return entityDeclarations.find((e) => e.name === name);
}
