import { createHash } from 'node:crypto';
import type { DoorScheduleEntry } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface DeviceSchedules {
  doors: DoorScheduleEntry[];
  version: string;
}

/**
 * The schedule list of each of `deviceIds`: its doors named by an enabled schedule, in door order, each with the time
 * settings of those schedules (sorted, so the same schedules give the same version). A device with no scheduled door
 * gets an empty list, which unlocks nothing.
 */
export async function computeDoorSchedules(db: Kysely<Database>, deviceIds: readonly string[], timeZone: string): Promise<Map<string, DeviceSchedules>> {
  const out = new Map<string, DeviceSchedules>();
  if (deviceIds.length === 0) return out;
  const rows = await db
    .selectFrom('sys_door_schedule_door as sd')
    .innerJoin('sys_door_schedule as s', 's.id', 'sd.schedule_id')
    .innerJoin('sys_door as d', 'd.id', 'sd.door_id')
    .select(['d.device_id', 'd.door_no', 's.time_setting'])
    .where('s.enabled', '=', 1)
    .where('d.device_id', 'in', deviceIds)
    .execute();
  const byDevice = new Map<string, Map<number, string[]>>();
  for (const row of rows) {
    const doors = byDevice.get(row.device_id) ?? new Map<number, string[]>();
    byDevice.set(row.device_id, doors);
    doors.set(Number(row.door_no), [...(doors.get(Number(row.door_no)) ?? []), row.time_setting]);
  }
  for (const deviceId of deviceIds) {
    const doors = [...(byDevice.get(deviceId) ?? new Map<number, string[]>()).entries()].sort(([a], [b]) => a - b).map(([door, times]) => ({ door, times: [...new Set(times)].sort() }));
    const version = createHash('sha1').update(JSON.stringify([timeZone, doors])).digest('hex');
    out.set(deviceId, { doors, version });
  }
  return out;
}
