import * as z from 'zod';

/**
 * Synchronisation of people and their access rights to devices (the `syncPeople` and `accessReport` commands of the
 * device protocol, docs/device-protocol.md). The server computes each device's access list from the door-access
 * device roles that bind the device (directly, through its area or through one of its doors) and sends the
 * difference; a device keeps the list across its restarts and lets a person through when one of the person's time
 * settings is in force (the contract's evaluator, time-setting.ts).
 *
 * Card numbers and palm-vein templates travel only inside these device commands (MQTT to the device): never in a
 * websocket message, a list, an export or a log.
 */

/** One person as a device holds them. */
export interface AccessEntry {
  /** the person's id */
  id: string;
  name: string;
  userNo: string | null;
  cardNo: string | null;
  /** palm-vein templates of the registered hands */
  palm: { left?: string; right?: string };
  /** the time settings (stored JSON text) of the roles granting this person on this device; any one in force lets them pass */
  times: string[];
  /** changes whenever anything above changes: what a compare-and-align compares */
  version: string;
}

export const SyncPeopleOp = {
  /** add or replace these people */
  upsert: 'upsert',
  /** remove these ids */
  remove: 'remove',
  /** forget everyone (the first command of a full send) */
  clear: 'clear',
} as const;
export type SyncPeopleOp = (typeof SyncPeopleOp)[keyof typeof SyncPeopleOp];

/** Payload of a `syncPeople` command. */
export type SyncPeoplePayload =
  | { op: typeof SyncPeopleOp.upsert; people: AccessEntry[] }
  | { op: typeof SyncPeopleOp.remove; ids: string[] }
  | { op: typeof SyncPeopleOp.clear };

/** At most this many people in one `syncPeople` command. */
export const SYNC_BATCH_SIZE = 500;

/**
 * Acknowledgement result of an `accessReport` command: what the device holds, as `id:version` strings (one per
 * person), so the server can send exactly the difference.
 */
export interface AccessReport {
  held: string[];
}

/** Command kinds of the access synchronisation. */
export const AccessCommandKind = { syncPeople: 'syncPeople', accessReport: 'accessReport' } as const;

/** SPEC section 4: data sync mode. Increment sends the difference; full clears the device and sends everything. */
export const SYNC_MODES = ['increment', 'full'] as const;
export type SyncMode = (typeof SYNC_MODES)[number];

/** States of a device's synchronisation as the console is told them. */
export const DeviceSyncState = {
  running: 'running',
  succeeded: 'succeeded',
  /** the device went offline during the sync: it continues when the device reconnects */
  disconnected: 'disconnected',
  /** the device refused a batch (an `ok: false` acknowledgement) */
  failed: 'failed',
} as const;
export type DeviceSyncState = (typeof DeviceSyncState)[keyof typeof DeviceSyncState];

/** The message key the console shows for each ended state. */
export const DEVICE_SYNC_MESSAGES = {
  succeeded: 'device.syncSucceeded',
  disconnected: 'device.disconnected',
  failed: 'device.distributionFailed',
} as const;

/**
 * Data of a `deviceSync` real-time message: a device's synchronisation progressed or ended. Counts only, never who
 * or which card.
 */
export interface DeviceSyncNotice {
  deviceId: string;
  sn: string;
  state: DeviceSyncState;
  /** people commands acknowledged / queued in this sync */
  done: number;
  total: number;
  /** the message key to show for an ended state */
  messageKey?: string;
  /** the people the device's capacity left out (0 when all fit) */
  overCapacity: number;
}

export const AccessSyncPath = {
  /** POST `{ id, mode? }`: a full compare-and-align of one device now; progress follows as `deviceSync` messages */
  resync: '/sysDevice/syncPeople',
  /** GET `?pageNo&pageSize&syncState&deviceName`: each device of the caller's tenant with its sync status (`DeviceSyncStatusRow`) */
  status: '/sysDevice/syncStatus',
  /** POST `{ id }`: queues the device's whole access list (a clear, then everyone); it waits for an offline device */
  align: '/sysDevice/alignNow',
} as const;

/**
 * Where a device's access list stands, kept on the device row from its command queue: in sync (nothing of its list
 * waits), pending (people changes queued or on their way), failed (the device refused or never took a batch: the reason
 * is kept until an alignment succeeds).
 */
export const SyncStatus = { inSync: 'inSync', pending: 'pending', failed: 'failed' } as const;
export type SyncStatus = (typeof SyncStatus)[keyof typeof SyncStatus];
export const SYNC_STATUSES = Object.values(SyncStatus);

/** A device's row on the sync status page. */
export interface DeviceSyncStatusRow {
  id: string;
  deviceName: string;
  sn: string;
  online: boolean;
  syncState: SyncStatus;
  /** people changes waiting (queued or sent, not yet confirmed) */
  syncPending: number;
  /** why the last batch failed (`expired`, or what the device answered), while failed */
  syncReason: string | null;
  /** when the device last held its whole list, `yyyy-MM-dd HH:mm:ss` */
  syncAlignedTime: string | null;
}

export const syncStatusQuery = z.object({
  pageNo: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
  syncState: z.enum(SYNC_STATUSES).optional(),
  deviceName: z.string().trim().max(100).optional(),
});

export const alignNowBody = z.object({ id: z.string().min(1).max(36) });

export const accessResyncBody = z.object({
  id: z.string().min(1).max(36),
  mode: z.enum(SYNC_MODES).optional(),
});

/** the device list's sync button (seeded with the device menu) */
export const AccessSyncPerm = { resync: 'device:list:sync', statusView: 'device:syncStatus:view', align: 'device:syncStatus:align' } as const;
