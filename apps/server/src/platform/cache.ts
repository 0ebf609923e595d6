import type { Redis } from 'ioredis';
import type { Clock } from './clock.ts';

/** Short-lived shared values: captcha codes, login failure counters, lock flags. */
export interface Cache {
  readonly kind: 'memory' | 'redis';
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** reads and deletes in one step, so a value (a captcha code) is used at most once */
  take(key: string): Promise<string | null>;
  del(key: string): Promise<void>;
  close(): Promise<void>;
}

export class MemoryCache implements Cache {
  readonly kind = 'memory';
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

export class RedisCache implements Cache {
  readonly kind = 'redis';

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async get(key: string): Promise<string | null> {
    return this.redis.get(this.prefix + key);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.redis.set(this.prefix + key, value, 'PX', Math.max(1, Math.ceil(ttlMs)));
  }

  async take(key: string): Promise<string | null> {
    const results = await this.redis.multi().get(this.prefix + key).del(this.prefix + key).exec();
    const [error, value] = results?.[0] ?? [null, null];
    if (error) throw error;
    return (value as string | null) ?? null;
  }

  async del(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}

export async function connectRedis(url: string): Promise<Redis> {
  // the client loads only when REDIS_URL is set
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2, connectTimeout: 3000 });
  await redis.connect();
  return redis;
}

export async function createCache(options: { redisUrl: string | null; prefix: string; clock: Clock }): Promise<Cache> {
  if (!options.redisUrl) return new MemoryCache(options.clock);
  return new RedisCache(await connectRedis(options.redisUrl), options.prefix);
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
