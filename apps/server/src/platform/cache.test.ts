import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { REDIS_URL, ManualClock, redisReachable } from '../test/harness.ts';
import { connectRedis, MemoryCache, RedisCache, type Cache } from './cache.ts';

const clock = new ManualClock();
const caches: Array<[string, () => Promise<Cache>]> = [['memory', async () => new MemoryCache(clock.now)]];
if (await redisReachable()) {
  caches.push(['redis', async () => new RedisCache(await connectRedis(REDIS_URL), `isps-test:${randomBytes(6).toString('hex')}:`)]);
}

describe.each(caches)('%s cache', (_kind, make) => {
  const opened: Cache[] = [];
  const open = async () => {
    const cache = await make();
    opened.push(cache);
    return cache;
  };
  afterAll(async () => {
    for (const cache of opened) await cache.close();
  });

  it('stores, reads and deletes', async () => {
    const cache = await open();
    expect(await cache.get('a')).toBeNull();
    await cache.set('a', 'one', 60_000);
    expect(await cache.get('a')).toBe('one');
    await cache.del('a');
    expect(await cache.get('a')).toBeNull();
  });

  it('hands a value out only once through take', async () => {
    const cache = await open();
    await cache.set('code', 'x7', 60_000);
    const [first, second] = await Promise.all([cache.take('code'), cache.take('code')]);
    expect([first, second].sort()).toEqual(['x7', null].sort());
  });

  it('forgets values after their lifetime', async () => {
    const cache = await open();
    await cache.set('short', 'v', 30);
    clock.advance(31);
    await sleep(60);
    expect(await cache.get('short')).toBeNull();
  });
});

it('runs the cache suite against Redis when it answers', () => {
  expect(caches.length).toBeGreaterThanOrEqual(1);
});
