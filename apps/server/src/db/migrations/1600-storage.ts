import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * Storage cabinets (SPEC sections 3 and 4): the cabinets of the storage devices with their holders, the opening records
 * the devices report, who manages which cabinet devices, the cabinet terminals' app versions and the versions offered.
 */
async function up(db: AnyDb): Promise<void> {
  // how many lockers an emergency released
  await db.schema.alterTable('sys_emergency').addColumn('cabinet_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // how many cabinets the device's hellos have reported (those were created then; one deleted since stays deleted)
  await db.schema.alterTable('sys_device').addColumn('reported_cabinets', 'integer').execute();
  await audited(db.schema.createTable('sys_cabinet'))
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('cabinet_no', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attribute', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('expire_time', 'varchar(32)')
    .addColumn('release_in_emergency', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'varchar(500)')
    // what the device is to hold (changes with every allocation) and what it was last sent
    .addColumn('version', 'varchar(36)')
    .addColumn('sent_version', 'varchar(36)')
    // the holders and the managers were told the allocation ends soon
    .addColumn('expiry_notified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tenant_id', 'varchar(36)')
    .addUniqueConstraint('uq_sys_cabinet_no', ['device_id', 'cabinet_no'])
    .execute();
  await db.schema.createIndex('idx_sys_cabinet_tenant').on('sys_cabinet').columns(['tenant_id', 'device_id']).execute();
  await db.schema.createIndex('idx_sys_cabinet_expire').on('sys_cabinet').columns(['expire_time']).execute();

  await audited(db.schema.createTable('sys_cabinet_people'))
    .addColumn('cabinet_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('people_id', 'varchar(36)', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_cabinet_people', ['cabinet_id', 'people_id'])
    .execute();
  await db.schema.createIndex('idx_sys_cabinet_people_people').on('sys_cabinet_people').columns(['people_id']).execute();

  await audited(db.schema.createTable('sys_cabinet_record'))
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('cabinet_id', 'varchar(36)')
    .addColumn('cabinet_no', 'integer', (c) => c.notNull())
    .addColumn('open_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('close_time', 'varchar(32)')
    .addColumn('id_card', 'varchar(64)')
    .addColumn('people_id', 'varchar(36)')
    .addColumn('method', 'varchar(16)')
    .addColumn('tenant_id', 'varchar(36)')
    .addUniqueConstraint('uq_sys_cabinet_record', ['device_id', 'seq'])
    .execute();
  await db.schema.createIndex('idx_sys_cabinet_record_tenant').on('sys_cabinet_record').columns(['tenant_id', 'open_time']).execute();
  await db.schema.createIndex('idx_sys_cabinet_record_open').on('sys_cabinet_record').columns(['device_id', 'cabinet_no', 'close_time']).execute();

  await audited(db.schema.createTable('sys_storage_manager'))
    .addColumn('user_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('remark', 'varchar(500)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await audited(db.schema.createTable('sys_storage_manager_device'))
    .addColumn('manager_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_storage_manager_device', ['manager_id', 'device_id'])
    .execute();
  await db.schema.createIndex('idx_sys_storage_manager_device_device').on('sys_storage_manager_device').columns(['device_id']).execute();

  await audited(db.schema.createTable('sys_storage_app_device'))
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('app_version', 'varchar(64)')
    .addColumn('version_code', 'integer')
    .addColumn('last_check_time', 'varchar(32)')
    .addColumn('remark', 'varchar(500)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();

  await audited(db.schema.createTable('sys_storage_check_update'))
    .addColumn('version_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('version_code', 'integer', (c) => c.notNull())
    .addColumn('device_model', 'varchar(100)')
    .addColumn('package_file', 'varchar(255)')
    .addColumn('force_update', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('description', 'varchar(500)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
}

export const storageTables: Migration = { up };
