import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/** Data rules of groups (the ones a group may hand to its roles) and of group roles (the ones that apply). */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_depart_data_rule'))
    .addColumn('depart_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('permission_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('rule_id', 'varchar(36)', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_depart_data_rule', ['depart_id', 'rule_id'])
    .execute();
  await db.schema.createIndex('idx_sys_depart_data_rule_permission').on('sys_depart_data_rule').columns(['permission_id', 'depart_id']).execute();

  await audited(db.schema.createTable('sys_depart_role_data_rule'))
    .addColumn('depart_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('role_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('permission_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('rule_id', 'varchar(36)', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_depart_role_data_rule', ['role_id', 'rule_id'])
    .execute();
  await db.schema.createIndex('idx_sys_depart_role_data_rule_permission').on('sys_depart_role_data_rule').columns(['permission_id', 'role_id']).execute();
}

export const departDataRuleTables: Migration = { up };
