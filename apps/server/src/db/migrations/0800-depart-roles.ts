import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/** Group permissions, group roles, the permissions of group roles and the users holding them. */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_depart_permission'))
    .addColumn('depart_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('permission_id', 'varchar(36)', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_depart_permission', ['depart_id', 'permission_id'])
    .execute();
  await db.schema.createIndex('idx_sys_depart_permission_permission').on('sys_depart_permission').column('permission_id').execute();

  await audited(db.schema.createTable('sys_depart_role'))
    .addColumn('depart_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('role_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('role_code', 'varchar(126)', (c) => c.notNull())
    .addColumn('description', 'varchar(255)')
    .addColumn('tenant_id', 'varchar(36)')
    .addUniqueConstraint('uq_sys_depart_role_code', ['depart_id', 'role_code'])
    .execute();

  await audited(db.schema.createTable('sys_depart_role_permission'))
    .addColumn('depart_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('role_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('permission_id', 'varchar(36)', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_depart_role_permission', ['role_id', 'permission_id'])
    .execute();
  await db.schema.createIndex('idx_sys_depart_role_permission_depart').on('sys_depart_role_permission').columns(['depart_id', 'permission_id']).execute();

  await audited(db.schema.createTable('sys_depart_role_user'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('drole_id', 'varchar(36)', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_depart_role_user', ['user_id', 'drole_id'])
    .execute();
  await db.schema.createIndex('idx_sys_depart_role_user_role').on('sys_depart_role_user').column('drole_id').execute();
}

export const departRoleTables: Migration = { up };
