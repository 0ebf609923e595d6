import type { Migration } from 'kysely';
import type { AnyDb } from './table-helpers.ts';

/** The tables that carried `tenant_id` when this migration was written (a migration never reads declarations). */
const TENANT_TABLES = ['sys_user', 'sys_role', 'sys_depart', 'sys_position', 'sys_vendor', 'sys_category', 'sys_visitor', 'sys_user_agent', 'sys_depart_role'];

/**
 * The login, operation and data logs belong to a tenant like the rows they describe, so a tenant administrator reads
 * only their own tenant's entries. Entries written before carry the tenant of the row they copy (data log) or of the
 * user who acted; an entry with neither (a user without tenant, a row since deleted) stays without one, which only
 * system administrators see.
 */
async function up(db: AnyDb): Promise<void> {
  for (const table of ['sys_log', 'sys_data_log']) {
    await db.schema.alterTable(table).addColumn('tenant_id', 'varchar(36)').execute();
    await db.schema.createIndex(`idx_${table}_tenant`).on(table).column('tenant_id').execute();
  }
  await backfillLogTenants(db);
}

/** Gives the entries written before this migration their tenant (exported for its test). */
export async function backfillLogTenants(db: AnyDb): Promise<void> {
  await db
    .updateTable('sys_log')
    .set((eb) => ({ tenant_id: eb.selectFrom('sys_user as u').select('u.tenant_id').whereRef('u.id', '=', 'sys_log.userid') }))
    .execute();
  for (const table of TENANT_TABLES) {
    await db
      .updateTable('sys_data_log')
      .set((eb) => ({ tenant_id: eb.selectFrom(`${table} as r`).select('r.tenant_id').whereRef('r.id', '=', 'sys_data_log.data_id') }))
      .where('data_table', '=', table)
      .execute();
  }
  await db
    .updateTable('sys_data_log')
    .set((eb) => ({ tenant_id: eb.selectFrom('sys_user as u').select('u.tenant_id').whereRef('u.username', '=', 'sys_data_log.create_by') }))
    .where('data_table', 'not in', TENANT_TABLES)
    .execute();
}

export const logTenants: Migration = { up };
