import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/** Device plugins with the data they keep per device, log files devices uploaded, and alarm packages. */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_device_plugin'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('code', 'varchar(64)', (c) => c.notNull())
    .addColumn('version', 'varchar(64)', (c) => c.notNull())
    .addColumn('device_model', 'varchar(100)')
    .addColumn('plugin_file', 'varchar(255)')
    .addColumn('config', 'text')
    .addColumn('description', 'varchar(500)')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('tenant_id', 'varchar(36)')
    .execute();

  await audited(db.schema.createTable('sys_plugin_data'))
    .addColumn('plugin_code', 'varchar(64)', (c) => c.notNull())
    .addColumn('device_id', 'varchar(36)')
    .addColumn('data_key', 'varchar(100)', (c) => c.notNull())
    .addColumn('data_value', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_plugin_data_plugin').on('sys_plugin_data').columns(['plugin_code', 'device_id']).execute();

  await audited(db.schema.createTable('sys_device_log_file'))
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('file_path', 'varchar(255)', (c) => c.notNull())
    .addColumn('file_size', 'bigint', (c) => c.notNull())
    .addColumn('upload_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('tenant_id', 'varchar(36)')
    .execute();

  await audited(db.schema.createTable('sys_alarm_package'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('device_model', 'varchar(100)')
    .addColumn('package_file', 'varchar(255)')
    .addColumn('version', 'varchar(64)', (c) => c.notNull())
    .addColumn('description', 'varchar(500)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
}

export const deviceExtraTables: Migration = { up };
