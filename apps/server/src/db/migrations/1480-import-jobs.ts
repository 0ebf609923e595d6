import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * Import jobs in the database (DESIGN section 9): any instance answers a job's status, and a restart no longer loses
 * it. A job keeps its counts, written batch by batch, and each data row's outcome beside it.
 */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_import_job'))
    .addColumn('tenant_id', 'varchar(36)')
    .addColumn('owner_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('entity', 'varchar(64)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('added', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
    // refreshed by the instance running the job; a running job whose heartbeat stopped was left by a dead process
    .addColumn('heartbeat_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('finished_at', 'varchar(32)')
    // message key of why a job ended without finishing (an interrupted one)
    .addColumn('reason', 'varchar(64)')
    .execute();
  await db.schema.createIndex('idx_sys_import_job_state').on('sys_import_job').columns(['state', 'heartbeat_at']).execute();
  await db.schema.createIndex('idx_sys_import_job_finished').on('sys_import_job').column('finished_at').execute();
  await db.schema
    .createTable('sys_import_job_row')
    .addColumn('job_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('row_no', 'integer', (c) => c.notNull())
    .addColumn('success', 'integer', (c) => c.notNull())
    .addColumn('ref_id', 'varchar(36)')
    .addColumn('message', 'text')
    // a refused row's values as read (JSON), so the importer can download, correct and import them again
    .addColumn('cells', 'text')
    .addPrimaryKeyConstraint('pk_sys_import_job_row', ['job_id', 'row_no'])
    .execute();
}

export const importJobTables: Migration = { up };
