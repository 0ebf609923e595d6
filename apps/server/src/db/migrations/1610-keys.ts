import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * Key cabinets (SPEC section 2 "ks"): the keys in the slots of the key-cabinet devices, the people who may take keys,
 * and each take of a key with its return. Key roles are device roles (`sys_device_role`, type 5) linking keys through
 * `sys_device_role_key`, which is there already.
 */
async function up(db: AnyDb): Promise<void> {
  // how many keys an emergency released
  await db.schema.alterTable('sys_emergency').addColumn('key_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // the version of the key list the device was last sent
  await db.schema.alterTable('sys_device').addColumn('keys_sent_version', 'varchar(40)').execute();
  await audited(db.schema.createTable('sys_key'))
    .addColumn('key_name', 'varchar(50)', (c) => c.notNull())
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('slot_no', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('holder_id', 'varchar(36)')
    .addColumn('taken_time', 'varchar(32)')
    .addColumn('overdue', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('release_in_emergency', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('description', 'varchar(500)')
    .addColumn('tenant_id', 'varchar(36)')
    .addUniqueConstraint('uq_sys_key_slot', ['device_id', 'slot_no'])
    .execute();
  await db.schema.createIndex('idx_sys_key_tenant').on('sys_key').columns(['tenant_id', 'device_id']).execute();

  await audited(db.schema.createTable('sys_key_people'))
    .addColumn('people_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('remark', 'varchar(500)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_key_people_people').on('sys_key_people').columns(['people_id']).execute();

  await audited(db.schema.createTable('sys_key_record'))
    .addColumn('key_id', 'varchar(36)')
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('slot_no', 'integer', (c) => c.notNull())
    .addColumn('take_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('return_time', 'varchar(32)')
    .addColumn('people_id', 'varchar(36)')
    .addColumn('id_card', 'varchar(64)')
    .addColumn('method', 'varchar(16)')
    // set once, by the statement that raises the take's overdue alarm
    .addColumn('overdue_time', 'varchar(32)')
    .addColumn('alarm_id', 'varchar(36)')
    .addColumn('tenant_id', 'varchar(36)')
    .addUniqueConstraint('uq_sys_key_record', ['device_id', 'seq'])
    .execute();
  await db.schema.createIndex('idx_sys_key_record_key').on('sys_key_record').columns(['key_id', 'take_time']).execute();
  await db.schema.createIndex('idx_sys_key_record_open').on('sys_key_record').columns(['return_time', 'overdue_time']).execute();
}

export const keyTables: Migration = { up };
