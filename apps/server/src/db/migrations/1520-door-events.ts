import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * Door events apart from access events: the states the devices report of their doors get a table of their own, so the
 * access records list passages of people only. The door states stored among the access events move there.
 */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_door_event'))
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('event_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('door_id', 'varchar(36)')
    .addColumn('door_no', 'integer')
    .addColumn('state', 'varchar(16)')
    .addColumn('tenant_id', 'varchar(36)')
    .addUniqueConstraint('uq_sys_door_event', ['device_id', 'seq'])
    .execute();
  await db.schema.createIndex('idx_sys_door_event_tenant').on('sys_door_event').columns(['tenant_id', 'event_time']).execute();
  // moved a thousand at a time: an installed console may hold many
  for (;;) {
    const rows = (await db
      .selectFrom('sys_access_event')
      .select(['id', 'create_by', 'create_time', 'device_id', 'seq', 'event_time', 'door_id', 'door_no', 'detail', 'tenant_id'])
      .where('kind', '=', 'doorState')
      .limit(1000)
      .execute()) as Array<Record<string, unknown>>;
    if (rows.length === 0) break;
    await db
      .insertInto('sys_door_event')
      .values(rows.map((r) => ({ id: r.id, create_by: r.create_by, create_time: r.create_time, update_by: null, update_time: null, device_id: r.device_id, seq: r.seq, event_time: r.event_time, door_id: r.door_id, door_no: r.door_no, state: r.detail, tenant_id: r.tenant_id })))
      .execute();
    await db.deleteFrom('sys_access_event').where('id', 'in', rows.map((r) => r.id as string)).execute();
  }
}

export const doorEventTables: Migration = { up };
