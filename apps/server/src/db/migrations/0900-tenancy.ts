import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/** Organisation tables that had no tenant until this migration. */
const NEW_TENANT_TABLES = ['sys_announcement', 'sys_announcement_send', 'sys_message', 'sys_message_template'];

/**
 * Announcements (with their per-user send and read rows), messages and templates belong to a tenant, and every
 * upload is recorded with its tenant (`sys_file`), so each is read only within its tenant. Rows written before, and
 * log entries that had no tenant, are given the default tenant: nobody sees a row without one any more.
 */
async function up(db: AnyDb): Promise<void> {
  for (const table of NEW_TENANT_TABLES) {
    await db.schema.alterTable(table).addColumn('tenant_id', 'varchar(36)').execute();
    await db.schema.createIndex(`idx_${table}_tenant`).on(table).column('tenant_id').execute();
  }
  await audited(db.schema.createTable('sys_file'))
    .addColumn('file_path', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_file_tenant').on('sys_file').columns(['tenant_id', 'create_time']).execute();
  await backfillDefaultTenant(db);
}

/** The tenant rows without one are given: the seeded default tenant, else the oldest one (exported for its test). */
export async function defaultTenantId(db: AnyDb): Promise<string | null> {
  const seeded = await db.selectFrom('sys_tenant').select('id').where('code', '=', 'default').executeTakeFirst();
  if (seeded) return seeded.id as string;
  const oldest = await db.selectFrom('sys_tenant').select('id').orderBy('create_time').orderBy('id').limit(1).executeTakeFirst();
  return (oldest?.id as string | undefined) ?? null;
}

/** Gives rows written before this migration the default tenant (exported for its test). */
export async function backfillDefaultTenant(db: AnyDb): Promise<void> {
  const tenantId = await defaultTenantId(db);
  if (!tenantId) return;
  for (const table of [...NEW_TENANT_TABLES, 'sys_log', 'sys_data_log']) {
    await db.updateTable(table).set({ tenant_id: tenantId }).where('tenant_id', 'is', null).execute();
  }
}

export const tenancy: Migration = { up };
