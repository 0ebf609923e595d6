import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/** The links of a device role, one table each: what it binds (areas, devices, doors, keys) and who holds it. */
const LINKS = [
  ['sys_device_role_area', 'area_id'],
  ['sys_device_role_device', 'device_id'],
  ['sys_device_role_door', 'door_id'],
  // keys and people have no screen yet: their ids are kept without a foreign key, like every link here
  ['sys_device_role_key', 'key_id'],
  ['sys_device_role_depart', 'depart_id'],
  ['sys_device_role_user', 'user_id'],
  ['sys_device_role_people', 'people_id'],
] as const;

/**
 * Device roles (door access, device manager, attendance, patrol): a name unique per tenant, a type, a time setting
 * (JSON text, see the contract's time-setting), and its links.
 */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_device_role'))
    .addColumn('role_name', 'varchar(30)', (c) => c.notNull())
    .addColumn('role_type', 'varchar(2)', (c) => c.notNull().defaultTo('1'))
    .addColumn('time_setting', 'varchar(2000)', (c) => c.notNull())
    .addColumn('remark', 'varchar(500)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_device_role_tenant').on('sys_device_role').columns(['tenant_id', 'create_time']).execute();
  await db.schema.createIndex('idx_sys_device_role_name').on('sys_device_role').columns(['tenant_id', 'role_name']).execute();
  for (const [table, target] of LINKS) {
    await audited(db.schema.createTable(table))
      .addColumn('role_id', 'varchar(36)', (c) => c.notNull())
      .addColumn(target, 'varchar(36)', (c) => c.notNull())
      .addUniqueConstraint(`uq_${table}`, ['role_id', target])
      .execute();
    await db.schema.createIndex(`idx_${table}_target`).on(table).column(target).execute();
  }
}

export const deviceRoleTables: Migration = { up };
