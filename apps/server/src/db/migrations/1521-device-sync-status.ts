import type { Migration } from 'kysely';
import type { AnyDb } from './table-helpers.ts';

/**
 * A device's sync status on its row, kept by the access sync from the device's command queue: in sync, pending (with
 * the people changes waiting), failed (with the reason), and when it last held its whole list.
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_device').addColumn('sync_state', 'varchar(16)', (c) => c.notNull().defaultTo('inSync')).execute();
  await db.schema.alterTable('sys_device').addColumn('sync_pending', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('sys_device').addColumn('sync_reason', 'varchar(255)').execute();
  await db.schema.alterTable('sys_device').addColumn('sync_aligned_time', 'varchar(32)').execute();
}

export const deviceSyncStatus: Migration = { up };
