import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * Software packages pushed to devices with each push's progress, and what devices report that needs a person: run
 * errors (the device run log) and alarms (open, acknowledged, closed). A run log entry or an alarm is one device event
 * (device, sequence number), so a repeated delivery stores nothing twice.
 */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_soft_update'))
    .addColumn('version', 'varchar(64)', (c) => c.notNull())
    .addColumn('device_model', 'varchar(100)')
    .addColumn('apk_file', 'varchar(255)', (c) => c.notNull())
    .addColumn('file_size', 'integer', (c) => c.notNull())
    .addColumn('checksum', 'varchar(64)', (c) => c.notNull())
    .addColumn('update_log', 'varchar(2000)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();

  await audited(db.schema.createTable('sys_soft_update_push'))
    .addColumn('update_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('command_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'varchar(255)')
    .addColumn('finish_time', 'varchar(32)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('uq_sys_soft_update_push_command').on('sys_soft_update_push').column('command_id').unique().execute();
  await db.schema.createIndex('idx_sys_soft_update_push_update').on('sys_soft_update_push').columns(['update_id', 'create_time']).execute();

  await audited(db.schema.createTable('sys_device_run_log'))
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('event_seq', 'bigint', (c) => c.notNull())
    .addColumn('error_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('content', 'varchar(2000)')
    .addColumn('code', 'varchar(64)')
    .addColumn('report_ip', 'varchar(64)')
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('tenant_id', 'varchar(36)')
    .addUniqueConstraint('uq_sys_device_run_log_event', ['device_id', 'event_seq'])
    .execute();

  await audited(db.schema.createTable('sys_device_alarm'))
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('event_seq', 'bigint', (c) => c.notNull())
    .addColumn('code', 'varchar(64)', (c) => c.notNull())
    .addColumn('level', 'varchar(1)', (c) => c.notNull())
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('alarm_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('handled_by', 'varchar(64)')
    .addColumn('handled_time', 'varchar(32)')
    .addColumn('tenant_id', 'varchar(36)')
    .addUniqueConstraint('uq_sys_device_alarm_event', ['device_id', 'event_seq'])
    .execute();
}

export const softUpdateTables: Migration = { up };
