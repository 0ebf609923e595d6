import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * Access synchronisation: what the server has sent each device (one row per device and person, with the version of
 * the entry), so a change sends only the difference, and a device's capacity (how many people it holds).
 */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_device_access'))
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('people_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('version', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_device_access', ['device_id', 'people_id'])
    .execute();
  await db.schema.alterTable('sys_device').addColumn('max_people', 'integer').execute();
}

export const accessSyncTables: Migration = { up };
