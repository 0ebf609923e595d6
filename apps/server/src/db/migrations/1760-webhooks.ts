import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * Webhooks (issue 32): subscriptions of a tenant, and the database queue of their deliveries. `seq` orders a
 * subscription's deliveries (its `last_seq` hands them out in the transaction that queues them); `next_attempt_time`
 * is when a pending one is due and, while one is being sent, when its claim lapses.
 */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_webhook'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('url', 'varchar(500)', (c) => c.notNull())
    .addColumn('events', 'varchar(500)', (c) => c.notNull())
    .addColumn('secret', 'varchar(1000)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('allow_loopback', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_status', 'varchar(16)')
    .addColumn('last_error', 'varchar(500)')
    .addColumn('last_time', 'varchar(32)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_webhook_tenant').on('sys_webhook').columns(['tenant_id', 'enabled']).execute();

  await audited(db.schema.createTable('sys_webhook_delivery'))
    .addColumn('webhook_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('event_kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_time', 'varchar(32)')
    .addColumn('give_up_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'varchar(500)')
    .addColumn('delivered_time', 'varchar(32)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('uq_sys_webhook_delivery_seq').on('sys_webhook_delivery').columns(['webhook_id', 'seq']).unique().execute();
  await db.schema.createIndex('idx_sys_webhook_delivery_due').on('sys_webhook_delivery').columns(['status', 'next_attempt_time']).execute();
}

export const webhookTables: Migration = { up };
