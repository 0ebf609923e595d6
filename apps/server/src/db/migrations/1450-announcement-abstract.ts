import type { Migration } from 'kysely';
import type { AnyDb } from './table-helpers.ts';

/** An announcement's abstract (the origin's `msgAbstract`): a short plain text the author writes beside the content. */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_announcement').addColumn('msg_abstract', 'varchar(500)').execute();
}

export const announcementAbstract: Migration = { up };
