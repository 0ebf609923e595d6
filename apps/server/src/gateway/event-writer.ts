import { randomUUID } from 'node:crypto';
import { maskCardNo, type DeviceEvent } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { DatabaseDialect } from '../config.ts';
import type { Database, SysDeviceEvent } from '../db/schema.ts';
import { DerivedInserts, DerivedRows, InsertOnce } from './derived-rows.ts';

/** The event row's columns, in the order of the insert's values. */
const COLUMNS: ReadonlyArray<keyof SysDeviceEvent> = ['id', 'create_by', 'create_time', 'update_by', 'update_time', 'device_id', 'seq', 'device_time', 'kind', 'payload', 'tenant_id'];

export interface EventWriterOptions {
  /** a batch is written at once when this many events wait */
  maxBatch?: number;
  /** otherwise at most this long after the first waiting event */
  maxDelayMs?: number;
}

export interface EventDevice {
  id: string;
  sn: string;
  tenantId: string | null;
}

/** One device's events of a batch, in the order they came (a (device, seq) given twice is kept once). */
export interface DeviceEvents<D extends EventDevice = EventDevice> {
  device: D;
  events: DeviceEvent[];
  /** the same events as the messages brought them (readers that act on each message, such as the quake scenario) */
  messages: DeviceEvent[][];
}

/**
 * A write of a device's events besides the event rows (door states, soft update progress): run on the handle given.
 * The rows the events cause in other tables (access events, alarms, run logs) are handed to `derived`, which writes
 * those of the whole batch together at the end of its transaction.
 */
export type EventStep = (db: Kysely<Database>, derived: DerivedRows) => Promise<void>;

export interface EventWriterHooks<D extends EventDevice> {
  /** the writes that go with one device's events, in the transaction that stores them */
  steps(batch: DeviceEvents<D>): EventStep[];
  /** after the batch is committed (notices, readers that write on their own) */
  stored(batch: ReadonlyArray<DeviceEvents<D>>): Promise<void>;
  /** once the event rows of the batch are stored (not called when they could not be): the devices' receipts */
  receipted?(batch: ReadonlyArray<DeviceEvents<D>>): void;
}

interface Waiting<D extends EventDevice> extends DeviceEvents<D> {
  seqs: Set<number>;
}

/**
 * Device events are written in batches across devices: each batch is one transaction holding multi-row inserts of
 * the event rows (an event whose (device, seq) is stored already is skipped, so a repeated delivery - QoS 1
 * redelivery, a device resending after a reconnect - is dropped by the database itself), every other write the
 * events cause (door states, soft update progress: `steps`, once per device and batch) and, last, the rows they
 * cause in other tables (access events, alarms, run logs: gathered from every step, written per table together). With SQLite's
 * synchronous=FULL a commit waits for the disk and holds the event loop, so a thousand devices reporting cost a few
 * commits, not one per message. One write runs at a time; events arriving meanwhile form the next batch, written as
 * soon as that write ends (so the slower the database, the larger the batches, without commits queueing up). Should the shared transaction fail, the rows are stored on their own and each step runs in a
 * transaction of its own, so one bad write fails alone (and is logged).
 */
export class EventWriter<D extends EventDevice = EventDevice> {
  private waiting = new Map<string, Waiting<D>>();
  private waitingEvents = 0;
  /** the devices whose events are being written (or wait in a flushed batch), with their number of batches */
  private readonly writingDevices = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private readonly maxBatch: number;
  private readonly maxDelayMs: number;
  /** batches handed to the database and not yet written */
  private running = 0;
  /** events handed to the database (duplicates included: the insert drops those) */
  written = 0;
  private readonly eventInsert: InsertOnce;
  private readonly derivedInserts: DerivedInserts;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DatabaseDialect,
    private readonly log: { error(obj: object, msg: string): void },
    private readonly hooks: EventWriterHooks<D>,
    private readonly clock: () => number,
    options: EventWriterOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 20_000;
    this.maxDelayMs = options.maxDelayMs ?? 25;
    this.eventInsert = new InsertOnce(dialect, 'sys_device_event', COLUMNS, ['device_id', 'seq']);
    this.derivedInserts = new DerivedInserts(dialect);
  }

  add(device: D, events: readonly DeviceEvent[]): void {
    let group = this.waiting.get(device.id);
    if (!group) {
      group = { device, events: [], messages: [], seqs: new Set() };
      this.waiting.set(device.id, group);
    }
    const message: DeviceEvent[] = [];
    for (const event of events) {
      // the same (device, seq) twice in one batch: keep the first
      if (group.seqs.has(event.seq)) continue;
      group.seqs.add(event.seq);
      message.push(event);
      this.waitingEvents += 1;
    }
    if (message.length > 0) {
      group.events.push(...message);
      group.messages.push(message);
    }
    if (this.waitingEvents >= this.maxBatch) void this.flush();
    // while a batch is written the next one grows; it goes as soon as that write ends
    else if (this.running === 0) this.timer ??= setTimeout(() => void this.flush(), this.maxDelayMs);
  }

  /** Whether events of this device wait or are being written (a later message of it should wait for them). */
  holds(deviceId: string): boolean {
    return this.waiting.has(deviceId) || this.writingDevices.has(deviceId);
  }

  /** Writes what waits now; resolves once it (and any write before it) is stored. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = [...this.waiting.values()];
    this.waiting = new Map();
    this.waitingEvents = 0;
    if (batch.length === 0) return this.writing;
    for (const { device } of batch) this.writingDevices.set(device.id, (this.writingDevices.get(device.id) ?? 0) + 1);
    this.running += 1;
    this.writing = this.writing.then(async () => {
      await this.write(batch);
      this.running -= 1;
      if (this.running === 0 && this.waiting.size > 0) void this.flush();
    });
    return this.writing;
  }

  private async write(batch: Array<Waiting<D>>): Promise<void> {
    const receivedAt = new Date(this.clock()).toISOString();
    // the rows' values, row after row in the order of COLUMNS
    const values: unknown[] = [];
    let events = 0;
    for (const { device, events: list } of batch) {
      for (const event of list) {
        values.push(randomUUID(), null, receivedAt, null, null, device.id, event.seq, new Date(event.time).toISOString(), event.kind, JSON.stringify(atRest(event.data)), device.tenantId);
      }
      events += list.length;
    }
    const groups = batch.map(({ device, events, messages }) => ({ device, events, messages }));
    const steps = groups.map((group) => this.hooks.steps(group));
    let stored: boolean;
    try {
      await this.db.transaction().execute(async (trx) => {
        await this.eventInsert.run(trx, values);
        const derived = new DerivedRows(this.derivedInserts, receivedAt);
        for (const list of steps) for (const step of list) await step(trx, derived);
        await derived.write(trx);
      });
      this.written += events;
      stored = true;
    } catch {
      stored = await this.writeApart(values, events, groups, receivedAt);
    }
    if (stored) {
      try {
        this.hooks.receipted?.(groups);
      } catch (error) {
        this.log.error({ err: error }, 'device events: receipts failed');
      }
    }
    for (const { device } of batch) {
      const left = (this.writingDevices.get(device.id) ?? 1) - 1;
      if (left > 0) this.writingDevices.set(device.id, left);
      else this.writingDevices.delete(device.id);
    }
    try {
      await this.hooks.stored(groups);
    } catch (error) {
      this.log.error({ err: error }, 'device events: a reader failed');
    }
  }

  /**
   * The shared transaction failed: the rows alone, then each device's steps one by one (fresh, as they may have
   * started). Answers whether the rows are stored.
   */
  private async writeApart(values: unknown[], events: number, groups: Array<DeviceEvents<D>>, receivedAt: string): Promise<boolean> {
    try {
      await this.db.transaction().execute((trx) => this.eventInsert.run(trx, values));
      this.written += events;
    } catch (error) {
      // a failing database must not stop the gateway; the devices get no receipt and send these events again
      this.log.error({ err: error, events }, 'device events could not be stored');
      return false;
    }
    for (const group of groups) {
      for (const step of this.hooks.steps(group)) {
        try {
          await this.db.transaction().execute(async (trx) => {
            const derived = new DerivedRows(this.derivedInserts, receivedAt);
            await step(trx, derived);
            await derived.write(trx);
          });
        } catch (error) {
          this.log.error({ err: error, device: group.device.id, events: group.events.length }, 'device events: a write failed');
        }
      }
    }
    return true;
  }
}

/** An event's data as it is stored: a card number a device names is kept masked, never whole (the readers get it whole). */
export function atRest(data: DeviceEvent['data']): DeviceEvent['data'] {
  return typeof data.cardNo === 'string' ? { ...data, cardNo: maskCardNo(data.cardNo) } : data;
}
