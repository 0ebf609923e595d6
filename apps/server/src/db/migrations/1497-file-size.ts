import type { Migration } from 'kysely';
import type { AnyDb } from './table-helpers.ts';

/**
 * Each upload's size, so a tenant's storage quota is counted from the table (DESIGN section 5). Files stored before
 * this release count as 0 bytes: their size is on the disk only.
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_file').addColumn('file_size', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
}

export const fileSize: Migration = { up };
