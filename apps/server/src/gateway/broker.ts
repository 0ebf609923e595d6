import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { Aedes, type AedesPublishPacket, type AuthenticateError, type Client, type PublishPacket } from 'aedes';
import { DEVICE_SN_PATTERN, DEVICE_TOPIC_ROOT, DeviceUpKind, deviceUpTopic } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { approvedDeviceCode } from './device-keys.ts';
import type { InProcessGatewayClient } from './gateway.ts';
import { PacketSizes } from './packet-size.ts';

/** The user name of the server's own gateway client; never a valid serial number (it starts with `$`). */
export const GATEWAY_USERNAME = '$isps-gateway';

const IDENTIFIER_REJECTED = 2;
const BAD_USERNAME_OR_PASSWORD = 4;
/** Nested message dispatches allowed in one call stack before the next one waits for the event loop. */
const MAX_DISPATCH_DEPTH = 100;

interface MessageQueue {
  _do(message: unknown, callback: unknown): unknown;
  _messageQueue: unknown[];
  _messageCallbacks: unknown[];
}

/**
 * A first-in first-out queue with the array methods mqemitter uses (push, shift, length) and a constant-time
 * shift: mqemitter queues the messages past its concurrency in arrays, and Array#shift on a queue of a hundred
 * thousand messages copies it every time.
 */
class Fifo<T> {
  private items: Array<T | undefined> = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): number {
    this.items.push(item);
    return this.length;
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head += 1;
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

/**
 * aedes's message emitter (mqemitter) dispatches each queued message from the completion of the one before, in the
 * same call stack: a burst of thousands of messages (a fleet reconnecting and catching up) overflows the stack and
 * ends the process. Past MAX_DISPATCH_DEPTH nested dispatches the next one is started on the next turn of the loop.
 * Its queue becomes a Fifo, so a long queue costs no more per message than a short one.
 */
function boundDispatchDepth(mq: MessageQueue): void {
  mq._messageQueue = new Fifo() as unknown as unknown[];
  mq._messageCallbacks = new Fifo() as unknown as unknown[];
  const dispatch = mq._do.bind(mq);
  let depth = 0;
  mq._do = (message, callback) => {
    if (depth >= MAX_DISPATCH_DEPTH) {
      setImmediate(() => dispatch(message, callback));
      return mq;
    }
    depth += 1;
    try {
      return dispatch(message, callback);
    } finally {
      depth -= 1;
    }
  };
}
const NOT_AUTHORIZED = 5;

/** The largest packet before sign-in: a CONNECT with a device's will takes well under 1 kB. */
export const MAX_PACKET_BEFORE_SIGN_IN = 4096;
/** A retained message is kept only on a device's own presence topic, and only this small (a presence message is some 150 bytes). */
export const MAX_RETAINED_BYTES = 1024;
/**
 * Where a message dropped for its device's rate goes instead of its topic: no client may subscribe to it (the gateway
 * reads below the topic root, devices below their own `down/`), so it reaches nobody, and the connection stays.
 */
const DROPPED_TOPIC = '$isps/dropped';

/** What the broker allows a signed-in device. */
export interface BrokerLimits {
  /** the largest packet of a signed-in device, in bytes (MQTT_MAX_PACKET_KB) */
  maxPacketBytes: number;
  /** messages a device may publish per second, sustained */
  messagesPerSecond: number;
  /** messages a device may publish at once, beyond its rate (a device catching up sends batches, a few hundred at most) */
  burst: number;
}

export const DEFAULT_BROKER_LIMITS: BrokerLimits = { maxPacketBytes: 256 * 1024, messagesPerSecond: 50, burst: 500 };

/** What the broker refused since it started (each refusal is also logged, the first of a connection and every 1000th). */
export interface BrokerRefusals {
  /** connections closed for a packet over the size limit */
  oversized: number;
  /** messages dropped over their device's rate */
  rateLimited: number;
  /** messages whose retain flag was dropped (not a presence topic, or too large) */
  retainRefused: number;
  /** sign-ins refused for a client id that is not the device's serial number */
  clientId: number;
}

/** Tokens for a device's messages: `rate` a second, at most `burst` saved up. */
class TokenBucket {
  private tokens: number;
  private last = performance.now();

  constructor(
    private readonly rate: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }

  take(): boolean {
    const now = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

function refusal(code: number): AuthenticateError {
  return Object.assign(new Error('not authorized'), { returnCode: code }) as AuthenticateError;
}

export interface EmbeddedBrokerOptions {
  db: Kysely<Database>;
  port: number;
  host: string;
  topicRoot?: string;
  log: { warn(obj: object, msg: string): void };
  limits?: Partial<BrokerLimits>;
}

/**
 * The embedded MQTT broker (aedes). Devices sign in with their serial number as user name and client id and the key
 * issued with their approved activation code; each may publish only below `{root}/{sn}/up/` and subscribe only below
 * `{root}/{sn}/down/`, in packets of at most `maxPacketBytes` (4 kB before sign-in) and at most `messagesPerSecond`.
 * The gateway client of this server signs in with a credential made at start and is the only client with no limits.
 */
export class EmbeddedBroker {
  readonly internalPassword = randomBytes(32).toString('base64url');
  private readonly broker: Aedes;
  private readonly server: Server;
  /** the serial number each authenticated device client signed in with */
  private readonly snOf = new WeakMap<Client, string>();
  private readonly internal = new WeakSet<Client>();
  private readonly root: string;
  private readonly limits: BrokerLimits;
  private readonly buckets = new WeakMap<Client, TokenBucket>();
  /** refusals by connection, for the log */
  private readonly refusalsOf = new WeakMap<Client, number>();
  readonly refused: BrokerRefusals = { oversized: 0, rateLimited: 0, retainRefused: 0, clientId: 0 };

  constructor(private readonly options: EmbeddedBrokerOptions) {
    this.root = options.topicRoot ?? DEVICE_TOPIC_ROOT;
    this.limits = { ...DEFAULT_BROKER_LIMITS, ...options.limits };
    this.broker = new Aedes({
      // a serial number is the client id, and may be 64 characters long (MQTT 3.1 allowed 23)
      maxClientsIdLength: 64,
      authenticate: (client, username, password, done) => {
        this.authenticate(client, username, password).then(
          (answer) => done(answer === true ? null : refusal(answer), answer === true),
          (error: unknown) => {
            options.log.warn({ err: error }, 'device authentication failed');
            done(refusal(NOT_AUTHORIZED), false);
          },
        );
      },
      authorizePublish: (client, packet, callback) => {
        if (!client || this.internal.has(client)) return callback(null);
        const sn = this.snOf.get(client);
        if (!sn || !packet.topic.startsWith(`${this.root}/${sn}/up/`)) return callback(new Error('topic not allowed'));
        this.limitDevicePublish(client, sn, packet);
        callback(null);
      },
      authorizeSubscribe: (client, subscription, callback) => {
        if (this.internal.has(client)) return callback(null, subscription);
        const sn = this.snOf.get(client);
        // a refused subscription is answered with the failure return code, the connection stays
        callback(null, sn && subscription.topic.startsWith(`${this.root}/${sn}/down/`) ? subscription : null);
      },
    });
    boundDispatchDepth((this.broker as unknown as { mq: MessageQueue }).mq);
    this.server = createServer((socket) => this.accept(socket));
  }

  /**
   * A new connection: every chunk aedes reads from it passes the packet size check first, so an oversized packet
   * closes the connection before its parser holds any of it (4 kB before sign-in, `maxPacketBytes` after).
   */
  private accept(socket: Socket): void {
    const client = this.broker.handle(socket);
    const sizes = new PacketSizes();
    const read = socket.read.bind(socket);
    socket.read = (size?: number): unknown => {
      const chunk: unknown = read(size);
      if (!Buffer.isBuffer(chunk)) return chunk;
      const limit = this.internal.has(client) ? Number.POSITIVE_INFINITY : this.snOf.has(client) ? this.limits.maxPacketBytes : MAX_PACKET_BEFORE_SIGN_IN;
      if (sizes.accepts(chunk, limit)) return chunk;
      this.count(client, 'oversized', { sn: this.snOf.get(client) ?? null, limit }, 'MQTT packet over the size limit: connection closed');
      socket.destroy();
      return null;
    };
  }

  /**
   * A device's publish within its limits: over its rate it is dropped (acknowledged, delivered to nobody); a retain
   * flag stays only on its own presence topic with a small payload. Its last will is never dropped for the rate.
   */
  private limitDevicePublish(client: Client, sn: string, packet: PublishPacket): void {
    const will = packet === (client as unknown as { will?: unknown }).will;
    let bucket = this.buckets.get(client);
    if (!bucket) this.buckets.set(client, (bucket = new TokenBucket(this.limits.messagesPerSecond, this.limits.burst)));
    if (!will && !bucket.take()) {
      this.count(client, 'rateLimited', { sn }, 'device message over its rate dropped');
      packet.topic = DROPPED_TOPIC;
      packet.payload = Buffer.alloc(0);
      packet.retain = false;
      return;
    }
    if (packet.retain && !(packet.topic === deviceUpTopic(sn, DeviceUpKind.presence, this.root) && packet.payload.length <= MAX_RETAINED_BYTES)) {
      this.count(client, 'retainRefused', { sn, topic: packet.topic }, 'retained device message kept as not retained');
      packet.retain = false;
    }
  }

  /** Counts a refusal; logs the first of a connection and every 1000th, so a flood does not flood the log. */
  private count(client: Client, kind: keyof BrokerRefusals, detail: object, message: string): void {
    this.refused[kind] += 1;
    const seen = (this.refusalsOf.get(client) ?? 0) + 1;
    this.refusalsOf.set(client, seen);
    if (seen === 1 || seen % 1000 === 0) this.options.log.warn({ ...detail, refusals: seen }, message);
  }

  /** True, or the CONNACK return code that refuses the sign-in. */
  private async authenticate(client: Client, username: string | undefined, password: Buffer | undefined): Promise<true | number> {
    if (!username || !password) return BAD_USERNAME_OR_PASSWORD;
    const presented = password.toString('utf8');
    if (username === GATEWAY_USERNAME) {
      const expected = Buffer.from(this.internalPassword);
      const given = Buffer.from(presented);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return BAD_USERNAME_OR_PASSWORD;
      // an id no device can take (a serial number never starts with `$`), so neither can close the other's connection
      if (DEVICE_SN_PATTERN.test(client.id)) {
        this.count(client, 'clientId', { clientId: client.id }, 'gateway client refused: its client id could be a serial number');
        return IDENTIFIER_REJECTED;
      }
      this.internal.add(client);
      return true;
    }
    if (!DEVICE_SN_PATTERN.test(username) || presented.length > 256) return BAD_USERNAME_OR_PASSWORD;
    // a device's client id is its serial number: under another device's id it would close that device's connection
    if (client.id !== username) {
      this.count(client, 'clientId', { sn: username, clientId: client.id }, 'device refused: its client id is not its serial number');
      return IDENTIFIER_REJECTED;
    }
    const code = await approvedDeviceCode(this.options.db, username, presented);
    if (!code) return BAD_USERNAME_OR_PASSWORD;
    this.snOf.set(client, username);
    return true;
  }

  async listen(): Promise<number> {
    await this.broker.listen();
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port, this.options.host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const address = this.server.address();
    return address && typeof address === 'object' ? address.port : this.options.port;
  }

  /**
   * The gateway's own connection, in this process: device messages are handed to it as aedes delivers them and its
   * commands are published straight into the broker. Over a socket of its own (as before) a burst of device messages
   * could fill both directions of that socket at once: aedes waited for the gateway to read before it read the
   * gateway's acknowledgements and commands, and the gateway waited for aedes to read before it read on; both stopped.
   */
  inProcessClient(): InProcessGatewayClient {
    const broker = this.broker;
    let open = true;
    const subscriptions: Array<{ filter: string; deliver: (packet: AedesPublishPacket, callback: () => void) => void }> = [];
    return {
      get connected() {
        return open && !broker.closed;
      },
      subscribe: (filter, onMessage) =>
        new Promise<void>((resolve) => {
          const deliver = (packet: AedesPublishPacket, callback: () => void) => {
            const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
            callback();
            onMessage(packet.topic, payload);
          };
          subscriptions.push({ filter, deliver });
          broker.subscribe(filter, deliver, resolve);
        }),
      publishAsync: (topic, payload, options) =>
        new Promise<void>((resolve, reject) => {
          if (!open || broker.closed) return reject(new Error('connection closed'));
          broker.publish({ cmd: 'publish', topic, payload: Buffer.from(payload), qos: options.qos, retain: false, dup: false }, (error) => (error ? reject(error) : resolve()));
        }),
      endAsync: async () => {
        open = false;
        for (const { filter, deliver } of subscriptions.splice(0)) {
          if (!broker.closed) await new Promise<void>((resolve) => broker.unsubscribe(filter, deliver, resolve));
        }
      },
    };
  }

  /** Closes every connection signed in as device `sn` (its key was revoked). */
  disconnect(sn: string): void {
    // aedes keeps its connected clients by id without typing the map
    const clients = (this.broker as unknown as { clients: Record<string, Client> }).clients;
    for (const client of Object.values(clients)) if (this.snOf.get(client) === sn) client.close();
  }

  /** Stops accepting, drops every connection and frees the port. */
  async close(): Promise<void> {
    const serverClosed = new Promise<void>((resolve) => {
      if (!this.server.listening) return resolve();
      this.server.close(() => resolve());
    });
    await new Promise<void>((resolve) => this.broker.close(() => resolve()));
    await serverClosed;
  }
}
