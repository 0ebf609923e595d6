import { formFieldsOf, type EntityDeclaration, type FieldDeclaration } from '@isps/contract';
import { toPickerValue } from '../time/index.ts';
import type { CrudRow } from './entity-fields.ts';
import { toApiValue } from './zod-rules.ts';

const isEmpty = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A stored value as its control holds it: times as dayjs, dictionary and option values as text, switches as booleans. */
export function toFormValue(field: FieldDeclaration, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  switch (field.widget.kind) {
    case 'date':
    case 'datetime':
      return toPickerValue(value, field.widget.kind);
    case 'entitySelect':
    case 'treeSelect':
      if (field.widget.multiple) return String(value).split(',').filter(Boolean);
      return value === '' ? undefined : String(value);
    case 'options':
      if (field.widget.multiple) return String(value).split(',').filter(Boolean);
      return value === '' ? undefined : String(value);
    case 'select':
      return value === '' ? undefined : String(value);
    case 'switch':
      return value === 1 || value === '1' || value === true;
    case 'number':
      return typeof value === 'number' ? value : Number(value);
    case 'password':
      return undefined;
    default:
      return typeof value === 'string' ? value : String(value);
  }
}

/** The form's starting values: declared defaults on add, the row's values on edit; fixed values always. */
export function initialFormValues(entity: EntityDeclaration, mode: 'add' | 'edit', row: CrudRow | null, fixed: Record<string, string> = {}): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const name of formFieldsOf(entity)) {
    const field = entity.fields[name];
    if (!field) continue;
    const source = mode === 'edit' && row ? row[name] : field.defaultValue;
    values[name] = toFormValue(field, source);
  }
  for (const [name, value] of Object.entries(fixed)) {
    const field = entity.fields[name];
    if (field) values[name] = toFormValue(field, value);
  }
  // each detail's lines (an edit's row carries them under the detail's name), each line keeping its id
  for (const detail of entity.details ?? []) {
    const lines = mode === 'edit' && row && Array.isArray(row[detail.name]) ? (row[detail.name] as CrudRow[]) : [];
    values[detail.name] = lines.map((line) => ({ id: line.id, ...Object.fromEntries(detail.columns.map((name) => [name, detail.fields[name] ? toFormValue(detail.fields[name], line[name]) : undefined])) }));
  }
  return values;
}

/** One line of a detail as sent: its fields' API values (empty ones left out), and its id when it is a stored line. */
function linePayload(fields: Readonly<Record<string, FieldDeclaration>>, columns: readonly string[], line: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of columns) {
    const field = fields[name];
    if (!field) continue;
    const value = toApiValue(field, line[name]);
    if (!isEmpty(value)) body[name] = typeof value === 'string' ? value.trim() : value;
  }
  if (typeof line.id === 'string' && line.id !== '') body.id = line.id;
  return body;
}

/**
 * The body of add / edit: API values of the form fields. An emptied field on edit is sent as null (cleared),
 * a write-only field left empty is left out (the stored value stays), empty fields on add take the server's default.
 */
export function formPayload(entity: EntityDeclaration, mode: 'add' | 'edit', values: Record<string, unknown>, id?: string): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of formFieldsOf(entity)) {
    const field = entity.fields[name];
    if (!field || !(name in values)) continue;
    const value = toApiValue(field, values[name]);
    if (isEmpty(value)) {
      if (mode === 'edit' && !field.writeOnly) body[name] = null;
      continue;
    }
    body[name] = typeof value === 'string' && field.kind !== 'json' ? value.trim() : value;
  }
  // every detail's lines are sent whole: an edit's list replaces the stored lines
  for (const detail of entity.details ?? []) {
    const lines = values[detail.name];
    if (Array.isArray(lines)) body[detail.name] = lines.map((line) => linePayload(detail.fields, detail.columns, (line ?? {}) as Record<string, unknown>));
  }
  if (mode === 'edit' && id) body.id = id;
  return body;
}
