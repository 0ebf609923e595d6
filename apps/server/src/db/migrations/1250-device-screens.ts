import type { Migration } from 'kysely';
import type { AnyDb } from './table-helpers.ts';

/**
 * The device screens: a device's kind (controller, camera, vein device: the `device_kind` dictionary) and which
 * device of a tenant is its capture device (SPEC section 7, /sysDevice/setCapture).
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_device').addColumn('device_kind', 'varchar(8)').execute();
  await db.schema.alterTable('sys_device').addColumn('capture', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('idx_sys_device_sn_mac').on('sys_device').column('mac').execute();
}

export const deviceScreens: Migration = { up };
