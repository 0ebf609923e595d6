import type { Migration } from 'kysely';
import type { AnyDb } from './table-helpers.ts';

/** A device's data sync mode (SPEC section 4): increment sends the differences, full replaces its whole access list. */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_device').addColumn('sync_mode', 'varchar(16)', (c) => c.notNull().defaultTo('increment')).execute();
}

export const deviceSyncMode: Migration = { up };
