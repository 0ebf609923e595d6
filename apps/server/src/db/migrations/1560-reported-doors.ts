import { DEVICE_CREATOR } from '@isps/contract';
import type { Migration } from 'kysely';
import type { AnyDb } from './table-helpers.ts';

/**
 * A door controller's doors are created from its hello once: the device remembers how many doors it has reported, so
 * a door the operator deleted (a lock not wired, say) does not come back at the next hello; a controller that later
 * reports more doors gets the new numbers only. Devices that reported doors before this release count the doors
 * their hellos created.
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_device').addColumn('reported_doors', 'integer').execute();
  const created = await db.selectFrom('sys_door').select(['device_id', 'door_no']).where('create_by', '=', DEVICE_CREATOR).execute();
  const most = new Map<string, number>();
  for (const door of created) most.set(String(door.device_id), Math.max(most.get(String(door.device_id)) ?? 0, Number(door.door_no)));
  for (const [deviceId, doors] of most) await db.updateTable('sys_device').set({ reported_doors: doors }).where('id', '=', deviceId).execute();
}

export const reportedDoors: Migration = { up };
