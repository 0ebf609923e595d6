import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * The order list (issue 31): the origin's one-to-many demo, orders with their customers and tickets. Lines carry
 * their order's tenant, so a line is never read outside it; they are found by their order, in their `line_no` order.
 */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('jeecg_order_main'))
    .addColumn('order_code', 'varchar(50)', (c) => c.notNull())
    .addColumn('ctype', 'varchar(10)')
    .addColumn('order_date', 'varchar(32)')
    .addColumn('order_money', 'varchar(16)')
    .addColumn('content', 'varchar(500)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await audited(db.schema.createTable('jeecg_order_customer'))
    .addColumn('order_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('sex', 'varchar(4)')
    .addColumn('idcard', 'varchar(18)')
    .addColumn('telphone', 'varchar(32)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_jeecg_order_customer_order').on('jeecg_order_customer').columns(['order_id', 'line_no']).execute();
  await audited(db.schema.createTable('jeecg_order_ticket'))
    .addColumn('order_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('ticket_code', 'varchar(100)', (c) => c.notNull())
    .addColumn('tickect_date', 'varchar(32)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_jeecg_order_ticket_order').on('jeecg_order_ticket').columns(['order_id', 'line_no']).execute();
}

export const orderTables: Migration = { up };
