import type { Migration } from 'kysely';
import type { AnyDb } from './table-helpers.ts';

/** The kind of each person's and visitor's ID number (dictionary id_type); rows stored before hold resident ID cards. */
async function up(db: AnyDb): Promise<void> {
  for (const table of ['sys_people', 'sys_visitor']) {
    await db.schema.alterTable(table).addColumn('id_type', 'varchar(8)', (c) => c.notNull().defaultTo('1')).execute();
  }
}

export const idTypes: Migration = { up };
