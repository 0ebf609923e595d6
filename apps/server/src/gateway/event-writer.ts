import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { DeviceEvent } from '@isps/contract';
import type { Insertable, Kysely } from 'kysely';
import type { DatabaseDialect } from '../config.ts';
import type { Database, SysDeviceEvent } from '../db/schema.ts';

type EventRow = Insertable<SysDeviceEvent>;

/** Rows per INSERT: 11 bound values each, below SQLite's 32,766 and PostgreSQL's and MySQL's 65,535 parameters. */
const ROWS_PER_INSERT: Record<DatabaseDialect, number> = { sqlite: 2500, postgres: 5000, mysql: 5000 };

export interface EventWriterOptions {
  /** a batch is written at once when this many events wait */
  maxBatch?: number;
  /** otherwise at most this long after the first waiting event */
  maxDelayMs?: number;
}

/**
 * Device events are written in batches: multi-row inserts that skip an event whose (device, seq) is already stored,
 * so a repeated delivery (QoS 1 redelivery, a device resending after a reconnect) is dropped by the database itself.
 * One write runs at a time; events arriving meanwhile form the next batch. When the database is slow to commit (a
 * busy disk under synchronous=FULL) a batch waits as long as the last write took, so batches grow instead of
 * commits queueing up.
 */
export class EventWriter {
  private waiting: EventRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private readonly maxBatch: number;
  private readonly maxDelayMs: number;
  /** how long the last write took: the next batch waits at least as long, so commits take at most half the time */
  private lastWriteMs = 0;
  /** events handed to the database (duplicates included: the insert drops those) */
  written = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DatabaseDialect,
    private readonly log: { error(obj: object, msg: string): void },
    options: EventWriterOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 5000;
    this.maxDelayMs = options.maxDelayMs ?? 25;
  }

  add(device: { id: string; tenantId: string | null }, events: readonly DeviceEvent[], receivedAt: string): void {
    for (const event of events) {
      this.waiting.push({
        id: randomUUID(),
        create_by: null,
        create_time: receivedAt,
        update_by: null,
        update_time: null,
        device_id: device.id,
        seq: event.seq,
        device_time: new Date(event.time).toISOString(),
        kind: event.kind,
        payload: JSON.stringify(event.data),
        tenant_id: device.tenantId,
      });
    }
    if (this.waiting.length >= this.maxBatch) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), Math.max(this.maxDelayMs, this.lastWriteMs));
  }

  /** Writes what waits now; resolves once it (and any write before it) is stored. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.waiting;
    this.waiting = [];
    this.writing = this.writing.then(() => (batch.length > 0 ? this.write(batch) : undefined));
    return this.writing;
  }

  private async write(batch: EventRow[]): Promise<void> {
    // the same (device, seq) twice in one batch: keep the first
    const seen = new Set<string>();
    const rows = batch.filter((row) => {
      const key = `${row.device_id}\u0000${row.seq}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const started = performance.now();
    try {
      const size = ROWS_PER_INSERT[this.dialect];
      for (let start = 0; start < rows.length; start += size) {
        const chunk = rows.slice(start, start + size);
        const insert = this.db.insertInto('sys_device_event').values(chunk);
        if (this.dialect === 'mysql') await insert.ignore().execute();
        else await insert.onConflict((oc) => oc.columns(['device_id', 'seq']).doNothing()).execute();
      }
      this.written += rows.length;
    } catch (error) {
      // a failing database must not stop the gateway; the failure and the number of events lost are logged
      this.log.error({ err: error, events: rows.length }, 'device events could not be stored');
    }
    this.lastWriteMs = Math.min(performance.now() - started, 1000);
  }
}
