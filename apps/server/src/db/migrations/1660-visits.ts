import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * Visitors through the door (SPEC section 3): visitors get the people's field set (card, user number, sex, group,
 * picture, palm-vein flags; templates share `sys_people_palm`, keyed by the visitor's id), and visits: a host, a
 * validity window and the doors it opens. `start_synced` and `end_synced` are set once, by the sweep that re-runs the
 * access sync at each window edge.
 */
async function up(db: AnyDb): Promise<void> {
  for (const [column, type] of [
    ['card_no', 'varchar(32)'],
    ['card_no_masked', 'varchar(32)'],
    ['user_no', 'varchar(64)'],
    ['depart_id', 'varchar(36)'],
    ['picture', 'varchar(255)'],
  ] as const) {
    await db.schema.alterTable('sys_visitor').addColumn(column, type).execute();
  }
  await db.schema.alterTable('sys_visitor').addColumn('sex', 'integer').execute();
  await db.schema.alterTable('sys_visitor').addColumn('palm_left', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('sys_visitor').addColumn('palm_right', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('idx_sys_visitor_card').on('sys_visitor').columns(['tenant_id', 'card_no']).execute();

  await audited(db.schema.createTable('sys_visit'))
    .addColumn('visitor_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('host_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('start_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('end_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('remark', 'varchar(500)')
    .addColumn('start_synced', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('end_synced', 'integer', (c) => c.notNull().defaultTo(0))
    // set once, by the statement that tells the host of the first opening
    .addColumn('first_open_time', 'varchar(32)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_visit_window').on('sys_visit').columns(['end_time', 'start_time']).execute();
  await db.schema.createIndex('idx_sys_visit_visitor').on('sys_visit').columns(['visitor_id', 'end_time']).execute();

  await audited(db.schema.createTable('sys_visit_door'))
    .addColumn('visit_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('door_id', 'varchar(36)', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_visit_door', ['visit_id', 'door_id'])
    .execute();
  await db.schema.createIndex('idx_sys_visit_door_target').on('sys_visit_door').column('door_id').execute();
  // device roles that bind visitors (as they bind people)
  await audited(db.schema.createTable('sys_device_role_visitor'))
    .addColumn('role_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('visitor_id', 'varchar(36)', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_device_role_visitor', ['role_id', 'visitor_id'])
    .execute();
  await db.schema.createIndex('idx_sys_device_role_visitor_target').on('sys_device_role_visitor').column('visitor_id').execute();

  // each visitor sign-in (the visitor login or the API): the "API login list"
  await audited(db.schema.createTable('sys_visitor_login'))
    .addColumn('visitor_id', 'varchar(36)')
    .addColumn('visitor_name', 'varchar(100)')
    .addColumn('account_masked', 'varchar(64)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('method', 'varchar(16)', (c) => c.notNull())
    .addColumn('result', 'integer', (c) => c.notNull())
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
}

export const visitTables: Migration = { up };
