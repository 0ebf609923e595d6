import { DEVICE_PRESENCE_IDS, DEVICE_PRESENCE_LISTED, DoorPerm, RealtimeCmd, type DevicePresenceNotice } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { RealtimeHub } from '../platform/realtime/index.ts';
import { tenantUsersHolding } from './permission-holders.ts';

/** Who is told about devices coming and going: the holders of the device list, the doors or the door status page. */
const DEVICE_READERS = ['device:list:list', DoorPerm.list, DoorPerm.statusView];

export interface PresenceChange {
  id: string;
  sn: string;
  name: string;
  tenantId: string | null;
  online: boolean;
}

/**
 * Presence changes reach the console coalesced: within one window each tenant's device readers get at most one
 * `deviceConnect` and one `deviceDisConnect` message listing the devices (a device that flapped counts once, in its
 * last state), so a thousand devices reconnecting after a network cut make two notifications, not two thousand.
 */
export class PresenceNotifier {
  private pending = new Map<string, PresenceChange>();
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly hub: RealtimeHub,
    private readonly log: { error(obj: object, msg: string): void },
    private readonly windowMs = 500,
  ) {}

  changed(change: PresenceChange): void {
    this.pending.set(change.id, change);
    this.timer ??= setTimeout(() => void this.flush(), this.windowMs);
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const changes = [...this.pending.values()];
    this.pending = new Map();
    this.sending = this.sending.then(() => this.send(changes)).catch((error: unknown) => this.log.error({ err: error }, 'device presence notice failed'));
    return this.sending;
  }

  private async send(changes: PresenceChange[]): Promise<void> {
    const byTenant = new Map<string, PresenceChange[]>();
    for (const change of changes) {
      // a device outside every tenant is nobody's to be told about
      if (change.tenantId === null) continue;
      const list = byTenant.get(change.tenantId) ?? [];
      list.push(change);
      byTenant.set(change.tenantId, list);
    }
    for (const [tenantId, list] of byTenant) {
      const userIds = await tenantUsersHolding(this.db, tenantId, DEVICE_READERS);
      if (userIds.length === 0) continue;
      for (const online of [true, false]) {
        const devices = list.filter((c) => c.online === online);
        if (devices.length === 0) continue;
        const data: DevicePresenceNotice = { count: devices.length, devices: devices.slice(0, DEVICE_PRESENCE_LISTED).map(({ id, sn, name }) => ({ id, sn, name })),
          ids: devices.slice(0, DEVICE_PRESENCE_IDS).map((d) => d.id),
        };
        const [first] = devices as [PresenceChange];
        await this.hub.sendToUsers(userIds, {
          cmd: online ? RealtimeCmd.deviceConnect : RealtimeCmd.deviceDisConnect,
          msgId: devices.length === 1 ? first.id : undefined,
          msgTxt: devices.length === 1 ? first.name : `${first.name} (+${devices.length - 1})`,
          data,
        });
      }
    }
  }
}
