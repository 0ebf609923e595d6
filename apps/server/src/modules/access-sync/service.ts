import { randomUUID } from 'node:crypto';
import {
  AccessCommandKind,
  DEVICE_SYNC_MESSAGES,
  DeviceCommandStatus,
  DeviceSyncState,
  RealtimeCmd,
  SYNC_BATCH_SIZE,
  SyncPeopleOp,
  VisitState,
  type AccessEntry,
  type AccessReport,
  type DeviceSyncNotice,
  type SyncMode,
  type SyncPeoplePayload,
} from '@isps/contract';
import type { Kysely } from 'kysely';
import { ChangeFollower } from '../../platform/change-follower.ts';
import type { Database } from '../../db/schema.ts';
import type { DeviceGateway } from '../../gateway/gateway.ts';
import { tenantUsersHolding } from '../../gateway/permission-holders.ts';
import type { Clock } from '../../platform/clock.ts';
import type { RealtimeHub } from '../../platform/realtime/index.ts';
import { computeAccessLists, type DeviceAccessList } from './access-lists.ts';
import { devicesToRefresh, refreshSyncStatus } from './sync-status.ts';

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
  'sys_visitor',
  'sys_visit',
  'sys_visit_door',
  'sys_device_role_visitor',
]);

/** Who is told how a device's synchronisation goes: the holders of the device list. */
const SYNC_READERS = ['device:list:list'];

export interface AccessSyncOptions {
  /** changes within this window are sent together */
  debounceMs?: number;
  /** how often the progress of running syncs is read */
  pollMs?: number;
  /** people per `syncPeople` command (SYNC_BATCH_SIZE) */
  batchSize?: number;
  /** how often visit windows that started or ended are looked for (ms) */
  visitSweepMs?: number;
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

/** What one device is to be sent, and what is to be recorded of it. */
interface Change {
  list: DeviceAccessList;
  upserts: AccessEntry[];
  removes: string[];
  /** the buckets whose recorded text changes (null: none left), or all of them after a clear or an alignment */
  buckets: Map<string, string | null> | 'all';
  full: boolean;
}

/** The bucket of a person: the first two characters of the id. */
const bucketOf = (id: string) => id.slice(0, 2);

/** The recorded form of a list, by bucket (lists shared by devices are turned into buckets once). */
const bucketCache = new WeakMap<ReadonlyMap<string, AccessEntry>, Map<string, string>>();
function bucketsOf(entries: ReadonlyMap<string, AccessEntry>): Map<string, string> {
  let buckets = bucketCache.get(entries);
  if (buckets) return buckets;
  const lines = new Map<string, string[]>();
  for (const id of [...entries.keys()].sort()) {
    const bucket = bucketOf(id);
    const list = lines.get(bucket);
    const line = `${id}:${entries.get(id)!.version}`;
    if (list) list.push(line);
    else lines.set(bucket, [line]);
  }
  buckets = new Map([...lines].map(([bucket, list]) => [bucket, list.join('\n')]));
  bucketCache.set(entries, buckets);
  return buckets;
}

/** `id:version` lines as a map. */
function parseLines(text: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!text) return out;
  for (const line of text.split('\n')) {
    const at = line.lastIndexOf(':');
    if (at > 0) out.set(line.slice(0, at), line.slice(at + 1));
  }
  return out;
}

/** devices whose changes share one transaction and one command insert */
const DEVICES_PER_WRITE = 10;
/** how often the sync status of devices shown pending is read again from their queues (other servers', after a restart) */
const STATUS_SWEEP_MS = 5000;

function batches<T>(items: readonly T[], size = SYNC_BATCH_SIZE): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Keeps every device's access list in step with people, their credentials and door-access device roles: every committed
 * change (any code path) recomputes the lists, compares them with what each device was sent and queues the difference
 * as `syncPeople` commands through the device gateway (batched, idempotent: an unchanged list sends nothing). A device
 * in full sync mode gets its whole list instead (a clear, then everyone) on every change of it and whenever it
 * reconnects. A device can be aligned on demand: it reports what it holds and gets exactly the difference. The
 * console follows each sync through `deviceSync` messages carrying counts only.
 */
export class AccessSync {
  private readonly follower: ChangeFollower;
  private pollTimer: NodeJS.Timeout | null = null;
  private polling = false;
  private readonly tracks = new Map<string, Track>();
  private sweepTimer: NodeJS.Timeout | null = null;
  private sweeping = false;
  private visitTimer: NodeJS.Timeout | null = null;
  private visitSweep: Promise<number> | null = null;

  constructor(
    private readonly deps: AccessSyncDeps,
    private readonly options: AccessSyncOptions = {},
  ) {
    this.follower = new ChangeFollower({ db: deps.db, log: deps.log, name: 'access sync failed', watched: WATCHED, reconcile: () => this.reconcile(), debounceMs: options.debounceMs, passOnStart: false });
  }

  private get stopped(): boolean {
    return this.follower.isStopped;
  }

  start(): void {
    this.follower.start();
    this.pollTimer = setInterval(() => void this.poll(), this.options.pollMs ?? 200);
    this.pollTimer.unref();
    this.sweepTimer = setInterval(() => void this.sweepStatuses(), STATUS_SWEEP_MS);
    this.sweepTimer.unref();
    this.visitTimer = setInterval(() => void this.sweepVisitWindows().catch((error: unknown) => this.deps.log.error({ err: error }, 'visit window sweep failed')), this.options.visitSweepMs ?? 500);
    this.visitTimer.unref();
    // statuses left behind by a stop while batches waited
    void devicesToRefresh(this.deps.db)
      .then((ids) => refreshSyncStatus(this.deps.db, ids))
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'sync status refresh failed'));
  }

  /**
   * Queues a device's whole access list now (a clear, then everyone), whatever it holds and whether or not it is online
   * (the batches wait for it); its sync status turns pending at once. Answers how many batches were queued.
   */
  async alignNow(deviceId: string): Promise<number> {
    const [list] = (await computeAccessLists(this.deps.db, [deviceId], this.deps.clock())).values();
    if (!list) throw new Error(`no device ${deviceId}`);
    const before = this.tracks.get(deviceId)?.total ?? 0;
    await this.run(() => this.send([fullChange(list)]));
    return (this.tracks.get(deviceId)?.total ?? before + 1) - before;
  }

  async stop(): Promise<void> {
    const stopping = this.follower.stop();
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    if (this.visitTimer) clearInterval(this.visitTimer);
    this.visitTimer = null;
    await stopping;
  }

  /**
   * The visits whose window started or ended since the last look: each edge is marked by one conditional UPDATE, and
   * the one sweep that marks it (of however many servers) compares and aligns every device's list, the offline ones
   * too (their commands wait for them). Answers how many edges it marked; resolves once the changes are queued.
   */
  sweepVisitWindows(): Promise<number> {
    this.visitSweep ??= (async () => {
      try {
        if (this.stopped) return 0;
        const at = new Date(this.deps.clock()).toISOString();
        let marked = 0;
        for (const [flag, column] of [['start_synced', 'start_time'], ['end_synced', 'end_time']] as const) {
          // only approved visits have edges: a request waits for its host, a refusal never opens (approval marks nothing, so its edge comes next)
          const due = await this.deps.db.selectFrom('sys_visit').select('id').where(flag, '=', 0).where('state', '=', VisitState.approved).where(column, '<=', at).limit(500).execute();
          if (due.length === 0) continue;
          const done = await this.deps.db.updateTable('sys_visit').set({ [flag]: 1 }).where('id', 'in', due.map((v) => v.id)).where(flag, '=', 0).executeTakeFirst();
          marked += Number(done.numUpdatedRows);
        }
        if (marked > 0) await this.run(() => this.reconcile());
        return marked;
      } finally {
        this.visitSweep = null;
      }
    })();
    return this.visitSweep;
  }

  /** A change happened: the lists are compared after the debounce window. */
  schedule(): void {
    this.follower.schedule();
  }

  /** Resolves once the changes seen so far are queued to the devices (tests, benchmarks). */
  settled(): Promise<void> {
    return this.follower.settled();
  }

  /** Reconciliations run one after another; a sync is not called done while more of its commands may still be queued. */
  private run(work: () => Promise<void>): Promise<void> {
    return this.follower.run(work);
  }

  /**
   * Every device's list against what it was sent; the difference is queued, or for a device in full sync mode a
   * replacement of its whole list (a clear, then everyone) whenever its list changed.
   */
  reconcile(deviceIds?: readonly string[]): Promise<void> {
    return (async () => {
      const lists = await computeAccessLists(this.deps.db, deviceIds, this.deps.clock());
      const sent = await this.sentBuckets([...lists.keys()]);
      const changes: Change[] = [];
      for (const list of lists.values()) {
        const before = sent.get(list.deviceId) ?? new Map<string, string>();
        const desired = bucketsOf(list.entries);
        if (list.syncMode === 'full') {
          const changed = before.size !== desired.size || [...desired].some(([bucket, text]) => before.get(bucket) !== text);
          if (changed) changes.push(fullChange(list));
          continue;
        }
        const upserts: AccessEntry[] = [];
        const removes: string[] = [];
        const buckets = new Map<string, string | null>();
        for (const bucket of new Set([...before.keys(), ...desired.keys()])) {
          const was = before.get(bucket);
          const now = desired.get(bucket);
          if (was === now) continue;
          buckets.set(bucket, now ?? null);
          const held = parseLines(was);
          const wanted = parseLines(now);
          for (const [id, version] of wanted) if (held.get(id) !== version) upserts.push(list.entries.get(id)!);
          for (const id of held.keys()) if (!wanted.has(id)) removes.push(id);
        }
        if (buckets.size > 0) changes.push({ list, upserts, removes, buckets, full: false });
      }
      // several devices share a transaction and a command insert: a change reaching many devices costs few commits
      for (const group of batches(changes, DEVICES_PER_WRITE)) await this.send(group);
    })();
  }

  /**
   * A full compare-and-align of one device: it reports what it holds, then gets the difference (increment) or
   * everything after a clear (full); `mode` defaults to the device's own sync mode. Answers the report command's id.
   */
  async resync(deviceId: string, mode?: SyncMode): Promise<string> {
    const [list] = (await computeAccessLists(this.deps.db, [deviceId], this.deps.clock())).values();
    if (!list) throw new Error(`no device ${deviceId}`);
    const [commandId] = (await this.deps.gateway.enqueueCommands([{ deviceId, kind: AccessCommandKind.accessReport, payload: {} }], 'accessSync')) as [string];
    const track = this.trackOf(list);
    track.report = { commandId, mode: mode ?? list.syncMode };
    track.commands.add(commandId);
    track.total += 1;
    await refreshSyncStatus(this.deps.db, [deviceId]);
    void this.notify(track, true);
    return commandId;
  }

  /**
   * A device said hello: one in full sync mode gets its whole list again (a clear, then everyone), unless a full
   * alignment of it is already on its way.
   */
  deviceReturned(deviceId: string): void {
    if (this.stopped) return;
    void this.run(async () => {
      // a cheap look first: most devices are in increment mode, and many say hello at once after a broker restart
      const device = await this.deps.db.selectFrom('sys_device').select('sync_mode').where('id', '=', deviceId).executeTakeFirst();
      if (device?.sync_mode !== 'full') return;
      const [list] = (await computeAccessLists(this.deps.db, [deviceId], this.deps.clock())).values();
      if (!list) return;
      const track = this.tracks.get(deviceId);
      if (track?.report) return;
      if (track) track.alignOnReturn = false;
      await this.send([fullChange(list)]);
    });
  }

  /** What each device was sent, by bucket. */
  private async sentBuckets(deviceIds: string[]): Promise<Map<string, Map<string, string>>> {
    const out = new Map<string, Map<string, string>>();
    for (const ids of batches(deviceIds)) {
      const rows = await this.deps.db.selectFrom('sys_device_access').select(['device_id', 'bucket', 'entries']).where('device_id', 'in', ids).execute();
      for (const r of rows) {
        let map = out.get(r.device_id);
        if (!map) out.set(r.device_id, (map = new Map()));
        map.set(r.bucket, r.entries);
      }
    }
    return out;
  }

  /** Records what each device is sent, then queues the commands (a clear first for a full send). */
  private async send(changes: readonly Change[], queue = true): Promise<void> {
    if (changes.length === 0) return;
    const now = new Date(this.deps.clock()).toISOString();
    await this.deps.db.transaction().execute(async (trx) => {
      for (const { list, buckets } of changes) {
        const rows = buckets === 'all' ? bucketsOf(list.entries) : buckets;
        let remove = trx.deleteFrom('sys_device_access').where('device_id', '=', list.deviceId);
        if (buckets !== 'all') remove = remove.where('bucket', 'in', [...buckets.keys()]);
        await remove.execute();
        const values = [...rows].filter((r): r is [string, string] => r[1] !== null).map(([bucket, entries]) => ({ id: randomUUID(), create_by: 'accessSync', create_time: now, update_by: null, update_time: null, device_id: list.deviceId, bucket, entries }));
        for (const part of batches(values, 100)) await trx.insertInto('sys_device_access').values(part).execute();
      }
    });
    if (!queue) return;
    const size = this.options.batchSize ?? SYNC_BATCH_SIZE;
    const items: Array<{ deviceId: string; kind: string; payload: SyncPeoplePayload }> = [];
    for (const { list, upserts, removes, full } of changes) {
      const add = (payload: SyncPeoplePayload) => items.push({ deviceId: list.deviceId, kind: AccessCommandKind.syncPeople, payload });
      if (full) add({ op: SyncPeopleOp.clear });
      for (const ids of batches(removes, size)) add({ op: SyncPeopleOp.remove, ids });
      for (const people of batches(upserts, size)) add({ op: SyncPeopleOp.upsert, people });
    }
    const ids = await this.deps.gateway.enqueueCommands(items, 'accessSync');
    const touched = new Map<string, Track>();
    for (const [i, item] of items.entries()) {
      const change = changes.find((c) => c.list.deviceId === item.deviceId)!;
      let track = touched.get(item.deviceId);
      if (!track) {
        track = this.trackOf(change.list);
        track.overCapacity = change.list.overCapacity;
        touched.set(item.deviceId, track);
      }
      track.commands.add(ids[i]!);
      track.total += 1;
    }
    await refreshSyncStatus(this.deps.db, [...touched.keys()]);
    for (const track of touched.values()) void this.notify(track, true);
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
    const ended = new Set<string>();
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
          ended.add(track.deviceId);
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
        if (track.state === DeviceSyncState.running && track.commands.size === 0 && !track.report && !this.follower.running) {
          track.state = DeviceSyncState.succeeded;
          await this.notify(track, true);
          this.tracks.delete(track.deviceId);
          continue;
        }
        await this.notify(track, false);
      }
      if (ended.size > 0) await refreshSyncStatus(this.deps.db, [...ended]);
    } catch (error) {
      this.deps.log.error({ err: error }, 'access sync progress failed');
    } finally {
      this.polling = false;
    }
  }

  /** Every few seconds, the statuses shown pending are read again from the queues (batches another server sent). */
  private async sweepStatuses(): Promise<void> {
    if (this.sweeping || this.stopped) return;
    this.sweeping = true;
    try {
      const pending = await this.deps.db.selectFrom('sys_device').select('id').where('sync_state', '=', 'pending').limit(500).execute();
      await refreshSyncStatus(this.deps.db, pending.map((r) => r.id));
    } catch (error) {
      this.deps.log.error({ err: error }, 'sync status refresh failed');
    } finally {
      this.sweeping = false;
    }
  }

  /** The device holds `held` (`id:version`): it gets the difference to its list (or a clear and everything). */
  private async align(deviceId: string, held: Map<string, string>, mode: SyncMode): Promise<void> {
    const [list] = (await computeAccessLists(this.deps.db, [deviceId], this.deps.clock())).values();
    if (!list) return;
    if (mode === 'full') return this.send([fullChange(list)]);
    const upserts = [...list.entries.values()].filter((e) => held.get(e.id) !== e.version);
    const removes = [...held.keys()].filter((id) => !list.entries.has(id));
    // what is recorded as sent becomes the list itself, even when nothing is to be sent
    await this.send([{ list, upserts, removes, buckets: 'all', full: false }], upserts.length > 0 || removes.length > 0);
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

/** A replacement of a device's whole list: a clear, then everyone, recorded as sent in full. */
function fullChange(list: DeviceAccessList): Change {
  return { list, upserts: [...list.entries.values()], removes: [], buckets: 'all', full: true };
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
