import { randomUUID } from 'node:crypto';
import { PassThrough, pipeline } from 'node:stream';
import {
  crudPath,
  entityActions,
  entityDeclarations,
  ID_PATTERN,
  importInitialFields,
  maskCardNo,
  permissionCode,
  seededTextColumns,
  splitIds,
  translate,
  treePath,
  type EntityDeclaration,
  type ImportJob,
  importJobPath,
  type Language,
  type MessageKey,
  type Page,
  type TreeRow,
} from '@isps/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CompiledQuery, sql, type Kysely, type SelectQueryBuilder, type UpdateQueryBuilder, type DeleteQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SEARCH_MIN_CHARS, searchColumns, searchPhrase, searchTableOf } from '../../db/search-index.ts';
import { callerOf, type CurrentUser } from '../access.ts';
import { OperationType, writeOperationLog } from '../audit-log.ts';
import { allDictionaryOptions, importDictionaryOptions } from '../dictionaries.ts';
import { AppError, refuse } from '../envelope.ts';
import { showSeededRows, unchangedSeededColumns } from '../seeded-texts.ts';
import { uploadRoutes } from '../uploads.ts';
import { checkAdminOnlyFields, tenantScoped, writeTenant } from '../tenancy.ts';
import { activeDataRules, ruleConditions } from './data-rules.ts';
import { openWorkbook, refusedRowsWorkbook, streamWorkbook, type SheetRow } from './excel.ts';
import { importJobsOf, type ImportJobRun } from './import-jobs.ts';
import { likeTexts, listConditions, pagingOf, sortOf, type Query } from './query.ts';
import { linkFields, linkIds, readableFields, toApiRow, toColumns, validateInput } from './values.ts';
import { linkOptionsRoute } from './link-options.ts';
import { checkOfferedValues } from './offered-options.ts';
import { withReferenceLabels } from './reference-labels.ts';
import { checkReferences } from './references.ts';
import { tableOf } from './tables.ts';
import { toWire } from '../wire-time.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = Record<string, any>;

export interface CrudContext {
  app: FastifyInstance;
  caller: CurrentUser;
  lang: Language;
  request: FastifyRequest;
  /**
   * `compute()` once per distinct `value` of `name` for the whole call: every row of an import shares one result
   * (one hash of the initial password for ten thousand rows)
   */
  once<T>(name: string, value: string, compute: () => Promise<T>): Promise<T>;
}

/** A fresh `once` memo: one per request, one per import job. */
function onceMemo(): CrudContext['once'] {
  const memo = new Map<string, Promise<unknown>>();
  return <T>(name: string, value: string, compute: () => Promise<T>) => {
    const key = `${name}\u0000${value}`;
    let result = memo.get(key) as Promise<T> | undefined;
    if (!result) {
      result = compute();
      memo.set(key, result);
      // a failed computation is not kept: the next row tries again
      result.catch(() => memo.delete(key));
    }
    return result;
  };
}

/** Custom behaviour beside a declaration. `values` are validated field values by field name; hooks may change them. */
export interface EntityHooks {
  beforeAdd?(ctx: CrudContext, values: Row): Promise<void> | void;
  /** columns of the new row that are no declared field (server-side flags), stored with it */
  columnsOnAdd?(ctx: CrudContext, values: Row): Row | Promise<Row>;
  /** after the row (and its links) is stored */
  afterAdd?(ctx: CrudContext, id: string, values: Row): Promise<void> | void;
  beforeEdit?(ctx: CrudContext, values: Row, existing: Row): Promise<void> | void;
  /** after the edit (and its links) is stored */
  afterEdit?(ctx: CrudContext, id: string, values: Row): Promise<void> | void;
  /** `complete` when the rows leave the database (not only marked deleted) */
  beforeDelete?(ctx: CrudContext, rows: Row[], complete: boolean): Promise<void> | void;
  /** before rows leave the recycle bin (the caller's deleted rows among those asked for) */
  beforeRestore?(ctx: CrudContext, rows: Row[]): Promise<void> | void;
  /** rows of other tables that belong to the deleted rows, removed in the transaction that deletes (or marks) them */
  deleteLinked?(trx: Kysely<Database>, ids: string[], complete: boolean): Promise<void>;
  /** after any add, edit, delete, restore or import (cache refresh and the like) */
  afterChange?(ctx: CrudContext): Promise<void> | void;
  /** more of a listed, read or exported row than its fields (`row` as answered, `stored` as read) */
  shown?(lang: Language, row: Row, stored: Row): void;
  /** extra routes of the screen, registered with the generated ones */
  routes?(app: FastifyInstance, entity: RegisteredEntity): Promise<void> | void;
}

export interface RegisteredEntity {
  declaration: EntityDeclaration;
  hooks: EntityHooks;
  /** the caller's rows of this entity (tenant and soft-delete filters applied): the one place they are applied */
  scoped(caller: CurrentUser, options?: { deleted?: boolean }): SelectQueryBuilder<Row, string, Row>;
  findById(caller: CurrentUser, id: string): Promise<Row | undefined>;
  /** the rows its list reads for the caller with the query's filters: scope, then the caller's data rules on its menu */
  listed(caller: CurrentUser, query: Query): Promise<SelectQueryBuilder<Row, string, Row>>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** entities registered with the CRUD engine, by table (duplicate check, tests) */
    crudEntities: Map<string, RegisteredEntity>;
  }
}

const MAX_BATCH = 1000;
/** imported rows stored per transaction; between batches other requests get their turn */
const IMPORT_BATCH = 100;
/** rows checked between two turns of the event loop for other requests */
const IMPORT_ROWS_PER_TURN = 20;
/** rows of one multi-row INSERT: far below the bound parameters every engine accepts */
const INSERT_CHUNK = 200;
const EXPORT_PAGE = 200;
const MAX_EXPORT_ROWS = 50_000;
/** most rows a search index may name for a list to read just those (some milliseconds), not along the page's order */
const NARROW_ROWS = 2_000;

function requireId(value: unknown): string {
  const id = Array.isArray(value) ? value[0] : value;
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) throw new AppError('badRequest', 'error.badRequest', { detail: 'id' });
  return id;
}

function requireIds(value: unknown): string[] {
  const text = Array.isArray(value) ? value.join(',') : value;
  if (typeof text !== 'string') refuse('crud.selectRecord');
  const ids = splitIds(text);
  if (ids.length === 0) refuse('crud.selectRecord');
  if (ids.length > MAX_BATCH || ids.some((id) => !ID_PATTERN.test(id))) throw new AppError('badRequest', 'error.badRequest', { detail: 'ids' });
  return ids;
}

function nowIso(app: FastifyInstance): string {
  return new Date(app.clock()).toISOString();
}

/** Applies the tenant and soft-delete filters to any statement on the entity's table. */
function applyScope<Q extends { where: (...args: never[]) => unknown }>(entity: EntityDeclaration, caller: CurrentUser, query: Q, deleted = false): Q {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let scoped = query as any;
  if (entity.tenantScoped) scoped = tenantScoped(scoped, caller);
  if (entity.softDelete) scoped = scoped.where('del_flag', '=', deleted ? 1 : 0);
  return scoped as Q;
}

export function registerEntity(app: FastifyInstance, entity: EntityDeclaration, hooks: EntityHooks = {}): RegisteredEntity {
  const db = app.db as unknown as AnyDb;
  const table = tableOf(entity);
  const actions = new Set(entityActions(entity));
  const perm = (action: string) => permissionCode(entity, action);
  const tags = [entity.name];

  const registered: RegisteredEntity = {
    declaration: entity,
    hooks,
    scoped: (caller, options = {}) => applyScope(entity, caller, db.selectFrom(table).selectAll(), options.deleted),
    findById: (caller, id) => registered.scoped(caller).where('id', '=', id).executeTakeFirst(),
    listed: (caller, query) => listRows(caller, query),
  };
  app.crudEntities.set(table, registered);

  const contextOf = (request: FastifyRequest): CrudContext => ({ app, caller: callerOf(request), lang: request.lang, request, once: onceMemo() });

  const links = linkFields(entity);
  // the link fields of other declarations that point at this entity's rows (a device role's doors, people, ...)
  const inboundLinks = entityDeclarations.flatMap((other) => linkFields(other).map(({ link }) => link)).filter((link) => link.entity === entity.name);

  /**
   * An imported link cell names its rows the way the export shows them (labels joined by commas) or by id: each
   * name the caller can see becomes its id; an unknown one stays and is refused by `checkReferences`.
   */
  async function linkIdsOfLabels(ctx: CrudContext, values: Row) {
    for (const { name, link } of links) {
      const cell = values[name];
      const target = app.crudEntities.get(tableOf(link.entity));
      if (typeof cell !== 'string' || cell === '' || !target) continue;
      const labelColumn = readableFields(target.declaration).get(target.declaration.labelField)?.column ?? 'id';
      // commas, full-width and ideographic; escaped, as the server build must stay ASCII (see scripts/build-server.mjs)
      const tokens = cell.split(/\s*[,\uFF0C\u3001]\s*/).filter(Boolean);
      const found = await target
        .scoped(ctx.caller)
        .clearSelect()
        .select(['id', `${labelColumn} as label`])
        .where((eb) => eb.or([eb('id', 'in', tokens), eb(labelColumn, 'in', tokens)]))
        .execute();
      values[name] = tokens.map((token) => (found.find((r) => r.id === token) ?? found.find((r) => r.label === token))?.id ?? token).join(',');
    }
  }

  /** Replaces the links of one row for the link fields present in `values`. */
  async function writeLinks(trx: AnyDb, ownerId: string, values: Row, by: string) {
    for (const { name, link } of links) {
      if (!Object.hasOwn(values, name)) continue;
      await trx.deleteFrom(link.table).where(link.ownerColumn, '=', ownerId).execute();
      for (const targetId of linkIds(values[name])) {
        await trx
          .insertInto(link.table)
          .values({ id: randomUUID(), [link.ownerColumn]: ownerId, [link.targetColumn]: targetId, create_by: by, create_time: nowIso(app), update_by: null, update_time: null })
          .execute();
      }
    }
  }

  /** Removes the links of rows leaving the database: their own and those of other rows pointing at them. */
  async function removeLinks(trx: AnyDb, ids: string[]) {
    for (const { link } of links) await trx.deleteFrom(link.table).where(link.ownerColumn, 'in', ids).execute();
    for (const link of inboundLinks) await trx.deleteFrom(link.table).where(link.targetColumn, 'in', ids).execute();
  }

  /** The labels of linked rows in `lang` by id: a seeded row's label (a seeded role's name) translated. */
  async function shownLabels(target: EntityDeclaration, labelColumn: string, ids: string[], lang: Language): Promise<Map<string, unknown>> {
    if (ids.length === 0 || seededTextColumns(target.name).length === 0) return new Map();
    const reading = db.selectFrom(tableOf(target)).selectAll().where('id', 'in', ids);
    const rows = await app.listCache.read(reading.compile(), () => reading.execute());
    return new Map((await showSeededRows(app, target.name, rows as Row[], lang)).map((r) => [r.id as string, r[labelColumn]]));
  }

  /** Fills link fields: the linked ids joined by commas and `<field>_dictText` with their labels in `lang`. */
  async function withLinks(api: Row[], lang: Language): Promise<void> {
    if (links.length === 0 || api.length === 0) return;
    const ids = api.map((r) => r.id as string);
    for (const { name, link } of links) {
      const target = app.crudEntities.get(tableOf(link.entity));
      const labelColumn = target ? (readableFields(target.declaration).get(target.declaration.labelField)?.column ?? 'id') : 'id';
      const reading = db
        .selectFrom(`${link.table} as l`)
        .leftJoin(`${target ? tableOf(target.declaration) : link.table} as t`, 't.id', `l.${link.targetColumn}`)
        .select([`l.${link.ownerColumn} as owner`, `l.${link.targetColumn} as target`, `t.${labelColumn} as label`])
        .where(`l.${link.ownerColumn}`, 'in', ids)
        .orderBy(`t.${labelColumn}`);
      const pairs = await app.listCache.read(reading.compile(), () => reading.execute());
      const shown = target ? await shownLabels(target.declaration, labelColumn, [...new Set(pairs.map((p) => p.target as string))], lang) : new Map<string, unknown>();
      for (const row of api) {
        const mine = pairs.filter((p) => p.owner === row.id);
        row[name] = mine.map((p) => p.target).join(',');
        row[`${name}_dictText`] = mine.map((p) => shown.get(p.target as string) ?? p.label ?? p.target).join(', ');
      }
    }
  }

  // fields lists show as card numbers are shown (ID numbers): the last four characters
  const maskedFields = Object.entries(entity.fields).filter(([, f]) => f.maskedInLists).map(([name]) => name);

  /** Rows as answered; `full`: a masked field keeps its whole value (the detail of one row, for those who may edit it). */
  async function withDictText(rows: Row[], lang: Language, caller: CurrentUser, full = false): Promise<Row[]> {
    const dictFields = [...readableFields(entity).values()].filter((f) => f.dict);
    const api = (await showSeededRows(app, entity.name, rows, lang)).map((r) => toApiRow(entity, r));
    if (!full) for (const row of api) for (const name of maskedFields) if (typeof row[name] === 'string') row[name] = maskCardNo(row[name]);
    await withLinks(api, lang);
    await withReferenceLabels(app, entity, api, caller, lang);
    if (hooks.shown) api.forEach((row, index) => hooks.shown?.(lang, row, rows[index] as Row));
    if (dictFields.length === 0) return api;
    const options = await allDictionaryOptions(app, lang);
    for (const row of api) {
      for (const field of dictFields) {
        const value = row[field.name];
        const option = options[field.dict as string]?.find((o) => o.value === String(value));
        row[`${field.name}_dictText`] = option ? option.text : value === null || value === undefined ? '' : String(value);
      }
    }
    return api;
  }

  /** Stores the row as it now is, as the next version of its data log (entities that can be edited). */
  async function recordVersion(ctx: CrudContext, id: string) {
    if (!actions.has('edit')) return;
    const row = await db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return;
    const last = await db.selectFrom('sys_data_log').select((eb) => eb.fn.max('data_version').as('v')).where('data_table', '=', table).where('data_id', '=', id).executeTakeFirst();
    try {
      await db
        .insertInto('sys_data_log')
        .values({
          id: randomUUID(),
          data_table: table,
          data_id: id,
          data_content: JSON.stringify(toApiRow(entity, row)),
          data_version: Number(last?.v ?? 0) + 1,
          // the copy belongs to the row's tenant, even when a system administrator changed it
          tenant_id: entity.tenantScoped ? (row.tenant_id ?? null) : ctx.caller.tenantId,
          create_by: ctx.caller.username,
          create_time: nowIso(app),
          update_by: null,
          update_time: null,
        })
        .execute();
    } catch (error) {
      // two writes of one row at the same instant: the other kept its version; the write itself stands
      app.log.warn({ err: error, table, id }, 'data log version not recorded');
    }
  }

  async function log(ctx: CrudContext, operateType: number, key: MessageKey, params: Record<string, string | number>, started: number) {
    // the entry belongs to the tenant worked in, so that tenant's administrators read what was done to its rows
    const content = { key, params: { entity: entity.title, ...params } };
    await writeOperationLog(app, { operateType, userId: ctx.caller.id, username: ctx.caller.username, tenantId: ctx.caller.tenantScope ?? ctx.caller.tenantId, ip: ctx.request.ip, content, costMs: performance.now() - started });
  }

  /**
   * Refuses a value a unique field already holds (within the caller's tenant for tenant-scoped entities). `pending`
   * holds the values of rows an import checked but has not stored yet, so two rows of one file cannot share one.
   */
  async function checkUnique(lang: Language, values: Row, tenantId: string | null, exceptId: string | null, merged: Row, pending?: Map<string, Set<string>>) {
    const pendingKeys: Array<[string, string]> = [];
    for (const unique of entity.unique ?? []) {
      const value = values[unique.field];
      if (value === null || value === undefined || value === '') continue;
      const info = readableFields(entity).get(unique.field);
      if (!info) continue;
      // deleted rows count too: they can be restored, and the database keeps their values unique
      let query = db.selectFrom(table).select(entity.softDelete ? ['id', 'del_flag'] : ['id']).where(info.column, '=', value);
      for (const other of unique.within ?? []) {
        const otherInfo = readableFields(entity).get(other);
        if (!otherInfo) continue;
        // an empty group (a root row's missing parent) is NULL, which `=` never matches
        const group = merged[other];
        query = group === null || group === undefined || group === '' ? query.where(otherInfo.column, 'is', null) : query.where(otherInfo.column, '=', group);
      }
      if (entity.tenantScoped && !unique.global) query = tenantId === null ? query.where('tenant_id', 'is', null) : query.where('tenant_id', '=', tenantId);
      if (exceptId) query = query.where('id', '<>', exceptId);
      const holder = await query.executeTakeFirst();
      const groups = unique.within ?? [];
      const top = groups.length > 0 && groups.every((other) => merged[other] === null || merged[other] === undefined || merged[other] === '');
      const message = top && unique.topMessage ? unique.topMessage : unique.message;
      if (holder && entity.softDelete && Number(holder.del_flag) === 1) refuse('crud.duplicateInRecycleBin', { message: translate(lang, message) });
      if (holder) refuse(message);
      if (pending) {
        const scope = entity.tenantScoped && !unique.global ? String(tenantId) : '';
        const key = JSON.stringify([scope, ...(unique.within ?? []).map((other) => merged[other] ?? null), String(value)]);
        if (pending.get(unique.field)?.has(key)) refuse(message);
        pendingKeys.push([unique.field, key]);
      }
    }
    for (const [field, key] of pendingKeys) {
      const held = pending?.get(field) ?? new Set<string>();
      held.add(key);
      pending?.set(field, held);
    }
  }

  async function checkParent(caller: CurrentUser, values: Row, selfId: string | null) {
    if (!entity.tree) return;
    const parentId = values[entity.tree.parentField];
    if (parentId === null || parentId === undefined || parentId === '' || parentId === '0') {
      if (parentId !== undefined) values[entity.tree.parentField] = null;
      return;
    }
    const parentColumn = readableFields(entity).get(entity.tree.parentField)?.column as string;
    let cursor: string | null = String(parentId);
    for (let depth = 0; cursor && depth < 100; depth++) {
      if (cursor === selfId) throw new AppError('badRequest', 'validation.parentSelf');
      const parent: Row | undefined = await registered.findById(caller, cursor);
      if (!parent) throw new AppError('badRequest', 'validation.parentMissing');
      cursor = parent[parentColumn] ?? null;
    }
  }

  /** A new row checked and ready to store: its id, its field values and every column of its INSERT. */
  interface PreparedRow {
    id: string;
    values: Row;
    columns: Row;
  }

  /** Validates one new row and runs the checks and hooks before its INSERT; the add route and every imported row go through here. */
  async function prepareRow(ctx: CrudContext, input: Row, pending?: Map<string, Set<string>>): Promise<PreparedRow> {
    const validated = validateInput(entity, input, 'add', ctx.lang, app.settings.timeZone);
    if (!validated.ok) throw new AppError('badRequest', 'error.validation', { message: validated.message });
    const values = validated.values;
    await checkAdminOnlyFields(app, entity, ctx.caller, values);
    // a system administrator may place the row in another tenant; anyone else writes into the tenant worked in
    const tenantId = entity.tenantScoped ? ((values.tenantId as string | undefined) || writeTenant(ctx.caller)) : null;
    await checkParent(ctx.caller, values, null);
    await checkUnique(ctx.lang, values, tenantId, null, values, pending);
    await checkReferences(app, ctx.caller, ctx.lang, entity, values, { tenantId });
    checkOfferedValues(entity, ctx.lang, values);
    await hooks.beforeAdd?.(ctx, values);
    const id = randomUUID();
    const columns = {
      ...(await hooks.columnsOnAdd?.(ctx, values)),
      ...toColumns(entity, values),
      id,
      ...(entity.tenantScoped ? { tenant_id: tenantId } : {}),
      ...(entity.softDelete ? { del_flag: 0 } : {}),
      create_by: ctx.caller.username,
      create_time: nowIso(app),
      update_by: null,
      update_time: null,
    };
    return { id, values, columns };
  }

  /** Multi-row INSERTs of `rows` into `into`, grouped by their column set (not every engine takes DEFAULT in a row). */
  async function insertMany(trx: AnyDb, into: string, rows: Row[]) {
    const groups = new Map<string, Row[]>();
    for (const row of rows) {
      const key = Object.keys(row).sort().join(',');
      const group = groups.get(key);
      if (group) group.push(row);
      else groups.set(key, [row]);
    }
    for (const group of groups.values()) {
      for (let i = 0; i < group.length; i += INSERT_CHUNK) await trx.insertInto(into).values(group.slice(i, i + INSERT_CHUNK)).execute();
    }
  }

  /**
   * Stores checked rows with their links inside `trx`; each row's first data-log version too when no `afterAdd`
   * hook changes it afterwards (then `recordVersion` follows the hook, as for an edit).
   */
  async function storeRows(ctx: CrudContext, trx: AnyDb, rows: PreparedRow[]) {
    await insertMany(trx, table, rows.map((r) => r.columns));
    const linkRows = new Map<string, Row[]>();
    for (const { name, link } of links) {
      for (const row of rows) {
        for (const targetId of linkIds(row.values[name])) {
          const list = linkRows.get(link.table) ?? [];
          list.push({ id: randomUUID(), [link.ownerColumn]: row.id, [link.targetColumn]: targetId, create_by: ctx.caller.username, create_time: nowIso(app), update_by: null, update_time: null });
          linkRows.set(link.table, list);
        }
      }
    }
    for (const [linkTable, list] of linkRows) await insertMany(trx, linkTable, list);
    if (!actions.has('edit') || hooks.afterAdd) return;
    const stored: Row[] = [];
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      stored.push(...(await trx.selectFrom(table).selectAll().where('id', 'in', rows.slice(i, i + INSERT_CHUNK).map((r) => r.id)).execute()));
    }
    await insertMany(
      trx,
      'sys_data_log',
      stored.map((row) => ({
        id: randomUUID(),
        data_table: table,
        data_id: row.id,
        data_content: JSON.stringify(toApiRow(entity, row)),
        data_version: 1,
        tenant_id: entity.tenantScoped ? (row.tenant_id ?? null) : ctx.caller.tenantId,
        create_by: ctx.caller.username,
        create_time: nowIso(app),
        update_by: null,
        update_time: null,
      })),
    );
  }

  /** After rows are stored: the `afterAdd` hook, then the version it leaves. */
  async function afterStored(ctx: CrudContext, rows: PreparedRow[]) {
    if (!hooks.afterAdd) return;
    for (const row of rows) {
      await hooks.afterAdd(ctx, row.id, row.values);
      await recordVersion(ctx, row.id);
    }
  }

  /** Validates and inserts one row (the add route). */
  async function addRow(ctx: CrudContext, input: Row): Promise<string> {
    const prepared = await prepareRow(ctx, input);
    await db.transaction().execute((trx) => storeRows(ctx, trx, [prepared]));
    await afterStored(ctx, [prepared]);
    return prepared.id;
  }

  /**
   * An import job's work: rows are checked one by one (a refused row is reported with its reason) and stored a
   * batch at a time, each batch one transaction; when a batch cannot be stored whole (a row taken meanwhile by
   * another caller), its rows are stored one by one. Stops before the next row once cancelled.
   */
  async function importRows(ctx: CrudContext, run: ImportJobRun, rows: AsyncIterable<SheetRow>, initial: Row, progress: () => Promise<void>) {
    const pending = new Map<string, Set<string>>();
    const report = run.report;
    let batch: Array<{ row: number; cells: Record<string, unknown>; prepared?: PreparedRow; message?: string }> = [];
    let seen = 0;
    const flush = async () => {
      const ready = batch.filter((b) => b.prepared);
      const storedOne = new Set<number>();
      try {
        await db.transaction().execute((trx) => storeRows(ctx, trx, ready.map((b) => b.prepared as PreparedRow)));
        for (const b of ready) storedOne.add(b.row);
      } catch (error) {
        app.log.warn({ err: error, table }, 'import batch stored row by row');
        for (const b of ready) {
          try {
            await db.transaction().execute((trx) => storeRows(ctx, trx, [b.prepared as PreparedRow]));
            storedOne.add(b.row);
          } catch {
            b.message = translate(ctx.lang, 'crud.importRowNotStored');
          }
        }
      }
      await afterStored(ctx, ready.filter((b) => storedOne.has(b.row)).map((b) => b.prepared as PreparedRow));
      for (const b of batch) {
        if (b.prepared && storedOne.has(b.row)) {
          report.rows.push({ row: b.row, success: true, id: b.prepared.id });
          report.added++;
        } else {
          report.rows.push({ row: b.row, success: false, message: b.message ?? '' });
          run.refusedCells.set(b.row, b.cells);
          report.failed++;
        }
      }
      batch = [];
      await progress();
      await new Promise((resolve) => setImmediate(resolve));
    };
    for await (const { row, values } of rows) {
      if (run.cancelRequested) break;
      seen++;
      // as read, for the refused rows' spreadsheet (the checks below fill and translate the values in place)
      const cells = { ...values };
      try {
        for (const [name, value] of Object.entries(initial)) if (values[name] === undefined || values[name] === null || values[name] === '') values[name] = value;
        await linkIdsOfLabels(ctx, values);
        batch.push({ row, cells, prepared: await prepareRow(ctx, values, pending) });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        batch.push({ row, cells, message: translate(ctx.lang, error.key, error.params) });
      }
      if (batch.length >= IMPORT_BATCH) await flush();
      else if (seen % IMPORT_ROWS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    // a cancelled job drops the rows checked but not yet stored: they were not imported
    if (!run.cancelRequested) {
      await flush();
      report.total = seen;
    }
  }

  /**
   * The initial values of write-only fields sent with an import (form fields before the file), validated like the
   * form; an invalid one refuses the whole import before any row is read.
   */
  function initialValues(ctx: CrudContext, parts: Record<string, unknown>): Row {
    const given: Row = {};
    for (const name of importInitialFields(entity)) {
      const part = parts[name] as { type?: string; value?: unknown } | undefined;
      if (part?.type === 'field' && typeof part.value === 'string' && part.value !== '') given[name] = part.value;
    }
    const validated = validateInput(entity, given, 'edit', ctx.lang, app.settings.timeZone);
    if (!validated.ok) throw new AppError('badRequest', 'error.validation', { message: validated.message });
    return given;
  }

  async function deleteRows(ctx: CrudContext, ids: string[]): Promise<number> {
    const rows = await registered.scoped(ctx.caller).where('id', 'in', ids).execute();
    if (rows.length === 0) throw new AppError('notFound', 'crud.notFound');
    const found = rows.map((r) => r.id as string);
    if (entity.tree) {
      const parentColumn = readableFields(entity).get(entity.tree.parentField)?.column as string;
      const child = await registered.scoped(ctx.caller).select('id').where(parentColumn, 'in', found).where('id', 'not in', found).executeTakeFirst();
      if (child) refuse('crud.hasChildren');
    }
    await hooks.beforeDelete?.(ctx, rows, !entity.softDelete);
    await db.transaction().execute(async (trx) => {
      if (entity.softDelete) {
        await applyScope(entity, ctx.caller, trx.updateTable(table).set({ del_flag: 1, update_by: ctx.caller.username, update_time: nowIso(app) }) as UpdateQueryBuilder<Row, string, string, Row>)
          .where('id', 'in', found)
          .execute();
      } else {
        await applyScope(entity, ctx.caller, trx.deleteFrom(table) as DeleteQueryBuilder<Row, string, Row>).where('id', 'in', found).execute();
        await removeLinks(trx, found);
      }
      await hooks.deleteLinked?.(trx as unknown as Kysely<Database>, found, !entity.softDelete);
    });
    await hooks.afterChange?.(ctx);
    return found.length;
  }

  const searched = app.dialect === 'sqlite' ? new Set(searchColumns().get(table) ?? []) : new Set<string>();
  const searchTable = searchTableOf(table);
  const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
  /** How many rows (up to one more than the index may narrow to) the search index names for a phrase in a column. */
  const candidatesSql = (column: string) =>
    `select count(*) as "n" from (select rowid from ${quoted(searchTable)} where ${quoted(column)} match ? limit ${NARROW_ROWS + 1}) as "candidates"`;

  /**
   * The search index lookups that narrow a list's contains filters to a few rows (db/search-index.ts), when the
   * index names few enough of them: a text most rows contain is found sooner by reading the rows in the page's order.
   */
  async function narrowings(query: Query): Promise<Array<{ column: string; phrase: string }>> {
    const found: Array<{ column: string; phrase: string }> = [];
    for (const { column, text } of likeTexts(entity, query)) {
      if (!searched.has(column) || [...text].length < SEARCH_MIN_CHARS) continue;
      const phrase = searchPhrase(text);
      // written once per column, not compiled per request: it is asked before every page of a contains filter
      const counting = CompiledQuery.raw(candidatesSql(column), [phrase]);
      const candidates = await app.listCache.read(counting, async () => (await db.executeQuery<{ n: number | string }>(counting)).rows[0]);
      if (Number(candidates?.n ?? 0) <= NARROW_ROWS) found.push({ column, phrase });
    }
    return found;
  }

  /** The rows a list or export reads: tenant and deletion scope, the caller's data rules, then the query's filters. */
  const listRows = async (caller: CurrentUser, query: Query, deleted = false) => {
    const conditions = listConditions(entity, query, app.settings.timeZone);
    const rules = ruleConditions(await activeDataRules(app, entity, caller));
    const narrowing = searched.size > 0 ? await narrowings(query) : [];
    if (narrowing.length === 0) return registered.scoped(caller, { deleted }).where((eb) => eb.and([...rules(eb), ...conditions(eb)]));
    // read by rowid from the index's few rows, not along a scope index through every row of the tenant
    const from = db.selectFrom(sql`${sql.table(table)} not indexed` as unknown as string).selectAll();
    return applyScope(entity, caller, from, deleted).where((eb) =>
      eb.and([
        ...narrowing.map(({ column, phrase }) => eb(sql.raw('rowid'), 'in', eb.selectFrom(searchTable).select(sql.raw('rowid').as('r')).where(sql.ref(column), 'match', phrase))),
        ...rules(eb),
        ...conditions(eb),
      ]),
    );
  };

  async function page(caller: CurrentUser, lang: Language, query: Query, deleted = false): Promise<Page<Row>> {
    const { pageNo, pageSize } = pagingOf(query);
    const sort = sortOf(entity, query);
    // the same count and the same page are read once until a table they read is written (platform/crud/list-cache.ts)
    const rowsRead = await listRows(caller, query, deleted);
    const counting = rowsRead.clearSelect().select((eb) => eb.fn.countAll().as('n'));
    const countRow = await app.listCache.read(counting.compile(), () => counting.executeTakeFirst());
    const total = Number(countRow?.n ?? 0);
    // ties broken by the id in the sort's own direction: the declared index (scope, sort field, id) then serves the page in order
    const paging = rowsRead
      .orderBy(sort.column, sort.order)
      .orderBy('id', sort.order)
      .limit(pageSize)
      .offset((pageNo - 1) * pageSize);
    const rows = await app.listCache.read(paging.compile(), () => paging.execute());
    return { records: await withDictText(rows, lang, caller), total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) };
  }

  app.register(async (routes) => {
    routes.get(crudPath(entity, 'list'), { schema: { tags, summary: `List ${entity.name}` }, config: { permission: perm('list') } }, async (request, reply) =>
      reply.ok(await page(callerOf(request), request.lang, request.query as Query)),
    );

    routes.get(crudPath(entity, 'queryById'), { schema: { tags, summary: `One ${entity.name}` }, config: { permission: perm('list') } }, async (request, reply) => {
      const row = await (await listRows(callerOf(request), {})).where('id', '=', requireId((request.query as Query).id)).executeTakeFirst();
      if (!row) throw new AppError('notFound', 'crud.notFound');
      const caller = callerOf(request);
      return reply.ok((await withDictText([row], request.lang, caller, caller.permissions.has(perm('edit'))))[0]);
    });

    if (entity.tree) {
      const tree = entity.tree;
      routes.get(treePath(entity), { schema: { tags, summary: `${entity.name} as a tree` }, config: { permission: perm('list') } }, async (request, reply) => {
        const sort = sortOf(entity, {});
        const rows = await withDictText(await registered.scoped(callerOf(request)).orderBy(sort.column, sort.order).orderBy('id').limit(10_000).execute(), request.lang, callerOf(request));
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

    // the form's pickers: for those who may add or edit a row, whatever they may read of the linked lists
    const writers = (['add', 'edit'] as const).filter((action) => actions.has(action)).map(perm);
    if (writers.length > 0) linkOptionsRoute(app, routes, entity, writers, (linked) => app.crudEntities.get(linked));

    if (actions.has('add')) {
      routes.post(crudPath(entity, 'add'), { schema: { tags, summary: `Add ${entity.name}` }, config: { permission: perm('add') } }, async (request, reply) => {
        const started = performance.now();
        const ctx = contextOf(request);
        const id = await addRow(ctx, (request.body ?? {}) as Row);
        await hooks.afterChange?.(ctx);
        await log(ctx, OperationType.add, 'log.added', { id }, started);
        return reply.ok({ id }, 'crud.added');
      });
    }

    if (actions.has('edit')) {
      routes.put(crudPath(entity, 'edit'), { schema: { tags, summary: `Edit ${entity.name}` }, config: { permission: perm('edit') } }, async (request, reply) => {
        const started = performance.now();
        const ctx = contextOf(request);
        const body = (request.body ?? {}) as Row;
        const id = requireId(body.id);
        const existing = await registered.findById(ctx.caller, id);
        if (!existing) throw new AppError('notFound', 'crud.notFound');
        const validated = validateInput(entity, body, 'edit', ctx.lang, app.settings.timeZone);
        if (!validated.ok) throw new AppError('badRequest', 'error.validation', { message: validated.message });
        const values = validated.values;
        const keptSeeded = new Set(await unchangedSeededColumns(app, entity.name, existing, toColumns(entity, values)));
        for (const name of Object.keys(values)) if (keptSeeded.has(readableFields(entity).get(name)?.column ?? '')) delete values[name];
        await checkAdminOnlyFields(app, entity, ctx.caller, values);
        await checkParent(ctx.caller, values, id);
        // the tenant the row will be in: the one the values move it to, else its own (read again after the hooks)
        const tenantAfter = () => (entity.tenantScoped ? (values.tenantId as string | undefined) || (existing.tenant_id ?? null) : null);
        const merged = { ...toApiRow(entity, existing), ...values };
        await checkUnique(ctx.lang, values, tenantAfter(), id, merged);
        // a row moved to another tenant must name only rows of that tenant: every reference it holds is checked again
        const movesTenant = entity.tenantScoped && tenantAfter() !== (existing.tenant_id ?? null);
        await checkReferences(app, ctx.caller, ctx.lang, entity, movesTenant ? merged : values, { tenantId: tenantAfter(), stored: movesTenant ? undefined : toApiRow(entity, existing) });
        checkOfferedValues(entity, ctx.lang, values);
        await hooks.beforeEdit?.(ctx, values, existing);
        // a row moved into another group keeps its unique value and must not meet its twin there (a door number on
        // another device, an area name under another parent); checked after the hooks, which decide whether it may move
        const moved = (entity.unique ?? []).filter((u) => !Object.hasOwn(values, u.field) && (u.within ?? []).some((other) => Object.hasOwn(values, other)));
        if (moved.length > 0) {
          const after = { ...toApiRow(entity, existing), ...values };
          const kept = Object.fromEntries(moved.map((u) => [u.field, after[u.field]]));
          await checkUnique(ctx.lang, kept, tenantAfter(), id, after);
        }
        await db.transaction().execute(async (trx) => {
          await applyScope(entity, ctx.caller, trx.updateTable(table).set({ ...toColumns(entity, values), update_by: ctx.caller.username, update_time: nowIso(app) }) as UpdateQueryBuilder<Row, string, string, Row>)
            .where('id', '=', id)
            .execute();
          await writeLinks(trx, id, values, ctx.caller.username);
        });
        await hooks.afterEdit?.(ctx, id, values);
        await recordVersion(ctx, id);
        await hooks.afterChange?.(ctx);
        await log(ctx, OperationType.edit, 'log.edited', { id }, started);
        return reply.ok({ id }, 'crud.edited');
      });
    }

    if (actions.has('delete')) {
      routes.delete(crudPath(entity, 'delete'), { schema: { tags, summary: `Delete one ${entity.name}` }, config: { permission: perm('delete') } }, async (request, reply) => {
        const started = performance.now();
        const ctx = contextOf(request);
        const id = requireId((request.query as Query).id);
        await deleteRows(ctx, [id]);
        await log(ctx, OperationType.delete, 'log.deleted', { ids: id }, started);
        return reply.ok(null, 'crud.deleted');
      });
      routes.delete(crudPath(entity, 'deleteBatch'), { schema: { tags, summary: `Delete several ${entity.name}` }, config: { permission: perm('delete') } }, async (request, reply) => {
        const started = performance.now();
        const ctx = contextOf(request);
        const ids = requireIds((request.query as Query).ids);
        const count = await deleteRows(ctx, ids);
        await log(ctx, OperationType.delete, 'log.deleted', { ids: ids.join(',') }, started);
        return reply.ok({ count }, 'crud.deleted');
      });
    }

    if (actions.has('recycleBin') && entity.softDelete?.recycleBin) {
      routes.get(crudPath(entity, 'recycleBin'), { schema: { tags, summary: `Deleted ${entity.name}` }, config: { permission: perm('recycleBin') } }, async (request, reply) =>
        reply.ok(await page(callerOf(request), request.lang, request.query as Query, true)),
      );
      routes.put(crudPath(entity, 'putRecycleBin'), { schema: { tags, summary: `Restore ${entity.name}` }, config: { permission: perm('recycleBin') } }, async (request, reply) => {
        const started = performance.now();
        const ctx = contextOf(request);
        // `userIds`: the origin console's users recycle bin names them so
        const body = request.body as Row | undefined;
        const ids = requireIds(body?.ids ?? body?.userIds);
        if (hooks.beforeRestore) await hooks.beforeRestore(ctx, await registered.scoped(ctx.caller, { deleted: true }).where('id', 'in', ids).execute());
        await applyScope(entity, ctx.caller, db.updateTable(table).set({ del_flag: 0, update_by: ctx.caller.username, update_time: nowIso(app) }) as UpdateQueryBuilder<Row, string, string, Row>, true)
          .where('id', 'in', ids)
          .execute();
        await hooks.afterChange?.(ctx);
        await log(ctx, OperationType.edit, 'log.restored', { ids: ids.join(',') }, started);
        return reply.ok(null, 'crud.restored');
      });
      routes.delete(crudPath(entity, 'deleteRecycleBin'), { schema: { tags, summary: `Delete ${entity.name} completely` }, config: { permission: perm('recycleBin') } }, async (request, reply) => {
        const started = performance.now();
        const ctx = contextOf(request);
        const query = request.query as Query;
        const ids = requireIds(query.ids ?? query.userIds);
        const rows = await registered.scoped(ctx.caller, { deleted: true }).where('id', 'in', ids).execute();
        // none of them in the caller's recycle bin: hooks never run on an empty selection (an empty IN fails on PostgreSQL)
        if (rows.length === 0) throw new AppError('notFound', 'crud.notFound');
        await hooks.beforeDelete?.(ctx, rows, true);
        const gone = rows.map((r) => r.id as string);
        if (gone.length > 0) {
          await db.transaction().execute(async (trx) => {
            await applyScope(entity, ctx.caller, trx.deleteFrom(table) as DeleteQueryBuilder<Row, string, Row>, true).where('id', 'in', gone).execute();
            await removeLinks(trx, gone);
            await hooks.deleteLinked?.(trx as unknown as Kysely<Database>, gone, true);
          });
        }
        await log(ctx, OperationType.delete, 'log.deletedCompletely', { ids: ids.join(',') }, started);
        return reply.ok(null, 'crud.deleted');
      });
    }

    if (actions.has('export')) {
      routes.get(crudPath(entity, 'exportXls'), { schema: { tags, summary: `Export ${entity.name} as xlsx` }, config: { permission: perm('export') } }, async (request, reply) => {
        const started = performance.now();
        const ctx = contextOf(request);
        const sort = sortOf(entity, request.query as Query);
        const ordered = (await listRows(ctx.caller, request.query as Query)).orderBy(sort.column, sort.order).orderBy('id', sort.order);
        // rows are read and written a page at a time: memory stays flat and other requests keep their turn
        const pageOf = (offset: number) => ordered.limit(EXPORT_PAGE).offset(offset).execute();
        const first = await pageOf(0);
        async function* pages() {
          let rows = first;
          for (let offset = 0; rows.length > 0; ) {
            // a spreadsheet shows times as the wire does: `yyyy-MM-dd HH:mm:ss` in TIME_ZONE
            // an export is imported back: whole ID numbers for those who may edit, as the detail shows them
            yield toWire(await withDictText(rows, ctx.lang, ctx.caller, ctx.caller.permissions.has(perm('edit'))), app.settings.timeZone);
            offset += rows.length;
            if (rows.length < EXPORT_PAGE || offset >= MAX_EXPORT_ROWS) return;
            rows = await pageOf(offset);
          }
        }
        // the answer ends only once the export's log entry is stored, so a read of the log that follows finds it
        let logged = () => {};
        const entryStored = new Promise<void>((resolve) => (logged = resolve));
        const sheet = new PassThrough();
        const out = new PassThrough({ flush: (done) => void entryStored.then(() => done()) });
        // a reader gone early ends the sheet too, which ends the export
        pipeline(sheet, out, () => {});
        streamWorkbook(entity, pages(), ctx.lang, sheet)
          .then((count) => log(ctx, OperationType.export, 'log.exported', { count }, started))
          .then(() => logged())
          .catch((error: unknown) => {
            request.log.error({ err: error }, 'export failed while streaming');
            out.destroy(error as Error);
          });
        return reply
          .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
          .header('content-disposition', `attachment; filename="${entity.name}.xlsx"`)
          .send(out);
      });
    }

    if (actions.has('import')) {
      const jobs = importJobsOf(app);
      uploadRoutes(routes, (uploads) => {
        uploads.post(crudPath(entity, 'importExcel'), { schema: { tags, summary: `Import ${entity.name} from xlsx as a background job` }, config: { permission: perm('import') } }, async (request, reply) => {
          const started = performance.now();
          const ctx = contextOf(request);
          const file = request.isMultipart() ? await request.file() : undefined;
          if (!file) refuse('crud.importNoFile');
          const initial = initialValues(ctx, file.fields);
          // the bounds, the header and the first row are checked here; the rows are read and stored by the job
          const workbook = await openWorkbook(entity, await file.toBuffer(), await importDictionaryOptions(app, ctx.lang), request.log);
          const run = await jobs.start(ctx.caller, entity.name, workbook.rowsAtMost, async (job, progress) => {
            try {
              await importRows(ctx, job, workbook.rows, initial, progress);
            } finally {
              const { added, failed } = job.report;
              if (added > 0) await hooks.afterChange?.(ctx);
              await log(ctx, OperationType.import, 'log.imported', { added, failed }, started);
            }
          });
          // `success` and `message` as the origin's clients read them; `result` is the job to follow
          const job: ImportJob = { jobId: run.id, state: run.state, done: 0, message: translate(ctx.lang, 'crud.importRunning', { total: run.report.total, done: 0, added: 0, failed: 0 }), ...run.report, rows: [] };
          return { ...reply.ok(job), message: translate(ctx.lang, 'crud.importStarted', { total: workbook.rowsAtMost }) };
        });
      });

      routes.get(importJobPath(entity, 'status'), { schema: { tags, summary: `An import of ${entity.name}: progress and result` }, config: { permission: perm('import') } }, async (request, reply) => {
        const stored = await jobs.find(callerOf(request), entity.name, (request.query as Query).jobId);
        const job = await jobs.view(stored, request.lang);
        return { ...reply.ok(job), message: job.message };
      });

      routes.get(importJobPath(entity, 'refused'), { schema: { tags, summary: `The refused rows of an import of ${entity.name} as xlsx, with the reason of each` }, config: { permission: perm('import') } }, async (request, reply) => {
        const stored = await jobs.find(callerOf(request), entity.name, (request.query as Query).jobId);
        const workbook = await refusedRowsWorkbook(entity, await jobs.refusedRows(stored.id), request.lang);
        return reply
          .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
          .header('content-disposition', `attachment; filename="${entity.name}-refused.xlsx"`)
          .send(workbook);
      });

      routes.put(importJobPath(entity, 'cancel'), { schema: { tags, summary: `Cancel an import of ${entity.name}` }, config: { permission: perm('import') } }, async (request, reply) => {
        const caller = callerOf(request);
        const stored = await jobs.find(caller, entity.name, (request.body as Row | undefined)?.jobId);
        await jobs.cancel(stored);
        const job = await jobs.view(await jobs.find(caller, entity.name, stored.id), request.lang);
        return { ...reply.ok(job), message: job.message };
      });
    }

    await hooks.routes?.(routes, registered);
  });
  return registered;
}
