import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * Each emergency is kept as a report: whether it was a drill, who started it, the doors it held open, and the roll
 * call (sys_emergency_roll: the people inside at its start or end, and who marked each safe when). A person appears
 * once per emergency; the unique index decides between two consoles marking the same person at once.
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_emergency').addColumn('drill', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('sys_emergency').addColumn('start_by', 'varchar(64)').execute();
  await db.schema.alterTable('sys_emergency').addColumn('doors', 'text').execute();

  await audited(db.schema.createTable('sys_emergency_roll'))
    .addColumn('emergency_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('people_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('people_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('user_no', 'varchar(64)')
    .addColumn('area_name', 'varchar(100)')
    .addColumn('door_name', 'varchar(100)')
    .addColumn('safe_by', 'varchar(64)')
    .addColumn('safe_time', 'varchar(32)')
    .addColumn('tenant_id', 'varchar(36)')
    .addUniqueConstraint('uq_sys_emergency_roll_person', ['emergency_id', 'people_id'])
    .execute();
}

export const emergencyReports: Migration = { up };
