import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { closeRedis, connectRedis } from './cache.ts';

export type EventHandler = (payload: unknown) => void;

/**
 * Fan-out of events to every server instance (DESIGN sections 1 and 9): in-process by default, Redis pub/sub when
 * REDIS_URL is set. Payloads are JSON values; a handler sees its own instance's events too.
 */
export interface EventBus {
  readonly kind: 'memory' | 'redis';
  /** true while the bus reaches this instance only (Redis unreachable); what `/api/health` reports */
  readonly degraded: boolean;
  /**
   * Hands the event to every instance. Never waits for a lost Redis: the event is then kept (a bounded outbox) and
   * sent when Redis returns.
   */
  publish(channel: string, payload: unknown): Promise<void>;
  /**
   * Publishes and resolves once this instance's own subscription to `channel` has been given the message: by then
   * the bus has handed it to every instance, so what a caller does next anywhere sees it. Gives up waiting after
   * `timeoutMs` (a lost bus must not hang the caller); without a subscription of its own it waits for nothing.
   */
  publishAndWait(channel: string, payload: Record<string, unknown>, timeoutMs?: number): Promise<void>;
  /** resolves once the subscription is live (with Redis: acknowledged by the server); returns the unsubscriber */
  subscribe(channel: string, handler: EventHandler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export class InProcessEventBus implements EventBus {
  readonly kind = 'memory';
  readonly degraded = false;
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(channel: string, payload: unknown): Promise<void> {
    // a JSON round trip, so handlers see exactly what they would see through Redis
    const copy: unknown = JSON.parse(JSON.stringify(payload ?? null));
    this.emitter.emit(channel, copy);
  }

  async publishAndWait(channel: string, payload: Record<string, unknown>): Promise<void> {
    // handlers run inside emit: once published, every one has seen it
    await this.publish(channel, payload);
  }

  async subscribe(channel: string, handler: EventHandler): Promise<() => Promise<void>> {
    const safe = guarded(handler);
    this.emitter.on(channel, safe);
    return async () => void this.emitter.off(channel, safe);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

/** How many events a lost Redis may leave waiting; older ones are dropped first, with a warning. */
export const OUTBOX_LIMIT = 1000;
// long enough for every instance's clients (reconnecting within a second, see connectRedis) to be back
const FLUSH_DELAY_MS = 1500;

export class RedisEventBus implements EventBus {
  readonly kind = 'redis';
  private readonly handlers = new Map<string, Set<EventHandler>>();
  /** messages published by publishAndWait, by channel and text, with who waits for them to come back */
  private readonly awaited = new Map<string, () => void>();
  /** events published while Redis was unreachable, by prefixed channel and text, oldest first */
  private readonly outbox: Array<{ key: string; text: string }> = [];
  private dropped = 0;
  private flushing = false;

  /** `subscriber` is put in subscriber mode; it must not be used for anything else; `publisher` must fail fast */
  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly prefix: string,
    private readonly warn: (message: string) => void = (message) => process.emitWarning(message),
  ) {
    subscriber.on('message', (channel: string, text: string) => {
      const handlers = this.handlers.get(channel);
      if (!handlers) return;
      const waiter = this.awaited.get(`${channel}\n${text}`);
      // settled after the handlers ran: the caller goes on once this instance has acted on it too
      if (waiter) setImmediate(waiter);
      let payload: unknown;
      try {
        payload = JSON.parse(text);
      } catch {
        return;
      }
      for (const handler of handlers) handler(payload);
    });
    // the outbox leaves once this instance hears the bus again (its own subscriptions re-established)
    publisher.on('ready', () => this.flushSoon());
    subscriber.on('ready', () => this.flushSoon());
  }

  get degraded(): boolean {
    return this.publisher.status !== 'ready' || this.subscriber.status !== 'ready';
  }

  async publish(channel: string, payload: unknown): Promise<void> {
    await this.send(this.prefix + channel, JSON.stringify(payload ?? null));
  }

  async publishAndWait(channel: string, payload: Record<string, unknown>, timeoutMs = 1000): Promise<void> {
    const key = this.prefix + channel;
    // with Redis lost the event waits in the outbox: there is nothing to wait for
    if (!this.handlers.has(key) || this.degraded) return this.publish(channel, payload);
    // a nonce tells this message from an equal one published before
    const text = JSON.stringify({ ...payload, nonce: randomUUID() });
    const id = `${key}\n${text}`;
    let timer: NodeJS.Timeout | undefined;
    const delivered = new Promise<void>((resolve) => {
      this.awaited.set(id, resolve);
      timer = setTimeout(resolve, timeoutMs);
    });
    try {
      if (await this.send(key, text)) await delivered;
    } finally {
      clearTimeout(timer);
      this.awaited.delete(id);
    }
  }

  /** Publishes now, or keeps the event for Redis' return; true when Redis took it. */
  private async send(key: string, text: string): Promise<boolean> {
    if (this.outbox.length === 0 && this.publisher.status === 'ready') {
      try {
        await this.publisher.publish(key, text);
        return true;
      } catch {
        // lost on the way (Redis went away meanwhile): kept below
      }
    }
    this.keep(key, text);
    return false;
  }

  private keep(key: string, text: string): void {
    this.outbox.push({ key, text });
    if (this.outbox.length <= OUTBOX_LIMIT) return;
    this.outbox.shift();
    // one warning per outage; dropped cache invalidations are safe (kept copies expire within seconds)
    if (this.dropped++ === 0) this.warn(`event bus outbox full (${OUTBOX_LIMIT}): oldest events dropped until Redis returns`);
  }

  private flushSoon(): void {
    if (this.flushing || this.outbox.length === 0) return;
    this.flushing = true;
    // other instances reconnect at about the same time: a moment's wait lets their subscriptions come back first
    setTimeout(() => void this.flush(), FLUSH_DELAY_MS).unref();
  }

  private async flush(): Promise<void> {
    try {
      while (this.outbox.length > 0 && !this.degraded) {
        const batch = this.outbox.splice(0, this.outbox.length);
        // sent in one go: the client writes them in order
        const results = await Promise.allSettled(batch.map(({ key, text }) => this.publisher.publish(key, text)));
        const lost = batch.filter((_, index) => results[index]?.status === 'rejected');
        if (lost.length > 0) {
          this.outbox.unshift(...lost);
          break;
        }
      }
      if (this.dropped > 0) this.warn(`event bus: ${this.dropped} events were dropped while Redis was unreachable`);
      if (this.outbox.length === 0) this.dropped = 0;
    } finally {
      this.flushing = false;
      // Redis answers but refused some (a timeout): try again rather than keep every later event waiting
      if (!this.degraded) this.flushSoon();
    }
  }

  async subscribe(channel: string, handler: EventHandler): Promise<() => Promise<void>> {
    const key = this.prefix + channel;
    let handlers = this.handlers.get(key);
    if (!handlers) {
      handlers = new Set();
      this.handlers.set(key, handlers);
      await this.subscriber.subscribe(key);
    }
    const safe = guarded(handler);
    handlers.add(safe);
    return async () => {
      const current = this.handlers.get(key);
      if (!current) return;
      current.delete(safe);
      if (current.size === 0) {
        this.handlers.delete(key);
        await this.subscriber.unsubscribe(key);
      }
    };
  }

  async close(): Promise<void> {
    this.handlers.clear();
    await Promise.allSettled([closeRedis(this.subscriber), closeRedis(this.publisher)]);
  }
}

/** One failing subscriber must not stop the others or the publisher. */
function guarded(handler: EventHandler): EventHandler {
  return (payload) => {
    try {
      handler(payload);
    } catch (error) {
      process.emitWarning(`event handler failed: ${(error as Error).message}`);
    }
  };
}

export async function createEventBus(options: { redisUrl: string | null; prefix: string; warn?: (message: string) => void }): Promise<EventBus> {
  if (!options.redisUrl) return new InProcessEventBus();
  const { warn } = options;
  const publisher = await connectRedis(options.redisUrl, { warn });
  try {
    const subscriber = await connectRedis(options.redisUrl, { failFast: false, warn });
    return new RedisEventBus(publisher, subscriber, `${options.prefix}bus:`, warn);
  } catch (error) {
    publisher.disconnect();
    throw error;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    eventBus: EventBus;
  }
}

/** Decorates the instance with the event bus of its configuration and closes it with the instance. */
export const eventBusPlugin = fp(
  async (app) => {
    const bus = await createEventBus({ redisUrl: app.settings.redisUrl, prefix: app.settings.cacheKeyPrefix, warn: (message) => app.log.warn(message) });
    app.decorate('eventBus', bus);
    app.addHook('onClose', () => bus.close());
  },
  { name: 'event-bus', dependencies: ['services'] },
);
