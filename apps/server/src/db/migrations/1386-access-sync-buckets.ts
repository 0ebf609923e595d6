import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * What each device was sent, kept in buckets of people (by the first two characters of their id) instead of a row
 * per device and person: a role over 10,000 people on 100 devices writes 25,600 rows, not a million, and a change
 * of one person rewrites one bucket per device. A bucket's text is its `id:version` lines in id order.
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema.dropTable('sys_device_access').execute();
  await audited(db.schema.createTable('sys_device_access'))
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('bucket', 'varchar(8)', (c) => c.notNull())
    .addColumn('entries', 'text', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_device_access_bucket', ['device_id', 'bucket'])
    .execute();
}

export const accessSyncBuckets: Migration = { up };
