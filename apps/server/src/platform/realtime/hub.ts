import { RealtimeClose, RealtimeCmd, type RealtimeMessage } from '@isps/contract';
import type { WebSocket } from 'ws';
import type { EventBus } from '../event-bus.ts';
import type { TokenRevocation } from '../tokens.ts';

const CHANNEL = 'realtime';
const REVOKED_CHANNEL = 'realtime:revoked';
const OPEN = 1;
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What travels on the bus: the message and its recipients (null: every connected user). */
interface Delivery {
  to: string[] | null;
  message: RealtimeMessage;
}

function isRevocation(value: unknown): value is TokenRevocation {
  if (typeof value !== 'object' || value === null) return false;
  const { tokenHash, userId } = value as { tokenHash?: unknown; userId?: unknown };
  return typeof tokenHash === 'string' || typeof userId === 'string';
}

function isDelivery(value: unknown): value is Delivery {
  if (typeof value !== 'object' || value === null) return false;
  const { to, message } = value as Partial<Delivery>;
  const recipientsOk = to === null || (Array.isArray(to) && to.every((id) => typeof id === 'string'));
  return recipientsOk && typeof message === 'object' && message !== null && typeof message.cmd === 'string';
}

/**
 * The websocket hub of DESIGN section 6. Sending goes through the event bus, so whichever instance holds a user's
 * socket delivers; each instance only writes to its own sockets.
 */
export class RealtimeHub {
  private readonly sockets = new Map<string, Set<WebSocket>>();
  private readonly alive = new WeakSet<WebSocket>();
  /** the fingerprint of the token each socket was opened with */
  private readonly tokenOf = new WeakMap<WebSocket, string>();
  private unsubscribers: Array<() => Promise<void>> = [];
  private pinger: NodeJS.Timeout | null = null;

  constructor(
    private readonly bus: EventBus,
    /** the message as the socket sends it (times in the wire format) */
    private readonly onWire: (message: RealtimeMessage) => RealtimeMessage = (message) => message,
  ) {}

  async start(pingIntervalMs: number): Promise<void> {
    this.unsubscribers.push(
      await this.bus.subscribe(CHANNEL, (payload) => {
        if (isDelivery(payload)) this.deliverLocally(payload);
      }),
      await this.bus.subscribe(REVOKED_CHANNEL, (payload) => {
        if (isRevocation(payload)) this.closeRevokedLocally(payload);
      }),
    );
    // a socket whose peer vanished without a close frame is found by a missed pong and dropped
    this.pinger = setInterval(() => this.pingAll(), pingIntervalMs);
    this.pinger.unref();
  }

  async stop(): Promise<void> {
    if (this.pinger) clearInterval(this.pinger);
    this.pinger = null;
    const unsubscribers = this.unsubscribers;
    this.unsubscribers = [];
    for (const unsubscribe of unsubscribers) await unsubscribe();
  }

  /**
   * Binds an upgraded socket to its (already authenticated) user and the fingerprint of the token it was opened
   * with. Client text is answered, never relayed.
   */
  attach(userId: string, tokenHash: string, socket: WebSocket, lifetimeMs: number): void {
    if (socket.readyState !== OPEN) return;
    if (lifetimeMs <= 0) {
      socket.close(RealtimeClose.signedOut, 'token expired');
      return;
    }
    // the socket lives as long as its token; timers hold at most 2^31-1 ms, so a longer wait is taken in steps
    let expiry: NodeJS.Timeout;
    const expireIn = (ms: number) => {
      expiry = setTimeout(() => (ms > MAX_TIMER_MS ? expireIn(ms - MAX_TIMER_MS) : socket.close(RealtimeClose.signedOut, 'token expired')), Math.min(ms, MAX_TIMER_MS));
      expiry.unref();
    };
    expireIn(lifetimeMs);
    socket.on('close', () => clearTimeout(expiry));
    this.tokenOf.set(socket, tokenHash);
    let own = this.sockets.get(userId);
    if (!own) {
      own = new Set();
      this.sockets.set(userId, own);
    }
    own.add(socket);
    this.alive.add(socket);
    socket.on('pong', () => this.alive.add(socket));
    socket.on('message', () => {
      // any client text counts as the heartbeat; the answer goes to this socket alone
      send(socket, { cmd: RealtimeCmd.heartcheck, msgTxt: 'heartcheck' });
    });
    socket.on('close', () => {
      const current = this.sockets.get(userId);
      current?.delete(socket);
      if (current && current.size === 0) this.sockets.delete(userId);
    });
  }

  async sendToUser(userId: string, message: RealtimeMessage): Promise<void> {
    await this.sendToUsers([userId], message);
  }

  async sendToUsers(userIds: readonly string[], message: RealtimeMessage): Promise<void> {
    if (userIds.length === 0) return;
    const delivery: Delivery = { to: [...new Set(userIds)], message };
    await this.bus.publish(CHANNEL, delivery);
  }

  async broadcast(message: RealtimeMessage): Promise<void> {
    const delivery: Delivery = { to: null, message };
    await this.bus.publish(CHANNEL, delivery);
  }

  /** Closes, on every instance, the sockets opened with tokens that were just revoked ('sign in again'). */
  async closeRevoked(revoked: TokenRevocation): Promise<void> {
    await this.bus.publish(REVOKED_CHANNEL, revoked);
  }

  /** Sockets this instance holds (for a user, or all). */
  connectionCount(userId?: string): number {
    if (userId !== undefined) return this.sockets.get(userId)?.size ?? 0;
    let total = 0;
    for (const set of this.sockets.values()) total += set.size;
    return total;
  }

  private deliverLocally({ to, message: sent }: Delivery): void {
    const message = this.onWire(sent);
    const targets = to === null ? [...this.sockets.values()] : to.map((id) => this.sockets.get(id)).filter((s) => s !== undefined);
    for (const set of targets) for (const socket of set) send(socket, message);
  }

  private closeRevokedLocally(revoked: TokenRevocation): void {
    const sets = 'userId' in revoked ? [this.sockets.get(revoked.userId)].filter((set) => set !== undefined) : [...this.sockets.values()];
    for (const set of sets) {
      for (const socket of set) {
        if ('tokenHash' in revoked && this.tokenOf.get(socket) !== revoked.tokenHash) continue;
        socket.close(RealtimeClose.signedOut, 'signed out');
      }
    }
  }

  private pingAll(): void {
    for (const set of this.sockets.values()) {
      for (const socket of set) {
        if (!this.alive.has(socket)) {
          socket.terminate();
          continue;
        }
        this.alive.delete(socket);
        if (socket.readyState === OPEN) socket.ping();
      }
    }
  }
}

function send(socket: WebSocket, message: RealtimeMessage): void {
  if (socket.readyState === OPEN) socket.send(JSON.stringify(message));
}
