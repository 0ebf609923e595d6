import { randomUUID } from 'node:crypto';
import {
  COMMAND_EXPIRED_REASON,
  deviceAck,
  DeviceAuditStatus,
  DeviceCommandKind,
  DeviceCommandStatus,
  DeviceDownKind,
  deviceDownTopic,
  deviceHeartbeat,
  deviceHello,
  devicePresence,
  DEVICE_TOPIC_ROOT,
  DeviceUpKind,
  deviceUpFilter,
  parseDeviceUpTopic,
  seqRanges,
  type DeviceAck,
  type DeviceCommand,
  type DeviceEvent,
  type DeviceHello,
  type DeviceReceipt,
} from '@isps/contract';
import { sql, type Kysely } from 'kysely';
import type { DatabaseDialect } from '../config.ts';
import type { Database, SysDeviceCommand } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import type { RealtimeHub } from '../platform/realtime/index.ts';
import { commandTtlMs } from './command-ttl.ts';
import type { DerivedRows } from './derived-rows.ts';
import { DoorStates } from './door-state.ts';
import { recordHelloInventory } from './device-inventory.ts';
import { eventsOf, withinDataCap } from './event-message.ts';
import { EventWriter, type DeviceEvents, type EventStep, type EventWriterOptions } from './event-writer.ts';
import { GroupCommit } from './group-commit.ts';
import { PresenceNotifier, type PresenceChange } from './presence-notifier.ts';

export interface GatewayLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface GatewayOptions {
  /** first topic level (`isps`); a test run or a second product on one broker uses its own */
  topicRoot?: string;
  /** shared-subscription group on an external broker: the servers of one console share one group */
  shareGroup?: string;
  /** how often due command retries are looked for */
  retryIntervalMs?: number;
  /** presence changes are coalesced over this window */
  presenceWindowMs?: number;
  /** a device not heard of (any message: hello, heartbeat, events, acknowledgements) for this long is marked offline, as if its last will had come */
  offlineAfterMs?: number;
  /** how often silent devices are looked for */
  offlineSweepMs?: number;
  /** time to live of commands by kind (ms; null: until delivered), over the defaults of command-ttl.ts */
  commandTtlMs?: Readonly<Record<string, number | null>>;
  events?: EventWriterOptions;
}

export interface GatewayDeps {
  db: Kysely<Database>;
  dialect: DatabaseDialect;
  clock: Clock;
  realtime: RealtimeHub;
  log: GatewayLog;
}

/** What the gateway needs of its broker connection once it reads the device topics. */
export interface GatewayClient {
  readonly connected: boolean;
  publishAsync(topic: string, payload: string, options: { qos: 0 | 1 }): Promise<unknown>;
  endAsync(): Promise<unknown>;
}

/** The embedded broker's connection for the gateway in the same process (`EmbeddedBroker.inProcessClient`). */
export interface InProcessGatewayClient extends GatewayClient {
  subscribe(filter: string, onMessage: (topic: string, payload: Buffer) => void): Promise<void>;
}

/** Where the gateway client connects: an external broker, or the embedded one in this process. */
export type BrokerConnection =
  | {
      url: string;
      username?: string;
      password?: string;
      /** an external broker spreads messages over the servers of the share group; the embedded one has one server */
      shared: boolean;
    }
  | { inProcess: InProcessGatewayClient };

/**
 * A module that reads device messages besides the gateway: run after the gateway's own handling, in device order.
 * Events come in batches: `store` writes in the transaction that stores them (on the handle it is given, never the
 * app's own: on SQLite that one waits for this transaction to end; the rows the events cause go to `derived`),
 * `events` reads them once they are committed.
 */
export interface DeviceObserver {
  store?(db: Kysely<Database>, device: { id: string; sn: string; tenantId: string | null }, events: readonly DeviceEvent[], derived: DerivedRows): Promise<void>;
  /** the device said hello (connected or reconnected), after its queued commands were handed out */
  hello?(device: { id: string; sn: string; tenantId: string | null }): Promise<void>;
  events?(device: { id: string; sn: string; tenantId: string | null }, events: readonly DeviceEvent[]): Promise<void>;
  ack?(device: { id: string; sn: string; tenantId: string | null }, ack: DeviceAck): Promise<void>;
  /** a message on `up/enroll` (palm-vein templates), unparsed: the reader checks it */
  enroll?(device: { id: string; sn: string; tenantId: string | null }, body: unknown): Promise<void>;
  /** a device went online or offline (its row is written; told by the one server whose write changed it) */
  presence?(change: PresenceChange): Promise<void>;
}

interface KnownDevice {
  id: string;
  sn: string;
  name: string;
  tenantId: string | null;
  expiresAt: number;
}

/** Retry waits after the n-th delivery: 2 s, 4 s, 8 s … at most 5 minutes. */
export function commandBackoffMs(attempts: number): number {
  return Math.min(2000 * 2 ** Math.max(0, attempts - 1), 300_000);
}

const DEVICE_CACHE_MS = 60_000;
const HEARTBEAT_WRITE_MS = 30_000;
/** a device clock offset that moved by no more than this is not written again */
const CLOCK_OFFSET_TOLERANCE_MS = 1000;

/**
 * The device gateway (DESIGN section 7): one MQTT client per server that reads every device's up topics, keeps
 * presence on the device rows (and tells the console), stores events in batches, and delivers the per-device
 * command queue until each command is acknowledged.
 */
export class DeviceGateway {
  readonly root: string;
  private client: GatewayClient | null = null;
  private readonly events: EventWriter<KnownDevice>;
  private readonly presence: PresenceNotifier;
  /** device row writes of many messages share a commit */
  private readonly writes: GroupCommit;
  private readonly devices = new Map<string, KnownDevice>();
  private readonly lastSeenWritten = new Map<string, number>();
  /** each device's clock offset as last written (device time minus server time, ms) */
  private readonly clockOffsets = new Map<string, number>();
  private retryTimer: NodeJS.Timeout | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private readonly doors: DoorStates;
  private retrying = false;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly chains = new Map<string, Promise<void>>();
  /** the creation time of the last command queued by enqueueCommands (epoch ms) */
  private lastQueuedMs = 0;
  /**
   * modules that store what device events mean (the access events), after the door states, in the events' transaction
   * on `db`; their rows go to `derived`, written with those of the whole batch
   */
  readonly eventListeners = new Set<(device: { id: string; tenantId: string | null }, events: readonly DeviceEvent[], db: Kysely<Database>, derived: DerivedRows) => Promise<void>>();
  private readonly observers: DeviceObserver[] = [];
  /** messages this server handled (tests count them across servers of one share group) */
  handled = 0;
  /** events refused for data over EVENT_DATA_MAX_BYTES (not stored; receipted, so the device stops sending them) */
  refusedEvents = 0;

  constructor(
    private readonly deps: GatewayDeps,
    private readonly options: GatewayOptions = {},
  ) {
    this.root = options.topicRoot ?? DEVICE_TOPIC_ROOT;
    this.events = new EventWriter<KnownDevice>(
      deps.db,
      deps.dialect,
      deps.log,
      { steps: (batch) => this.eventSteps(batch), stored: (batches) => this.eventsStored(batches), receipted: (batches) => this.sendReceipts(batches) },
      deps.clock,
      options.events,
    );
    this.writes = new GroupCommit(deps.db);
    this.presence = new PresenceNotifier(deps.db, deps.realtime, deps.log, options.presenceWindowMs);
    this.doors = new DoorStates(deps.db, deps.realtime);
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  async start(connection: BrokerConnection): Promise<void> {
    if ('inProcess' in connection) {
      this.client = connection.inProcess;
      await connection.inProcess.subscribe(deviceUpFilter(this.root), (topic, payload) => this.track(this.inDeviceOrder(topic, () => this.handle(topic, payload))));
    } else await this.connect(connection);
    const interval = this.options.retryIntervalMs ?? 1000;
    this.retryTimer = setInterval(() => this.track(this.retryDue()), interval);
    this.retryTimer.unref();
    this.sweepTimer = setInterval(() => this.track(this.markSilentOffline()), this.options.offlineSweepMs ?? 10_000);
    this.sweepTimer.unref();
  }

  /** Connects to an external broker (mqtt.js) and reads the device topics, in the share group when asked. */
  private async connect(connection: Exclude<BrokerConnection, { inProcess: InProcessGatewayClient }>): Promise<void> {
    // mqtt.js loads only when a broker is used
    const mqtt = (await import('mqtt')).default;
    const client = mqtt.connect(connection.url, {
      clientId: `isps-gateway-${randomUUID()}`,
      username: connection.username,
      password: connection.password,
      clean: true,
      reconnectPeriod: 1000,
      connectTimeout: 5000,
    });
    this.client = client;
    client.on('message', (topic, payload) => this.track(this.inDeviceOrder(topic, () => this.handle(topic, payload))));
    client.on('error', (error) => this.deps.log.warn({ err: error }, 'device broker connection error'));
    await new Promise<void>((resolve, reject) => {
      const fail = (error: Error) => {
        client.end(true);
        reject(error);
      };
      client.once('connect', () => {
        client.off('error', fail);
        resolve();
      });
      client.once('error', fail);
    });
    const filter = connection.shared && this.options.shareGroup !== '' ? `$share/${this.options.shareGroup ?? 'isps'}/${deviceUpFilter(this.root)}` : deviceUpFilter(this.root);
    // re-subscribed by mqtt.js after a reconnect (clean sessions)
    await client.subscribeAsync(filter, { qos: 1 });
  }

  async stop(): Promise<void> {
    if (this.retryTimer) clearInterval(this.retryTimer);
    this.retryTimer = null;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    const client = this.client;
    this.client = null;
    if (client) await client.endAsync();
    await Promise.allSettled([...this.inFlight]);
    await this.events.flush();
    await this.presence.flush();
  }

  /**
   * Devices whose connection died without a last will reaching us (a broker restart, a lost will) go offline once
   * nothing was heard of them for `offlineAfterMs`; last-seen is written at least every 30 s while any message comes.
   * Answers how many went offline. Runs on every server: the conditional update lets one of them tell the console.
   */
  async markSilentOffline(): Promise<number> {
    const cutoff = new Date(this.deps.clock() - (this.options.offlineAfterMs ?? 90_000)).toISOString();
    try {
      const silent = await this.deps.db
        .selectFrom('sys_device')
        .select(['id', 'sn', 'device_name', 'tenant_id', 'last_seen'])
        .where('online', '=', 1)
        .where((eb) => eb.or([eb('last_seen', 'is', null), eb('last_seen', '<', cutoff)]))
        .limit(1000)
        .execute();
      let count = 0;
      for (const device of silent) {
        const result = await this.deps.db
          .updateTable('sys_device')
          .set({ online: 0 })
          .where('id', '=', device.id)
          .where('online', '=', 1)
          .where((eb) => (device.last_seen === null ? eb('last_seen', 'is', null) : eb('last_seen', '=', device.last_seen)))
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) continue;
        count += 1;
        this.presenceChanged({ id: device.id, sn: device.sn, name: device.device_name, tenantId: device.tenant_id, online: false });
      }
      return count;
    } catch (error) {
      this.deps.log.error({ err: error }, 'silent device sweep failed');
      return 0;
    }
  }

  /** Writes waiting events and sends waiting presence notices now (tests, shutdown). */
  /** Closes a device's connections to this server's embedded broker (set by the plugin when it runs one). */
  disconnectDevice: ((sn: string) => void) | null = null;

  /** A device whose key was revoked: what is known of it is dropped and its connection closed, at once. */
  revokeDevice(sn: string): void {
    this.devices.delete(sn);
    this.disconnectDevice?.(sn);
  }

  async flush(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
    await this.events.flush();
    await this.presence.flush();
  }

  /**
   * Queues a command for a device and sends it at once when the device is online; otherwise it goes out when the
   * device next says hello, unless its time to live passed first. Answers the command id.
   */
  async enqueueCommand(deviceId: string, kind: string, payload: unknown, by: string, id: string = randomUUID()): Promise<string> {
    const device = await this.deps.db.selectFrom('sys_device').select(['id', 'sn', 'online', 'tenant_id']).where('id', '=', deviceId).executeTakeFirstOrThrow();
    const nowMs = this.deps.clock();
    const now = new Date(nowMs).toISOString();
    await this.deps.db
      .insertInto('sys_device_command')
      .values({
        id,
        create_by: by,
        create_time: now,
        update_by: null,
        update_time: null,
        device_id: device.id,
        kind,
        payload: JSON.stringify(payload ?? null),
        status: DeviceCommandStatus.pending,
        attempts: 0,
        next_try: now,
        sent_time: null,
        acked_time: null,
        result: null,
        expire_time: this.expiryOf(kind, nowMs),
        tenant_id: device.tenant_id,
      })
      .execute();
    if (device.online === 1) await this.deliverQueued(device.id, device.sn);
    return id;
  }

  /** When a command of this kind queued at `createdMs` expires (ISO text), or null when it waits for its device. */
  private expiryOf(kind: string, createdMs: number): string | null {
    const ttl = commandTtlMs(kind, this.options.commandTtlMs);
    return ttl === null ? null : new Date(createdMs + ttl).toISOString();
  }

  /** The console's device readers are told (coalesced), and the observers of presence. */
  private presenceChanged(change: PresenceChange): void {
    this.presence.changed(change);
    if (this.observers.some((o) => o.presence)) this.track(this.tellObservers((observer) => observer.presence?.(change)));
  }

  /** Adds a reader of device events and acknowledgements (soft update progress, run logs, alarms). */
  observe(observer: DeviceObserver): void {
    this.observers.push(observer);
  }

  private async tellObservers(work: (observer: DeviceObserver) => Promise<void> | undefined): Promise<void> {
    for (const observer of this.observers) {
      try {
        await work(observer);
      } catch (error) {
        this.deps.log.error({ err: error }, 'device message observer failed');
      }
    }
  }

  /**
   * Queues many commands (of one or several devices) in one transaction and sends them at once to the devices that are
   * online: those rows are written as sent (their first delivery claimed by the insert itself), so a large sync costs
   * no write per command. Answers their ids, in order.
   */
  async enqueueCommands(items: ReadonlyArray<{ deviceId: string; kind: string; payload: unknown }>, by: string): Promise<string[]> {
    if (items.length === 0) return [];
    const deviceIds = [...new Set(items.map((i) => i.deviceId))];
    const devices = new Map((await this.deps.db.selectFrom('sys_device').select(['id', 'sn', 'online', 'tenant_id']).where('id', 'in', deviceIds).execute()).map((d) => [d.id, d]));
    const nowMs = this.deps.clock();
    const now = new Date(nowMs).toISOString();
    const live = this.client?.connected ?? false;
    // a millisecond apart, after anything queued before: a hello delivers the queue oldest first, so they go out again
    // in the order they were queued
    const first = Math.max(nowMs, this.lastQueuedMs + 1);
    this.lastQueuedMs = first + items.length - 1;
    const rows = items.map((item, i) => {
      const device = devices.get(item.deviceId);
      if (!device) throw new Error(`no device ${item.deviceId}`);
      const sending = live && device.online === 1;
      const created = first + i;
      return {
        id: randomUUID(),
        create_by: by,
        create_time: new Date(created).toISOString(),
        update_by: null,
        update_time: null,
        device_id: device.id,
        kind: item.kind,
        payload: JSON.stringify(item.payload ?? null),
        status: sending ? DeviceCommandStatus.sent : DeviceCommandStatus.pending,
        attempts: sending ? 1 : 0,
        next_try: sending ? new Date(nowMs + commandBackoffMs(1)).toISOString() : now,
        sent_time: sending ? now : null,
        acked_time: null,
        result: null,
        expire_time: this.expiryOf(item.kind, created),
        tenant_id: device.tenant_id,
      };
    });
    await this.deps.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 50) await trx.insertInto('sys_device_command').values(rows.slice(i, i + 50)).execute();
    });
    const client = this.client;
    if (!client?.connected) return rows.map((r) => r.id);
    // the stored payload text is the message's payload: a large payload is turned into JSON once; published in order
    await Promise.all(
      rows
        .filter((row) => row.status === DeviceCommandStatus.sent)
        .map((row) =>
          client.publishAsync(
            deviceDownTopic(devices.get(row.device_id)!.sn, DeviceDownKind.command, this.root),
            `{"id":${JSON.stringify(row.id)},"kind":${JSON.stringify(row.kind)},"payload":${row.payload},"time":${nowMs},"attempt":1${lifetimeJson(row)}}`,
            { qos: 1 },
          ),
        ),
    );
    return rows.map((r) => r.id);
  }

  /** One device's messages are handled in the order they came (its hello before its events), devices in parallel. */
  private inDeviceOrder(topic: string, work: () => Promise<void>): Promise<void> {
    const key = topic.split('/')[1] ?? '';
    const previous = this.chains.get(key) ?? Promise.resolve();
    const next = previous.then(work);
    this.chains.set(key, next);
    void next.then(() => {
      if (this.chains.get(key) === next) this.chains.delete(key);
    });
    return next;
  }

  private track(work: Promise<unknown>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private async handle(topic: string, payload: Buffer): Promise<void> {
    const parsed = parseDeviceUpTopic(topic, this.root);
    if (!parsed) return;
    this.handled += 1;
    let body: unknown;
    try {
      body = JSON.parse(payload.toString('utf8'));
    } catch {
      this.deps.log.warn({ sn: parsed.sn, kind: parsed.kind }, 'device message is not JSON');
      return;
    }
    try {
      switch (parsed.kind) {
        case DeviceUpKind.hello:
          return await this.onHello(parsed.sn, body);
        case DeviceUpKind.heartbeat:
          return await this.onHeartbeat(parsed.sn, body);
        case DeviceUpKind.presence:
          return await this.onPresence(parsed.sn, body);
        case DeviceUpKind.event:
          return await this.onEvents(parsed.sn, body, payload.length);
        case DeviceUpKind.ack:
          return await this.onAck(parsed.sn, body);
        case DeviceUpKind.enroll:
          return await this.onEnroll(parsed.sn, body);
        default:
          // kinds of later releases: read by the modules that need them
          return;
      }
    } catch (error) {
      this.deps.log.error({ err: error, sn: parsed.sn, kind: parsed.kind }, 'device message failed');
    }
  }

  private now(): string {
    return new Date(this.deps.clock()).toISOString();
  }

  /**
   * The device row of an approved serial number, created at its first hello in the tenant of its device code. An
   * external broker may let anyone in (it authenticates on its own, if set up to), so the messages of a serial number
   * without an approved code with a key issued are dropped, whatever the broker. A device belongs to the tenant that
   * approved its code: only a row of that tenant is its row, and a row of another tenant holding the serial number
   * (made before the console refused such rows) never gets its messages. What is known of a serial number is kept for
   * a minute: a withdrawn code stops its device's messages within that time (the embedded broker refuses its next
   * connection at once).
   */
  private async deviceOf(sn: string, createFrom?: DeviceHello): Promise<KnownDevice | null> {
    const known = this.devices.get(sn);
    if (known && known.expiresAt > Date.now()) return known;
    this.devices.delete(sn);
    const code = await this.deps.db.selectFrom('sys_device_code').select(['tenant_id', 'audit_status', 'device_key_hash']).where('sn', '=', sn).executeTakeFirst();
    if (!code || code.audit_status !== DeviceAuditStatus.agree || !code.device_key_hash) return null;
    const codeTenant = code.tenant_id;
    const rowOf = () =>
      this.deps.db
        .selectFrom('sys_device')
        .select(['id', 'sn', 'device_name', 'tenant_id'])
        .where('sn', '=', sn)
        .where((eb) => (codeTenant === null ? eb('tenant_id', 'is', null) : eb('tenant_id', '=', codeTenant)))
        .executeTakeFirst();
    let row = await rowOf();
    if (!row) {
      if (!createFrom) return null;
      const id = randomUUID();
      await this.writes
        .run((db) =>
          db
            .insertInto('sys_device')
            .values({
              id,
              create_by: 'device',
              create_time: this.now(),
              update_by: null,
              update_time: null,
              device_name: sn,
              sn,
              mac: createFrom.mac ?? null,
              ip: createFrom.ip ?? null,
              gateway: createFrom.gateway ?? null,
              subnet_mask: createFrom.subnetMask ?? null,
              system_type: createFrom.system ?? null,
              device_type_id: null,
              device_model: createFrom.model ?? null,
              background_image: null,
              location: null,
              area_id: null,
              online: 0,
              last_seen: null,
              session_id: null,
              firmware: createFrom.firmware ?? null,
              tenant_id: code.tenant_id,
            })
            .execute(),
        )
        .catch(() => undefined); // another server created it meanwhile: read it below
      row = await rowOf();
      if (!row) {
        this.deps.log.warn({ sn }, 'device not bound: a device row of another tenant than its code holds its serial number');
        return null;
      }
    }
    const device = { id: row.id, sn: row.sn, name: row.device_name, tenantId: row.tenant_id, expiresAt: Date.now() + DEVICE_CACHE_MS };
    this.devices.set(sn, device);
    return device;
  }

  private async onHello(sn: string, body: unknown): Promise<void> {
    const hello = deviceHello.safeParse(body);
    if (!hello.success) return;
    const device = await this.deviceOf(sn, hello.data);
    if (!device) return;
    const now = this.now();
    // its kind, model and doors, as the device tells them, before it is shown online (a failure never keeps it offline)
    await recordHelloInventory(this.deps.db, device, hello.data, now).catch((error: unknown) => this.deps.log.warn({ err: error, sn }, 'device inventory not recorded'));
    const { ip, mac, firmware, model, gateway, subnetMask } = hello.data;
    const clockOffset = hello.data.time - this.deps.clock();
    this.clockOffsets.set(device.id, clockOffset);
    await this.writes.run((db) =>
      db
        .updateTable('sys_device')
        .set({
          online: 1,
          last_seen: now,
          session_id: hello.data.sessionId,
          clock_offset_ms: clockOffset,
          ...(ip ? { ip } : {}),
          ...(mac ? { mac } : {}),
          ...(firmware ? { firmware } : {}),
          ...(model ? { device_model: model } : {}),
          ...(gateway ? { gateway } : {}),
          ...(subnetMask ? { subnet_mask: subnetMask } : {}),
        })
        .where('id', '=', device.id)
        .execute(),
    );
    this.lastSeenWritten.set(device.id, this.deps.clock());
    this.presenceChanged({ id: device.id, sn, name: device.name, tenantId: device.tenantId, online: true });
    await this.deliverQueued(device.id, sn);
    await this.tellObservers((observer) => observer.hello?.({ id: device.id, sn, tenantId: device.tenantId }));
  }

  private async onHeartbeat(sn: string, body: unknown): Promise<void> {
    const beat = deviceHeartbeat.safeParse(body);
    if (!beat.success) return;
    const device = await this.deviceOf(sn);
    if (!device) return;
    await this.seen(device);
    // written only when the clock moved by more than a second since the last measure (attendance corrects punches by it)
    const clockOffset = beat.data.time - this.deps.clock();
    const known = this.clockOffsets.get(device.id);
    if (known !== undefined && Math.abs(known - clockOffset) <= CLOCK_OFFSET_TOLERANCE_MS) return;
    this.clockOffsets.set(device.id, clockOffset);
    await this.writes.run((db) => db.updateTable('sys_device').set({ clock_offset_ms: clockOffset }).where('id', '=', device.id).execute());
  }

  /**
   * Any message of a device is a sign of life (a heartbeat, events, an acknowledgement, an enrollment): its last-seen
   * time is written at most every 30 s per device, so the messages of thousands of devices cost few writes.
   */
  private async seen(device: KnownDevice): Promise<void> {
    const last = this.lastSeenWritten.get(device.id) ?? 0;
    if (this.deps.clock() - last < HEARTBEAT_WRITE_MS) return;
    this.lastSeenWritten.set(device.id, this.deps.clock());
    const now = this.now();
    await this.writes.run((db) => db.updateTable('sys_device').set({ last_seen: now }).where('id', '=', device.id).execute());
  }

  private async onPresence(sn: string, body: unknown): Promise<void> {
    const presence = devicePresence.safeParse(body);
    if (!presence.success) return;
    const device = await this.deviceOf(sn);
    if (!device) return;
    // only the current session goes offline: the late will of a connection the device already replaced is ignored
    const now = this.now();
    const result = await this.writes.run((db) =>
      db
        .updateTable('sys_device')
        .set({ online: 0, last_seen: now })
        .where('id', '=', device.id)
        .where('session_id', '=', presence.data.sessionId)
        .where('online', '=', 1)
        .executeTakeFirst(),
    );
    if (Number(result.numUpdatedRows) > 0) this.presenceChanged({ id: device.id, sn, name: device.name, tenantId: device.tenantId, online: false });
  }

  private async onEvents(sn: string, body: unknown, bytes: number): Promise<void> {
    const events = eventsOf(body);
    if (!events) return;
    const device = await this.deviceOf(sn);
    if (!device) return;
    await this.seen(device);
    const { kept, refused } = withinDataCap(events, bytes);
    if (refused.length > 0) {
      this.refusedEvents += refused.length;
      this.deps.log.warn({ sn, seqs: seqRanges(refused.map((e) => e.seq)) }, 'device events over the data size limit refused');
      // sending them again would change nothing: the receipt ends that
      this.sendReceipts([{ device, events: refused, messages: [] }]);
    }
    if (kept.length > 0) this.events.add(device, kept);
  }

  /** What a device's events of a batch write besides their rows, in the batch's transaction. */
  private eventSteps({ device, events }: DeviceEvents<KnownDevice>): EventStep[] {
    const steps: EventStep[] = [(db) => this.doors.apply(db, device, events)];
    for (const listener of this.eventListeners) steps.push((db, derived) => listener(device, events, db, derived));
    for (const observer of this.observers) if (observer.store) steps.push((db, derived) => observer.store!(db, device, events, derived));
    return steps;
  }

  /**
   * The events of a batch are stored: each device is told which, and stops keeping them for sending again. QoS 0: a
   * lost receipt makes the device send those events again, which the database drops as stored already.
   */
  private sendReceipts(batches: ReadonlyArray<DeviceEvents<KnownDevice>>): void {
    const client = this.client;
    if (!client?.connected) return;
    for (const { device, events } of batches) {
      if (events.length === 0) continue;
      const receipt: DeviceReceipt = { id: randomUUID(), seqs: seqRanges(events.map((e) => e.seq)) };
      client.publishAsync(deviceDownTopic(device.sn, DeviceDownKind.receipt, this.root), JSON.stringify(receipt), { qos: 0 }).catch(() => undefined);
    }
  }

  /** A batch of events is committed: door notices go out, and the readers that act on their own read it. */
  private async eventsStored(batches: ReadonlyArray<DeviceEvents<KnownDevice>>): Promise<void> {
    await this.doors.notify();
    // message by message, as they came
    for (const { device, messages } of batches) for (const events of messages) await this.tellObservers((observer) => observer.events?.(device, events));
  }

  private async onAck(sn: string, body: unknown): Promise<void> {
    const ack = deviceAck.safeParse(body);
    if (!ack.success) return;
    const device = await this.deviceOf(sn);
    if (!device) return;
    await this.seen(device);
    // the events the device sent before (a software update's progress) are stored first
    if (this.events.holds(device.id)) await this.events.flush();
    // a device acknowledges only its own commands; a repeated acknowledgement changes nothing. One that ran a command
    // the server meanwhile called expired says what really happened
    const now = this.now();
    const dropped = !ack.data.ok && (ack.data.result as { reason?: unknown } | undefined)?.reason === COMMAND_EXPIRED_REASON;
    await this.writes.run((db) =>
      db
        .updateTable('sys_device_command')
        .set({
          status: ack.data.ok ? DeviceCommandStatus.acked : dropped ? DeviceCommandStatus.expired : DeviceCommandStatus.failed,
          acked_time: now,
          next_try: null,
          result: ack.data.result === undefined ? null : JSON.stringify(ack.data.result),
        })
        .where('id', '=', ack.data.id)
        .where('device_id', '=', device.id)
        .where('status', 'in', [DeviceCommandStatus.pending, DeviceCommandStatus.sent, DeviceCommandStatus.expired])
        .execute(),
    );
    await this.tellObservers((observer) => observer.ack?.(device, ack.data));
  }

  private async onEnroll(sn: string, body: unknown): Promise<void> {
    const device = await this.deviceOf(sn);
    if (!device) return;
    await this.seen(device);
    await this.tellObservers((observer) => observer.enroll?.(device, body));
  }

  /**
   * Sends every unacknowledged command of a device, oldest first (on hello, and at once when queued online); one past
   * its time to live is marked expired instead.
   */
  private async deliverQueued(deviceId: string, sn: string): Promise<void> {
    const commands = await this.deps.db
      .selectFrom('sys_device_command')
      .selectAll()
      .where('device_id', '=', deviceId)
      .where('status', 'in', [DeviceCommandStatus.pending, DeviceCommandStatus.sent])
      .orderBy('create_time')
      .orderBy('id')
      .limit(500)
      .execute();
    for (const command of commands) await this.send(sn, command);
  }

  private async send(sn: string, command: SysDeviceCommand): Promise<void> {
    const client = this.client;
    if (!client?.connected) return;
    const attempt = command.attempts + 1;
    const nowMs = this.deps.clock();
    const now = new Date(nowMs).toISOString();
    if (command.expire_time !== null && command.expire_time <= now) return void (await this.expire([command.id]));
    // the delivery is claimed by its attempt number: a hello and a retry round (or two servers) never send the same
    // attempt twice, nor one past its time to live
    const claimed = await this.deps.db
      .updateTable('sys_device_command')
      .set({ status: DeviceCommandStatus.sent, attempts: attempt, sent_time: now, next_try: new Date(nowMs + commandBackoffMs(attempt)).toISOString() })
      .where('id', '=', command.id)
      .where('attempts', '=', command.attempts)
      .where('status', 'in', [DeviceCommandStatus.pending, DeviceCommandStatus.sent])
      .where((eb) => eb.or([eb('expire_time', 'is', null), eb('expire_time', '>', now)]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return;
    const message: DeviceCommand = {
      id: command.id,
      kind: command.kind,
      payload: command.payload === null ? null : (JSON.parse(command.payload) as unknown),
      time: nowMs,
      attempt,
      ...lifetimeOf(command),
    };
    await client.publishAsync(deviceDownTopic(sn, DeviceDownKind.command, this.root), JSON.stringify(message), { qos: 1 });
  }

  /**
   * Commands past their time to live are marked expired (while the broker is away too, so the console shows them), and
   * those sent but not acknowledged in time go out again to their (online) devices, with growing waits.
   */
  private async retryDue(): Promise<void> {
    if (this.retrying) return;
    this.retrying = true;
    try {
      await this.expireDue();
      if (!this.client?.connected) return;
      const due = await this.deps.db
        .selectFrom('sys_device_command as c')
        .innerJoin('sys_device as d', 'd.id', 'c.device_id')
        .selectAll('c')
        .select('d.sn')
        .where('c.status', 'in', [DeviceCommandStatus.pending, DeviceCommandStatus.sent])
        .where('c.next_try', '<=', this.now())
        .where('d.online', '=', 1)
        .orderBy('c.next_try')
        .limit(500)
        .execute();
      for (const { sn, ...command } of due) await this.send(sn, command);
    } catch (error) {
      this.deps.log.error({ err: error }, 'device command retry failed');
    } finally {
      this.retrying = false;
    }
  }

  /** Marks the waiting commands whose time to live has passed as expired (a read first: mostly there are none). */
  private async expireDue(): Promise<void> {
    const overdue = await this.deps.db
      .selectFrom('sys_device_command')
      .select('id')
      .where('status', 'in', [DeviceCommandStatus.pending, DeviceCommandStatus.sent])
      .where('expire_time', '<=', this.now())
      .limit(500)
      .execute();
    await this.expire(overdue.map((c) => c.id));
  }

  private async expire(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    // a key that was never taken is not kept in the queue: wiped in the statement that expires its command, so no
    // reader ever sees an expired rotation still holding its key
    await this.deps.db
      .updateTable('sys_device_command')
      .set({ status: DeviceCommandStatus.expired, next_try: null, payload: sql<string>`case when kind = ${DeviceCommandKind.rotateKey} then 'null' else payload end` })
      .where('id', 'in', ids)
      .where('status', 'in', [DeviceCommandStatus.pending, DeviceCommandStatus.sent])
      .execute();
  }
}

/** A command's creation time and time to live as its message carries them (no `ttl`: it waits for the device). */
function lifetimeOf(command: Pick<SysDeviceCommand, 'create_time' | 'expire_time'>): Pick<DeviceCommand, 'createdAt' | 'ttl'> {
  if (command.create_time === null) return {};
  const createdAt = Date.parse(command.create_time);
  return command.expire_time === null ? { createdAt } : { createdAt, ttl: Math.max(1, Date.parse(command.expire_time) - createdAt) };
}

/** `lifetimeOf` as the JSON members that follow a message's last one. */
function lifetimeJson(command: Pick<SysDeviceCommand, 'create_time' | 'expire_time'>): string {
  const { createdAt, ttl } = lifetimeOf(command);
  return `${createdAt === undefined ? '' : `,"createdAt":${createdAt}`}${ttl === undefined ? '' : `,"ttl":${ttl}`}`;
}
