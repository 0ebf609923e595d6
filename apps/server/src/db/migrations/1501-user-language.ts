import type { Migration } from 'kysely';
import type { AnyDb } from './table-helpers.ts';

/** The console language a user chose (zh-CN, en-US or ja-JP), applied when they sign in on another browser; null until they choose. */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_user').addColumn('lang', 'varchar(10)').execute();
}

export const userLanguage: Migration = { up };
