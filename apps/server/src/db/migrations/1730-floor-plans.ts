import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * Floor plans (issue 31): an area's plan image (a stored upload's path) and where its doors and devices sit on it,
 * as ten-thousandths of the image's width and height (whole numbers alike on every engine; the API speaks fractions).
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_area').addColumn('floor_plan', 'varchar(255)').execute();
  await audited(db.schema.createTable('sys_floor_plan_item'))
    .addColumn('area_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('item_kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('item_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('x', 'integer', (c) => c.notNull())
    .addColumn('y', 'integer', (c) => c.notNull())
    .addColumn('tenant_id', 'varchar(36)')
    .addUniqueConstraint('uq_sys_floor_plan_item', ['area_id', 'item_kind', 'item_id'])
    .execute();
  await db.schema.createIndex('idx_sys_floor_plan_item_tenant').on('sys_floor_plan_item').columns(['tenant_id', 'area_id']).execute();
}

export const floorPlanTables: Migration = { up };
