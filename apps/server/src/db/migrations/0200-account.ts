import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';


/** Account security (system settings, authenticator secrets, activation codes) and the visitor area. */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_setting'))
    .addColumn('setting_key', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('setting_value', 'varchar(500)')
    .execute();

  await audited(db.schema.createTable('sys_user_totp'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().unique())
    // sealed with the secret box: a database dump alone does not yield working codes
    .addColumn('secret', 'varchar(255)', (c) => c.notNull())
    .addColumn('confirmed', 'integer', (c) => c.notNull())
    // the last accepted 30-second step: a code is accepted once
    .addColumn('last_step', 'integer')
    .execute();

  await audited(db.schema.createTable('sys_activation_code'))
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('authorized_until', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(32)')
    .execute();

  await audited(db.schema.createTable('sys_visitor'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('id_card', 'varchar(18)', (c) => c.notNull())
    .addColumn('phone', 'varchar(45)', (c) => c.notNull())
    .addColumn('password', 'varchar(255)', (c) => c.notNull())
    .addColumn('category', 'varchar(20)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(36)')
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('del_flag', 'integer', (c) => c.notNull())
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_visitor_phone').on('sys_visitor').column('phone').execute();
  await db.schema.createIndex('idx_sys_visitor_id_card').on('sys_visitor').column('id_card').execute();

  await audited(db.schema.createTable('sys_visitor_token'))
    .addColumn('visitor_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_sys_visitor_token_visitor').on('sys_visitor_token').column('visitor_id').execute();
}

export const accountTables: Migration = { up };
