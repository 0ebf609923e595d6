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
  return values;
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
  if (mode === 'edit' && id) body.id = id;
  return body;
}
