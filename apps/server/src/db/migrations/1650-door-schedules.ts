import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * Door schedules (issue 30): doors unlocked inside a time setting's periods, the doors each names, and the version of
 * the schedule list each door controller was last sent.
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_device').addColumn('schedules_sent_version', 'varchar(40)').execute();
  await audited(db.schema.createTable('sys_door_schedule'))
    .addColumn('schedule_name', 'varchar(50)', (c) => c.notNull())
    .addColumn('time_setting', 'varchar(2000)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'varchar(500)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_door_schedule_tenant').on('sys_door_schedule').columns(['tenant_id', 'create_time']).execute();
  await audited(db.schema.createTable('sys_door_schedule_door'))
    .addColumn('schedule_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('door_id', 'varchar(36)', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_door_schedule_door', ['schedule_id', 'door_id'])
    .execute();
  await db.schema.createIndex('idx_sys_door_schedule_door_door').on('sys_door_schedule_door').columns(['door_id']).execute();
}

export const doorScheduleTables: Migration = { up };
