import type { Migration } from 'kysely';
import type { AnyDb } from './table-helpers.ts';

/**
 * A log entry keeps its message key and parameters (JSON `{ key, params }`) beside the English text, so each reader
 * reads it in his own language; entries written before have none and are shown as stored.
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_log').addColumn('log_params', 'text').execute();
}

export const logParams: Migration = { up };
