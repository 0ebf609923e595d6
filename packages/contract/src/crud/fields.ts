import * as z from 'zod';
import { ID_PATTERN } from '../ids.ts';
import type { FieldDeclaration, LinkDeclaration } from './declaration.ts';
import { libraryPattern } from './rule-library.ts';

/**
 * Schemas carry message keys (`validation.*`) as their error text; the server translates an issue whose message is
 * a key with `{field}` set to the localised label, and maps zod's own issues (too_small, too_big, …) to keys.
 */
const NO_CHINESE = /^[^\u3400-\u9fff\uf900-\ufaff]*$/;
/** the rule library's phone rule: every phone field of a declaration checks it */
export const PHONE_PATTERN = libraryPattern('phone');

export const textSchema = (max: number, min = 1) => z.string().trim().min(min).max(max);
export const codeSchema = (max: number) => z.string().trim().min(1).max(max).regex(NO_CHINESE, { error: 'validation.noChinese' });
// an address also passes the rule library's e-mail rule, the one the check-rule editor offers
export const emailSchema = z.string().trim().max(100).email({ error: 'validation.email' }).regex(libraryPattern('email'), { error: 'validation.email' });
export const phoneSchema = z.string().trim().regex(PHONE_PATTERN, { error: 'validation.phone' });
/** A fax number as people write one: digits, with a leading + and spaces, hyphens or brackets between them. */
export const faxSchema = z.string().trim().regex(/^\+?[0-9][0-9 ()-]{3,30}[0-9]$/, { error: 'validation.fax' });
/** An integer in a range: not a number or not whole → 'must be an integer'; out of range → 'at least / at most'. */
export const integerSchema = (min: number, max: number) =>
  z
    .number({ error: (issue) => (issue.code === 'invalid_type' ? 'validation.integer' : undefined) })
    .int({ error: 'validation.integer' })
    .min(min)
    .max(max);

/** A time: ISO 8601 with zone, or `YYYY-MM-DD HH:mm:ss` / `YYYY-MM-DD` taken as UTC. */
export function parseTime(value: string): Date | null {
  const trimmed = value.trim();
  const local = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2})?))?$/.exec(trimmed);
  const iso = local ? `${local[1]}T${local[2] ?? '00:00:00'}Z` : trimmed;
  if (!local && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(trimmed)) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}
export const timeSchema = z.string().refine((v) => parseTime(v) !== null, { error: 'validation.dateTime' });

/** A JSON object written as text ('Illegal JSON string' when it is not JSON, refused when it is an array). */
export const jsonObjectTextSchema = z.string().superRefine((value, ctx) => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'validation.illegalJson' });
    return;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) ctx.addIssue({ code: 'custom', message: 'validation.jsonNotObject' });
});

/** Ids joined by commas (link fields): at most 500, each an id. */
export const idListSchema = z
  .string()
  .max(33_000)
  .refine((v) => v.split(',').every((id) => id.trim() === '' || ID_PATTERN.test(id.trim())), { error: 'validation.invalid' });

type Extra = Partial<Omit<FieldDeclaration, 'label' | 'kind'>>;

/** Shorthands that keep a declaration one line per field. */
export const field = {
  text: (label: string, max: number, extra: Extra = {}): FieldDeclaration => ({
    label,
    kind: 'string',
    schema: textSchema(max),
    widget: extra.widget ?? { kind: max > 255 ? 'textarea' : 'input' },
    ...extra,
  }),
  code: (label: string, max: number, extra: Extra = {}): FieldDeclaration => ({ label, kind: 'string', schema: codeSchema(max), widget: { kind: 'input' }, ...extra }),
  integer: (label: string, min: number, max: number, extra: Extra = {}): FieldDeclaration => ({
    label,
    kind: 'integer',
    schema: integerSchema(min, max),
    widget: { kind: 'number', min, max },
    ...extra,
  }),
  dict: (label: string, dict: string, extra: Extra = {}): FieldDeclaration => ({ label, kind: 'string', schema: textSchema(100), widget: { kind: 'select', dict }, dict, ...extra }),
  /** a dictionary whose values are integers (status 1/0 and the like) */
  dictInteger: (label: string, dict: string, extra: Extra = {}): FieldDeclaration => ({
    label,
    kind: 'integer',
    schema: integerSchema(-99, 99),
    widget: { kind: 'select', dict },
    dict,
    ...extra,
  }),
  datetime: (label: string, extra: Extra = {}): FieldDeclaration => ({ label, kind: 'datetime', schema: timeSchema, widget: { kind: 'datetime' }, ...extra }),
  jsonObject: (label: string, extra: Extra = {}): FieldDeclaration => ({ label, kind: 'json', schema: jsonObjectTextSchema, widget: { kind: 'json' }, ...extra }),
  /** ids of another entity kept in a link table, picked in a multiple select (or a tree for tree entities) */
  links: (label: string, link: LinkDeclaration, labelField: string, extra: Extra = {}): FieldDeclaration => ({
    label,
    kind: 'string',
    schema: idListSchema,
    widget: extra.widget ?? { kind: 'entitySelect', entity: link.entity, labelField, multiple: true },
    link,
    ...extra,
  }),
  password: (label: string, max: number, extra: Extra = {}): FieldDeclaration => ({
    label,
    kind: 'string',
    schema: z.string().min(1).max(max),
    widget: { kind: 'password' },
    writeOnly: true,
    ...extra,
  }),
};
