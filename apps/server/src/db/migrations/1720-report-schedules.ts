import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/** Reports sent on a schedule (issue 31): which report, its filters and period, to whom, through which template. */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_report_schedule'))
    .addColumn('report_kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('period', 'varchar(16)', (c) => c.notNull())
    .addColumn('filters', 'varchar(1000)', (c) => c.notNull())
    .addColumn('recipients', 'varchar(2000)', (c) => c.notNull())
    .addColumn('template_code', 'varchar(100)', (c) => c.notNull())
    .addColumn('cron_expression', 'varchar(100)', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('job_id', 'varchar(36)')
    .addColumn('last_send_time', 'varchar(32)')
    .addColumn('last_result', 'varchar(1000)')
    .addColumn('lang', 'varchar(8)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_report_schedule_tenant').on('sys_report_schedule').columns(['tenant_id', 'report_kind']).execute();
}

export const reportSchedules: Migration = { up };
