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

  /** `subscriber` is put in subscriber mode; it must not be used for anything else */
  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly prefix: string,
  ) {
    subscriber.on('message', (channel: string, text: string) => {
      const handlers = this.handlers.get(channel);
      if (!handlers) return;
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
