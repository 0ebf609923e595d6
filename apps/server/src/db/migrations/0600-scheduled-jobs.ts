import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * Scheduled jobs and their runs. A run's (job, fire time) is unique: the instance whose insert succeeds holds the
 * lease of that firing, so several servers on one database run each firing once.
 */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_quartz_job'))
    .addColumn('job_class_name', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('cron_expression', 'varchar(120)', (c) => c.notNull())
    .addColumn('parameter', 'varchar(500)')
    .addColumn('description', 'varchar(255)')
    .addColumn('status', 'integer', (c) => c.notNull())
    .execute();
  await audited(db.schema.createTable('sys_quartz_job_log'))
    .addColumn('job_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('fire_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('manual', 'integer', (c) => c.notNull())
    .addColumn('cost_ms', 'integer')
    .addColumn('success', 'integer')
    .addColumn('message', 'varchar(1000)')
    .addColumn('instance', 'varchar(100)', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_quartz_job_log_fire', ['job_id', 'fire_time'])
    .execute();
}

export const scheduledJobTables: Migration = { up };
