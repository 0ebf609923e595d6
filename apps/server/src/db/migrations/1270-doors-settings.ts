import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * Doors bound to groups (departments) and the device settings: a parameter for the devices of an area and/or a
 * model, with a time window, a weight (below 5 a default) and the values it listens for.
 */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_door_depart'))
    .addColumn('door_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('depart_id', 'varchar(36)', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_door_depart', ['door_id', 'depart_id'])
    .execute();
  await db.schema.createIndex('idx_sys_door_depart_depart').on('sys_door_depart').column('depart_id').execute();
  await db.schema.createIndex('idx_sys_door_device').on('sys_door').column('device_id').execute();
  await db.schema.createIndex('idx_sys_door_state').on('sys_door').columns(['tenant_id', 'state']).execute();

  await audited(db.schema.createTable('sys_device_setting'))
    .addColumn('params_title', 'varchar(100)', (c) => c.notNull())
    .addColumn('field_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('field_value', 'varchar(500)', (c) => c.notNull())
    .addColumn('effective_time', 'varchar(32)')
    .addColumn('invalid_time', 'varchar(32)')
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('area_id', 'varchar(36)')
    .addColumn('device_model', 'varchar(100)')
    .addColumn('listen_value', 'varchar(500)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_device_setting_tenant').on('sys_device_setting').columns(['tenant_id', 'create_time']).execute();
  await db.schema.createIndex('idx_sys_device_setting_field').on('sys_device_setting').columns(['tenant_id', 'field_name']).execute();
  await db.schema.createIndex('idx_sys_device_setting_title').on('sys_device_setting').columns(['tenant_id', 'params_title']).execute();
  await db.schema.createIndex('idx_sys_device_setting_model').on('sys_device_setting').columns(['tenant_id', 'device_model']).execute();
  await db.schema.createIndex('idx_sys_device_setting_area').on('sys_device_setting').column('area_id').execute();
}

export const doorSettingTables: Migration = { up };
