import { DoorScheduleCommandKind, DeviceCommandStatus, type SyncDoorSchedulesPayload } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { DeviceGateway } from '../../gateway/gateway.ts';
import { FollowedSync } from '../../platform/change-follower.ts';
import { computeDoorSchedules } from './schedule-lists.ts';

/** Writes to these tables can change which doors of a device stand unlocked when. */
const WATCHED = new Set(['sys_door_schedule', 'sys_door_schedule_door', 'sys_door']);

export interface DoorScheduleSyncDeps {
  db: Kysely<Database>;
  gateway: DeviceGateway;
  log: { error(obj: object, msg: string): void };
  timeZone: string;
}

/**
 * Keeps every door controller's schedules in step with the console, the way the key sync keeps key lists: after each
 * committed change that can touch them, a device whose schedule list has another version than the one it was last
 * sent is queued its whole list (`syncDoorSchedules`), which replaces what it held. The gateway delivers it once the
 * device is online and again until acknowledged; a device saying hello with no list on its way is sent it again, so a
 * controller that lost its memory gets it back.
 */
export class DoorScheduleSync extends FollowedSync {
  constructor(
    private readonly deps: DoorScheduleSyncDeps,
    options: { debounceMs?: number } = {},
  ) {
    super({ db: deps.db, log: deps.log, name: 'door schedule sync failed', watched: WATCHED, debounceMs: options.debounceMs });
  }

  /** A device said hello: unless a list is on its way to it, it is sent its list again. */
  async hello(deviceId: string): Promise<void> {
    await this.follower.run(async () => {
      // most devices were never sent a list: one look at the device row is all their hello costs
      const device = await this.deps.db.selectFrom('sys_device').select('schedules_sent_version').where('id', '=', deviceId).executeTakeFirst();
      if (!device?.schedules_sent_version) return;
      const waiting = await this.deps.db
        .selectFrom('sys_device_command')
        .select('id')
        .where('device_id', '=', deviceId)
        .where('kind', '=', DoorScheduleCommandKind.syncDoorSchedules)
        .where('status', 'in', [DeviceCommandStatus.pending, DeviceCommandStatus.sent])
        .executeTakeFirst();
      if (waiting) return;
      await this.deps.db.updateTable('sys_device').set({ schedules_sent_version: null }).where('id', '=', deviceId).execute();
      await this.send([deviceId]);
    });
  }

  /** Every device with a scheduled door now, or sent a list before, against the list it was last sent. */
  protected async reconcile(): Promise<void> {
    const sentBefore = await this.deps.db.selectFrom('sys_device').select('id').where('schedules_sent_version', 'is not', null).execute();
    const scheduled = await this.deps.db.selectFrom('sys_door_schedule_door as sd').innerJoin('sys_door as d', 'd.id', 'sd.door_id').select('d.device_id').distinct().execute();
    await this.send([...new Set([...sentBefore.map((d) => d.id), ...scheduled.map((d) => d.device_id)])]);
  }

  private async send(deviceIds: readonly string[]): Promise<void> {
    if (deviceIds.length === 0) return;
    const lists = await computeDoorSchedules(this.deps.db, deviceIds, this.deps.timeZone);
    const devices = await this.deps.db.selectFrom('sys_device').select(['id', 'schedules_sent_version']).where('id', 'in', deviceIds).execute();
    for (const device of devices) {
      const list = lists.get(device.id);
      if (!list || list.version === device.schedules_sent_version) continue;
      const payload: SyncDoorSchedulesPayload = { doors: list.doors, timeZone: this.deps.timeZone, version: list.version };
      await this.deps.gateway.enqueueCommands([{ deviceId: device.id, kind: DoorScheduleCommandKind.syncDoorSchedules, payload }], 'doorScheduleSync');
      await this.deps.db.updateTable('sys_device').set({ schedules_sent_version: list.version }).where('id', '=', device.id).execute();
    }
  }
}
