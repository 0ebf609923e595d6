import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * Time and attendance (SPEC section 2 "OA rule, attendance, monthly statistics"): the rules and the groups they apply
 * to, each counted punch (with the site-local day and minute it fell on, so the monthly SQL does integer arithmetic
 * only), a per-rule calendar of the days being computed, the daily results and the monthly statistics. A device's
 * clock offset is measured at hello and heartbeat.
 */
async function up(db: AnyDb): Promise<void> {
  // device clock minus server clock, in milliseconds (positive: the device is fast)
  await db.schema.alterTable('sys_device').addColumn('clock_offset_ms', 'bigint').execute();

  let rule = audited(db.schema.createTable('sys_attendance_rule'))
    .addColumn('rule_name', 'varchar(50)', (c) => c.notNull())
    .addColumn('work_time', 'varchar(5)', (c) => c.notNull())
    .addColumn('off_work_time', 'varchar(5)', (c) => c.notNull())
    .addColumn('absent_minutes', 'integer', (c) => c.notNull().defaultTo(120))
    .addColumn('rest_weekdays', 'varchar(20)')
    .addColumn('duplicate_seconds', 'integer', (c) => c.notNull().defaultTo(60));
  for (const festival of ['fest_new_year', 'fest_spring', 'fest_ching_ming', 'fest_may_day', 'fest_dragon_boat', 'fest_mid_autumn', 'fest_national_day', 'holidays', 'workdays']) {
    // text: nine columns of 2,000 characters pass MySQL's 65,535-byte row limit in utf8mb4
    rule = rule.addColumn(festival, 'text');
  }
  await rule.addColumn('remark', 'varchar(500)').addColumn('tenant_id', 'varchar(36)').execute();
  await db.schema.createIndex('idx_sys_attendance_rule_tenant').on('sys_attendance_rule').columns(['tenant_id']).execute();

  await audited(db.schema.createTable('sys_attendance_rule_depart'))
    .addColumn('rule_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('depart_id', 'varchar(36)', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_attendance_rule_depart', ['depart_id'])
    .execute();
  await db.schema.createIndex('idx_sys_attendance_rule_depart_rule').on('sys_attendance_rule_depart').columns(['rule_id']).execute();

  await audited(db.schema.createTable('sys_attendance_punch'))
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('people_id', 'varchar(36)', (c) => c.notNull())
    // corrected by the device's clock offset; raw_time is the device's own
    .addColumn('punch_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('raw_time', 'varchar(32)', (c) => c.notNull())
    // days since 1970-01-01 and minute of that day, both of the site's zone
    .addColumn('day_index', 'integer', (c) => c.notNull())
    .addColumn('minute', 'integer', (c) => c.notNull())
    .addColumn('source', 'varchar(16)', (c) => c.notNull())
    .addColumn('duplicate', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tenant_id', 'varchar(36)')
    .addUniqueConstraint('uq_sys_attendance_punch', ['device_id', 'seq'])
    .execute();
  // covers the month's statistics: the punches' minutes by person and day, read without the table
  await db.schema.createIndex('idx_sys_attendance_punch_day').on('sys_attendance_punch').columns(['tenant_id', 'day_index', 'people_id', 'duplicate', 'minute']).execute();
  await db.schema.createIndex('idx_sys_attendance_punch_people').on('sys_attendance_punch').columns(['people_id', 'punch_time']).execute();

  await audited(db.schema.createTable('sys_attendance_calendar'))
    .addColumn('rule_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('day_index', 'integer', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('month', 'varchar(7)', (c) => c.notNull())
    // 0 working day, 1 holiday or festival, 2 rest day
    .addColumn('kind', 'integer', (c) => c.notNull())
    // minutes of the shift, counted from the midnight the shift day began (an overnight shift ends past 1440)
    .addColumn('work_min', 'integer', (c) => c.notNull())
    .addColumn('off_min', 'integer', (c) => c.notNull())
    .addColumn('absent_min', 'integer', (c) => c.notNull())
    // punches before this minute of a day belong to the shift of the day before (0: none)
    .addColumn('split_min', 'integer', (c) => c.notNull())
    .addColumn('tenant_id', 'varchar(36)')
    .addUniqueConstraint('uq_sys_attendance_calendar', ['rule_id', 'day_index'])
    .execute();
  await db.schema.createIndex('idx_sys_attendance_calendar_tenant').on('sys_attendance_calendar').columns(['tenant_id', 'day_index']).execute();

  await db.schema
    .createTable('sys_attendance_day')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_time', 'varchar(32)')
    .addColumn('update_by', 'varchar(64)')
    .addColumn('update_time', 'varchar(32)')
    .addColumn('people_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('depart_id', 'varchar(36)')
    .addColumn('rule_id', 'varchar(36)')
    .addColumn('day_index', 'integer', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('month', 'varchar(7)', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('check_in', 'varchar(32)')
    .addColumn('check_out', 'varchar(32)')
    .addColumn('punch_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('corrected', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('correction_reason', 'varchar(200)')
    .addColumn('tenant_id', 'varchar(36)')
    // led by the tenant, it is also the index of the list's search by person
    .addUniqueConstraint('uq_sys_attendance_day', ['tenant_id', 'people_id', 'day_index'])
    .execute();
  await db.schema.createIndex('idx_sys_attendance_day_month').on('sys_attendance_day').columns(['tenant_id', 'month', 'people_id']).execute();

  await db.schema
    .createTable('sys_attendance_month')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_time', 'varchar(32)')
    .addColumn('update_by', 'varchar(64)')
    .addColumn('update_time', 'varchar(32)')
    .addColumn('month', 'varchar(7)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('user_name', 'varchar(100)')
    .addColumn('depart_id', 'varchar(36)')
    .addColumn('work_days', 'integer', (c) => c.notNull())
    .addColumn('normal_count', 'integer', (c) => c.notNull())
    .addColumn('late_count', 'integer', (c) => c.notNull())
    .addColumn('absense_count', 'integer', (c) => c.notNull())
    .addColumn('leave_early_count', 'integer', (c) => c.notNull())
    .addColumn('miss_card_count', 'integer', (c) => c.notNull())
    .addColumn('tenant_id', 'varchar(36)')
    .addUniqueConstraint('uq_sys_attendance_month', ['user_id', 'month'])
    .execute();
  await db.schema.createIndex('idx_sys_attendance_month_tenant').on('sys_attendance_month').columns(['tenant_id', 'month']).execute();
}

export const attendanceTables: Migration = { up };
