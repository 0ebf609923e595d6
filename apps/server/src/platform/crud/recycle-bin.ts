import { crudPath } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { Kysely, UpdateQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { callerOf } from '../access.ts';
import { OperationType } from '../audit-log.ts';
import { AppError } from '../envelope.ts';
import { log } from './audit.ts';
import type { Query } from './query.ts';
import { listPage } from './reading.ts';
import { applyScope, contextOf, nowIso, requireIds, routeOptions, type EntityRuntime, type Row } from './runtime.ts';
import { removeRows } from './writing.ts';

/** The recycle bin of a soft-deleted entity that declares one: its rows, restoring them, deleting them completely. */
export function recycleBinRoutes(rt: EntityRuntime, routes: FastifyInstance): void {
  const { app, db, entity, hooks, table } = rt;
  if (!rt.actions.has('recycleBin') || !entity.softDelete?.recycleBin) return;
  routes.get(crudPath(entity, 'recycleBin'), routeOptions(rt, 'recycleBin', `Deleted ${entity.name}`), async (request, reply) =>
    reply.ok(await listPage(rt, callerOf(request), request.lang, request.query as Query, true)),
  );
  routes.put(crudPath(entity, 'putRecycleBin'), routeOptions(rt, 'recycleBin', `Restore ${entity.name}`), async (request, reply) => {
    const started = performance.now();
    const ctx = contextOf(rt, request);
    // `userIds`: the origin console's users recycle bin names them so
    const body = request.body as Row | undefined;
    const ids = requireIds(body?.ids ?? body?.userIds);
    if (hooks.beforeRestore) await hooks.beforeRestore(ctx, await rt.registered.scoped(ctx.caller, { deleted: true }).where('id', 'in', ids).execute());
    await applyScope(entity, ctx.caller, db.updateTable(table).set({ del_flag: 0, update_by: ctx.caller.username, update_time: nowIso(app) }) as UpdateQueryBuilder<Row, string, string, Row>, true)
      .where('id', 'in', ids)
      .execute();
    await hooks.afterChange?.(ctx);
    await log(rt, ctx, OperationType.edit, 'log.restored', { ids: ids.join(',') }, started);
    return reply.ok(null, 'crud.restored');
  });
  routes.delete(crudPath(entity, 'deleteRecycleBin'), routeOptions(rt, 'recycleBin', `Delete ${entity.name} completely`), async (request, reply) => {
    const started = performance.now();
    const ctx = contextOf(rt, request);
    const query = request.query as Query;
    const ids = requireIds(query.ids ?? query.userIds);
    const rows = await rt.registered.scoped(ctx.caller, { deleted: true }).where('id', 'in', ids).execute();
    // none of them in the caller's recycle bin: hooks never run on an empty selection (an empty IN fails on PostgreSQL)
    if (rows.length === 0) throw new AppError('notFound', 'crud.notFound');
    await hooks.beforeDelete?.(ctx, rows, true);
    const gone = rows.map((r) => r.id as string);
    if (gone.length > 0) {
      await db.transaction().execute(async (trx) => {
        await removeRows(rt, trx, ctx.caller, gone, true);
        await hooks.deleteLinked?.(trx as unknown as Kysely<Database>, gone, true);
      });
    }
    await log(rt, ctx, OperationType.delete, 'log.deletedCompletely', { ids: ids.join(',') }, started);
    return reply.ok(null, 'crud.deleted');
  });
}
