import { createHash } from 'node:crypto';
import { CabinetStatus, StorageCommandKind, SyncCabinetsOp, type CabinetEntry, type DeviceAck, type SyncCabinetsPayload } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { DeviceGateway } from '../../gateway/gateway.ts';
import { FollowedSync } from '../../platform/change-follower.ts';

/** Writes to these tables can change what a cabinet device should hold. */
const WATCHED = new Set(['sys_cabinet', 'sys_cabinet_people', 'sys_people']);

/** The recorded version of a cabinet the device holds nothing for (never allocated, released, cleared). */
export const EMPTY_CABINET = 'empty';
/** cabinets per `syncCabinets` command */
const CABINETS_PER_COMMAND = 200;

export interface CabinetSyncDeps {
  db: Kysely<Database>;
  gateway: DeviceGateway;
  log: { error(obj: object, msg: string): void };
}

interface DesiredCabinet {
  id: string;
  deviceId: string;
  entry: CabinetEntry;
  /** the version last queued to the device */
  sent: string;
}

/** The version of what a cabinet is to hold: the same holders and expiry give the same version on every server. */
function versionOf(holders: CabinetEntry['holders'], expireAt: number | null): string {
  if (holders.length === 0) return EMPTY_CABINET;
  return createHash('sha256').update(JSON.stringify([holders, expireAt])).digest('hex').slice(0, 12);
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** `"<cabinetNo>:<version>"` lines of a `cabinetReport` acknowledgement, or null when it is not one. */
function readHeld(result: unknown): Map<number, string> | null {
  const held = (result as { held?: unknown } | null)?.held;
  if (!Array.isArray(held)) return null;
  const out = new Map<number, string>();
  for (const item of held) {
    if (typeof item !== 'string') continue;
    const at = item.indexOf(':');
    const no = Number(item.slice(0, at));
    if (at > 0 && Number.isInteger(no)) out.set(no, item.slice(at + 1));
  }
  return out;
}

/**
 * Keeps every cabinet device's allocations in step with the console, the way the access sync keeps access lists:
 * each committed change to cabinets, their holders or those people compares what each cabinet is to hold with what
 * its device was last sent and queues the difference (`syncCabinets`) through the device gateway, which delivers it
 * when the device is online and again after every reconnect until it is acknowledged; the device runs each command
 * once. A device in full-send mode gets its whole list (a clear, then every allocated cabinet) on every change.
 * A device that says hello reports what it holds (`cabinetReport`) and gets exactly the difference.
 */
export class CabinetSync extends FollowedSync {
  constructor(
    private readonly deps: CabinetSyncDeps,
    options: { debounceMs?: number } = {},
  ) {
    super({ db: deps.db, log: deps.log, name: 'cabinet sync failed', watched: WATCHED, debounceMs: options.debounceMs });
  }

  schedule(): void {
    this.follower.schedule();
  }

  private run(work: () => Promise<void>): Promise<void> {
    return this.follower.run(work);
  }

  /** What the cabinets (of some devices, or all) are to hold. */
  private async desired(deviceIds?: readonly string[]): Promise<DesiredCabinet[]> {
    let query = this.deps.db.selectFrom('sys_cabinet').select(['id', 'device_id', 'cabinet_no', 'status', 'expire_time', 'sent_version']);
    if (deviceIds) query = query.where('device_id', 'in', deviceIds);
    const cabinets = await query.orderBy('device_id').orderBy('cabinet_no').execute();
    const held = cabinets.filter((c) => c.status === CabinetStatus.assigned).map((c) => c.id);
    const holders = new Map<string, CabinetEntry['holders']>();
    for (const ids of chunks(held, 500)) {
      const rows = await this.deps.db
        .selectFrom('sys_cabinet_people as cp')
        .innerJoin('sys_people as p', 'p.id', 'cp.people_id')
        .select(['cp.cabinet_id', 'p.id', 'p.name', 'p.user_no', 'p.card_no'])
        .where('cp.cabinet_id', 'in', ids)
        .where('p.del_flag', '=', 0)
        .where('p.status', '=', 1)
        .orderBy('p.id')
        .execute();
      for (const r of rows) {
        const list = holders.get(r.cabinet_id) ?? [];
        list.push({ peopleId: r.id, name: r.name, userNo: r.user_no, cardNo: r.card_no });
        holders.set(r.cabinet_id, list);
      }
    }
    return cabinets.map((c) => {
      const list = c.status === CabinetStatus.assigned ? (holders.get(c.id) ?? []) : [];
      const expireAt = list.length > 0 && c.expire_time ? Date.parse(c.expire_time) : null;
      return { id: c.id, deviceId: c.device_id, sent: c.sent_version ?? EMPTY_CABINET, entry: { no: c.cabinet_no, holders: list, expireAt, version: versionOf(list, expireAt) } };
    });
  }

  /** Every cabinet against what its device was sent: the difference is queued (everything, for a device in full-send mode). */
  reconcile(deviceIds?: readonly string[]): Promise<void> {
    return (async () => {
      const all = await this.desired(deviceIds);
      const byDevice = new Map<string, DesiredCabinet[]>();
      for (const c of all) byDevice.set(c.deviceId, [...(byDevice.get(c.deviceId) ?? []), c]);
      const devices = byDevice.size === 0 ? [] : await this.deps.db.selectFrom('sys_device').select(['id', 'sync_mode']).where('id', 'in', [...byDevice.keys()]).execute();
      const full = new Set(devices.filter((d) => d.sync_mode === 'full').map((d) => d.id));
      for (const [deviceId, cabinets] of byDevice) {
        const changed = cabinets.filter((c) => c.entry.version !== c.sent);
        if (changed.length === 0 || !devices.some((d) => d.id === deviceId)) continue;
        if (full.has(deviceId)) await this.sendAll(deviceId, cabinets);
        else await this.send(deviceId, changed, changed);
      }
    })();
  }

  /** A clear, then every allocated cabinet of the device; all of them recorded as sent. */
  private sendAll(deviceId: string, cabinets: readonly DesiredCabinet[]): Promise<void> {
    const allocated = cabinets.filter((c) => c.entry.holders.length > 0);
    return this.send(deviceId, allocated, cabinets, true);
  }

  /** Queues `cabinets` to the device and records `recorded` as sent (a change made meanwhile is sent by the next pass). */
  private async send(deviceId: string, cabinets: readonly DesiredCabinet[], recorded: readonly DesiredCabinet[], clear = false): Promise<void> {
    const payloads: SyncCabinetsPayload[] = clear ? [{ op: SyncCabinetsOp.clear }] : [];
    for (const part of chunks(cabinets, CABINETS_PER_COMMAND)) payloads.push({ op: SyncCabinetsOp.upsert, cabinets: part.map((c) => c.entry) });
    if (payloads.length > 0) await this.deps.gateway.enqueueCommands(payloads.map((payload) => ({ deviceId, kind: StorageCommandKind.syncCabinets, payload })), 'cabinetSync');
    for (const c of recorded) {
      await this.deps.db.updateTable('sys_cabinet').set({ sent_version: c.entry.version }).where('id', '=', c.id).execute();
    }
  }

  /** A cabinet device said hello: one in full-send mode gets its whole list again; any other reports what it holds. */
  deviceReturned(deviceId: string): void {
    if (this.follower.isStopped) return;
    void this.run(async () => {
      const device = await this.deps.db.selectFrom('sys_device').select(['system_type', 'sync_mode']).where('id', '=', deviceId).executeTakeFirst();
      const cabinets = await this.deps.db.selectFrom('sys_cabinet').select('id').where('device_id', '=', deviceId).limit(1).execute();
      if (!device || (device.system_type !== 'storage' && cabinets.length === 0)) return;
      if (device.sync_mode === 'full') return this.sendAll(deviceId, await this.desired([deviceId]));
      await this.deps.gateway.enqueueCommands([{ deviceId, kind: StorageCommandKind.cabinetReport, payload: {} }], 'cabinetSync');
    });
  }

  /** Asks the device what it holds; its answer aligns it. Answers the report command's id. */
  async requestReport(deviceId: string, by: string): Promise<string> {
    const [id] = await this.deps.gateway.enqueueCommands([{ deviceId, kind: StorageCommandKind.cabinetReport, payload: {} }], by);
    return id!;
  }

  /** A device acknowledged a command: the answer to a `cabinetReport` aligns the device with exactly the difference. */
  async acknowledged(device: { id: string }, ack: DeviceAck): Promise<void> {
    if (!ack.ok) return;
    const command = await this.deps.db.selectFrom('sys_device_command').select('kind').where('id', '=', ack.id).where('device_id', '=', device.id).executeTakeFirst();
    if (command?.kind !== StorageCommandKind.cabinetReport) return;
    const held = readHeld(ack.result);
    if (held) await this.run(() => this.align(device.id, held));
  }

  /** The device holds `held` (number → version): the cabinets that differ are sent, and recorded as sent. */
  private async align(deviceId: string, held: Map<number, string>): Promise<void> {
    const cabinets = await this.desired([deviceId]);
    const known = new Set(cabinets.map((c) => c.entry.no));
    const differing = cabinets.filter((c) => (held.get(c.entry.no) ?? EMPTY_CABINET) !== c.entry.version);
    // numbers the device holds that the console has no cabinet for any more (deleted) are cleared there
    const stray = [...held.keys()].filter((no) => !known.has(no)).map((no): DesiredCabinet => ({ id: '', deviceId, sent: '', entry: { no, holders: [], expireAt: null, version: EMPTY_CABINET } }));
    await this.send(deviceId, [...differing, ...stray], cabinets);
  }
}
