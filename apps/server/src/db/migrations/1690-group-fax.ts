import type { Migration } from 'kysely';
import type { AnyDb } from './table-helpers.ts';

/** A group's fax number (SPEC section 3, "Group"). */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_depart').addColumn('fax', 'varchar(32)').execute();
}

export const groupFax: Migration = { up };
