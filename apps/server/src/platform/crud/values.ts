import {
  AUDIT_FIELDS,
  columnOf,
  entityLabel,
  issueText,
  splitIds,
  translate,
  type EntityDeclaration,
  type FieldKind,
  type Language,
  type LinkDeclaration,
} from '@isps/contract';
import type { z } from 'zod';
import { parseWireTime } from '../wire-time.ts';
import { linkOf, type LinkTable } from './tables.ts';

/** A field the engine may read, filter or sort by: a declared one or an audit column. */
export interface FieldInfo {
  name: string;
  column: string;
  kind: FieldKind;
  dict?: string;
  writeOnly?: boolean;
}

const auditKinds: Record<keyof typeof AUDIT_FIELDS, FieldKind> = { createBy: 'string', createTime: 'datetime', updateBy: 'string', updateTime: 'datetime' };

const readable = new WeakMap<EntityDeclaration, ReadonlyMap<string, FieldInfo>>();

/** The readable fields of an entity by name; write-only fields are left out so no query can touch them. */
export function readableFields(entity: EntityDeclaration): ReadonlyMap<string, FieldInfo> {
  // asked for every row shown: worked out once per declaration
  let known = readable.get(entity);
  if (!known) {
    known = readableFieldsOf(entity);
    readable.set(entity, known);
  }
  return known;
}

function readableFieldsOf(entity: EntityDeclaration): ReadonlyMap<string, FieldInfo> {
  const fields = new Map<string, FieldInfo>();
  for (const [name, decl] of Object.entries(entity.fields)) {
    if (decl.writeOnly || decl.link) continue;
    fields.set(name, { name, column: columnOf(entity, name), kind: decl.kind, dict: decl.dict });
  }
  for (const [name, column] of Object.entries(AUDIT_FIELDS)) fields.set(name, { name, column, kind: auditKinds[name as keyof typeof AUDIT_FIELDS] });
  fields.set('id', { name: 'id', column: 'id', kind: 'string' });
  return fields;
}

/** The link fields of an entity (ids kept in link tables, not columns), with their link tables. */
export function linkFields(entity: EntityDeclaration): Array<{ name: string; link: LinkDeclaration & LinkTable }> {
  return Object.entries(entity.fields).flatMap(([name, decl]) => (decl.link ? [{ name, link: { ...decl.link, ...linkOf(entity, name) } }] : []));
}

/** The ids of a link field's value: '' or null is none. */
export function linkIds(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  return splitIds(String(value));
}

/** A database row as the API shows it: declared fields by name, id and audit fields; write-only fields never. */
export function toApiRow(entity: EntityDeclaration, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const info of readableFields(entity).values()) {
    const value = row[info.column];
    if (info.kind === 'date' && typeof value === 'string') out[info.name] = calendarDay(value);
    else out[info.name] = info.kind === 'integer' && value !== null && value !== undefined ? Number(value) : (value ?? null);
  }
  return out;
}

/** A date is its day, `yyyy-MM-dd`; rows written before dates were kept so held the UTC midnight of that day. */
function calendarDay(value: string): string {
  return /^\d{4}-\d{2}-\d{2}T00:00:00(\.0+)?Z$/.test(value) ? value.slice(0, 10) : value;
}

export type Validated = { ok: true; values: Record<string, unknown> } | { ok: false; message: string };

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Input as the schemas expect it: numbers from numeric text (forms, spreadsheets), booleans as 1/0. */
function normalise(kind: FieldKind, value: unknown): unknown {
  if (kind === 'integer') {
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (typeof value === 'string' && /^\s*-?\d+(\.0+)?\s*$/.test(value)) return Number(value);
    return value;
  }
  if (typeof value === 'number') return String(value);
  if (kind === 'json' && typeof value === 'object' && value !== null) return JSON.stringify(value);
  return value;
}

/** The first issue of a field, in the caller's language, naming the field by its label. */
export function issueMessage(lang: Language, label: string, issue: z.core.$ZodIssue, value: unknown): string {
  return issueText(lang, entityLabel(lang, label), issue, value);
}

/**
 * Validates an add (every required field present) or an edit (only the fields given) with the declared schemas.
 * Unknown keys are dropped; write-only fields left empty on edit keep their stored value. Times are read in `timeZone`.
 */
export function validateInput(entity: EntityDeclaration, input: Record<string, unknown>, mode: 'add' | 'edit', lang: Language, timeZone: string): Validated {
  const values: Record<string, unknown> = {};
  for (const [name, decl] of Object.entries(entity.fields)) {
    if (decl.readOnly) continue;
    const given = Object.hasOwn(input, name);
    const raw = input[name];
    if (isEmpty(raw)) {
      // a required field with a default takes it on add (the form shows the default too)
      if (mode === 'add' && decl.defaultValue !== undefined) {
        values[name] = decl.defaultValue;
        continue;
      }
      if (decl.required && (mode === 'add' || (given && !decl.writeOnly))) {
        return { ok: false, message: translate(lang, 'validation.required', { field: entityLabel(lang, decl.label) }) };
      }
      if (mode === 'add') values[name] = decl.defaultValue ?? null;
      else if (given && !decl.writeOnly) values[name] = null;
      continue;
    }
    const value = normalise(decl.kind, raw);
    const parsed = decl.schema.safeParse(value);
    if (!parsed.success) return { ok: false, message: issueMessage(lang, decl.label, parsed.error.issues[0] as z.core.$ZodIssue, value) };
    let stored = parsed.data;
    // a time given in TIME_ZONE (or with an offset) is stored in UTC; a date as its day
    if (decl.kind === 'datetime' || decl.kind === 'date') {
      stored = parseWireTime(String(stored), timeZone, decl.kind);
      if (stored === null) return { ok: false, message: translate(lang, 'validation.dateTime', { field: entityLabel(lang, decl.label) }) };
    }
    values[name] = stored;
  }
  return { ok: true, values };
}

/** Field values → column values. */
export function toColumns(entity: EntityDeclaration, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) if (entity.fields[name] && !entity.fields[name].link) out[columnOf(entity, name)] = value;
  return out;
}
