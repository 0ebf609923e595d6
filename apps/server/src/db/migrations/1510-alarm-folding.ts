import { sql, type Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * Alarms fold: the repeats of one code on one device join the alarm of that code not yet closed, which counts them
 * (`alarm_count`) and keeps the last one's time (`last_time`). `open_key` (device id and code) is set while the alarm
 * is not closed and is unique, so concurrent repeats on any server and database join one row; closing clears it.
 * `area_id` is the device's area when the alarm was raised (handled by area). Each alarm event is kept once by
 * device and sequence number in `sys_device_alarm_event`, so a repeated delivery is never counted twice. The open
 * alarms stored before are folded the same way.
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_device_alarm').addColumn('alarm_count', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('sys_device_alarm').addColumn('last_time', 'varchar(32)').execute();
  await db.schema.alterTable('sys_device_alarm').addColumn('open_key', 'varchar(110)').execute();
  await db.schema.alterTable('sys_device_alarm').addColumn('area_id', 'varchar(36)').execute();

  await audited(db.schema.createTable('sys_device_alarm_event'))
    .addColumn('device_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('event_seq', 'bigint', (c) => c.notNull())
    .addColumn('tenant_id', 'varchar(36)')
    .addUniqueConstraint('uq_sys_device_alarm_event_seq', ['device_id', 'event_seq'])
    .execute();
  // the events of the alarms stored so far are known already (an alarm row's id is unique, so it serves as theirs)
  await sql`insert into sys_device_alarm_event (id, create_by, create_time, device_id, event_seq, tenant_id) select id, create_by, create_time, device_id, event_seq, tenant_id from sys_device_alarm`.execute(db);

  await sql`update sys_device_alarm set last_time = alarm_time`.execute(db);
  await sql`update sys_device_alarm set area_id = (select d.area_id from sys_device d where d.id = sys_device_alarm.device_id)`.execute(db);

  // the alarms not closed, folded per device and code into the first of them
  const groups = await db
    .selectFrom('sys_device_alarm')
    .select(['device_id', 'code'])
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.max('alarm_time').as('last'), eb.fn.min('state').as('state')])
    .where('state', '<>', 2)
    .groupBy(['device_id', 'code'])
    .execute();
  for (const group of groups as Array<{ device_id: string; code: string; n: number | string; last: string; state: number | string }>) {
    const rows = await db
      .selectFrom('sys_device_alarm')
      .select('id')
      .where('device_id', '=', group.device_id)
      .where('code', '=', group.code)
      .where('state', '<>', 2)
      .orderBy('alarm_time')
      .orderBy('id')
      .execute();
    const [keeper, ...rest] = rows as Array<{ id: string }>;
    if (!keeper) continue;
    await db
      .updateTable('sys_device_alarm')
      .set({ alarm_count: Number(group.n), last_time: group.last, state: Number(group.state), open_key: openKey(group.device_id, group.code) })
      .where('id', '=', keeper.id)
      .execute();
    for (let i = 0; i < rest.length; i += 500) {
      await db
        .deleteFrom('sys_device_alarm')
        .where(
          'id',
          'in',
          rest.slice(i, i + 500).map((r) => r.id),
        )
        .execute();
    }
  }
  await db.schema.createIndex('uq_sys_device_alarm_open').on('sys_device_alarm').column('open_key').unique().execute();
}

/** The key of the one alarm of a device and code not yet closed (the same text as the gateway's). */
function openKey(deviceId: string, code: string): string {
  return `${deviceId}|${code}`;
}

export const alarmFolding: Migration = { up };
