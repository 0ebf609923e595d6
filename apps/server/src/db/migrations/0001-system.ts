import type { Kysely, Migration } from 'kysely';
import { audited } from './table-helpers.ts';


// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function up(db: Kysely<any>): Promise<void> {
  await audited(db.schema.createTable('sys_tenant'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('code', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('begin_date', 'varchar(32)')
    .addColumn('end_date', 'varchar(32)')
    .addColumn('status', 'integer', (c) => c.notNull())
    .execute();

  await audited(db.schema.createTable('sys_user'))
    .addColumn('username', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('realname', 'varchar(100)', (c) => c.notNull())
    .addColumn('nickname', 'varchar(100)')
    .addColumn('password', 'varchar(255)', (c) => c.notNull())
    .addColumn('avatar', 'varchar(255)')
    .addColumn('birthday', 'varchar(32)')
    .addColumn('sex', 'integer')
    .addColumn('email', 'varchar(100)')
    .addColumn('phone', 'varchar(45)')
    .addColumn('org_code', 'varchar(64)')
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('del_flag', 'integer', (c) => c.notNull())
    .addColumn('work_no', 'varchar(100)')
    .addColumn('must_change_password', 'integer', (c) => c.notNull())
    .addColumn('tenant_id', 'varchar(36)')
    .execute();

  await audited(db.schema.createTable('sys_role'))
    .addColumn('role_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('role_code', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('role_type', 'integer', (c) => c.notNull())
    .addColumn('description', 'varchar(255)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();

  await audited(db.schema.createTable('sys_user_role'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('role_id', 'varchar(36)', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_user_role', ['user_id', 'role_id'])
    .execute();
  await db.schema.createIndex('idx_sys_user_role_role').on('sys_user_role').column('role_id').execute();

  await audited(db.schema.createTable('sys_permission'))
    .addColumn('parent_id', 'varchar(36)')
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('url', 'varchar(255)')
    .addColumn('component', 'varchar(255)')
    .addColumn('component_name', 'varchar(100)')
    .addColumn('redirect', 'varchar(255)')
    .addColumn('menu_type', 'integer', (c) => c.notNull())
    .addColumn('perms', 'varchar(255)')
    .addColumn('perms_type', 'varchar(10)')
    .addColumn('sort_no', 'integer', (c) => c.notNull())
    .addColumn('always_show', 'integer', (c) => c.notNull())
    .addColumn('icon', 'varchar(100)')
    .addColumn('is_route', 'integer', (c) => c.notNull())
    .addColumn('is_leaf', 'integer', (c) => c.notNull())
    .addColumn('keep_alive', 'integer', (c) => c.notNull())
    .addColumn('hidden', 'integer', (c) => c.notNull())
    .addColumn('internal_or_external', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(2)', (c) => c.notNull())
    .addColumn('del_flag', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_sys_permission_parent').on('sys_permission').column('parent_id').execute();

  await audited(db.schema.createTable('sys_role_permission'))
    .addColumn('role_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('permission_id', 'varchar(36)', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_role_permission', ['role_id', 'permission_id'])
    .execute();

  await audited(db.schema.createTable('sys_depart'))
    .addColumn('parent_id', 'varchar(36)')
    .addColumn('depart_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('org_code', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('org_type', 'varchar(10)')
    .addColumn('depart_order', 'integer', (c) => c.notNull())
    .addColumn('mobile', 'varchar(32)')
    .addColumn('address', 'varchar(255)')
    .addColumn('memo', 'varchar(500)')
    .addColumn('del_flag', 'integer', (c) => c.notNull())
    .addColumn('tenant_id', 'varchar(36)')
    .execute();

  await audited(db.schema.createTable('sys_user_depart'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('dep_id', 'varchar(36)', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_user_depart', ['user_id', 'dep_id'])
    .execute();

  await audited(db.schema.createTable('sys_dict'))
    .addColumn('dict_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('dict_code', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('description', 'varchar(255)')
    .addColumn('del_flag', 'integer', (c) => c.notNull())
    .execute();

  await audited(db.schema.createTable('sys_dict_item'))
    .addColumn('dict_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('item_text', 'varchar(100)', (c) => c.notNull())
    .addColumn('item_value', 'varchar(100)', (c) => c.notNull())
    .addColumn('description', 'varchar(255)')
    .addColumn('sort_order', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_sys_dict_item_dict').on('sys_dict_item').column('dict_id').execute();

  await audited(db.schema.createTable('sys_user_token'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_sys_user_token_user').on('sys_user_token').column('user_id').execute();

  await audited(db.schema.createTable('sys_log'))
    .addColumn('log_type', 'integer', (c) => c.notNull())
    .addColumn('operate_type', 'integer', (c) => c.notNull())
    .addColumn('content', 'varchar(1000)', (c) => c.notNull())
    .addColumn('userid', 'varchar(36)')
    .addColumn('username', 'varchar(100)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('cost_time', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_sys_log_type_time').on('sys_log').columns(['log_type', 'create_time']).execute();
}

export const systemTables: Migration = { up };
