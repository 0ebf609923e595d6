import type { Redis } from 'ioredis';
import { systemClock, type Clock } from './clock.ts';

/** Short-lived shared values: captcha codes, login failure counters, lock flags. */
export interface Cache {
  readonly kind: 'memory' | 'redis';
  /** true while the shared store is unreachable and values are kept in this process only */
  readonly degraded: boolean;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** reads and deletes in one step, so a value (a captcha code) is used at most once */
  take(key: string): Promise<string | null>;
  del(key: string): Promise<void>;
  close(): Promise<void>;
}

export class MemoryCache implements Cache {
  readonly kind = 'memory';
  readonly degraded = false;
  private readonly entries = new Map<string, { value: string; expiresAt: number }>();

  constructor(private readonly clock: Clock) {}

  async get(key: string): Promise<string | null> {
    return this.read(key);
  }

  private read(key: string): string | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= this.clock()) {
      this.entries.delete(key);
      return null;
    }
    return entry.value;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.sweep();
    this.entries.set(key, { value, expiresAt: this.clock() + ttlMs });
  }

  async take(key: string): Promise<string | null> {
    // read and delete without an await in between, so two concurrent takes cannot both see the value
    const value = this.read(key);
    this.entries.delete(key);
    return value;
  }

  async del(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async close(): Promise<void> {
    this.entries.clear();
  }

  // bounded memory: expired captcha keys of abandoned logins would otherwise pile up
  private sweep(): void {
    if (this.entries.size < 10_000) return;
    const now = this.clock();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}

/**
 * Redis, and this process's memory while Redis does not answer (DESIGN section 9: a lost dependency holds no request):
 * a value written meanwhile is kept here and still found once Redis is back, so sign-in and captchas go on.
 */
export class RedisCache implements Cache {
  readonly kind = 'redis';
  private readonly local: MemoryCache;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    clock: Clock = systemClock,
  ) {
    this.local = new MemoryCache(clock);
  }

  /** true while Redis is unreachable (what `/api/health` reports) */
  get degraded(): boolean {
    return this.redis.status !== 'ready';
  }

  async get(key: string): Promise<string | null> {
    return (await this.attempt(() => this.redis.get(this.prefix + key))) ?? this.local.get(key);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    const stored = await this.attempt(() => this.redis.set(this.prefix + key, value, 'PX', Math.max(1, Math.ceil(ttlMs))));
    if (stored === undefined) await this.local.set(key, value, ttlMs);
    else await this.local.del(key);
  }

  async take(key: string): Promise<string | null> {
    const taken = await this.attempt(async () => {
      const results = await this.redis.multi().get(this.prefix + key).del(this.prefix + key).exec();
      const [error, value] = results?.[0] ?? [null, null];
      if (error) throw error;
      return (value as string | null) ?? null;
    });
    // both places: a value kept here during an outage is used at most once too
    const kept = await this.local.take(key);
    return taken ?? kept;
  }

  async del(key: string): Promise<void> {
    await this.attempt(() => this.redis.del(this.prefix + key));
    await this.local.del(key);
  }

  async close(): Promise<void> {
    await closeRedis(this.redis);
    await this.local.close();
  }

  /** Redis' answer, or undefined at once when it is unreachable (the client fails fast, see connectRedis). */
  private async attempt<T>(command: () => Promise<T>): Promise<T | undefined> {
    if (this.degraded) return undefined;
    try {
      return await command();
    } catch {
      return undefined;
    }
  }
}

export interface RedisConnectOptions {
  /**
   * true (the default) for clients used on a request's path: a command fails at once while disconnected and after
   * `commandTimeout` when Redis stops answering. false for a subscriber, whose subscriptions wait for Redis' return.
   */
  failFast?: boolean;
  /** where a lost connection is reported, once per outage */
  warn?: (message: string) => void;
}

// ioredis' own default backs off to 5 s; reconnecting within a second keeps recovery well under 10 s
const RECONNECT_MAX_MS = 1000;
const COMMAND_TIMEOUT_MS = 1000;

export async function connectRedis(url: string, options: RedisConnectOptions = {}): Promise<Redis> {
  // the client loads only when REDIS_URL is set
  const { Redis } = await import('ioredis');
  const failFast = options.failFast ?? true;
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 3000,
    retryStrategy: (times) => Math.min(times * 100, RECONNECT_MAX_MS),
    ...(failFast ? { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: COMMAND_TIMEOUT_MS } : { maxRetriesPerRequest: null }),
  });
  const warn = options.warn ?? ((message: string) => process.emitWarning(message));
  let reported = false;
  redis.on('error', (error: Error) => {
    if (reported) return;
    reported = true;
    warn(`Redis unreachable, working without it until it returns: ${error.message}`);
  });
  redis.on('ready', () => (reported = false));
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  return redis;
}

/** Quits politely when Redis answers; otherwise drops the connection, so closing never waits for Redis' return. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
  else redis.disconnect();
}

export async function createCache(options: { redisUrl: string | null; prefix: string; clock: Clock; warn?: (message: string) => void }): Promise<Cache> {
  if (!options.redisUrl) return new MemoryCache(options.clock);
  return new RedisCache(await connectRedis(options.redisUrl, { warn: options.warn }), options.prefix, options.clock);
}

/**
 * Values kept in this process until an event says they changed (sessions, permission sets): `clear` drops them all,
 * and a value whose load began before a `clear` is answered but not kept, so it cannot outlive the change it missed.
 * Entries also expire after `ttlMs`, which bounds how long a change made outside any server (a script writing the
 * database directly) goes unseen.
 */
export class InvalidatedMemo<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  private generation = 0;

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** The kept value when there is a live one, without waiting (the warm path of every request). */
  peek(key: string): V | undefined {
    const entry = this.entries.get(key);
    return entry && entry.expiresAt > this.clock() ? entry.value : undefined;
  }

  /** The kept value, else `load()`'s (kept when nothing was cleared meanwhile and it is not null). */
  async get(key: string, load: () => Promise<V>): Promise<V> {
    const entry = this.entries.get(key);
    const now = this.clock();
    if (entry && entry.expiresAt > now) return entry.value;
    const generation = this.generation;
    const value = await load();
    if (value !== null && generation === this.generation) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { value, expiresAt: now + this.ttlMs });
    }
    return value;
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
