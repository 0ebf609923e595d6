import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/** Agent settings of the users screen, and the lookups the group and role filters of the user list make. */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_user_agent'))
    .addColumn('user_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('agent_user_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('start_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('end_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_user_agent_user').on('sys_user_agent').column('user_name').execute();
  await db.schema.createIndex('idx_sys_user_depart_dep').on('sys_user_depart').column('dep_id').execute();
}

export const userAdminTables: Migration = { up };
