import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { Aedes, type AedesPublishPacket, type AuthenticateError, type Client } from 'aedes';
import { DEVICE_SN_PATTERN, DEVICE_TOPIC_ROOT } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { approvedDeviceCode } from './device-keys.ts';
import type { InProcessGatewayClient } from './gateway.ts';

/** The user name of the server's own gateway client; never a valid serial number (it starts with `$`). */
export const GATEWAY_USERNAME = '$isps-gateway';

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

function refusal(code: number): AuthenticateError {
  return Object.assign(new Error('not authorized'), { returnCode: code }) as AuthenticateError;
}

export interface EmbeddedBrokerOptions {
  db: Kysely<Database>;
  port: number;
  host: string;
  topicRoot?: string;
  log: { warn(obj: object, msg: string): void };
}

/**
 * The embedded MQTT broker (aedes). Devices sign in with their serial number and the key issued with their approved
 * activation code; each may publish only below `{root}/{sn}/up/` and subscribe only below `{root}/{sn}/down/`. The
 * gateway client of this server signs in with a credential made at start and is the only client with no limits.
 */
export class EmbeddedBroker {
  readonly internalPassword = randomBytes(32).toString('base64url');
  private readonly broker: Aedes;
  private readonly server: Server;
  /** the serial number each authenticated device client signed in with */
  private readonly snOf = new WeakMap<Client, string>();
  private readonly internal = new WeakSet<Client>();
  private readonly root: string;

  constructor(private readonly options: EmbeddedBrokerOptions) {
    this.root = options.topicRoot ?? DEVICE_TOPIC_ROOT;
    this.broker = new Aedes({
      authenticate: (client, username, password, done) => {
        this.authenticate(client, username, password).then(
          (ok) => done(ok ? null : refusal(BAD_USERNAME_OR_PASSWORD), ok),
          (error: unknown) => {
            options.log.warn({ err: error }, 'device authentication failed');
            done(refusal(NOT_AUTHORIZED), false);
          },
        );
      },
      authorizePublish: (client, packet, callback) => {
        if (!client || this.internal.has(client)) return callback(null);
        const sn = this.snOf.get(client);
        callback(sn && packet.topic.startsWith(`${this.root}/${sn}/up/`) ? null : new Error('topic not allowed'));
      },
      authorizeSubscribe: (client, subscription, callback) => {
        if (this.internal.has(client)) return callback(null, subscription);
        const sn = this.snOf.get(client);
        // a refused subscription is answered with the failure return code, the connection stays
        callback(null, sn && subscription.topic.startsWith(`${this.root}/${sn}/down/`) ? subscription : null);
      },
    });
    boundDispatchDepth((this.broker as unknown as { mq: MessageQueue }).mq);
    this.server = createServer(this.broker.handle);
  }

  private async authenticate(client: Client, username: string | undefined, password: Buffer | undefined): Promise<boolean> {
    if (!username || !password) return false;
    const presented = password.toString('utf8');
    if (username === GATEWAY_USERNAME) {
      const expected = Buffer.from(this.internalPassword);
      const given = Buffer.from(presented);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
      this.internal.add(client);
      return true;
    }
    if (!DEVICE_SN_PATTERN.test(username) || presented.length > 256) return false;
    const code = await approvedDeviceCode(this.options.db, username, presented);
    if (!code) return false;
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
