import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/** Access events: openings, denials and door states of the devices, one per (device, sequence number). */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_access_event'))
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('event_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('result', 'integer')
    .addColumn('people_id', 'varchar(36)')
    .addColumn('door_id', 'varchar(36)')
    .addColumn('door_no', 'integer')
    .addColumn('method', 'varchar(16)')
    .addColumn('detail', 'varchar(32)')
    .addColumn('tenant_id', 'varchar(36)')
    .addUniqueConstraint('uq_sys_access_event', ['device_id', 'seq'])
    .execute();
  await db.schema.createIndex('idx_sys_access_event_tenant').on('sys_access_event').columns(['tenant_id', 'event_time']).execute();
}

export const accessEventTables: Migration = { up };
