import type { EntityDeclaration, SuperQueryCondition } from '@isps/contract';
import dayjs, { type Dayjs } from 'dayjs';
import { toWire } from '../time/index.ts';
import { fieldKind } from './entity-fields.ts';

export type ListParams = Record<string, string | number>;
export type SortOrder = 'asc' | 'desc';

export interface SuperQuery {
  conditions: SuperQueryCondition[];
  matchType: 'and' | 'or';
}

/** What the list shows: the page, the order, the search form's values and the advanced query. */
export interface ListState {
  pageNo: number;
  pageSize: number;
  sort?: { field: string; order: SortOrder } | null;
  filters: Record<string, unknown>;
  superQuery?: SuperQuery | null;
  /** filters the screen fixes (dictionary items of one dictionary); never shown in the search form */
  fixed?: Record<string, string>;
}

const isEmpty = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);

function isDayjs(value: unknown): value is Dayjs {
  return dayjs.isDayjs(value);
}

function plainText(value: unknown): string {
  if (isDayjs(value)) return toWire(value);
  if (Array.isArray(value)) return value.map(plainText).filter(Boolean).join(',');
  return String(value).trim();
}

/** One end of a range: a picked day covers the whole day in the user's zone, sent in the site's; numbers stay numbers. */
function rangeEnd(value: unknown, end: 'begin' | 'end', kind: 'datetime' | 'date' | null): string | number | undefined {
  if (isEmpty(value)) return undefined;
  if (kind) {
    const day = isDayjs(value) ? value : dayjs(String(value));
    if (!day.isValid()) return undefined;
    return toWire(end === 'begin' ? day.startOf('day') : day.endOf('day'), kind);
  }
  return typeof value === 'number' ? value : String(value).trim();
}

/** The filter parameters of DESIGN section 5 for the declared search fields (list and export share them). */
export function filterParams(entity: EntityDeclaration, filters: Record<string, unknown>, fixed: Record<string, string> = {}): ListParams {
  const params: ListParams = {};
  for (const [name, match] of Object.entries(entity.search)) {
    const value = filters[name];
    if (isEmpty(value)) continue;
    if (match === 'range') {
      const [from, to] = Array.isArray(value) ? value : [value, undefined];
      const kind = fieldKind(entity, name);
      const timeKind = kind === 'datetime' || kind === 'date' ? kind : null;
      const begin = rangeEnd(from, 'begin', timeKind);
      const finish = rangeEnd(to, 'end', timeKind);
      if (begin !== undefined) params[`${name}_begin`] = begin;
      if (finish !== undefined) params[`${name}_end`] = finish;
      continue;
    }
    const text = plainText(value);
    if (text !== '') params[name] = text;
  }
  return { ...params, ...fixed };
}

/** Only complete conditions are sent; 'empty' and 'not_empty' need no value. */
export function superQueryParams(query: SuperQuery | null | undefined): ListParams {
  const complete = (query?.conditions ?? []).filter(
    (c) => c.field && c.rule && (c.rule === 'empty' || c.rule === 'not_empty' || !isEmpty(c.val)),
  );
  if (!query || complete.length === 0) return {};
  const conditions = complete.map((c) => (c.rule === 'empty' || c.rule === 'not_empty' ? { field: c.field, rule: c.rule } : { field: c.field, rule: c.rule, val: c.val }));
  return { superQueryParams: JSON.stringify(conditions), superQueryMatchType: query.matchType };
}

/** Every parameter of a list call; export takes the same ones without the page. */
export function listParams(entity: EntityDeclaration, state: ListState): ListParams {
  const params: ListParams = { pageNo: state.pageNo, pageSize: state.pageSize };
  if (state.sort && entity.sortable.includes(state.sort.field)) {
    params.column = state.sort.field;
    params.order = state.sort.order;
  }
  return { ...params, ...filterParams(entity, state.filters, state.fixed), ...superQueryParams(state.superQuery) };
}

export function exportParams(entity: EntityDeclaration, state: ListState): ListParams {
  const { pageNo: _pageNo, pageSize: _pageSize, ...rest } = listParams(entity, state);
  return rest;
}

/** Whether the search narrows the rows (a tree then shows the matching rows flat). */
export function isFiltered(entity: EntityDeclaration, state: Pick<ListState, 'filters' | 'superQuery'>): boolean {
  return Object.keys(filterParams(entity, state.filters)).length > 0 || Object.keys(superQueryParams(state.superQuery)).length > 0;
}
