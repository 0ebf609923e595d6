import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/** Logs asked of devices: each is one upload, by the device named, with a one-time token, before it expires. */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_device_log_request'))
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('command_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('expire_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('used_time', 'varchar(32)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('uq_sys_device_log_request_token').on('sys_device_log_request').column('token_hash').unique().execute();
}

export const deviceLogRequests: Migration = { up };
