import { createHash } from 'node:crypto';
import { Limits } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { refuse } from './envelope.ts';

interface Failures {
  count: number;
  since: number;
  /** the secret's epoch the failures were counted against */
  epoch?: string;
}

interface Lock {
  until: number;
  epoch?: string;
}

/**
 * The epoch of a stored secret (its hash): a new password is a new epoch. A short digest of the stored hash, so the
 * cache never holds the hash itself.
 */
export function secretEpoch(storedSecret: string): string {
  return createHash('sha256').update(storedSecret).digest('base64url').slice(0, 16);
}

function readLock(raw: string | null | undefined): Lock | null {
  if (!raw) return null;
  if (/^\d+$/.test(raw)) return { until: Number(raw) };
  return JSON.parse(raw) as Lock;
}

/**
 * SPEC section 9's lock, one for each kind of secret guessed (a staff password, a visitor password, a second-step
 * code): five failures of one name within ten minutes lock that name for ten minutes ('login.locked'). Kept in the
 * cache, so every instance sees the same count. Failures and locks counted against a secret's epoch end when the
 * secret changes (a password reset, from the console or from `npm run reset-admin` in another process, whose cache
 * may not be the server's): the new secret is not locked by guesses at the old one.
 */
export function failureLock(scope: string) {
  const failuresKey = (name: string) => `${scope}:failures:${name}`;
  const lockKey = (name: string) => `${scope}:lock:${name}`;
  return {
    /**
     * `epoch`: the epoch of the name's secret as stored now, when the name has one; only a lock counted against that
     * very secret holds (guesses at another secret, or at a name that had none, could not have found this one).
     */
    async refuseIfLocked(app: FastifyInstance, name: string, epoch?: string): Promise<void> {
      const lock = readLock(await app.cache.get(lockKey(name)));
      if (!lock) return;
      if (epoch !== undefined && lock.epoch !== epoch) {
        await app.cache.del(lockKey(name));
        return;
      }
      const left = lock.until - app.clock();
      if (left > 0) refuse('login.locked', { minutes: Math.ceil(left / 60_000) });
    },
    /** Counts a failure; the one that reaches the limit locks the name and is refused as locked. */
    async recordFailure(app: FastifyInstance, name: string, epoch?: string): Promise<void> {
      const now = app.clock();
      const raw = await app.cache.get(failuresKey(name));
      const previous = raw ? (JSON.parse(raw) as Failures) : null;
      const counting = previous && now - previous.since < Limits.loginFailureWindowMs && previous.epoch === epoch;
      const failures: Failures = counting ? { count: previous.count + 1, since: previous.since, epoch } : { count: 1, since: now, epoch };
      if (failures.count >= Limits.loginFailureLimit) {
        await app.cache.del(failuresKey(name));
        const lock: Lock = { until: now + Limits.loginLockMs, epoch };
        await app.cache.set(lockKey(name), JSON.stringify(lock), Limits.loginLockMs);
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
