import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/** Every stored version of a row written through the console, for the data log and its comparison. */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_data_log'))
    .addColumn('data_table', 'varchar(64)', (c) => c.notNull())
    .addColumn('data_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('data_content', 'text', (c) => c.notNull())
    .addColumn('data_version', 'integer', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_data_log_version', ['data_table', 'data_id', 'data_version'])
    .execute();
}

export const dataLogTables: Migration = { up };
