import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * The origin's user form (SPEC section 3): a user's identity (1 ordinary, 2 superior) and the groups a superior is
 * responsible for (its `departIds`), beside the groups the user belongs to (`sys_user_depart`).
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_user').addColumn('user_identity', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await audited(db.schema.createTable('sys_user_depart_head'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('dep_id', 'varchar(36)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_sys_user_depart_head_user').on('sys_user_depart_head').columns(['user_id']).execute();
  await db.schema.createIndex('idx_sys_user_depart_head_depart').on('sys_user_depart_head').columns(['dep_id']).execute();
}

export const specRuleTables: Migration = { up };
