import { MAX_PAGE_SIZE, SUPER_QUERY_RULES, columnOf, type EntityDeclaration, type MatchKind } from '@isps/contract';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import * as z from 'zod';
import { AppError } from '../envelope.ts';
import { requireWireTime } from '../wire-time.ts';
import { linkOf } from './tables.ts';
import { readableFields, type FieldInfo } from './values.ts';

// The engine works on tables named by declarations, so its builder is untyped; names come only from declarations.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Eb = ExpressionBuilder<any, any>;
type Condition = Expression<SqlBool>;
export type Query = Record<string, unknown>;

export interface Paging {
  pageNo: number;
  pageSize: number;
}

function single(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : typeof first === 'number' ? String(first) : undefined;
}

function positiveInt(value: unknown, fallback: number, max: number): number {
  const text = single(value);
  if (!text || !/^\d{1,9}$/.test(text)) return fallback;
  const n = Number(text);
  return n < 1 ? fallback : Math.min(n, max);
}

export function pagingOf(query: Query): Paging {
  return { pageNo: positiveInt(query.pageNo, 1, 1_000_000), pageSize: positiveInt(query.pageSize, 10, MAX_PAGE_SIZE) };
}

/** Sort by a whitelisted field only; anything else falls back to the declared default. */
export function sortOf(entity: EntityDeclaration, query: Query): { column: string; order: 'asc' | 'desc' } {
  const requested = single(query.column);
  const field = requested && entity.sortable.includes(requested) ? requested : entity.defaultSort.field;
  const orderText = single(query.order)?.toLowerCase();
  const order = requested && entity.sortable.includes(requested) && (orderText === 'asc' || orderText === 'desc') ? orderText : entity.defaultSort.order;
  const info = readableFields(entity).get(field);
  return { column: info?.column ?? columnOf(entity, field), order };
}

/**
 * A value as the column stores it, or undefined when it cannot be one (the condition is then dropped). A time is read
 * in the site's zone (or with its offset) and must be one: anything else is a 400.
 */
function typed(info: FieldInfo, text: string, timeZone: string): string | number | undefined {
  if (info.kind === 'integer') return /^-?\d{1,15}$/.test(text.trim()) ? Number(text.trim()) : undefined;
  if (info.kind === 'datetime' || info.kind === 'date') return text.trim() === '' ? undefined : requireWireTime(text, timeZone, info.kind, info.name);
  return text;
}

/** LIKE with '!' as the escape character, the same on all three engines (a backslash is not). */
function escapeLike(text: string): string {
  return text.replace(/[!%_]/g, (c) => `!${c}`);
}

function like(eb: Eb, info: FieldInfo, pattern: string): Condition | undefined {
  if (info.kind !== 'string' && info.kind !== 'json') return undefined;
  return sql<SqlBool>`lower(${eb.ref(info.column)}) like ${pattern.toLowerCase()} escape '!'`;
}

/** Rows whose text column contains `text` (any case, wildcards taken literally); undefined for a column no LIKE reads. */
export function containsText(eb: Eb, info: FieldInfo, text: string): Condition | undefined {
  return like(eb, info, `%${escapeLike(text)}%`);
}

/** The LIKE a filter text asks for: its literal text, with any characters before it (`*x`) and after it (`x*`). */
interface LikeFilter {
  text: string;
  before: boolean;
  after: boolean;
}

/** The LIKE of a trimmed, non-empty filter text (`*x*`, `x*`, `*x`, or a plain text of a contains field), if it asks for one. */
function likeFilterOf(kind: MatchKind, text: string): LikeFilter | undefined {
  if (text.startsWith('!') && text.length > 1) return undefined;
  if (text.length > 2 && text.startsWith('*') && text.endsWith('*')) return { text: text.slice(1, -1), before: true, after: true };
  if (text.length > 1 && text.endsWith('*')) return { text: text.slice(0, -1), before: false, after: true };
  if (text.length > 1 && text.startsWith('*')) return { text: text.slice(1), before: true, after: false };
  if (text.includes(',')) return undefined;
  return kind === 'contains' ? { text, before: true, after: true } : undefined;
}

/** One filter parameter with the DESIGN section 5 syntax: `*x*`, `x*`, `*x`, `a,b`, `!x`; plain by match kind. */
function filterCondition(eb: Eb, info: FieldInfo, kind: MatchKind, raw: string, timeZone: string): Condition | undefined {
  const text = raw.trim();
  if (text === '') return undefined;
  if (text.startsWith('!') && text.length > 1) {
    const value = typed(info, text.slice(1), timeZone);
    return value === undefined ? undefined : eb.or([eb(info.column, '<>', value), eb(info.column, 'is', null)]);
  }
  const liked = likeFilterOf(kind, text);
  if (liked) {
    const condition = like(eb, info, `${liked.before ? '%' : ''}${escapeLike(liked.text)}${liked.after ? '%' : ''}`);
    // a plain text of a contains field on a field no LIKE reads (a number, a time) is compared as a value
    return condition ?? (liked.before && liked.after && text === liked.text ? eqCondition(eb, info, text, timeZone) : undefined);
  }
  if (text.includes(',')) {
    const values = text.split(',').slice(0, 100).map((v) => typed(info, v.trim(), timeZone)).filter((v) => v !== undefined && v !== '');
    return values.length > 0 ? eb(info.column, 'in', values) : undefined;
  }
  return eqCondition(eb, info, text, timeZone);
}

/**
 * The texts a list's filters look for with LIKE in a text column, by column: what a search index may narrow (the
 * LIKE itself still decides). Only the filter parameters of declared search fields, as listConditions reads them.
 */
export function likeTexts(entity: EntityDeclaration, query: Query): Array<{ column: string; text: string }> {
  const fields = readableFields(entity);
  const texts: Array<{ column: string; text: string }> = [];
  for (const [name, kind] of Object.entries(entity.search)) {
    const info = fields.get(name);
    if (entity.fields[name]?.link || !info || info.kind !== 'string') continue;
    const text = single(query[name])?.trim();
    const liked = text ? likeFilterOf(kind, text) : undefined;
    if (liked && liked.text !== '') texts.push({ column: info.column, text: liked.text });
  }
  return texts;
}

function eqCondition(eb: Eb, info: FieldInfo, text: string, timeZone: string): Condition | undefined {
  const value = typed(info, text, timeZone);
  return value === undefined ? undefined : eb(info.column, '=', value);
}

const superQuerySchema = z
  .array(z.object({ field: z.string().max(100), rule: z.enum(SUPER_QUERY_RULES), val: z.union([z.string().max(1000), z.number(), z.null()]).optional() }))
  .max(50);

function parseSuperQuery(raw: string): z.infer<typeof superQuerySchema> {
  for (const candidate of [raw, safeDecode(raw)]) {
    if (candidate === undefined) continue;
    try {
      const parsed = superQuerySchema.safeParse(JSON.parse(candidate));
      if (parsed.success) return parsed.data;
    } catch {
      // not JSON in this form; the decoded form may be
    }
  }
  throw new AppError('badRequest', 'error.badRequest', { detail: 'superQueryParams must be a JSON list of {field, rule, val}' });
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function superCondition(
  eb: Eb,
  info: FieldInfo,
  rule: (typeof SUPER_QUERY_RULES)[number],
  val: string | number | null | undefined,
  timeZone: string,
): Condition | undefined {
  const text = val === null || val === undefined ? '' : String(val);
  const column = info.column;
  switch (rule) {
    case 'empty':
      return eb.or([eb(column, 'is', null), ...(info.kind === 'string' ? [eb(column, '=', '')] : [])]);
    case 'not_empty':
      return eb.and([eb(column, 'is not', null), ...(info.kind === 'string' ? [eb(column, '<>', '')] : [])]);
    case 'like':
      return text === '' ? undefined : like(eb, info, `%${escapeLike(text)}%`);
    case 'in':
    case 'not_in': {
      const values = text.split(',').slice(0, 100).map((v) => typed(info, v.trim(), timeZone)).filter((v) => v !== undefined && v !== '');
      if (values.length === 0) return undefined;
      return eb(column, rule === 'in' ? 'in' : 'not in', values);
    }
    default: {
      if (text === '') return undefined;
      const value = typed(info, text, timeZone);
      if (value === undefined) return undefined;
      const op = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' }[rule] as '=' | '<>' | '>' | '>=' | '<' | '<=';
      return eb(column, op, value);
    }
  }
}

/** The WHERE conditions of a list or export from its query parameters; only declared fields can take part. Times are read in `timeZone`. */
export function listConditions(entity: EntityDeclaration, query: Query, timeZone: string) {
  const fields = readableFields(entity);
  return (eb: Eb): Condition[] => {
    const conditions: Condition[] = [];
    for (const [name, kind] of Object.entries(entity.search)) {
      if (entity.fields[name]?.link) {
        const link = linkOf(entity, name);
        // one linked id: the rows linked to it
        const value = single(query[name])?.trim();
        if (value && /^[A-Za-z0-9_-]{1,64}$/.test(value)) {
          conditions.push(eb('id', 'in', eb.selectFrom(link.table).select(link.ownerColumn).where(link.targetColumn, '=', value)));
        }
        continue;
      }
      const info = fields.get(name);
      if (!info) continue;
      const value = single(query[name]);
      if (value !== undefined) {
        const condition = filterCondition(eb, info, kind, value, timeZone);
        if (condition) conditions.push(condition);
      }
      if (kind === 'range') {
        const begin = single(query[`${name}_begin`]);
        const end = single(query[`${name}_end`]);
        const from = begin?.trim() ? typed(info, begin, timeZone) : undefined;
        // a date-only end includes its whole day
        const endText = end && /^\d{4}-\d{2}-\d{2}$/.test(end.trim()) && info.kind === 'datetime' ? `${end.trim()} 23:59:59` : end;
        const to = endText?.trim() ? typed(info, endText, timeZone) : undefined;
        if (from !== undefined) conditions.push(eb(info.column, '>=', from));
        if (to !== undefined) conditions.push(eb(info.column, '<=', info.kind === 'datetime' && typeof to === 'string' ? to.replace(/\.000Z$/, '.999Z') : to));
      }
    }
    const superText = single(query.superQueryParams);
    if (superText) {
      const parts = parseSuperQuery(superText)
        .map((c) => {
          const info = fields.get(c.field);
          return info ? superCondition(eb, info, c.rule, c.val, timeZone) : undefined;
        })
        .filter((c): c is Condition => c !== undefined);
      if (parts.length > 0) conditions.push(single(query.superQueryMatchType)?.toLowerCase() === 'or' ? eb.or(parts) : eb.and(parts));
    }
    return conditions;
  };
}
