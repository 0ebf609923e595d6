import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/** Data rules per menu, and which roles hold which of them. */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_permission_data_rule'))
    .addColumn('permission_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('rule_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('rule_column', 'varchar(100)', (c) => c.notNull())
    .addColumn('rule_conditions', 'varchar(10)', (c) => c.notNull())
    .addColumn('rule_value', 'varchar(300)', (c) => c.notNull())
    .addColumn('status', 'varchar(2)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_sys_data_rule_permission').on('sys_permission_data_rule').column('permission_id').execute();
  await audited(db.schema.createTable('sys_role_data_rule'))
    .addColumn('role_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('permission_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('rule_id', 'varchar(36)', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_role_data_rule', ['role_id', 'rule_id'])
    .execute();
  await db.schema.createIndex('idx_sys_role_data_rule_permission').on('sys_role_data_rule').columns(['permission_id', 'role_id']).execute();
}

export const dataRuleTables: Migration = { up };
