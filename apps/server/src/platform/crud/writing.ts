import { randomUUID } from 'node:crypto';
import { crudPath } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { DeleteQueryBuilder, Kysely, UpdateQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { CurrentUser } from '../access.ts';
import { OperationType } from '../audit-log.ts';
import { AppError, refuse } from '../envelope.ts';
import { unchangedSeededColumns } from '../seeded-texts.ts';
import { checkAdminOnlyFields, writeTenant } from '../tenancy.ts';
import { log, recordVersion, versionRow } from './audit.ts';
import { insertLines, removeLines, replaceLines, validateDetails, type DetailLines } from './details.ts';
import { linkRow, removeLinks, writeLinks } from './links.ts';
import { checkOfferedValues } from './offered-options.ts';
import type { Query } from './query.ts';
import { checkReferences } from './references.ts';
import { checkParent, checkUnique } from './row-checks.ts';
import { applyScope, contextOf, nowIso, requireId, requireIds, routeOptions, type AnyDb, type CrudContext, type EntityRuntime, type Row } from './runtime.ts';
import { rowsOf } from './tables.ts';
import { linkIds, readableFields, toApiRow, toColumns, validateInput } from './values.ts';

/** rows of one multi-row INSERT: far below the bound parameters every engine accepts */
const INSERT_CHUNK = 200;

/** A new row checked and ready to store: its id, its field values, every column of its INSERT and its lines. */
export interface PreparedRow {
  id: string;
  values: Row;
  columns: Row;
  lines?: DetailLines;
}

/** Validates one new row and runs the checks and hooks before its INSERT; the add route and every imported row go through here. */
export async function prepareRow(rt: EntityRuntime, ctx: CrudContext, input: Row, pending?: Map<string, Set<string>>): Promise<PreparedRow> {
  const { app, entity, hooks } = rt;
  const validated = validateInput(entity, input, 'add', ctx.lang, app.settings.timeZone);
  if (!validated.ok) throw new AppError('badRequest', 'error.validation', { message: validated.message });
  const values = validated.values;
  const lines = rt.details.length > 0 ? validateDetails(rt, input, 'add', ctx.lang) : undefined;
  await checkAdminOnlyFields(app, entity, ctx.caller, values);
  // a system administrator may place the row in another tenant; anyone else writes into the tenant worked in
  const tenantId = entity.tenantScoped ? ((values.tenantId as string | undefined) || writeTenant(ctx.caller)) : null;
  await checkParent(rt, ctx.caller, values, null);
  await checkUnique(rt, ctx.lang, values, tenantId, null, values, pending);
  await checkReferences(app, ctx.caller, ctx.lang, entity, values, { tenantId });
  checkOfferedValues(entity, ctx.lang, values);
  await hooks.beforeAdd?.(ctx, values);
  const id = randomUUID();
  const rows = rowsOf(entity);
  const columns = {
    // a row of a shared table is one of the entity's own (a field of the declaration may choose among its values)
    ...(rows ? { [rows.column]: rows.values[0] } : {}),
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
  return { id, values, columns, lines };
}

/** Multi-row INSERTs of `rows` into `into`, grouped by their column set (not every engine takes DEFAULT in a row). */
async function insertMany(trx: AnyDb, into: string, rows: Row[]): Promise<void> {
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
export async function storeRows(rt: EntityRuntime, ctx: CrudContext, trx: AnyDb, rows: PreparedRow[]): Promise<void> {
  const { table } = rt;
  await insertMany(trx, table, rows.map((r) => r.columns));
  if (rt.details.length > 0) await insertLines(rt, trx, rows.map((r) => ({ id: r.id, tenantId: (r.columns.tenant_id as string | null | undefined) ?? null, lines: r.lines })), ctx.caller.username);
  const linkRows = new Map<string, Row[]>();
  for (const { name, link } of rt.links) {
    for (const row of rows) {
      for (const targetId of linkIds(row.values[name])) {
        const list = linkRows.get(link.table) ?? [];
        list.push(linkRow(rt, link, row.id, targetId, ctx.caller.username));
        linkRows.set(link.table, list);
      }
    }
  }
  for (const [linkTable, list] of linkRows) await insertMany(trx, linkTable, list);
  if (!rt.actions.has('edit') || rt.hooks.afterAdd) return;
  const stored: Row[] = [];
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    stored.push(...(await trx.selectFrom(table).selectAll().where('id', 'in', rows.slice(i, i + INSERT_CHUNK).map((r) => r.id)).execute()));
  }
  await insertMany(
    trx,
    'sys_data_log',
    stored.map((row) => versionRow(rt, ctx, row.id, row, 1)),
  );
}

/** After rows are stored: the `afterAdd` hook, then the version it leaves. */
export async function afterStored(rt: EntityRuntime, ctx: CrudContext, rows: PreparedRow[]): Promise<void> {
  const { hooks } = rt;
  if (!hooks.afterAdd) return;
  for (const row of rows) {
    await hooks.afterAdd(ctx, row.id, row.values);
    await recordVersion(rt, ctx, row.id);
  }
}

/** Validates and inserts one row (the add route). */
async function addRow(rt: EntityRuntime, ctx: CrudContext, input: Row): Promise<string> {
  const prepared = await prepareRow(rt, ctx, input);
  await rt.db.transaction().execute((trx) => storeRows(rt, ctx, trx, [prepared]));
  await afterStored(rt, ctx, [prepared]);
  return prepared.id;
}

/** Validates and stores the edit of one row the caller can read (the edit route), through its data-log version. */
async function editRow(rt: EntityRuntime, ctx: CrudContext, body: Row): Promise<string> {
  const { app, db, entity, hooks, table } = rt;
  const id = requireId(body.id);
  const existing = await rt.registered.findById(ctx.caller, id);
  if (!existing) throw new AppError('notFound', 'crud.notFound');
  const validated = validateInput(entity, body, 'edit', ctx.lang, app.settings.timeZone);
  if (!validated.ok) throw new AppError('badRequest', 'error.validation', { message: validated.message });
  const values = validated.values;
  const lines = rt.details.length > 0 ? validateDetails(rt, body, 'edit', ctx.lang) : {};
  const keptSeeded = new Set(await unchangedSeededColumns(app, entity.name, existing, toColumns(entity, values)));
  for (const name of Object.keys(values)) if (keptSeeded.has(readableFields(entity).get(name)?.column ?? '')) delete values[name];
  await checkAdminOnlyFields(app, entity, ctx.caller, values);
  await checkParent(rt, ctx.caller, values, id);
  // the tenant the row will be in: the one the values move it to, else its own (read again after the hooks)
  const tenantAfter = () => (entity.tenantScoped ? (values.tenantId as string | undefined) || (existing.tenant_id ?? null) : null);
  const merged = { ...toApiRow(entity, existing), ...values };
  await checkUnique(rt, ctx.lang, values, tenantAfter(), id, merged);
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
    await checkUnique(rt, ctx.lang, kept, tenantAfter(), id, after);
  }
  await db.transaction().execute(async (trx) => {
    await applyScope(entity, ctx.caller, trx.updateTable(table).set({ ...toColumns(entity, values), update_by: ctx.caller.username, update_time: nowIso(app) }) as UpdateQueryBuilder<Row, string, string, Row>)
      .where('id', '=', id)
      .execute();
    await writeLinks(rt, trx, id, values, ctx.caller.username);
    if (rt.details.length > 0) await replaceLines(rt, trx, id, tenantAfter(), lines, ctx.caller.username);
  });
  await hooks.afterEdit?.(ctx, id, values);
  await recordVersion(rt, ctx, id);
  return id;
}

/** Deletes rows of the caller's (`deleted`: of the recycle bin) from the database, with their links, inside `trx`. */
export async function removeRows(rt: EntityRuntime, trx: AnyDb, caller: CurrentUser, ids: string[], deleted: boolean): Promise<void> {
  await applyScope(rt.entity, caller, trx.deleteFrom(rt.table) as DeleteQueryBuilder<Row, string, Row>, deleted).where('id', 'in', ids).execute();
  await removeLinks(rt, trx, ids);
  await removeLines(rt, trx, ids);
}

/** Deletes (or marks deleted) the caller's rows among `ids`; a tree row with children stays. */
async function deleteRows(rt: EntityRuntime, ctx: CrudContext, ids: string[]): Promise<number> {
  const { app, db, entity, hooks, table } = rt;
  const rows = await rt.registered.scoped(ctx.caller).where('id', 'in', ids).execute();
  if (rows.length === 0) throw new AppError('notFound', 'crud.notFound');
  const found = rows.map((r) => r.id as string);
  if (entity.tree) {
    const parentColumn = readableFields(entity).get(entity.tree.parentField)?.column as string;
    const child = await rt.registered.scoped(ctx.caller).select('id').where(parentColumn, 'in', found).where('id', 'not in', found).executeTakeFirst();
    if (child) refuse('crud.hasChildren');
  }
  await hooks.beforeDelete?.(ctx, rows, !entity.softDelete);
  await db.transaction().execute(async (trx) => {
    if (entity.softDelete) {
      await applyScope(entity, ctx.caller, trx.updateTable(table).set({ del_flag: 1, update_by: ctx.caller.username, update_time: nowIso(app) }) as UpdateQueryBuilder<Row, string, string, Row>)
        .where('id', 'in', found)
        .execute();
    } else {
      await removeRows(rt, trx, ctx.caller, found, false);
    }
    await hooks.deleteLinked?.(trx as unknown as Kysely<Database>, found, !entity.softDelete);
  });
  await hooks.afterChange?.(ctx);
  return found.length;
}

/** Add, edit, delete one and delete several, as the entity declares them. */
export function writeRoutes(rt: EntityRuntime, routes: FastifyInstance): void {
  const { actions, entity, hooks } = rt;
  const rowWrites = [
    { action: 'add', method: 'POST', summary: `Add ${entity.name}`, write: addRow, operateType: OperationType.add, logged: 'log.added', done: 'crud.added' },
    { action: 'edit', method: 'PUT', summary: `Edit ${entity.name}`, write: editRow, operateType: OperationType.edit, logged: 'log.edited', done: 'crud.edited' },
  ] as const;
  for (const { action, method, summary, write, operateType, logged, done } of rowWrites) {
    if (!actions.has(action)) continue;
    routes.route({
      method,
      url: crudPath(entity, action),
      ...routeOptions(rt, action, summary),
      handler: async (request, reply) => {
        const started = performance.now();
        const ctx = contextOf(rt, request);
        const id = await write(rt, ctx, (request.body ?? {}) as Row);
        await hooks.afterChange?.(ctx);
        await log(rt, ctx, operateType, logged, { id }, started);
        return reply.ok({ id }, done);
      },
    });
  }

  if (!actions.has('delete')) return;
  routes.delete(crudPath(entity, 'delete'), routeOptions(rt, 'delete', `Delete one ${entity.name}`), async (request, reply) => {
    const started = performance.now();
    const ctx = contextOf(rt, request);
    const id = requireId((request.query as Query).id);
    await deleteRows(rt, ctx, [id]);
    await log(rt, ctx, OperationType.delete, 'log.deleted', { ids: id }, started);
    return reply.ok(null, 'crud.deleted');
  });
  routes.delete(crudPath(entity, 'deleteBatch'), routeOptions(rt, 'delete', `Delete several ${entity.name}`), async (request, reply) => {
    const started = performance.now();
    const ctx = contextOf(rt, request);
    const ids = requireIds((request.query as Query).ids);
    const count = await deleteRows(rt, ctx, ids);
    await log(rt, ctx, OperationType.delete, 'log.deleted', { ids: ids.join(',') }, started);
    return reply.ok({ count }, 'crud.deleted');
  });
}
