import type { Migration } from 'kysely';
import type { AnyDb } from './table-helpers.ts';

/**
 * A device command's expiry: past `expire_time` it is never delivered (null: it waits for its device). Door opens
 * queued before this release expire at once, so none runs when its device comes back.
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_device_command').addColumn('expire_time', 'varchar(32)').execute();
  await db.schema.createIndex('idx_sys_device_command_expiry').on('sys_device_command').columns(['status', 'expire_time']).execute();
  await db
    .updateTable('sys_device_command')
    .set((eb) => ({ expire_time: eb.ref('create_time') }))
    .where('kind', '=', 'openDoor')
    .where('status', 'in', ['pending', 'sent'])
    .execute();
}

export const commandExpiry: Migration = { up };
