import type { Migration } from 'kysely';
import type { AnyDb } from './table-helpers.ts';

/**
 * Login-log rows used operate types 1 (sign in) and 2 (sign out), the same numbers the operation log uses for
 * query and add; they move to their own numbers (7 and 8, `LogOperateType`) so one list of types reads both logs.
 */
async function up(db: AnyDb): Promise<void> {
  await db.updateTable('sys_log').set({ operate_type: 7 }).where('log_type', '=', 1).where('operate_type', '=', 1).execute();
  await db.updateTable('sys_log').set({ operate_type: 8 }).where('log_type', '=', 1).where('operate_type', '=', 2).execute();
  await db.schema.createIndex('idx_sys_log_time').on('sys_log').column('create_time').execute();
}

export const logOperateTypes: Migration = { up };
