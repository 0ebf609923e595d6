import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  CaptureCommandKind,
  COMMAND_EXPIRED_REASON,
  deviceCommand,
  deviceReceipt,
  DeviceDownKind,
  deviceDownTopic,
  DeviceEventKind,
  DEVICE_EVENT_BATCH_MAX,
  DEVICE_TOPIC_ROOT,
  DeviceUpKind,
  deviceUpTopic,
  type DeviceAck,
  type DeviceCommand,
  type DeviceEnrollUpload,
  type DeviceEvent,
  type EnrollFailure,
  type EnrollPalmPayload,
  type DeviceHeartbeat,
  type DeviceHello,
  type DevicePresence,
  type RotateKeyPayload,
  type SoftUpdateCommandPayload,
  StorageCommandKind,
  type SyncCabinetsPayload,
  KeyCommandKind,
  type SyncKeysPayload,
  DoorScheduleCommandKind,
  type SyncDoorSchedulesPayload,
} from '@isps/contract';
import { DoorScheduleStore, emptyHeldDoorSchedules, type HeldDoorSchedules } from './door-schedules.ts';
import { CabinetStore, type HeldCabinet } from './cabinets.ts';
import { emptyHeldKeys, KeyStore, type HeldKeys } from './keys.ts';
import mqtt, { type MqttClient } from 'mqtt';
import { AccessCommandKind, type AccessReport, type SyncPeoplePayload } from '@isps/contract';
import { AccessList } from './access-list.ts';
import type { SiteCalendar } from './access-window.ts';
import { provisionedUrl } from './provision.ts';
import { SEND_LOG_COMMAND, type SendLogCommandPayload } from '@isps/contract';

export const SIM_KINDS = ['door', 'vein', 'camera', 'cabinet', 'keys', 'patrol', 'quake'] as const;
export type SimKind = (typeof SIM_KINDS)[number];

/** The kinds that serve as capture devices: they enroll palms and read ID cards. */
export const CAPTURE_KINDS: readonly SimKind[] = ['vein', 'camera'];

/** How a simulated enrollment ends: a template, or one of the failures a device reports. */
export type EnrollOutcome = 'ok' | Exclude<EnrollFailure, 'refused'>;
export const ENROLL_OUTCOMES: readonly EnrollOutcome[] = ['ok', 'timeout', 'cancelled', 'quality'];

/**
 * A heartbeat every 20 s: the console marks a device offline after 90 s of silence and writes its last-seen time at
 * most every 30 s, so even a skipped write leaves it well inside that window.
 */
export const DEFAULT_HEARTBEAT_MS = 20_000;

/** What each kind of simulated device says it is in its hello (kinds the console has no name for say nothing). */
const KIND_OF: Partial<Record<SimKind, NonNullable<DeviceHello['kind']>>> = { door: 'controller', vein: 'vein', camera: 'camera' };

const SYSTEM_OF: Record<SimKind, NonNullable<DeviceHello['system']>> = {
  door: 'abDoor',
  vein: 'access',
  camera: 'access',
  cabinet: 'storage',
  keys: 'ks',
  patrol: 'access',
  quake: 'quake',
};

/** What each kind of device reports in the course of its work (alarms come apart, at their own rate). */
const EVENTS_OF: Record<SimKind, DeviceEventKind[]> = {
  door: [DeviceEventKind.doorState, DeviceEventKind.opening],
  vein: [DeviceEventKind.punch, DeviceEventKind.opening],
  camera: [DeviceEventKind.punch, DeviceEventKind.opening],
  cabinet: [DeviceEventKind.cabinetOpen, DeviceEventKind.cabinetClose],
  keys: [DeviceEventKind.keyTaken, DeviceEventKind.keyReturned],
  patrol: [DeviceEventKind.patrolCheckIn],
  quake: [DeviceEventKind.quakeReading],
};

/** The alarms each kind of device can raise (codes of the contract's ALARM_CODES), with their level. */
const ALARMS_OF: Record<SimKind, ReadonlyArray<{ code: string; level: 'L' | 'M' | 'H' }>> = {
  door: [
    { code: 'forcedOpen', level: 'H' },
    { code: 'heldOpen', level: 'M' },
    { code: 'tamper', level: 'M' },
  ],
  vein: [{ code: 'tamper', level: 'M' }],
  camera: [
    { code: 'videoLoss', level: 'M' },
    { code: 'tamper', level: 'M' },
  ],
  cabinet: [
    { code: 'forcedOpen', level: 'H' },
    { code: 'tamper', level: 'M' },
  ],
  keys: [
    { code: 'forcedOpen', level: 'H' },
    { code: 'tamper', level: 'M' },
  ],
  patrol: [{ code: 'lowBattery', level: 'L' }],
  quake: [
    { code: 'sensorFault', level: 'M' },
    { code: 'tamper', level: 'M' },
  ],
};

/** The longest wait a Node timer keeps. */
const MAX_TIMER_MS = 2_147_483_647;

/** Alarms per device and hour the command line raises by default: one in four hours on average (rare, as in a site). */
export const DEFAULT_ALARMS_PER_HOUR = 0.25;

/**
 * The wait before a device's next alarm: alarms come at random moments (a Poisson process), `alarmsPerHour` on
 * average. `random` is a number in [0, 1).
 */
export function nextAlarmDelayMs(alarmsPerHour: number, random: number = Math.random()): number {
  return (-Math.log(1 - random) * 3_600_000) / alarmsPerHour;
}

/**
 * A quake sensor's reading of a seismic intensity (China Seismic Intensity Scale, 0-12), with the peak ground
 * acceleration (in g) at the middle of that intensity's band (VI: 0.45-0.89 m/s², doubling with each degree).
 */
export function quakeReading(intensity: number): { pga: number; intensity: number } {
  const level = Math.max(0, Math.min(12, Math.round(intensity)));
  const pga = level === 0 ? 0.001 : (0.63 * 2 ** (level - 6)) / 9.80665;
  return { pga: Number(pga.toFixed(4)), intensity: level };
}

/**
 * What a device keeps across its own restarts (flash memory): its event sequence number and the ids of the
 * commands it has run, so a command delivered again is acknowledged without being run twice.
 */
export interface DeviceMemory {
  seq: number;
  done: Set<string>;
  /** every command that took effect, in order (what tests count) */
  effects: Array<{ id: string; kind: string; payload: unknown }>;
  /** outcome of each softUpdate and sendLog command by id, once it ended */
  updates: Map<string, { ok: boolean; error?: string }>;
  /** events sent and not yet named by a receipt of the server, by sequence number, with when they were last sent */
  unreceipted: Map<number, { event: DeviceEvent; sentAt: number }>;
  /** a cabinet device's allocations by cabinet number */
  cabinets: Map<number, HeldCabinet>;
  /** a key cabinet's list, the keys out and the slots an emergency freed */
  keys: HeldKeys;
  /** a door controller's door schedules and the doors the emergency holds open */
  doorSchedules: HeldDoorSchedules;
}

/** A server message read by its schema; null when it is not JSON or not of that shape (a device ignores those). */
function readMessage<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }, payload: Buffer): T | null {
  let value: unknown;
  try {
    value = JSON.parse(payload.toString('utf8'));
  } catch {
    return null;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function newMemory(): DeviceMemory {
  return { seq: 0, done: new Set(), effects: [], updates: new Map(), unreceipted: new Map(), cabinets: new Map(), keys: emptyHeldKeys(), doorSchedules: emptyHeldDoorSchedules() };
}

export interface SimDeviceOptions {
  url: string;
  sn: string;
  key: string;
  kind: SimKind;
  /** events per second this device emits on its own (0: only when told to) */
  rate?: number;
  /** alarms per hour this device raises on its own, at random moments (0, the default: only when told to) */
  alarmsPerHour?: number;
  topicRoot?: string;
  memory?: DeviceMemory;
  /** directory where the device keeps the people it holds across restarts (in memory only without one) */
  accessDir?: string;
  /** the site's zone and holidays its time settings are read in (UTC, none by default) */
  site?: SiteCalendar;
  /** how long storing a batch of people takes (a slow flash) */
  syncDelayMs?: number;
  /** run commands but send no acknowledgement (an acknowledgement lost on the way) */
  withholdAcks?: boolean;
  /**
   * events emitted within this many milliseconds of the first go out as one message (a batch of at most 500); 0 (the
   * default): one message per event
   */
  batchMs?: number;
  /**
   * first wait before reconnecting after a lost connection (1 s by default; not after stop or dropOffNetwork). It
   * doubles after each failed try, up to `reconnectMaxMs`, and the device keeps trying for as long as it runs.
   */
  reconnectMs?: number;
  /** the longest wait between two tries to reconnect (30 s by default) */
  reconnectMaxMs?: number;
  /**
   * the doors a door controller says it drives in its hello, with its kind (controller, camera, vein): the console
   * makes them doors of its own. Not given (the default): the hello says neither, as a device of an older firmware.
   */
  doors?: number;
  /** a cabinet device's cabinets, said in its hello (numbered 1 to this); not given: the hello says none */
  cabinets?: number;
  /** a cabinet terminal's app version, said in its hello */
  appVersion?: string;
  /** time between two heartbeats while connected (DEFAULT_HEARTBEAT_MS; 0: none) */
  heartbeatMs?: number;
  /** a door device's lock closes again this long after a remote open (0: it stays open) */
  doorOpenMs?: number;
  /** share of software updates that fail while installing (0 none, 1 all) */
  softUpdateFailRate?: number;
  /** time between two progress reports of a software update */
  softUpdateStepMs?: number;
  /** the API base (`http://host:port/api`) this device was provisioned with: downloads go there only (none without it) */
  apiUrl?: string;
  /** what the device uploads when asked for its log (sendLog): a text log by default */
  logFile?: { name: string; content: string | Buffer };
  /** capture kinds: the ID card number on the reader (null or not given: no card) */
  idCard?: string | null;
  /** capture kinds: how long a palm takes to capture (and how long before a `timeout` outcome is told) */
  enrollDelayMs?: number;
  /** capture kinds: how enrollments end (`ok` by default) */
  enrollOutcome?: EnrollOutcome;
  /** events without a receipt this long are sent again (10 s by default); they are also sent again after reconnecting */
  receiptWaitMs?: number;
  /** the device's own clock, which commands' time to live is read by (Date.now by default; a test gives the server's) */
  clock?: () => number;
  /** a door controller looks at its door schedules this often, by its own clock (1 s by default; 0: only when told to) */
  scheduleTickMs?: number;
}

function eventData(kind: DeviceEventKind, seq: number): Record<string, unknown> {
  switch (kind) {
    case DeviceEventKind.doorState:
      return { door: 1, state: seq % 2 === 0 ? 'closed' : 'open' };
    case DeviceEventKind.opening:
      return { door: 1, method: 'card', cardNo: `C${1000 + (seq % 50)}` };
    case DeviceEventKind.punch:
      return { userNo: `U${100 + (seq % 30)}`, hand: seq % 2 === 0 ? 'left' : 'right' };
    case DeviceEventKind.denial:
      return { door: 1, method: 'card', reason: 'unknown' };
    case DeviceEventKind.alarm:
      return { code: 'tamper', level: 'M' };
    case DeviceEventKind.patrolCheckIn:
      return { point: `P${seq % 10}`, userNo: `U${100 + (seq % 5)}` };
    case DeviceEventKind.quakeReading:
      // the ground's murmur: a quake is reported by `quake(intensity)`
      return { pga: Number((Math.random() * 0.002).toFixed(4)), intensity: 0 };
    case DeviceEventKind.runError:
      return { type: 'sensor', code: `E${100 + (seq % 7)}`, content: 'sensor read timeout' };
    case DeviceEventKind.softUpdate:
      return { command: '', progress: 0 };
    case DeviceEventKind.cabinetOpen:
      return { cabinet: 1 + (seq % 8), method: 'card', cardNo: `C${1000 + (seq % 50)}` };
    case DeviceEventKind.keyTaken:
      return { slot: 1 + (seq % 8), method: 'card', cardNo: `C${1000 + (seq % 50)}` };
    case DeviceEventKind.keyReturned:
      return { slot: 1 + ((seq - 1) % 8) };
    case DeviceEventKind.cabinetClose:
    case DeviceEventKind.cabinetCleared:
      return { cabinet: 1 + ((seq - 1) % 8) };
  }
}

/** One simulated device speaking docs/device-protocol.md over MQTT. */
export class SimDevice {
  readonly sn: string;
  readonly kind: SimKind;
  readonly memory: DeviceMemory;
  private client: MqttClient | null = null;
  private sessionId = '';
  private emitter: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  /** tries to reconnect that failed since the connection was last up (the backoff grows with them) */
  private failedTries = 0;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private alarmTimer: NodeJS.Timeout | null = null;
  /** heartbeats sent and alarms raised (what tests count) */
  heartbeats = 0;
  alarms = 0;
  private stopped = true;
  /** commands received (deliveries, repeats included) */
  readonly received: DeviceCommand[] = [];
  /** receipts read, and events sent again for want of one (what tests count) */
  receipts = 0;
  resent = 0;
  private readonly root: string;
  /** the people this device holds (persisted in `accessDir`) */
  readonly access: AccessList;
  /** a cabinet device's allocations (kept in `memory`) */
  readonly cabinets: CabinetStore;
  /** the cabinets whose door is open now */
  readonly openCabinets = new Set<number>();
  /** a key cabinet's list and keys (kept in `memory`) */
  readonly keys: KeyStore;
  /** a door controller's door schedules (kept in `memory`) */
  readonly doorSchedules: DoorScheduleStore;
  /** each door's lock as the controller last applied it (true: unlocked), what tests read */
  readonly doorLocks = new Map<number, boolean>();
  /** each door's lock as the console was last told it by a doorState event */
  private readonly reportedLocks = new Map<number, boolean>();
  private scheduleTimer: NodeJS.Timeout | null = null;
  /** commands are taken one after another, in the order they came */
  private commands: Promise<void> = Promise.resolve();
  /** killed: runs nothing more */
  private killed = false;
  private receiptTimer: NodeJS.Timeout | null = null;
  /** the events waiting to go out as one message (batchMs), and its sending */
  private pending: { events: DeviceEvent[]; sent: Promise<void> } | null = null;
  /** the ID card on the reader (a capture device): a test lays one down or takes it away */
  idCard: string | null;
  /** how the next enrollments end */
  enrollOutcome: EnrollOutcome;
  /** enrollments in progress by command id: ending one early answers it `cancelled` */
  private readonly enrolling = new Map<string, () => void>();
  /** how each enrollment ended, by command id, so a repeated delivery gets the same answer */
  private readonly enrolled = new Map<string, { upload: DeviceEnrollUpload } | { reason: EnrollFailure }>();

  constructor(private readonly options: SimDeviceOptions) {
    this.sn = options.sn;
    this.kind = options.kind;
    this.memory = options.memory ?? newMemory();
    this.root = options.topicRoot ?? DEVICE_TOPIC_ROOT;
    this.access = new AccessList(options.sn, options.accessDir);
    // a memory kept by an older simulator has no cabinets yet
    this.memory.cabinets ??= new Map();
    this.cabinets = new CabinetStore(this.memory.cabinets);
    this.memory.keys ??= emptyHeldKeys();
    this.keys = new KeyStore(this.memory.keys);
    this.memory.doorSchedules ??= emptyHeldDoorSchedules();
    this.doorSchedules = new DoorScheduleStore(this.memory.doorSchedules);
    this.idCard = options.idCard ?? null;
    this.enrollOutcome = options.enrollOutcome ?? 'ok';
  }

  /** the device's own clock: its hello and heartbeats carry it, so the server measures how far it is off */
  private deviceNow(): number {
    return (this.options.clock ?? Date.now)();
  }

  /** the key it signs in and downloads with (a rotation replaces it) */
  get key(): string {
    return this.options.key;
  }

  get online(): boolean {
    return this.client?.connected ?? false;
  }

  /**
   * Connects, says hello and starts its events and heartbeats; rejects when the broker refuses the device (or cannot be
   * reached). Once it has been online it reconnects by itself after any lost connection, for as long as it runs.
   */
  async start(): Promise<void> {
    this.stopped = false;
    try {
      await this.connect();
    } catch (error) {
      // refused at start: told to the caller, not tried again
      this.halt();
      this.client?.end(true);
      throw error;
    }
    const wait = this.options.receiptWaitMs ?? 10_000;
    this.receiptTimer ??= setInterval(() => {
      if (this.online) void this.sendUnreceipted(wait).catch(() => undefined);
    }, wait);
    this.receiptTimer.unref();
    const heartbeatMs = this.options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    if (heartbeatMs > 0) {
      this.heartbeatTimer ??= setInterval(() => {
        if (this.online) void this.heartbeat().catch(() => undefined);
      }, heartbeatMs);
      this.heartbeatTimer.unref();
    }
    this.planAlarm();
    const tickMs = this.options.scheduleTickMs ?? 1000;
    if (this.kind === 'door' && tickMs > 0) {
      // the schedules hold offline: the timer runs while the device runs, connected or not (cut by stop and kill only)
      this.scheduleTimer ??= setInterval(() => void this.applyDoorSchedules().catch(() => undefined), tickMs);
      this.scheduleTimer.unref();
    }
    const rate = this.options.rate ?? 0;
    if (rate > 0 && !this.emitter) {
      this.emitter = setInterval(() => {
        if (this.online) void this.emit().catch(() => undefined);
      }, 1000 / rate);
      this.emitter.unref();
    }
  }

  private connect(): Promise<void> {
    this.sessionId = randomUUID();
    const will: DevicePresence = { id: randomUUID(), sessionId: this.sessionId, online: false, reason: 'will' };
    const client = mqtt.connect(this.options.url, {
      // the broker takes the serial number as the only client id (a new connection replaces an old one)
      clientId: this.sn,
      username: this.sn,
      password: this.options.key,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: 5000,
      will: { topic: deviceUpTopic(this.sn, DeviceUpKind.presence, this.root), payload: Buffer.from(JSON.stringify(will)), qos: 1, retain: false },
    });
    this.client = client;
    client.on('message', (topic, payload) => {
      // a receipt is read at once, not behind a slow command
      if (topic === deviceDownTopic(this.sn, DeviceDownKind.receipt, this.root)) return this.onReceipt(payload);
      this.commands = this.commands.then(() => this.onMessage(topic, payload)).catch(() => undefined);
    });
    // every failure (refused, unreachable, cut off) ends in 'close', where the next try is planned
    client.on('error', () => undefined);
    client.on('close', () => {
      if (this.client === client && !this.stopped) this.reconnectLater();
    });
    return new Promise((resolve, reject) => {
      client.once('connect', async () => {
        try {
          const granted = await client.subscribeAsync([deviceDownTopic(this.sn, DeviceDownKind.command, this.root), deviceDownTopic(this.sn, DeviceDownKind.receipt, this.root)], { qos: 1 });
          if (granted.some((g) => g.qos === 128)) throw new Error('subscription refused');
          const hello: DeviceHello = { id: randomUUID(), sessionId: this.sessionId, time: this.deviceNow(), firmware: 'sim-1.0', model: `SIM-${this.kind.toUpperCase()}`, system: SYSTEM_OF[this.kind], ...this.inventory() };
          await client.publishAsync(deviceUpTopic(this.sn, DeviceUpKind.hello, this.root), JSON.stringify(hello), { qos: 1 });
          this.failedTries = 0;
          // what was sent before and never receipted goes again (the server drops what it had stored)
          void this.sendUnreceipted(0).catch(() => undefined);
          // the locks that changed while it was away are told now
          if (this.kind === 'door') void this.applyDoorSchedules().catch(() => undefined);
          resolve();
        } catch (error) {
          client.end(true);
          reject(error as Error);
        }
      });
      client.once('error', reject);
      client.once('close', () => reject(new Error(`${this.sn}: the connection closed before hello`)));
    });
  }

  /**
   * The next try to reconnect: `reconnectMs` after a lost connection, doubling with each failed try up to
   * `reconnectMaxMs`, plus a random part of up to half of it (within that cap) so a fleet cut off at once does not
   * come back at once. Never sooner than `reconnectMs`.
   */
  private reconnectLater(): void {
    if (this.reconnectTimer) return;
    const first = this.options.reconnectMs ?? 1000;
    const longest = Math.max(first, this.options.reconnectMaxMs ?? 30_000);
    const wait = Math.min(longest, first * 2 ** Math.min(this.failedTries, 30));
    this.failedTries += 1;
    this.reconnectTimer = setTimeout(
      () => {
        this.reconnectTimer = null;
        if (!this.stopped) void this.connect().catch(() => undefined);
      },
      Math.min(longest, wait + (Math.random() * wait) / 2),
    );
    this.reconnectTimer.unref();
  }

  /** What the hello says of the device itself when told to (`doors`): its kind, and a door controller's doors. */
  private inventory(): Pick<DeviceHello, 'kind' | 'doors' | 'cabinets' | 'appVersion'> {
    if (this.kind === 'cabinet') return { ...(this.options.cabinets === undefined ? {} : { cabinets: this.options.cabinets }), ...(this.options.appVersion ? { appVersion: this.options.appVersion } : {}) };
    if (this.options.doors === undefined) return {};
    const kind = KIND_OF[this.kind];
    return { ...(kind ? { kind } : {}), ...(this.kind === 'door' ? { doors: this.options.doors } : {}) };
  }

  /** Plans the next alarm this device raises on its own (at `alarmsPerHour`), and the one after it. */
  private planAlarm(): void {
    const perHour = this.options.alarmsPerHour ?? 0;
    if (perHour <= 0 || this.alarmTimer || this.stopped) return;
    // a timer waits at most 2^31-1 ms (24.8 days): a longer draw only plans the next one then (the waits are memoryless)
    const wait = nextAlarmDelayMs(perHour);
    const due = wait <= MAX_TIMER_MS;
    this.alarmTimer = setTimeout(
      () => {
        this.alarmTimer = null;
        if (due && this.online) void this.raiseAlarm().catch(() => undefined);
        this.planAlarm();
      },
      Math.min(wait, MAX_TIMER_MS),
    );
    this.alarmTimer.unref();
  }


  /** Raises an alarm: `code` (and its level), or one this kind of device raises, chosen at random. */
  async raiseAlarm(code?: string, level?: 'L' | 'M' | 'H'): Promise<DeviceEvent> {
    const kinds = ALARMS_OF[this.kind];
    const chosen = code === undefined ? kinds[Math.floor(Math.random() * kinds.length)]! : { code, level: level ?? kinds.find((k) => k.code === code)?.level ?? 'M' };
    const event = await this.emit(DeviceEventKind.alarm, { code: chosen.code, level: level ?? chosen.level });
    this.alarms += 1;
    return event;
  }

  /** A quake sensor feels a quake of `intensity` (0-12): it reports the reading the console's emergency scenario reads. */
  async quake(intensity: number): Promise<DeviceEvent> {
    return this.emit(DeviceEventKind.quakeReading, quakeReading(intensity));
  }

  /** Tells the server the device is still there (docs/device-protocol.md: its last-seen time, and so its presence). */
  private async heartbeat(): Promise<void> {
    const beat: DeviceHeartbeat = { id: randomUUID(), time: this.deviceNow() };
    await this.client?.publishAsync(deviceUpTopic(this.sn, DeviceUpKind.heartbeat, this.root), JSON.stringify(beat), { qos: 1 });
    this.heartbeats += 1;
  }

  private async onMessage(topic: string, payload: Buffer): Promise<void> {
    if (topic !== deviceDownTopic(this.sn, DeviceDownKind.command, this.root)) return;
    const command = readMessage(deviceCommand, payload);
    if (!command) return;
    this.received.push(command);
    if (this.expired(command)) return this.acknowledge(command.id, false, { reason: COMMAND_EXPIRED_REASON });
    if (command.kind === AccessCommandKind.syncPeople || command.kind === AccessCommandKind.accessReport) return this.onAccessCommand(command);
    if (CAPTURE_KINDS.includes(this.kind) && Object.values<string>(CaptureCommandKind).includes(command.kind)) return this.onCaptureCommand(command);
    if (this.kind === 'cabinet' && Object.values<string>(StorageCommandKind).includes(command.kind)) return this.onCabinetCommand(command);
    if (this.kind === 'keys' && Object.values<string>(KeyCommandKind).includes(command.kind)) return this.onKeyCommand(command);
    if (this.kind === 'door' && command.kind === DoorScheduleCommandKind.syncDoorSchedules) return this.onDoorScheduleCommand(command);
    // run once by id; a repeated delivery is only acknowledged again
    if (!this.memory.done.has(command.id)) {
      this.memory.done.add(command.id);
      this.memory.effects.push({ id: command.id, kind: command.kind, payload: command.payload });
      if (command.kind === 'openDoor' && this.kind === 'door') this.openDoor(command.payload);
      if (command.kind === 'holdOpen' && this.kind === 'door') this.holdOpen(command.payload);
      // a new key from the server: the next sign-in and download use it (the acknowledgement below ends the old one)
      if (command.kind === 'rotateKey') this.options.key = (command.payload as RotateKeyPayload).key;
      if (command.kind === 'softUpdate') {
        void this.softUpdate(command.id, command.payload as SoftUpdateCommandPayload).catch(() => undefined);
        return;
      }
      if (command.kind === SEND_LOG_COMMAND) {
        void this.sendLog(command.id, command.payload as SendLogCommandPayload).catch(() => undefined);
        return;
      }
    }
    if (command.kind === 'softUpdate' || command.kind === SEND_LOG_COMMAND) {
      // still installing: the acknowledgement comes with the outcome
      const outcome = this.memory.updates.get(command.id);
      if (outcome) await this.acknowledge(command.id, outcome.ok, outcome);
      return;
    }
    await this.acknowledge(command.id, true, { at: Date.now() });
  }

  /** A command not taken yet whose time to live has passed by this device's clock: dropped, never run. */
  private expired(command: DeviceCommand): boolean {
    if (command.createdAt === undefined || command.ttl === undefined) return false;
    if (this.memory.done.has(command.id) || this.enrolled.has(command.id) || this.enrolling.has(command.id)) return false;
    return command.createdAt + command.ttl <= (this.options.clock ?? Date.now)();
  }

  private async acknowledge(id: string, ok: boolean, result: unknown): Promise<void> {
    if (this.options.withholdAcks) return;
    const ack: DeviceAck = { id, ok, result };
    await this.client?.publishAsync(deviceUpTopic(this.sn, DeviceUpKind.ack, this.root), JSON.stringify(ack), { qos: 1 });
  }

  /**
   * A software update: downloads the package with the device key, checks its SHA-256, reports progress 0–100 as
   * softUpdate events and acknowledges the command with the outcome (failing at `softUpdateFailRate`).
   */
  private async softUpdate(commandId: string, payload: SoftUpdateCommandPayload): Promise<void> {
    const step = this.options.softUpdateStepMs ?? 200;
    const wait = () => new Promise((resolve) => setTimeout(resolve, step));
    const progress = (value: number) => this.emit(DeviceEventKind.softUpdate, { command: commandId, progress: value });
    const end = async (ok: boolean, error?: string) => {
      const outcome = ok ? { ok } : { ok, error };
      this.memory.updates.set(commandId, outcome);
      await this.acknowledge(commandId, ok, outcome);
    };
    await progress(0);
    // the key goes only to the server this device was provisioned with
    const url = provisionedUrl(this.options.apiUrl, payload);
    if (!url) return await end(false, 'untrusted url');
    let bytes: Buffer;
    try {
      const answer = await fetch(url, { headers: { 'x-device-sn': this.sn, 'x-device-key': this.options.key } });
      if (!answer.ok) return await end(false, `download ${answer.status}`);
      bytes = Buffer.from(await answer.arrayBuffer());
    } catch {
      return await end(false, 'download');
    }
    if (createHash('sha256').update(bytes).digest('hex') !== payload.sha256) return await end(false, 'checksum');
    const failAt = Math.random() < (this.options.softUpdateFailRate ?? 0) ? 60 : null;
    for (const value of [20, 40, 60, 80, 100]) {
      await wait();
      if (value === failAt) return await end(false, 'install');
      await progress(value);
    }
    await end(true);
  }

  /**
   * Asked for its log: uploads its log file (multipart `file`) to the server it was provisioned with, signed with its
   * serial number, key and the command's one-time token, and acknowledges the command with the outcome.
   */
  private async sendLog(commandId: string, payload: SendLogCommandPayload): Promise<void> {
    const end = async (ok: boolean, error?: string) => {
      const outcome = ok ? { ok } : { ok, error };
      this.memory.updates.set(commandId, outcome);
      await this.acknowledge(commandId, ok, outcome);
    };
    const url = provisionedUrl(this.options.apiUrl, payload);
    if (!url) return await end(false, 'untrusted url');
    const log = this.options.logFile ?? { name: `${this.sn}.log`, content: `${new Date(this.deviceNow()).toISOString()} ${this.sn} started\n${new Date(this.deviceNow()).toISOString()} ${this.sn} events sent: ${this.memory.seq}\n` };
    const form = new FormData();
    form.append('file', new Blob([typeof log.content === 'string' ? log.content : new Uint8Array(log.content)]), log.name);
    try {
      const answer = await fetch(url, { method: 'POST', body: form, headers: { 'x-device-sn': this.sn, 'x-device-key': this.options.key, 'x-upload-token': payload.token } });
      if (!answer.ok) return await end(false, `upload ${answer.status}`);
    } catch {
      return await end(false, 'upload');
    }
    await end(true);
  }

  /**
   * A capture device's commands: an ID card read is answered at once with the card on the reader (or none); an
   * enrollment captures for `enrollDelayMs`, then uploads a template on the enroll topic or answers its failure; a
   * cancel ends the enrollment it names. A repeated delivery of an ended enrollment gets the same answer again.
   */
  private async onCaptureCommand(command: DeviceCommand): Promise<void> {
    if (command.kind === CaptureCommandKind.readIdCard) return this.acknowledge(command.id, true, { idCard: this.idCard });
    if (command.kind === CaptureCommandKind.cancelEnroll) {
      const target = (command.payload as { command?: unknown } | null)?.command;
      if (typeof target === 'string') this.enrolling.get(target)?.();
      return this.acknowledge(command.id, true, { at: Date.now() });
    }
    const ended = this.enrolled.get(command.id);
    if (ended) return this.answerEnrollment(command.id, ended);
    if (this.enrolling.has(command.id)) return; // still capturing
    // one enrollment at a time: a new one ends the one before
    for (const cancel of [...this.enrolling.values()]) cancel();
    void this.enrollPalm(command.id, command.payload as EnrollPalmPayload).catch(() => undefined);
  }

  private async enrollPalm(commandId: string, payload: EnrollPalmPayload): Promise<void> {
    const cancelled = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), this.options.enrollDelayMs ?? 1500);
      this.enrolling.set(commandId, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    this.enrolling.delete(commandId);
    if (this.killed) return;
    const outcome = cancelled ? 'cancelled' : this.enrollOutcome;
    const answer =
      outcome === 'ok'
        ? { upload: { id: randomUUID(), command: commandId, peopleId: payload.peopleId, hand: payload.hand, template: `SIMPALM-${payload.hand}-${randomBytes(48).toString('base64')}` } }
        : { reason: outcome };
    this.enrolled.set(commandId, answer);
    await this.answerEnrollment(commandId, answer);
  }

  private async answerEnrollment(commandId: string, answer: { upload: DeviceEnrollUpload } | { reason: EnrollFailure }): Promise<void> {
    if ('reason' in answer) return this.acknowledge(commandId, false, { reason: answer.reason });
    if (this.options.withholdAcks) return;
    await this.client?.publishAsync(deviceUpTopic(this.sn, DeviceUpKind.enroll, this.root), JSON.stringify(answer.upload), { qos: 1 });
  }

  /**
   * A cabinet device's commands, each run once by id: allocations to hold, a report of what it holds, a remote open, an
   * emptying (reported as `cabinetCleared` with the allocation's version) and its state (the interface test).
   */
  private async onCabinetCommand(command: DeviceCommand): Promise<void> {
    if (this.killed) return;
    const cabinet = (command.payload as { cabinet?: unknown } | null)?.cabinet;
    const no = typeof cabinet === 'number' ? cabinet : 0;
    if (!this.memory.done.has(command.id)) {
      this.memory.done.add(command.id);
      this.memory.effects.push({ id: command.id, kind: command.kind, payload: command.payload });
      if (command.kind === StorageCommandKind.syncCabinets) this.cabinets.apply(command.payload as SyncCabinetsPayload);
      if (command.kind === StorageCommandKind.openCabinet) void this.openCabinet(no, { method: 'remote' }).catch(() => undefined);
      if (command.kind === StorageCommandKind.clearCabinet) void this.clearCabinet(no).catch(() => undefined);
      if (command.kind === StorageCommandKind.releaseCabinets) void this.releaseCabinets(command.payload).catch(() => undefined);
    }
    if (this.options.withholdAcks) return;
    const result =
      command.kind === StorageCommandKind.cabinetReport
        ? { held: this.cabinets.report() }
        : command.kind === StorageCommandKind.cabinetStatus
          ? { cabinets: this.options.cabinets ?? 0, open: [...this.openCabinets].sort((a, b) => a - b), held: this.cabinets.report().length, appVersion: this.options.appVersion ?? null }
          : { at: Date.now() };
    await this.acknowledge(command.id, true, result);
  }

  /**
   * A cabinet door opens: for a card or a person holding it (an opening record names them), or remotely; it closes
   * again after `doorOpenMs`. A card that holds no allocation of that cabinet opens nothing (answers false).
   */
  async openCabinet(no: number, how: { cardNo?: string; peopleId?: string; method?: string }, time = Date.now()): Promise<boolean> {
    const remote = how.method === 'remote';
    const holder = remote ? null : this.cabinets.holderOf(no, how, time);
    if (!remote && !holder) return false;
    this.openCabinets.add(no);
    await this.emit(DeviceEventKind.cabinetOpen, { cabinet: no, method: how.method ?? 'card', ...(holder ? { peopleId: holder.peopleId } : {}), ...(how.cardNo ? { cardNo: how.cardNo } : {}) }, time);
    const closeAfter = this.options.doorOpenMs ?? 5000;
    if (closeAfter > 0) {
      const timer = setTimeout(() => void this.closeCabinet(no).catch(() => undefined), closeAfter);
      timer.unref();
    }
    return true;
  }

  /** A key cabinet's commands, each run once by id: the list of who may take which key, and the emergency's release. */
  private async onKeyCommand(command: DeviceCommand): Promise<void> {
    if (this.killed) return;
    if (!this.memory.done.has(command.id)) {
      this.memory.done.add(command.id);
      this.memory.effects.push({ id: command.id, kind: command.kind, payload: command.payload });
      if (command.kind === KeyCommandKind.syncKeys) this.keys.apply(command.payload as SyncKeysPayload);
      if (command.kind === KeyCommandKind.releaseKeys) {
        const { slots, open } = (command.payload ?? {}) as { slots?: unknown; open?: unknown };
        if (Array.isArray(slots)) this.keys.release(slots.filter((n): n is number => typeof n === 'number'), open !== false);
      }
    }
    if (this.options.withholdAcks) return;
    await this.acknowledge(command.id, true, command.kind === KeyCommandKind.syncKeys ? { version: this.keys.version } : { at: Date.now() });
  }

  /**
   * Someone takes the key of `slot` with a card (or as a person): the cabinet lets it go when its list names them for
   * that slot within one of their windows at `time`, or when the emergency released the slot; answers whether it did.
   */
  async takeKey(slot: number, how: { cardNo?: string; peopleId?: string }, time = Date.now()): Promise<boolean> {
    const { allowed, holder, released } = this.keys.decide(slot, how, time, this.options.site ?? { timeZone: 'UTC' });
    if (!allowed) return false;
    this.keys.take(slot, holder?.peopleId ?? null);
    await this.emit(DeviceEventKind.keyTaken, { slot, method: released ? 'emergency' : 'card', ...(holder ? { peopleId: holder.peopleId } : {}), ...(how.cardNo ? { cardNo: how.cardNo } : {}) }, time);
    return true;
  }

  /** The key of `slot` is put back (a return ends its take). */
  async returnKey(slot: number, time = Date.now()): Promise<void> {
    if (!this.keys.giveBack(slot)) return;
    await this.emit(DeviceEventKind.keyReturned, { slot }, time);
  }

  /** The emergency: the cabinets named stay open (`open: true`) until told to go back to normal (`open: false`). */
  private async releaseCabinets(payload: unknown): Promise<void> {
    const { cabinets, open } = (payload ?? {}) as { cabinets?: unknown; open?: unknown };
    if (!Array.isArray(cabinets)) return;
    for (const no of cabinets.filter((n): n is number => typeof n === 'number')) {
      if (open === false) await this.closeCabinet(no);
      else if (!this.openCabinets.has(no)) {
        this.openCabinets.add(no);
        await this.emit(DeviceEventKind.cabinetOpen, { cabinet: no, method: 'emergency' });
      }
    }
  }

  /** A cabinet door closes (ends its opening record). */
  async closeCabinet(no: number): Promise<void> {
    if (!this.openCabinets.delete(no) || !this.online) return;
    await this.emit(DeviceEventKind.cabinetClose, { cabinet: no });
  }

  /** The cabinet is emptied on the device (by a manager at the terminal): it forgets the allocation and says so. */
  async clearCabinet(no: number): Promise<void> {
    const version = this.cabinets.clear(no);
    await this.emit(DeviceEventKind.cabinetCleared, { cabinet: no, ...(version ? { version } : {}) });
  }

  /** A remote open: the lock opens (a doorState event) and closes again after `doorOpenMs` (unless its schedule unlocks it). */
  private openDoor(payload: unknown): void {
    const door = typeof (payload as { door?: unknown } | null)?.door === 'number' ? (payload as { door: number }).door : 1;
    void this.emit(DeviceEventKind.doorState, { door, state: 'open' }).catch(() => undefined);
    const closeAfter = this.options.doorOpenMs ?? 5000;
    if (closeAfter > 0) {
      const timer = setTimeout(() => {
        if (this.online && !this.doorUnlocked(door)) void this.emit(DeviceEventKind.doorState, { door, state: 'closed' }).catch(() => undefined);
      }, closeAfter);
      timer.unref();
    }
  }

  /**
   * The emergency hold: the lock stays open (`open: true`) whatever the door schedules say, until told to go back to
   * normal (`open: false`), when the door's schedule decides again.
   */
  private holdOpen(payload: unknown): void {
    const { door, open } = (payload ?? {}) as { door?: unknown; open?: unknown };
    const no = typeof door === 'number' ? door : 1;
    this.doorSchedules.hold(no, open !== false);
    const unlocked = this.doorUnlocked(no);
    this.doorLocks.set(no, unlocked);
    this.reportedLocks.set(no, unlocked);
    void this.emit(DeviceEventKind.doorState, { door: no, state: unlocked ? 'open' : 'closed' }).catch(() => undefined);
  }

  /** Whether a door is unlocked at `time` of the device's clock: held open by the emergency, or inside its schedule. */
  doorUnlocked(door: number, time = this.now()): boolean {
    return this.doorSchedules.unlocked(door, time, this.options.site ?? { timeZone: 'UTC' });
  }

  /**
   * Applies the door schedules at the device's clock now (the timer does it every `scheduleTickMs`; a test after
   * moving the clock): each door's lock follows them, and a change is reported (a doorState event) once online.
   */
  async applyDoorSchedules(): Promise<void> {
    if (this.kind !== 'door') return;
    const doors = new Set([...this.doorSchedules.doors(), ...this.doorLocks.keys()]);
    for (const door of doors) {
      const unlocked = this.doorUnlocked(door);
      this.doorLocks.set(door, unlocked);
      if (!this.online || this.reportedLocks.get(door) === unlocked) continue;
      // a door the console never heard of as unlocked needs no word that it is locked
      if (!unlocked && !this.reportedLocks.has(door)) continue;
      this.reportedLocks.set(door, unlocked);
      await this.emit(DeviceEventKind.doorState, { door, state: unlocked ? 'open' : 'closed' }, this.now());
    }
  }

  /** A door controller's schedules, run once by id: the list replaces what it held, and the locks follow at once. */
  private async onDoorScheduleCommand(command: DeviceCommand): Promise<void> {
    if (!this.memory.done.has(command.id)) {
      this.memory.done.add(command.id);
      this.memory.effects.push({ id: command.id, kind: command.kind, payload: command.payload });
      this.doorSchedules.apply(command.payload as SyncDoorSchedulesPayload);
      await this.applyDoorSchedules().catch(() => undefined);
    }
    await this.acknowledge(command.id, true, { version: this.doorSchedules.version });
  }

  /** The device's own clock now (the server's in tests). */
  now(): number {
    return (this.options.clock ?? Date.now)();
  }

  /** A patrol point: a guard checks in (`patrolCheckIn`) at `time` of the device's clock. */
  async checkIn(point: string, userNo: string, time = this.now()): Promise<DeviceEvent> {
    return this.emit(DeviceEventKind.patrolCheckIn, { point, userNo }, time);
  }

  /** Emits one event (of `kind`, or one this device reports) at `time` of its clock; answers it so a test can send it again. */
  async emit(kind?: DeviceEventKind, data?: Record<string, unknown>, time = Date.now()): Promise<DeviceEvent> {
    const kinds = EVENTS_OF[this.kind];
    const chosen = kind ?? kinds[this.memory.seq % kinds.length]!;
    this.memory.seq += 1;
    const event: DeviceEvent = { id: randomUUID(), seq: this.memory.seq, time, kind: chosen, data: data ?? eventData(chosen, this.memory.seq) };
    await (this.options.batchMs ? this.queueEvent(event) : this.publishEvent(event));
    this.sentForReceipt([event]);
    return event;
  }

  /** Events on their way, kept until a receipt names them. */
  private sentForReceipt(events: readonly DeviceEvent[]): void {
    const now = Date.now();
    for (const event of events) this.memory.unreceipted.set(event.seq, { event, sentAt: now });
  }

  /** A receipt of the server: the events it names are stored, and kept no longer. */
  private onReceipt(payload: Buffer): void {
    const receipt = readMessage(deviceReceipt, payload);
    if (!receipt) return;
    this.receipts += 1;
    const kept = this.memory.unreceipted;
    for (const [from, to] of receipt.seqs) {
      if (to - from < kept.size) for (let seq = from; seq <= to; seq++) kept.delete(seq);
      else for (const seq of [...kept.keys()]) if (seq >= from && seq <= to) kept.delete(seq);
    }
  }

  /** Sends again, oldest first and in batches, the events without a receipt sent at least `olderThanMs` ago. */
  private async sendUnreceipted(olderThanMs: number): Promise<void> {
    const due = Date.now() - olderThanMs;
    const events = [...this.memory.unreceipted.values()].filter((kept) => kept.sentAt <= due).map((kept) => kept.event).sort((a, b) => a.seq - b.seq);
    for (let i = 0; i < events.length; i += DEVICE_EVENT_BATCH_MAX) {
      const batch = events.slice(i, i + DEVICE_EVENT_BATCH_MAX);
      await this.publishEvents(batch);
      this.resent += batch.length;
      const now = Date.now();
      for (const event of batch) {
        const kept = this.memory.unreceipted.get(event.seq);
        if (kept) kept.sentAt = now;
      }
    }
  }

  /** Adds an event to the message going out `batchMs` after its first event; resolves once that message is sent. */
  private queueEvent(event: DeviceEvent): Promise<void> {
    if (!this.client?.connected) throw new Error(`${this.sn} is offline`);
    if (!this.pending) {
      const events: DeviceEvent[] = [];
      const sent = new Promise<void>((resolve) => setTimeout(resolve, this.options.batchMs)).then(() => {
        if (this.pending?.events === events) this.pending = null;
        return this.publishEvents(events);
      });
      this.pending = { events, sent };
    }
    const { events, sent } = this.pending;
    events.push(event);
    // a full message: the next event starts another
    if (events.length >= DEVICE_EVENT_BATCH_MAX) this.pending = null;
    return sent;
  }

  /** Publishes events as one message: the event itself, or a batch (`{ id, events }`). */
  async publishEvents(events: readonly DeviceEvent[]): Promise<void> {
    if (events.length === 1) return this.publishEvent(events[0]!);
    if (!this.client?.connected) throw new Error(`${this.sn} is offline`);
    await this.client.publishAsync(deviceUpTopic(this.sn, DeviceUpKind.event, this.root), JSON.stringify({ id: randomUUID(), events }), { qos: 1 });
  }

  /** People to hold (run once by id, kept in the access file) or a report of whom it holds (as it is now). */
  private async onAccessCommand(command: DeviceCommand): Promise<void> {
    if (this.options.syncDelayMs) await new Promise((resolve) => setTimeout(resolve, this.options.syncDelayMs));
    if (this.killed) return;
    if (!this.memory.done.has(command.id)) {
      this.memory.done.add(command.id);
      this.memory.effects.push({ id: command.id, kind: command.kind, payload: command.payload });
      if (command.kind === AccessCommandKind.syncPeople) this.access.apply(command.payload as SyncPeoplePayload);
    }
    if (this.options.withholdAcks) return;
    const result = command.kind === AccessCommandKind.accessReport ? ({ held: this.access.held() } satisfies AccessReport) : { at: Date.now() };
    const ack: DeviceAck = { id: command.id, ok: true, result };
    await this.client?.publishAsync(deviceUpTopic(this.sn, DeviceUpKind.ack, this.root), JSON.stringify(ack), { qos: 1 });
  }

  /**
   * A card is presented at a door: the device decides with the people it holds and the contract's time-setting
   * evaluator (the server's own), and reports an opening or a denial (with the person's id, never the card number).
   */
  async swipe(cardNo: string, door = 1, time = Date.now()): Promise<{ allowed: boolean; event: DeviceEvent }> {
    const { entry, allowed } = this.access.decide(cardNo, time, this.options.site ?? { timeZone: 'UTC' });
    const data = allowed ? { door, method: 'card', peopleId: entry!.id } : { door, method: 'card', reason: entry ? 'outsideTime' : 'unknown', ...(entry ? { peopleId: entry.id } : {}) };
    // reported at the time it was decided at
    const event = await this.emit(allowed ? DeviceEventKind.opening : DeviceEventKind.denial, data, time);
    return { allowed, event };
  }

  /** Publishes an event as given (a repeated delivery keeps its sequence number). */
  async publishEvent(event: DeviceEvent): Promise<void> {
    if (!this.client?.connected) throw new Error(`${this.sn} is offline`);
    await this.client.publishAsync(deviceUpTopic(this.sn, DeviceUpKind.event, this.root), JSON.stringify(event), { qos: 1 });
  }

  /** Publishes any payload on any topic, at most once (tests of what the broker allows: a refusal drops the connection). */
  async publishRaw(topic: string, payload: string): Promise<void> {
    if (!this.client?.connected) throw new Error(`${this.sn} is offline`);
    await this.client.publishAsync(topic, payload, { qos: 0 });
  }

  /** Subscribes to any filter; answers the granted QoS (128: refused). */
  async subscribeRaw(filter: string): Promise<number> {
    if (!this.client?.connected) throw new Error(`${this.sn} is offline`);
    try {
      const granted = await this.client.subscribeAsync(filter, { qos: 1 });
      return granted[0]?.qos ?? 128;
    } catch (error) {
      // mqtt.js rejects a subscription the broker refused
      if ((error as { packet?: { cmd?: string } }).packet?.cmd === 'suback') return 128;
      throw error;
    }
  }

  /** The connection is cut without a goodbye (cable pulled): the broker publishes the device's last will. */
  dropOffNetwork(): void {
    this.halt();
    const client = this.client;
    client?.stream.destroy();
    client?.end(true);
  }

  /** The device dies (power cut): its connection drops and the commands it received but had not run are lost. */
  kill(): void {
    this.killed = true;
    this.stopScheduleTimer();
    this.dropOffNetwork();
  }

  private stopScheduleTimer(): void {
    if (this.scheduleTimer) clearInterval(this.scheduleTimer);
    this.scheduleTimer = null;
  }

  /** A clean shutdown: says it goes offline, then disconnects. */
  async stop(): Promise<void> {
    this.stopScheduleTimer();
    this.halt();
    const client = this.client;
    if (!client) return;
    if (client.connected) {
      const bye: DevicePresence = { id: randomUUID(), sessionId: this.sessionId, online: false, reason: 'disconnect' };
      await client.publishAsync(deviceUpTopic(this.sn, DeviceUpKind.presence, this.root), JSON.stringify(bye), { qos: 1 }).catch(() => undefined);
    }
    await client.endAsync();
  }

  private halt(): void {
    this.stopped = true;
    if (this.receiptTimer) clearInterval(this.receiptTimer);
    this.receiptTimer = null;
    if (this.emitter) clearInterval(this.emitter);
    this.emitter = null;
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
    if (this.alarmTimer) clearTimeout(this.alarmTimer);
    this.alarmTimer = null;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.failedTries = 0;
  }
}
