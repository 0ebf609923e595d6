import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * The device link (DESIGN section 7) and what the device screens build on: device types, areas (a tree), devices,
 * device codes (activation and authorisation codes, audited; an approved code issues the device's MQTT key, kept
 * hashed), doors, the per-device command queue and the device events. Events are unique by (device, seq), so a
 * repeated delivery is dropped by the insert itself.
 */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_device_type'))
    .addColumn('type_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('manufacturer_id', 'varchar(36)')
    .addColumn('device_model', 'varchar(100)')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('handler', 'varchar(100)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_device_type_tenant').on('sys_device_type').columns(['tenant_id', 'create_time']).execute();
  await db.schema.createIndex('idx_sys_device_type_name').on('sys_device_type').columns(['tenant_id', 'type_name']).execute();

  await audited(db.schema.createTable('sys_area'))
    .addColumn('area_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('parent_id', 'varchar(36)')
    .addColumn('address', 'varchar(255)')
    .addColumn('remark', 'varchar(500)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_area_tenant').on('sys_area').columns(['tenant_id', 'create_time']).execute();
  await db.schema.createIndex('idx_sys_area_parent').on('sys_area').column('parent_id').execute();
  await db.schema.createIndex('idx_sys_area_name').on('sys_area').columns(['tenant_id', 'area_name']).execute();

  await audited(db.schema.createTable('sys_device'))
    .addColumn('device_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('sn', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('mac', 'varchar(64)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('gateway', 'varchar(64)')
    .addColumn('subnet_mask', 'varchar(64)')
    .addColumn('system_type', 'varchar(32)')
    .addColumn('device_type_id', 'varchar(36)')
    .addColumn('device_model', 'varchar(100)')
    .addColumn('background_image', 'varchar(255)')
    .addColumn('location', 'integer')
    .addColumn('area_id', 'varchar(36)')
    .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_seen', 'varchar(32)')
    .addColumn('session_id', 'varchar(64)')
    .addColumn('firmware', 'varchar(64)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_device_tenant').on('sys_device').columns(['tenant_id', 'create_time']).execute();
  await db.schema.createIndex('idx_sys_device_name').on('sys_device').columns(['tenant_id', 'device_name']).execute();
  await db.schema.createIndex('idx_sys_device_ip').on('sys_device').columns(['tenant_id', 'ip']).execute();
  await db.schema.createIndex('idx_sys_device_area').on('sys_device').column('area_id').execute();
  await db.schema.createIndex('idx_sys_device_online').on('sys_device').columns(['tenant_id', 'online']).execute();

  await audited(db.schema.createTable('sys_device_code'))
    .addColumn('sn', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('activation_code', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('authorization_code', 'varchar(64)')
    .addColumn('audit_status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('audit_by', 'varchar(64)')
    .addColumn('audit_time', 'varchar(32)')
    .addColumn('device_key_hash', 'varchar(128)')
    .addColumn('key_issued_time', 'varchar(32)')
    .addColumn('remark', 'varchar(500)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_device_code_tenant').on('sys_device_code').columns(['tenant_id', 'create_time']).execute();
  await db.schema.createIndex('idx_sys_device_code_status').on('sys_device_code').columns(['tenant_id', 'audit_status']).execute();

  await audited(db.schema.createTable('sys_door'))
    .addColumn('door_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('door_no', 'integer', (c) => c.notNull())
    .addColumn('area_id', 'varchar(36)')
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('state_time', 'varchar(32)')
    .addColumn('tenant_id', 'varchar(36)')
    .addUniqueConstraint('uq_sys_door_device_no', ['device_id', 'door_no'])
    .execute();
  await db.schema.createIndex('idx_sys_door_tenant').on('sys_door').columns(['tenant_id', 'create_time']).execute();
  await db.schema.createIndex('idx_sys_door_name').on('sys_door').columns(['tenant_id', 'door_name']).execute();

  await audited(db.schema.createTable('sys_device_command'))
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('kind', 'varchar(64)', (c) => c.notNull())
    .addColumn('payload', 'text')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_try', 'varchar(32)')
    .addColumn('sent_time', 'varchar(32)')
    .addColumn('acked_time', 'varchar(32)')
    .addColumn('result', 'text')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_device_command_device').on('sys_device_command').columns(['device_id', 'status', 'create_time']).execute();
  await db.schema.createIndex('idx_sys_device_command_due').on('sys_device_command').columns(['status', 'next_try']).execute();
  await db.schema.createIndex('idx_sys_device_command_tenant').on('sys_device_command').columns(['tenant_id', 'create_time']).execute();

  await audited(db.schema.createTable('sys_device_event'))
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('device_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('payload', 'text')
    .addColumn('tenant_id', 'varchar(36)')
    .addUniqueConstraint('uq_sys_device_event_seq', ['device_id', 'seq'])
    .execute();
  await db.schema.createIndex('idx_sys_device_event_tenant').on('sys_device_event').columns(['tenant_id', 'create_time']).execute();
  await db.schema.createIndex('idx_sys_device_event_time').on('sys_device_event').columns(['device_id', 'device_time']).execute();
  await db.schema.createIndex('idx_sys_device_event_kind').on('sys_device_event').columns(['tenant_id', 'kind', 'device_time']).execute();
}

export const deviceLinkTables: Migration = { up };
