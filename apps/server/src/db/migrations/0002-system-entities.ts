import { randomUUID } from 'node:crypto';
import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';


/** Dictionaries the new screens use; inserted here so both new and existing consoles get them. */
const dictionaries: ReadonlyArray<{ code: string; name: string; items: ReadonlyArray<readonly [string, string]> }> = [
  { code: 'post_rank', name: 'Post rank', items: [['1', 'Staff'], ['2', 'Team leader'], ['3', 'Manager'], ['4', 'Director'], ['5', 'Executive']] },
  { code: 'tenant_status', name: 'Tenant status', items: [['1', 'Normal'], ['0', 'Frozen']] },
  { code: 'database_type', name: 'Database type', items: [['postgresql', 'PostgreSQL'], ['mysql', 'MySQL'], ['mariadb', 'MariaDB']] },
];

/** Screens built on the CRUD engine: shown with a route from now on (consoles seeded before this migration). */
const shownScreens = ['position', 'vendor', 'category', 'tenant', 'dict', 'dictItem', 'checkRule', 'fillRule', 'dataSource', 'addressBook'];
const addedButtons: ReadonlyArray<readonly [screen: string, code: string]> = [['dict', 'system:dict:recycleBin']];

async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_position'))
    .addColumn('code', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('post_rank', 'varchar(100)', (c) => c.notNull())
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_position_tenant_code').on('sys_position').columns(['tenant_id', 'code']).execute();

  await audited(db.schema.createTable('sys_vendor'))
    .addColumn('trade_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('gather_offset', 'integer')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_vendor_tenant').on('sys_vendor').column('tenant_id').execute();

  await audited(db.schema.createTable('sys_category'))
    .addColumn('pid', 'varchar(36)')
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('code', 'varchar(64)', (c) => c.notNull())
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_category_tenant_code').on('sys_category').columns(['tenant_id', 'code']).execute();
  await db.schema.createIndex('idx_sys_category_pid').on('sys_category').column('pid').execute();

  await audited(db.schema.createTable('sys_check_rule'))
    .addColumn('rule_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('rule_code', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('rule_json', 'text', (c) => c.notNull())
    .addColumn('rule_description', 'varchar(255)')
    .execute();

  await audited(db.schema.createTable('sys_fill_rule'))
    .addColumn('rule_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('rule_code', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('rule_class', 'varchar(100)', (c) => c.notNull())
    .addColumn('rule_params', 'text')
    .execute();

  await audited(db.schema.createTable('sys_data_source'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('code', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('db_type', 'varchar(100)', (c) => c.notNull())
    .addColumn('db_driver', 'varchar(100)')
    .addColumn('db_url', 'varchar(500)', (c) => c.notNull())
    .addColumn('db_name', 'varchar(100)')
    .addColumn('db_username', 'varchar(100)', (c) => c.notNull())
    .addColumn('db_password', 'varchar(500)')
    .addColumn('remark', 'varchar(500)')
    .execute();

  const now = new Date().toISOString();
  const audit = { create_by: 'system', create_time: now, update_by: null, update_time: null };
  for (const dict of dictionaries) {
    const existing = await db.selectFrom('sys_dict').select('id').where('dict_code', '=', dict.code).executeTakeFirst();
    if (existing) continue;
    const dictId = randomUUID();
    await db.insertInto('sys_dict').values({ ...audit, id: dictId, dict_name: dict.name, dict_code: dict.code, description: dict.name, del_flag: 0 }).execute();
    await db
      .insertInto('sys_dict_item')
      .values(dict.items.map(([value, text], index) => ({ ...audit, id: randomUUID(), dict_id: dictId, item_text: text, item_value: value, description: null, sort_order: index + 1, status: 1 })))
      .execute();
  }

  // a console seeded before this migration: show the new screens and add their new buttons for the admin role
  const urls = shownScreens.map((s) => `/system/${s}`);
  await db.updateTable('sys_permission').set({ is_route: 1, hidden: 0 }).where('url', 'in', [...urls, '/system']).where('menu_type', 'in', [0, 1]).execute();
  const adminRole = await db.selectFrom('sys_role').select('id').where('role_code', '=', 'admin').executeTakeFirst();
  for (const [screen, code] of addedButtons) {
    const parent = await db.selectFrom('sys_permission').select('id').where('url', '=', `/system/${screen}`).where('menu_type', '=', 1).executeTakeFirst();
    const exists = await db.selectFrom('sys_permission').select('id').where('perms', '=', code).executeTakeFirst();
    if (!parent || exists) continue;
    const id = randomUUID();
    await db
      .insertInto('sys_permission')
      .values({ ...audit, id, parent_id: parent.id, name: `${code.split(':').pop()} (system/${screen})`, url: null, component: null, component_name: null, redirect: null, menu_type: 2, perms: code, perms_type: '1', sort_no: 99, always_show: 0, icon: null, is_route: 0, is_leaf: 1, keep_alive: 0, hidden: 0, internal_or_external: 0, status: '1', del_flag: 0 })
      .execute();
    if (adminRole) await db.insertInto('sys_role_permission').values({ ...audit, id: randomUUID(), role_id: adminRole.id, permission_id: id }).execute();
  }
}

export const systemEntityTables: Migration = { up };
