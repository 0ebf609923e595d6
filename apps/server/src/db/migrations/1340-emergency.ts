import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * The emergency (quake) scenario: one setting row per tenant (threshold, egress doors) and the scenarios that ran.
 * `active_key` holds the tenant of a running scenario and is cleared when it ends; its unique index keeps one running
 * scenario per tenant even when two servers handle two readings at once (NULLs do not collide on any of the engines).
 */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_emergency_setting'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('threshold', 'integer', (c) => c.notNull())
    .addColumn('egress_door_ids', 'text', (c) => c.notNull())
    .addColumn('tenant_key', 'varchar(36)', (c) => c.notNull())
    .addColumn('tenant_id', 'varchar(36)')
    .addUniqueConstraint('uq_sys_emergency_setting_tenant', ['tenant_key'])
    .execute();

  await audited(db.schema.createTable('sys_emergency'))
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('device_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('intensity', 'integer', (c) => c.notNull())
    .addColumn('pga', 'double precision')
    .addColumn('reading_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('door_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active_key', 'varchar(36)')
    .addColumn('end_by', 'varchar(64)')
    .addColumn('end_time', 'varchar(32)')
    .addColumn('tenant_id', 'varchar(36)')
    .addUniqueConstraint('uq_sys_emergency_active', ['active_key'])
    .execute();
  await db.schema.createIndex('idx_sys_emergency_tenant').on('sys_emergency').columns(['tenant_id', 'create_time']).execute();
}

export const emergencyTables: Migration = { up };
