import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { connectRedis } from './cache.ts';

export type EventHandler = (payload: unknown) => void;

/**
 * Fan-out of events to every server instance (DESIGN sections 1 and 9): in-process by default, Redis pub/sub when
 * REDIS_URL is set. Payloads are JSON values; a handler sees its own instance's events too.
 */
export interface EventBus {
  readonly kind: 'memory' | 'redis';
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

export class RedisEventBus implements EventBus {
  readonly kind = 'redis';
  private readonly handlers = new Map<string, Set<EventHandler>>();
  /** messages published by publishAndWait, by channel and text, with who waits for them to come back */
  private readonly awaited = new Map<string, () => void>();

  /** `subscriber` is put in subscriber mode; it must not be used for anything else */
  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly prefix: string,
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
  }

  async publish(channel: string, payload: unknown): Promise<void> {
    await this.publisher.publish(this.prefix + channel, JSON.stringify(payload ?? null));
  }

  async publishAndWait(channel: string, payload: Record<string, unknown>, timeoutMs = 1000): Promise<void> {
    const key = this.prefix + channel;
    if (!this.handlers.has(key)) return this.publish(channel, payload);
    // a nonce tells this message from an equal one published before
    const text = JSON.stringify({ ...payload, nonce: randomUUID() });
    const id = `${key}\n${text}`;
    let timer: NodeJS.Timeout | undefined;
    const delivered = new Promise<void>((resolve) => {
      this.awaited.set(id, resolve);
      timer = setTimeout(resolve, timeoutMs);
    });
    try {
      await this.publisher.publish(key, text);
      await delivered;
    } finally {
      clearTimeout(timer);
      this.awaited.delete(id);
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
    await Promise.allSettled([this.subscriber.quit(), this.publisher.quit()]);
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

export async function createEventBus(options: { redisUrl: string | null; prefix: string }): Promise<EventBus> {
  if (!options.redisUrl) return new InProcessEventBus();
  const publisher = await connectRedis(options.redisUrl);
  try {
    const subscriber = await connectRedis(options.redisUrl);
    return new RedisEventBus(publisher, subscriber, `${options.prefix}bus:`);
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
    const bus = await createEventBus({ redisUrl: app.settings.redisUrl, prefix: app.settings.cacheKeyPrefix });
    app.decorate('eventBus', bus);
    app.addHook('onClose', () => bus.close());
  },
  { name: 'event-bus', dependencies: ['services'] },
);
