import { DeviceEventKind, DOOR_STATE_NAMES, DoorPerm, RealtimeCmd, type DeviceEvent, type DoorState, type DoorStateNotice } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { RealtimeHub } from '../platform/realtime/index.ts';
import { tenantUsersHolding } from './permission-holders.ts';

/** Who sees door states: the holders of the door screen or the door status page. */
const DOOR_READERS = [DoorPerm.list, DoorPerm.statusView];

function stateOf(event: DeviceEvent): { doorNo: number; state: DoorState } | null {
  if (event.kind !== DeviceEventKind.doorState) return null;
  const { door, state } = event.data as { door?: unknown; state?: unknown };
  const value = DOOR_STATE_NAMES.indexOf(state as (typeof DOOR_STATE_NAMES)[number]);
  if (typeof door !== 'number' || !Number.isInteger(door) || value < 0) return null;
  return { doorNo: door, state: value as DoorState };
}

/**
 * Door state from device events: the door row (device, door number) takes the state of the latest event by device
 * time (a late or repeated delivery changes nothing), and the tenant's door readers get a `doorState` message. `apply`
 * runs in the transaction that stores the events; `notify` sends what changed once it is committed (a door changed
 * twice meanwhile is sent once, in its last state).
 */
export class DoorStates {
  private changed = new Map<string, { tenantId: string | null; door: DoorStateNotice['doors'][number] }>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly hub: RealtimeHub,
  ) {}

  async apply(db: Kysely<Database>, device: { id: string; tenantId: string | null }, events: readonly DeviceEvent[]): Promise<void> {
    const latest = new Map<number, { state: DoorState; time: number }>();
    for (const event of events) {
      const parsed = stateOf(event);
      if (!parsed) continue;
      const current = latest.get(parsed.doorNo);
      if (!current || event.time >= current.time) latest.set(parsed.doorNo, { state: parsed.state, time: event.time });
    }
    for (const [doorNo, { state, time }] of latest) {
      const stateTime = new Date(time).toISOString();
      const result = await db
        .updateTable('sys_door')
        .set({ state, state_time: stateTime })
        .where('device_id', '=', device.id)
        .where('door_no', '=', doorNo)
        .where((eb) => eb.or([eb('state_time', 'is', null), eb('state_time', '<', stateTime)]))
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) continue;
      const door = await db.selectFrom('sys_door').select(['id', 'door_name']).where('device_id', '=', device.id).where('door_no', '=', doorNo).executeTakeFirst();
      if (door) this.changed.set(door.id, { tenantId: device.tenantId, door: { id: door.id, doorName: door.door_name, deviceId: device.id, state, stateTime } });
    }
  }

  /** Tells each tenant's door readers of the doors changed since the last call (one message per tenant). */
  async notify(): Promise<void> {
    if (this.changed.size === 0) return;
    const byTenant = new Map<string, DoorStateNotice['doors']>();
    for (const { tenantId, door } of this.changed.values()) {
      if (tenantId === null) continue;
      const doors = byTenant.get(tenantId) ?? [];
      doors.push(door);
      byTenant.set(tenantId, doors);
    }
    this.changed = new Map();
    for (const [tenantId, doors] of byTenant) {
      const users = await tenantUsersHolding(this.db, tenantId, DOOR_READERS);
      const [first] = doors as [DoorStateNotice['doors'][number]];
      await this.hub.sendToUsers(users, { cmd: RealtimeCmd.doorState, msgId: doors.length === 1 ? first.id : undefined, msgTxt: first.doorName, data: { doors } satisfies DoorStateNotice });
    }
  }
}
