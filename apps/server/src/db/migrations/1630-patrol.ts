import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * Patrol (SPEC section 2 "watch", section 3 "Group", "Patrol route", "Patrol device"): routes and their points (the
 * patrol devices with their watch times), missions giving a route to a patrol group, the dated tasks made of them,
 * each task's point checks (quests), and the check-ins of the patrol devices. Groups get the patrol-group flag and
 * a time setting.
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_depart').addColumn('patrol_group', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('sys_depart').addColumn('time_setting', 'varchar(2000)').execute();

  await audited(db.schema.createTable('sys_patrol_route'))
    .addColumn('route_name', 'varchar(50)', (c) => c.notNull())
    .addColumn('description', 'varchar(500)')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    // delStatus: 0 normal, 1 deleted
    .addColumn('del_flag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('week_day', 'varchar(20)', (c) => c.notNull())
    .addColumn('in_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tolerance', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_patrol_route_tenant').on('sys_patrol_route').columns(['tenant_id', 'del_flag', 'create_time']).execute();

  await audited(db.schema.createTable('sys_patrol_point'))
    .addColumn('route_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('place_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('watch_time', 'varchar(5)', (c) => c.notNull())
    .addColumn('sort_no', 'integer', (c) => c.notNull())
    .addColumn('description', 'varchar(500)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_patrol_point_route').on('sys_patrol_point').columns(['route_id', 'sort_no']).execute();
  await db.schema.createIndex('idx_sys_patrol_point_device').on('sys_patrol_point').columns(['device_id']).execute();

  await audited(db.schema.createTable('sys_patrol_mission'))
    .addColumn('mission_name', 'varchar(50)', (c) => c.notNull())
    .addColumn('route_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('depart_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'varchar(500)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_patrol_mission_route').on('sys_patrol_mission').columns(['route_id']).execute();

  await audited(db.schema.createTable('sys_patrol_task'))
    .addColumn('mission_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('route_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('depart_id', 'varchar(36)')
    .addColumn('task_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('done_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('missed_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('in_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('start_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('end_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('tenant_id', 'varchar(36)')
    // one task per mission and day, whichever server makes it
    .addUniqueConstraint('uq_sys_patrol_task_day', ['mission_id', 'task_date'])
    .execute();
  await db.schema.createIndex('idx_sys_patrol_task_tenant').on('sys_patrol_task').columns(['tenant_id', 'task_date']).execute();
  await db.schema.createIndex('idx_sys_patrol_task_start').on('sys_patrol_task').columns(['start_time']).execute();

  await audited(db.schema.createTable('sys_patrol_quest'))
    .addColumn('task_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('point_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('place_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('sort_no', 'integer', (c) => c.notNull())
    .addColumn('task_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('expected_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('window_start', 'varchar(32)', (c) => c.notNull())
    .addColumn('window_end', 'varchar(32)', (c) => c.notNull())
    .addColumn('late_until', 'varchar(32)', (c) => c.notNull())
    .addColumn('result', 'varchar(16)', (c) => c.notNull())
    .addColumn('out_of_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('check_time', 'varchar(32)')
    .addColumn('user_no', 'varchar(64)')
    .addColumn('people_id', 'varchar(36)')
    .addColumn('record_id', 'varchar(36)')
    // set once, by the statement that marks the point missed
    .addColumn('alarm_id', 'varchar(36)')
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_patrol_quest_task').on('sys_patrol_quest').columns(['task_id', 'sort_no']).execute();
  await db.schema.createIndex('idx_sys_patrol_quest_device').on('sys_patrol_quest').columns(['device_id', 'task_date', 'result']).execute();
  await db.schema.createIndex('idx_sys_patrol_quest_open').on('sys_patrol_quest').columns(['result', 'late_until']).execute();
  await db.schema.createIndex('idx_sys_patrol_quest_expected').on('sys_patrol_quest').columns(['tenant_id', 'expected_time']).execute();

  await audited(db.schema.createTable('sys_patrol_record'))
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('check_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('point', 'varchar(64)')
    .addColumn('point_id', 'varchar(36)')
    .addColumn('user_no', 'varchar(64)')
    .addColumn('people_id', 'varchar(36)')
    .addColumn('result', 'varchar(16)', (c) => c.notNull())
    .addColumn('guard', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('task_id', 'varchar(36)')
    .addColumn('quest_id', 'varchar(36)')
    .addColumn('tenant_id', 'varchar(36)')
    .addUniqueConstraint('uq_sys_patrol_record', ['device_id', 'seq'])
    .execute();
  await db.schema.createIndex('idx_sys_patrol_record_tenant').on('sys_patrol_record').columns(['tenant_id', 'check_time']).execute();
}

export const patrolTables: Migration = { up };
