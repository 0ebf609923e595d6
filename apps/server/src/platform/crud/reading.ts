import { crudPath, treePath, type Language, type Page, type TreeRow } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { CompiledQuery, sql, type SelectQueryBuilder } from 'kysely';
import { SEARCH_MIN_CHARS, searchPhrase, searchTableOf } from '../../db/search-index.ts';
import { callerOf, type CurrentUser } from '../access.ts';
import { AppError } from '../envelope.ts';
import { answeredRows } from './answered-rows.ts';
import { activeDataRules, ruleConditions } from './data-rules.ts';
import { likeTexts, listConditions, pagingOf, sortOf, type Query } from './query.ts';
import { applyScope, requireId, routeOptions, type EntityRuntime, type Row } from './runtime.ts';

/** most rows a search index may name for a list to read just those (some milliseconds), not along the page's order */
const NARROW_ROWS = 2_000;

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
/** How many rows (up to one more than the index may narrow to) the search index names for a phrase in a column. */
const candidatesSql = (searchTable: string, column: string) =>
  `select count(*) as "n" from (select rowid from ${quoted(searchTable)} where ${quoted(column)} match ? limit ${NARROW_ROWS + 1}) as "candidates"`;

/**
 * The search index lookups that narrow a list's contains filters to a few rows (db/search-index.ts), when the
 * index names few enough of them: a text most rows contain is found sooner by reading the rows in the page's order.
 */
async function narrowings(rt: EntityRuntime, query: Query): Promise<Array<{ column: string; phrase: string }>> {
  const found: Array<{ column: string; phrase: string }> = [];
  for (const { column, text } of likeTexts(rt.entity, query)) {
    if (!rt.searched.has(column) || [...text].length < SEARCH_MIN_CHARS) continue;
    const phrase = searchPhrase(text);
    // written once per column, not compiled per request: it is asked before every page of a contains filter
    const counting = CompiledQuery.raw(candidatesSql(searchTableOf(rt.table), column), [phrase]);
    const candidates = await rt.app.listCache.read(counting, async () => (await rt.db.executeQuery<{ n: number | string }>(counting)).rows[0]);
    if (Number(candidates?.n ?? 0) <= NARROW_ROWS) found.push({ column, phrase });
  }
  return found;
}

/** The rows a list or export reads: tenant and deletion scope, the caller's data rules, then the query's filters. */
export async function listRows(rt: EntityRuntime, caller: CurrentUser, query: Query, deleted = false): Promise<SelectQueryBuilder<Row, string, Row>> {
  const { app, db, entity, table } = rt;
  const conditions = listConditions(entity, query, app.settings.timeZone);
  const rules = ruleConditions(await activeDataRules(app, entity, caller));
  const narrowing = rt.searched.size > 0 ? await narrowings(rt, query) : [];
  if (narrowing.length === 0) return rt.registered.scoped(caller, { deleted }).where((eb) => eb.and([...rules(eb), ...conditions(eb)]));
  // read by rowid from the index's few rows, not along a scope index through every row of the tenant
  const searchTable = searchTableOf(table);
  const from = db.selectFrom(sql`${sql.table(table)} not indexed` as unknown as string).selectAll();
  return applyScope(entity, caller, from, deleted).where((eb) =>
    eb.and([
      ...narrowing.map(({ column, phrase }) => eb(sql.raw('rowid'), 'in', eb.selectFrom(searchTable).select(sql.raw('rowid').as('r')).where(sql.ref(column), 'match', phrase))),
      ...rules(eb),
      ...conditions(eb),
    ]),
  );
}

/**
 * The count of `reading` and one page of it in `sort`'s order: the same count and the same page are read once until
 * a table they read is written (platform/crud/list-cache.ts). A list page and a picker's choices read through here.
 */
export async function readPage(
  app: FastifyInstance,
  reading: SelectQueryBuilder<Row, string, Row>,
  sort: { column: string; order: 'asc' | 'desc' },
  pageNo: number,
  pageSize: number,
): Promise<{ rows: Row[]; total: number }> {
  const counting = reading.clearSelect().select((eb) => eb.fn.countAll().as('n'));
  const countRow = await app.listCache.read(counting.compile(), () => counting.executeTakeFirst());
  const total = Number(countRow?.n ?? 0);
  // ties broken by the id in the sort's own direction: the declared index (scope, sort field, id) then serves the page in order
  const paging = reading
    .orderBy(sort.column, sort.order)
    .orderBy('id', sort.order)
    .limit(pageSize)
    .offset((pageNo - 1) * pageSize);
  const rows = await app.listCache.read(paging.compile(), () => paging.execute());
  return { rows, total };
}

/** One page of the list (or of the recycle bin, `deleted`) as answered. */
export async function listPage(rt: EntityRuntime, caller: CurrentUser, lang: Language, query: Query, deleted = false): Promise<Page<Row>> {
  const { pageNo, pageSize } = pagingOf(query);
  const sort = sortOf(rt.entity, query);
  const { rows, total } = await readPage(rt.app, await listRows(rt, caller, query, deleted), sort, pageNo, pageSize);
  return { records: await answeredRows(rt, rows, lang, caller), total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) };
}

/** The list, one row by id, and the tree of a tree entity. */
export function readRoutes(rt: EntityRuntime, routes: FastifyInstance): void {
  const { entity, perm } = rt;
  routes.get(crudPath(entity, 'list'), routeOptions(rt, 'list', `List ${entity.name}`), async (request, reply) =>
    reply.ok(await listPage(rt, callerOf(request), request.lang, request.query as Query)),
  );

  routes.get(crudPath(entity, 'queryById'), routeOptions(rt, 'list', `One ${entity.name}`), async (request, reply) => {
    const row = await (await listRows(rt, callerOf(request), {})).where('id', '=', requireId((request.query as Query).id)).executeTakeFirst();
    if (!row) throw new AppError('notFound', 'crud.notFound');
    const caller = callerOf(request);
    return reply.ok((await answeredRows(rt, [row], request.lang, caller, caller.permissions.has(perm('edit'))))[0]);
  });

  if (!entity.tree) return;
  const tree = entity.tree;
  routes.get(treePath(entity), routeOptions(rt, 'list', `${entity.name} as a tree`), async (request, reply) => {
    const sort = sortOf(entity, {});
    const rows = await answeredRows(rt, await rt.registered.scoped(callerOf(request)).orderBy(sort.column, sort.order).orderBy('id').limit(10_000).execute(), request.lang, callerOf(request));
    const nodes = new Map<string, TreeRow>(rows.map((r) => [r.id as string, { ...r, id: r.id as string, key: r.id as string, value: r.id as string, title: String(r[tree.labelField] ?? '') }]));
    const roots: TreeRow[] = [];
    for (const node of nodes.values()) {
      const parent = node[tree.parentField] ? nodes.get(String(node[tree.parentField])) : undefined;
      if (parent) (parent.children ??= []).push(node);
      else roots.push(node);
    }
    return reply.ok(roots);
  });
}
