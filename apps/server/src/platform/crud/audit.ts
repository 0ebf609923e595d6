import { randomUUID } from 'node:crypto';
import type { MessageKey } from '@isps/contract';
import { writeOperationLog } from '../audit-log.ts';
import { nowIso, type CrudContext, type EntityRuntime, type Row } from './runtime.ts';
import { toApiRow } from './values.ts';

/** The operation log entry of one generated route's work, `started` when its request came in. */
export async function log(rt: EntityRuntime, ctx: CrudContext, operateType: number, key: MessageKey, params: Record<string, string | number>, started: number): Promise<void> {
  // the entry belongs to the tenant worked in, so that tenant's administrators read what was done to its rows
  const content = { key, params: { entity: rt.entity.title, ...params } };
  await writeOperationLog(rt.app, { operateType, userId: ctx.caller.id, username: ctx.caller.username, tenantId: ctx.caller.tenantScope ?? ctx.caller.tenantId, ip: ctx.request.ip, content, costMs: performance.now() - started });
}

/** The data log row holding `row` (row `id`) as its `version`. */
export function versionRow(rt: EntityRuntime, ctx: CrudContext, id: string, row: Row, version: number): Row {
  return {
    id: randomUUID(),
    data_table: rt.table,
    data_id: id,
    data_content: JSON.stringify(toApiRow(rt.entity, row)),
    data_version: version,
    // the copy belongs to the row's tenant, even when a system administrator changed it
    tenant_id: rt.entity.tenantScoped ? (row.tenant_id ?? null) : ctx.caller.tenantId,
    create_by: ctx.caller.username,
    create_time: nowIso(rt.app),
    update_by: null,
    update_time: null,
  };
}

/** Stores the row as it now is, as the next version of its data log (entities that can be edited). */
export async function recordVersion(rt: EntityRuntime, ctx: CrudContext, id: string): Promise<void> {
  const { app, db, table } = rt;
  if (!rt.actions.has('edit')) return;
  const row = await db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return;
  const last = await db.selectFrom('sys_data_log').select((eb) => eb.fn.max('data_version').as('v')).where('data_table', '=', table).where('data_id', '=', id).executeTakeFirst();
  try {
    await db
      .insertInto('sys_data_log')
      .values(versionRow(rt, ctx, id, row, Number(last?.v ?? 0) + 1))
      .execute();
  } catch (error) {
    // two writes of one row at the same instant: the other kept its version; the write itself stands
    app.log.warn({ err: error, table, id }, 'data log version not recorded');
  }
}
