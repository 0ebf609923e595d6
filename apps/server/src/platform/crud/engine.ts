import { randomUUID } from 'node:crypto';
import { PassThrough, pipeline } from 'node:stream';
import {
  crudPath,
  entityActions,
  entityDeclarations,
  entityLabel,
  ID_PATTERN,
  importInitialFields,
  permissionCode,
  seededTextColumns,
  splitIds,
  translate,
  treePath,
  type EntityDeclaration,
  type ImportReport,
  type Language,
  type MessageKey,
  type Page,
  type TreeRow,
} from '@isps/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely, SelectQueryBuilder, UpdateQueryBuilder, DeleteQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { callerOf, type CurrentUser } from '../access.ts';
import { OperationType, writeOperationLog } from '../audit-log.ts';
import { allDictionaryOptions, importDictionaryOptions } from '../dictionaries.ts';
import { AppError, refuse } from '../envelope.ts';
import { showSeededRows, unchangedSeededColumns } from '../seeded-texts.ts';
import { checkAdminOnlyFields, tenantScoped, writeTenant } from '../tenancy.ts';
import { activeDataRules, ruleConditions } from './data-rules.ts';
import { readWorkbook, streamWorkbook } from './excel.ts';
import { listConditions, pagingOf, sortOf, type Query } from './query.ts';
import { linkFields, linkIds, readableFields, toApiRow, toColumns, validateInput } from './values.ts';
import { checkOfferedValues } from './offered-options.ts';
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
}

/** Custom behaviour beside a declaration. `values` are validated field values by field name; hooks may change them. */
export interface EntityHooks {
  beforeAdd?(ctx: CrudContext, values: Row): Promise<void> | void;
  /** columns of the new row that are no declared field (server-side flags), stored with it */
  columnsOnAdd?(ctx: CrudContext, values: Row): Row;
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
}

declare module 'fastify' {
  interface FastifyInstance {
    /** entities registered with the CRUD engine, by table (duplicate check, tests) */
    crudEntities: Map<string, RegisteredEntity>;
  }
}


/** The table of a declared entity by its name (link targets name entities). */
function tableOfEntity(name: string): string {
  return entityDeclarations.find((e) => e.name === name)?.table ?? name;
}
const MAX_BATCH = 1000;
const EXPORT_PAGE = 200;
const MAX_EXPORT_ROWS = 50_000;

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
  const table = entity.table;
  const actions = new Set(entityActions(entity));
  const perm = (action: string) => permissionCode(entity, action);
  const tags = [entity.name];

  const registered: RegisteredEntity = {
    declaration: entity,
    hooks,
    scoped: (caller, options = {}) => applyScope(entity, caller, db.selectFrom(table).selectAll(), options.deleted),
    findById: (caller, id) => registered.scoped(caller).where('id', '=', id).executeTakeFirst(),
  };
  app.crudEntities.set(table, registered);

  const contextOf = (request: FastifyRequest): CrudContext => ({ app, caller: callerOf(request), lang: request.lang, request });

  const links = linkFields(entity);
  // the link fields of other declarations that point at this entity's rows (a device role's doors, people, ...)
  const inboundLinks = entityDeclarations.flatMap((other) => linkFields(other).map(({ link }) => link)).filter((link) => link.entity === entity.name);

  /** Refuses linked ids the caller could not pick (another tenant's, deleted or unknown rows). */
  async function checkLinks(ctx: CrudContext, values: Row) {
    for (const { name, link } of links) {
      const targets = linkIds(values[name]);
      const target = app.crudEntities.get(tableOfEntity(link.entity));
      if (targets.length === 0 || !target) continue;
      const known = await target.scoped(ctx.caller).clearSelect().select('id').where('id', 'in', targets).execute();
      if (known.length !== targets.length) throw new AppError('badRequest', 'validation.invalid', { field: entityLabel(ctx.lang, entity.fields[name]?.label ?? name) });
    }
  }

  /**
   * An imported link cell names its rows the way the export shows them (labels joined by commas) or by id: each
   * name the caller can see becomes its id; an unknown one stays and is refused by `checkLinks`.
   */
  async function linkIdsOfLabels(ctx: CrudContext, values: Row) {
    for (const { name, link } of links) {
      const cell = values[name];
      const target = app.crudEntities.get(tableOfEntity(link.entity));
      if (typeof cell !== 'string' || cell === '' || !target) continue;
      const labelColumn = readableFields(target.declaration).get(target.declaration.labelField)?.column ?? 'id';
      const tokens = cell.split(/\s*[,，、]\s*/).filter(Boolean);
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
  async function shownLabels(targetTable: string, labelColumn: string, ids: string[], lang: Language): Promise<Map<string, unknown>> {
    if (ids.length === 0 || seededTextColumns(targetTable).length === 0) return new Map();
    const rows = await db.selectFrom(targetTable).selectAll().where('id', 'in', ids).execute();
    return new Map((await showSeededRows(app, targetTable, rows as Row[], lang)).map((r) => [r.id as string, r[labelColumn]]));
  }

  /** Fills link fields: the linked ids joined by commas and `<field>_dictText` with their labels in `lang`. */
  async function withLinks(api: Row[], lang: Language): Promise<void> {
    if (links.length === 0 || api.length === 0) return;
    const ids = api.map((r) => r.id as string);
    for (const { name, link } of links) {
      const target = app.crudEntities.get(tableOfEntity(link.entity));
      const labelColumn = target ? (readableFields(target.declaration).get(target.declaration.labelField)?.column ?? 'id') : 'id';
      const pairs = await db
        .selectFrom(`${link.table} as l`)
        .leftJoin(`${target?.declaration.table ?? link.table} as t`, 't.id', `l.${link.targetColumn}`)
        .select([`l.${link.ownerColumn} as owner`, `l.${link.targetColumn} as target`, `t.${labelColumn} as label`])
        .where(`l.${link.ownerColumn}`, 'in', ids)
        .orderBy(`t.${labelColumn}`)
        .execute();
      const shown = target ? await shownLabels(target.declaration.table, labelColumn, [...new Set(pairs.map((p) => p.target as string))], lang) : new Map<string, unknown>();
      for (const row of api) {
        const mine = pairs.filter((p) => p.owner === row.id);
        row[name] = mine.map((p) => p.target).join(',');
        row[`${name}_dictText`] = mine.map((p) => shown.get(p.target as string) ?? p.label ?? p.target).join(', ');
      }
    }
  }

  async function withDictText(rows: Row[], lang: Language): Promise<Row[]> {
    const dictFields = [...readableFields(entity).values()].filter((f) => f.dict);
    const api = (await showSeededRows(app, table, rows, lang)).map((r) => toApiRow(entity, r));
    await withLinks(api, lang);
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

  /** Refuses a value a unique field already holds (within the caller's tenant for tenant-scoped entities). */
  async function checkUnique(lang: Language, values: Row, tenantId: string | null, exceptId: string | null, merged: Row) {
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
      if (holder && entity.softDelete && Number(holder.del_flag) === 1) refuse('crud.duplicateInRecycleBin', { message: translate(lang, unique.message) });
      if (holder) refuse(unique.message);
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

  /** Validates and inserts one row; the add route and every imported row go through here. */
  async function addRow(ctx: CrudContext, input: Row): Promise<string> {
    const validated = validateInput(entity, input, 'add', ctx.lang, app.settings.timeZone);
    if (!validated.ok) throw new AppError('badRequest', 'error.validation', { message: validated.message });
    const values = validated.values;
    await checkAdminOnlyFields(app, entity, ctx.caller, values);
    // a system administrator may place the row in another tenant; anyone else writes into the tenant worked in
    const tenantId = entity.tenantScoped ? ((values.tenantId as string | undefined) || writeTenant(ctx.caller)) : null;
    await checkParent(ctx.caller, values, null);
    await checkUnique(ctx.lang, values, tenantId, null, values);
    await checkLinks(ctx, values);
    checkOfferedValues(entity, ctx.lang, values);
    await hooks.beforeAdd?.(ctx, values);
    const id = randomUUID();
    await db.transaction().execute(async (trx) => {
      await trx
      .insertInto(table)
      .values({
        ...hooks.columnsOnAdd?.(ctx, values),
        ...toColumns(entity, values),
        id,
        ...(entity.tenantScoped ? { tenant_id: tenantId } : {}),
        ...(entity.softDelete ? { del_flag: 0 } : {}),
        create_by: ctx.caller.username,
        create_time: nowIso(app),
        update_by: null,
        update_time: null,
      })
      .execute();
      await writeLinks(trx, id, values, ctx.caller.username);
    });
    await hooks.afterAdd?.(ctx, id, values);
    await recordVersion(ctx, id);
    return id;
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

  /** The rows a list or export reads: tenant and deletion scope, the caller's data rules, then the query's filters. */
  const listRows = async (caller: CurrentUser, query: Query, deleted = false) => {
    const conditions = listConditions(entity, query, app.settings.timeZone);
    const rules = ruleConditions(await activeDataRules(app, entity, caller));
    return registered.scoped(caller, { deleted }).where((eb) => eb.and([...rules(eb), ...conditions(eb)]));
  };

  async function page(caller: CurrentUser, lang: Language, query: Query, deleted = false): Promise<Page<Row>> {
    const { pageNo, pageSize } = pagingOf(query);
    const sort = sortOf(entity, query);
    const countRow = await (await listRows(caller, query, deleted))
      .clearSelect()
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    const total = Number(countRow?.n ?? 0);
    const rows = await (await listRows(caller, query, deleted))
      .orderBy(sort.column, sort.order)
      .orderBy('id', 'asc')
      .limit(pageSize)
      .offset((pageNo - 1) * pageSize)
      .execute();
    return { records: await withDictText(rows, lang), total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) };
  }

  app.register(async (routes) => {
    routes.get(crudPath(entity, 'list'), { schema: { tags, summary: `List ${entity.name}` }, config: { permission: perm('list') } }, async (request, reply) =>
      reply.ok(await page(callerOf(request), request.lang, request.query as Query)),
    );

    routes.get(crudPath(entity, 'queryById'), { schema: { tags, summary: `One ${entity.name}` }, config: { permission: perm('list') } }, async (request, reply) => {
      const row = await (await listRows(callerOf(request), {})).where('id', '=', requireId((request.query as Query).id)).executeTakeFirst();
      if (!row) throw new AppError('notFound', 'crud.notFound');
      return reply.ok((await withDictText([row], request.lang))[0]);
    });

    if (entity.tree) {
      const tree = entity.tree;
      routes.get(treePath(entity), { schema: { tags, summary: `${entity.name} as a tree` }, config: { permission: perm('list') } }, async (request, reply) => {
        const sort = sortOf(entity, {});
        const rows = await withDictText(await registered.scoped(callerOf(request)).orderBy(sort.column, sort.order).orderBy('id').limit(10_000).execute(), request.lang);
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
        const keptSeeded = new Set(await unchangedSeededColumns(app, table, existing, toColumns(entity, values)));
        for (const name of Object.keys(values)) if (keptSeeded.has(readableFields(entity).get(name)?.column ?? '')) delete values[name];
        await checkAdminOnlyFields(app, entity, ctx.caller, values);
        await checkParent(ctx.caller, values, id);
        const merged = { ...toApiRow(entity, existing), ...values };
        await checkUnique(ctx.lang, values, entity.tenantScoped ? ((values.tenantId as string | undefined) || (existing.tenant_id ?? null)) : null, id, merged);
        await checkLinks(ctx, values);
        checkOfferedValues(entity, ctx.lang, values);
        await hooks.beforeEdit?.(ctx, values, existing);
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
        const ordered = (await listRows(ctx.caller, request.query as Query)).orderBy(sort.column, sort.order).orderBy('id');
        // rows are read and written a page at a time: memory stays flat and other requests keep their turn
        const pageOf = (offset: number) => ordered.limit(EXPORT_PAGE).offset(offset).execute();
        const first = await pageOf(0);
        async function* pages() {
          let rows = first;
          for (let offset = 0; rows.length > 0; ) {
            // a spreadsheet shows times as the wire does: `yyyy-MM-dd HH:mm:ss` in TIME_ZONE
            yield toWire(await withDictText(rows, ctx.lang), app.settings.timeZone);
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
      routes.post(crudPath(entity, 'importExcel'), { schema: { tags, summary: `Import ${entity.name} from xlsx` }, config: { permission: perm('import') } }, async (request, reply) => {
        const started = performance.now();
        const ctx = contextOf(request);
        const file = request.isMultipart() ? await request.file() : undefined;
        if (!file) refuse('crud.importNoFile');
        const initial = initialValues(ctx, file.fields);
        const sheet = await readWorkbook(entity, await file.toBuffer(), await importDictionaryOptions(app, ctx.lang));
        const report: ImportReport = { total: sheet.length, added: 0, failed: 0, rows: [] };
        for (const { row, values } of sheet) {
          try {
            for (const [name, value] of Object.entries(initial)) if (values[name] === undefined || values[name] === null || values[name] === '') values[name] = value;
            await linkIdsOfLabels(ctx, values);
            const id = await addRow(ctx, values);
            report.rows.push({ row, success: true, id });
            report.added++;
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            report.rows.push({ row, success: false, message: translate(ctx.lang, error.key, error.params) });
            report.failed++;
          }
        }
        if (report.added > 0) await hooks.afterChange?.(ctx);
        await log(ctx, OperationType.import, 'log.imported', { added: report.added, failed: report.failed }, started);
        return { ...reply.ok(report), message: translate(ctx.lang, 'crud.importDone', { added: report.added, failed: report.failed }) };
      });
    }

    await hooks.routes?.(routes, registered);
  });
  return registered;
}
