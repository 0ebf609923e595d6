import type { Migration } from 'kysely';
import type { AnyDb } from './table-helpers.ts';

/**
 * Beside each access event, what the server decides of it (allowed, refused, unknown; none for door states), and a flag
 * on an opening the server would have refused.
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_access_event').addColumn('server_verdict', 'varchar(16)').execute();
  await db.schema.alterTable('sys_access_event').addColumn('flagged', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export const accessEventVerdicts: Migration = { up };
