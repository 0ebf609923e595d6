import type { Migration } from 'kysely';
import type { AnyDb } from './table-helpers.ts';

/**
 * A device key being rotated: the key it replaces stays valid until the device acknowledges the new one, at most until
 * `previous_key_until`.
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_device_code').addColumn('previous_key_hash', 'varchar(128)').execute();
  await db.schema.alterTable('sys_device_code').addColumn('previous_key_until', 'varchar(32)').execute();
}

export const deviceKeyRotation: Migration = { up };
