import { Limits } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { refuse } from './envelope.ts';

interface Failures {
  count: number;
  since: number;
}

/**
 * SPEC section 9's lock, one for each kind of secret guessed (a staff password, a visitor password, a second-step
 * code): five failures of one name within ten minutes lock that name for ten minutes ('login.locked'). Kept in the
 * cache, so every instance sees the same count.
 */
export function failureLock(scope: string) {
  const failuresKey = (name: string) => `${scope}:failures:${name}`;
  const lockKey = (name: string) => `${scope}:lock:${name}`;
  return {
    async refuseIfLocked(app: FastifyInstance, name: string): Promise<void> {
      const left = Number((await app.cache.get(lockKey(name))) ?? 0) - app.clock();
      if (left > 0) refuse('login.locked', { minutes: Math.ceil(left / 60_000) });
    },
    /** Counts a failure; the one that reaches the limit locks the name and is refused as locked. */
    async recordFailure(app: FastifyInstance, name: string): Promise<void> {
      const now = app.clock();
      const raw = await app.cache.get(failuresKey(name));
      const previous = raw ? (JSON.parse(raw) as Failures) : null;
      const failures: Failures = previous && now - previous.since < Limits.loginFailureWindowMs ? { count: previous.count + 1, since: previous.since } : { count: 1, since: now };
      if (failures.count >= Limits.loginFailureLimit) {
        await app.cache.del(failuresKey(name));
        await app.cache.set(lockKey(name), String(now + Limits.loginLockMs), Limits.loginLockMs);
        refuse('login.locked', { minutes: Math.ceil(Limits.loginLockMs / 60_000) });
      }
      await app.cache.set(failuresKey(name), JSON.stringify(failures), Limits.loginFailureWindowMs);
    },
    /** A success forgets the failures before it. */
    async clear(app: FastifyInstance, name: string): Promise<void> {
      await app.cache.del(failuresKey(name));
    },
  };
}
