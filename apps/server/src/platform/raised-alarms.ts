import { AlarmState, DEVICE_CREATOR } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** An alarm the console raises itself on a device's behalf (an overdue key, a missed patrol point). */
export interface RaisedAlarm {
  id: string;
  deviceId: string;
  /** the device event it stands for; unique per device */
  eventSeq: number;
  code: string;
  level: 'L' | 'M' | 'H';
  tenantId: string | null;
  /** ISO time it is raised at */
  at: string;
}

/**
 * Writes an open alarm in the transaction that decided to raise it (`trx`), in the device's area. It is never folded
 * into another: each raised alarm stands for one thing that went wrong.
 */
export async function insertRaisedAlarm(trx: Kysely<Database>, alarm: RaisedAlarm): Promise<void> {
  const device = await trx.selectFrom('sys_device').select('area_id').where('id', '=', alarm.deviceId).executeTakeFirst();
  await trx
    .insertInto('sys_device_alarm')
    .values({
      id: alarm.id,
      create_by: DEVICE_CREATOR,
      create_time: alarm.at,
      update_by: null,
      update_time: null,
      device_id: alarm.deviceId,
      event_seq: alarm.eventSeq,
      code: alarm.code,
      level: alarm.level,
      state: AlarmState.open,
      alarm_time: alarm.at,
      handled_by: null,
      handled_time: null,
      tenant_id: alarm.tenantId,
      alarm_count: 1,
      last_time: alarm.at,
      open_key: null,
      area_id: device?.area_id ?? null,
    })
    .execute();
}
