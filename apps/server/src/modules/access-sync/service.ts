import { randomUUID } from 'node:crypto';
import {
  AccessCommandKind,
  DEVICE_SYNC_MESSAGES,
  DeviceCommandStatus,
  DeviceSyncState,
  RealtimeCmd,
  SYNC_BATCH_SIZE,
  SyncPeopleOp,
  type AccessEntry,
  type AccessReport,
  type DeviceSyncNotice,
  type SyncMode,
  type SyncPeoplePayload,
} from '@isps/contract';
import type { Kysely } from 'kysely';
import { onCommittedWrite } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { DeviceGateway } from '../../gateway/gateway.ts';
import { tenantUsersHolding } from '../../gateway/permission-holders.ts';
import type { Clock } from '../../platform/clock.ts';
import type { RealtimeHub } from '../../platform/realtime/index.ts';
import { computeAccessLists, type DeviceAccessList } from './access-lists.ts';

/** Writes to these tables can change what a device should hold. */
const WATCHED = new Set([
  'sys_people',
  'sys_people_palm',
  'sys_device_role',
  'sys_device_role_area',
  'sys_device_role_device',
  'sys_device_role_door',
  'sys_device_role_depart',
  'sys_device_role_people',
  'sys_door',
]);

/** Who is told how a device's synchronisation goes: the holders of the device list. */
const SYNC_READERS = ['device:list:list'];

export interface AccessSyncOptions {
  /** changes within this window are sent together */
  debounceMs?: number;
  /** how often the progress of running syncs is read */
  pollMs?: number;
  /** increment (the difference) or full (clear, then everything) on every change */
  mode?: SyncMode;
  /** people per `syncPeople` command (SYNC_BATCH_SIZE) */
  batchSize?: number;
}

export interface AccessSyncDeps {
  db: Kysely<Database>;
  gateway: DeviceGateway;
  realtime: RealtimeHub;
  clock: Clock;
  log: { error(obj: object, msg: string): void };
}

/** A device's synchronisation in progress, followed until every command of it is acknowledged. */
interface Track {
  deviceId: string;
  sn: string;
  name: string;
  tenantId: string | null;
  commands: Set<string>;
  total: number;
  done: number;
  state: DeviceSyncState;
  overCapacity: number;
  /** an `accessReport` command whose answer starts a compare-and-align */
  report: { commandId: string; mode: SyncMode } | null;
  /** the device was seen offline during the sync: align when it is back */
  alignOnReturn: boolean;
  lastNotice: number;
}

function batches<T>(items: readonly T[], size = SYNC_BATCH_SIZE): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Keeps every device's access list in step with people, their credentials and door-access device roles: every committed
 * change (any code path) recomputes the lists, compares them with what each device was sent and queues the difference
 * as `syncPeople` commands through the device gateway (batched, idempotent: an unchanged list sends nothing). A device
 * can be aligned on demand: it reports what it holds and gets exactly the difference. The console follows each sync
 * through `deviceSync` messages carrying counts only.
 */
export class AccessSync {
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private polling = false;
  private stopListening: (() => void) | null = null;
  private readonly tracks = new Map<string, Track>();
  private stopped = false;
  /** reconciliations running: a sync is not called done while more of its commands may still be queued */
  private working = 0;

  constructor(
    private readonly deps: AccessSyncDeps,
    private readonly options: AccessSyncOptions = {},
  ) {}

  start(): void {
    this.stopped = false;
    this.stopListening = onCommittedWrite(this.deps.db, (tables) => {
      for (const table of tables) {
        if (WATCHED.has(table)) {
          this.schedule();
          return;
        }
      }
    });
    this.pollTimer = setInterval(() => void this.poll(), this.options.pollMs ?? 200);
    this.pollTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopListening?.();
    this.stopListening = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
    await this.chain;
  }

  /** A change happened: the lists are compared after the debounce window. */
  schedule(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.run(() => this.reconcile());
    }, this.options.debounceMs ?? 20);
  }

  /** Resolves once the changes seen so far are queued to the devices (tests, benchmarks). */
  async settled(): Promise<void> {
    while (this.timer) await new Promise((resolve) => setTimeout(resolve, 5));
    await this.chain;
  }

  private run(work: () => Promise<void>): Promise<void> {
    this.working += 1;
    const next = this.chain.then(work).finally(() => (this.working -= 1)).catch((error: unknown) => this.deps.log.error({ err: error }, 'access sync failed'));
    this.chain = next;
    return next;
  }

  /** Every device's list against what it was sent; the difference is queued. */
  reconcile(deviceIds?: readonly string[], mode: SyncMode = this.options.mode ?? 'increment'): Promise<void> {
    return (async () => {
      const lists = await computeAccessLists(this.deps.db, deviceIds);
      const sent = await this.sentVersions([...lists.keys()]);
      for (const list of lists.values()) {
        const before = sent.get(list.deviceId) ?? new Map<string, string>();
        if (mode === 'full') {
          await this.send(list, [...list.entries.values()], [], before, true);
          continue;
        }
        const upserts = [...list.entries.values()].filter((e) => before.get(e.id) !== e.version);
        const removes = [...before.keys()].filter((id) => !list.entries.has(id));
        if (upserts.length > 0 || removes.length > 0) await this.send(list, upserts, removes, before, false);
      }
    })();
  }

  /**
   * A full compare-and-align of one device: it reports what it holds, then gets the difference (increment) or
   * everything after a clear (full). Answers the report command's id.
   */
  async resync(deviceId: string, mode: SyncMode = this.options.mode ?? 'increment'): Promise<string> {
    const [list] = (await computeAccessLists(this.deps.db, [deviceId])).values();
    if (!list) throw new Error(`no device ${deviceId}`);
    const commandId = await this.deps.gateway.enqueueCommand(deviceId, AccessCommandKind.accessReport, {}, 'accessSync');
    const track = this.trackOf(list);
    track.report = { commandId, mode };
    track.commands.add(commandId);
    track.total += 1;
    void this.notify(track, true);
    return commandId;
  }

  private async sentVersions(deviceIds: string[]): Promise<Map<string, Map<string, string>>> {
    const out = new Map<string, Map<string, string>>();
    for (const ids of batches(deviceIds)) {
      const rows = await this.deps.db.selectFrom('sys_device_access').select(['device_id', 'people_id', 'version']).where('device_id', 'in', ids).execute();
      for (const r of rows) {
        let map = out.get(r.device_id);
        if (!map) out.set(r.device_id, (map = new Map()));
        map.set(r.people_id, r.version);
      }
    }
    return out;
  }

  /** Records what the device is sent, then queues the commands (a clear first for a full send). */
  private async send(list: DeviceAccessList, upserts: AccessEntry[], removes: string[], before: Map<string, string>, full: boolean): Promise<void> {
    const now = new Date(this.deps.clock()).toISOString();
    await this.deps.db.transaction().execute(async (trx) => {
      if (full) await trx.deleteFrom('sys_device_access').where('device_id', '=', list.deviceId).execute();
      const gone = full ? [] : [...removes, ...upserts.filter((e) => before.has(e.id)).map((e) => e.id)];
      for (const ids of batches(gone)) await trx.deleteFrom('sys_device_access').where('device_id', '=', list.deviceId).where('people_id', 'in', ids).execute();
      for (const part of batches(upserts)) {
        await trx
          .insertInto('sys_device_access')
          .values(part.map((e) => ({ id: randomUUID(), create_by: 'accessSync', create_time: now, update_by: null, update_time: null, device_id: list.deviceId, people_id: e.id, version: e.version })))
          .execute();
      }
    });
    const payloads: SyncPeoplePayload[] = [];
    if (full) payloads.push({ op: SyncPeopleOp.clear });
    const size = this.options.batchSize ?? SYNC_BATCH_SIZE;
    for (const ids of batches(removes, size)) payloads.push({ op: SyncPeopleOp.remove, ids });
    for (const people of batches(upserts, size)) payloads.push({ op: SyncPeopleOp.upsert, people });
    const track = this.trackOf(list);
    track.overCapacity = list.overCapacity;
    for (const payload of payloads) {
      const id = await this.deps.gateway.enqueueCommand(list.deviceId, AccessCommandKind.syncPeople, payload, 'accessSync');
      track.commands.add(id);
      track.total += 1;
    }
    void this.notify(track, true);
  }

  private trackOf(list: Pick<DeviceAccessList, 'deviceId' | 'sn' | 'name' | 'tenantId'>): Track {
    let track = this.tracks.get(list.deviceId);
    if (!track) {
      track = { deviceId: list.deviceId, sn: list.sn, name: list.name, tenantId: list.tenantId, commands: new Set(), total: 0, done: 0, state: DeviceSyncState.running, overCapacity: 0, report: null, alignOnReturn: false, lastNotice: 0 };
      this.tracks.set(list.deviceId, track);
    }
    return track;
  }

  /** Reads how the running syncs go: acknowledgements, refusals, devices lost and back, reports answered. */
  private async poll(): Promise<void> {
    if (this.polling || this.tracks.size === 0) return;
    this.polling = true;
    try {
      const tracks = [...this.tracks.values()];
      const online = new Map<string, boolean>();
      for (const ids of batches(tracks.map((t) => t.deviceId))) {
        for (const d of await this.deps.db.selectFrom('sys_device').select(['id', 'online']).where('id', 'in', ids).execute()) online.set(d.id, Number(d.online) === 1);
      }
      for (const track of tracks) {
        if (!online.has(track.deviceId)) {
          this.tracks.delete(track.deviceId); // the device was deleted
          continue;
        }
        const statuses = new Map<string, { status: string; result: string | null }>();
        for (const ids of batches([...track.commands])) {
          for (const c of await this.deps.db.selectFrom('sys_device_command').select(['id', 'status', 'result']).where('id', 'in', ids).execute()) statuses.set(c.id, c);
        }
        let failed = false;
        for (const [id, c] of statuses) {
          if (c.status === DeviceCommandStatus.failed) failed = true;
          if (c.status !== DeviceCommandStatus.acked && c.status !== DeviceCommandStatus.failed) continue;
          track.commands.delete(id);
          track.done += 1;
          if (track.report?.commandId === id) {
            const report = track.report;
            track.report = null;
            const held = c.status === DeviceCommandStatus.acked ? readReport(c.result) : null;
            if (held) void this.run(() => this.align(track.deviceId, held, report.mode));
          }
        }
        for (const id of track.commands) if (!statuses.has(id)) track.commands.delete(id); // deleted with its device
        if (failed) {
          track.state = DeviceSyncState.failed;
          await this.notify(track, true);
          this.tracks.delete(track.deviceId);
          continue;
        }
        const isOnline = online.get(track.deviceId)!;
        if (!isOnline && track.state !== DeviceSyncState.disconnected) {
          track.state = DeviceSyncState.disconnected;
          track.alignOnReturn = true;
          await this.notify(track, true);
          continue;
        }
        if (isOnline && track.state === DeviceSyncState.disconnected) {
          // back: the queued commands go out with its hello; a compare-and-align covers what it lost meanwhile
          track.state = DeviceSyncState.running;
          if (track.alignOnReturn && !track.report) {
            track.alignOnReturn = false;
            await this.resync(track.deviceId);
          }
          await this.notify(track, true);
          continue;
        }
        if (track.state === DeviceSyncState.running && track.commands.size === 0 && !track.report && this.working === 0) {
          track.state = DeviceSyncState.succeeded;
          await this.notify(track, true);
          this.tracks.delete(track.deviceId);
          continue;
        }
        await this.notify(track, false);
      }
    } catch (error) {
      this.deps.log.error({ err: error }, 'access sync progress failed');
    } finally {
      this.polling = false;
    }
  }

  /** The device holds `held` (`id:version`): it gets the difference to its list (or a clear and everything). */
  private async align(deviceId: string, held: Map<string, string>, mode: SyncMode): Promise<void> {
    const [list] = (await computeAccessLists(this.deps.db, [deviceId])).values();
    if (!list) return;
    const before = (await this.sentVersions([deviceId])).get(deviceId) ?? new Map<string, string>();
    if (mode === 'full') return this.send(list, [...list.entries.values()], [], before, true);
    const upserts = [...list.entries.values()].filter((e) => held.get(e.id) !== e.version);
    const removes = [...held.keys()].filter((id) => !list.entries.has(id));
    // what is recorded as sent becomes the list itself: rows of people it no longer should hold go too
    const stale = [...before.keys()].filter((id) => !list.entries.has(id) && !held.has(id));
    if (stale.length > 0) for (const ids of batches(stale)) await this.deps.db.deleteFrom('sys_device_access').where('device_id', '=', deviceId).where('people_id', 'in', ids).execute();
    const recorded = new Map([...before].filter(([id]) => !stale.includes(id)));
    // an entry the device holds already, but not recorded as sent, is recorded now
    const missing = [...list.entries.values()].filter((e) => held.get(e.id) === e.version && recorded.get(e.id) !== e.version);
    if (missing.length > 0) {
      const now = new Date(this.deps.clock()).toISOString();
      await this.deps.db.transaction().execute(async (trx) => {
        for (const ids of batches(missing.map((e) => e.id))) await trx.deleteFrom('sys_device_access').where('device_id', '=', deviceId).where('people_id', 'in', ids).execute();
        for (const part of batches(missing)) {
          await trx
            .insertInto('sys_device_access')
            .values(part.map((e) => ({ id: randomUUID(), create_by: 'accessSync', create_time: now, update_by: null, update_time: null, device_id: deviceId, people_id: e.id, version: e.version })))
            .execute();
        }
      });
      for (const e of missing) recorded.set(e.id, e.version);
    }
    if (upserts.length > 0 || removes.length > 0) await this.send(list, upserts, removes, recorded, false);
  }

  /** Tells the device readers of its tenant how the sync goes (counts only); progress at most every 500 ms. */
  private async notify(track: Track, force: boolean): Promise<void> {
    const now = Date.now();
    if (!force && now - track.lastNotice < 500) return;
    track.lastNotice = now;
    if (track.tenantId === null) return;
    const data: DeviceSyncNotice = {
      deviceId: track.deviceId,
      sn: track.sn,
      state: track.state,
      done: track.done,
      total: track.total,
      overCapacity: track.overCapacity,
      ...(track.state === DeviceSyncState.running ? {} : { messageKey: DEVICE_SYNC_MESSAGES[track.state] }),
    };
    try {
      const userIds = await tenantUsersHolding(this.deps.db, track.tenantId, SYNC_READERS);
      await this.deps.realtime.sendToUsers(userIds, { cmd: RealtimeCmd.deviceSync, msgId: track.deviceId, msgTxt: track.name, data });
    } catch (error) {
      this.deps.log.error({ err: error }, 'device sync notice failed');
    }
  }
}

/** The `id:version` pairs of an `accessReport` acknowledgement, or null when it is not one. */
function readReport(result: string | null): Map<string, string> | null {
  if (!result) return null;
  try {
    const report = JSON.parse(result) as Partial<AccessReport>;
    if (!Array.isArray(report.held)) return null;
    const held = new Map<string, string>();
    for (const item of report.held) {
      if (typeof item !== 'string') continue;
      const at = item.lastIndexOf(':');
      if (at > 0) held.set(item.slice(0, at), item.slice(at + 1));
    }
    return held;
  } catch {
    return null;
  }
}
