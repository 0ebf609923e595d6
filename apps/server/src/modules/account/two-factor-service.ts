import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { AccountLimits, type Language, type LoginResult, type SecondFactorChallenge, type TwoFactorEnrollment, type TwoFactorStatus } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { SysUser } from '../../db/schema.ts';
import { SYSTEM_ADMIN_ROLE } from '../../platform/access.ts';
import { refuse } from '../../platform/envelope.ts';
import { failureLock } from '../../platform/failure-lock.ts';
import { readAccountSettings } from './settings.ts';
import { matchTotp, newTotpSecret, otpauthUri } from './totp.ts';

interface StoredChallenge {
  userId: string;
  attempts: number;
  expiresAt: number;
  /** the account had a confirmed factor when its first factor was proven: such a challenge never enrols a new one */
  enrolled: boolean;
}

/** the name authenticator apps show above the code */
const TOTP_ISSUER = 'ISPS Console';
const challengeKey = (challenge: string) => `2fa:${createHash('sha256').update(challenge).digest('hex')}`;

export async function isSystemAdmin(app: FastifyInstance, userId: string): Promise<boolean> {
  const row = await app.db
    .selectFrom('sys_user_role as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select('r.id')
    .where('ur.user_id', '=', userId)
    .where('r.role_code', '=', SYSTEM_ADMIN_ROLE)
    .executeTakeFirst();
  return row !== undefined;
}

async function totpRow(app: FastifyInstance, userId: string) {
  return app.db.selectFrom('sys_user_totp').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

async function requiredFor(app: FastifyInstance, userId: string): Promise<boolean> {
  return (await readAccountSettings(app)).twoFactorForAdmins && (await isSystemAdmin(app, userId));
}

export async function twoFactorStatus(app: FastifyInstance, userId: string): Promise<TwoFactorStatus> {
  const row = await totpRow(app, userId);
  return { enrolled: Number(row?.confirmed ?? 0) === 1, required: await requiredFor(app, userId) };
}

/** A new secret, pending until a code from it is confirmed; an enrolled user must switch it off first. */
export async function enroll(app: FastifyInstance, user: { id: string; username: string }): Promise<TwoFactorEnrollment> {
  const row = await totpRow(app, user.id);
  if (Number(row?.confirmed ?? 0) === 1) refuse('twoFactor.enrolled');
  const secret = newTotpSecret();
  const now = new Date(app.clock()).toISOString();
  const sealed = app.secretBox.encrypt(secret);
  if (row) {
    await app.db.updateTable('sys_user_totp').set({ secret: sealed, confirmed: 0, last_step: null, update_by: user.username, update_time: now }).where('id', '=', row.id).execute();
  } else {
    await app.db
      .insertInto('sys_user_totp')
      .values({ id: randomUUID(), user_id: user.id, secret: sealed, confirmed: 0, last_step: null, create_by: user.username, create_time: now, update_by: null, update_time: null })
      .execute();
  }
  return { secret, uri: otpauthUri(secret, user.username, TOTP_ISSUER) };
}

/** Checks a code against the user's secret (pending or confirmed) and remembers its step, so it works once. */
async function acceptCode(app: FastifyInstance, userId: string, code: string, by: string, confirm: boolean): Promise<boolean> {
  const row = await totpRow(app, userId);
  if (!row) return false;
  const step = matchTotp(app.secretBox.decrypt(row.secret), code, app.clock(), row.last_step === null ? null : Number(row.last_step));
  if (step === null) return false;
  const update = app.db
    .updateTable('sys_user_totp')
    .set({ last_step: step, confirmed: confirm ? 1 : Number(row.confirmed), update_by: by, update_time: new Date(app.clock()).toISOString() })
    .where('id', '=', row.id);
  // the step condition makes two concurrent uses of one code race for a single row update
  const result = await (row.last_step === null ? update.where('last_step', 'is', null) : update.where('last_step', '=', row.last_step)).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// counted per account across challenges: a known password buys new challenges, not new guesses; five wrong codes
// within ten minutes lock the account's second step for ten minutes, like wrong passwords
const codeLock = failureLock('2fa');

export async function confirmEnrollment(app: FastifyInstance, user: { id: string; username: string }, code: string): Promise<void> {
  const row = await totpRow(app, user.id);
  if (!row) refuse('twoFactor.notEnrolled');
  if (Number(row.confirmed) === 1) refuse('twoFactor.enrolled');
  if (!(await acceptCode(app, user.id, code, user.username, true))) refuse('twoFactor.codeWrong');
}

export async function disable(app: FastifyInstance, user: { id: string; username: string }, code: string): Promise<void> {
  const row = await totpRow(app, user.id);
  if (!row || Number(row.confirmed) !== 1) refuse('twoFactor.notEnrolled');
  if (await requiredFor(app, user.id)) refuse('twoFactor.requiredForAdmins');
  await codeLock.refuseIfLocked(app, user.id);
  if (!(await acceptCode(app, user.id, code, user.username, false))) {
    await codeLock.recordFailure(app, user.id);
    refuse('twoFactor.codeWrong');
  }
  await app.db.deleteFrom('sys_user_totp').where('id', '=', row.id).execute();
}

/**
 * Changing the phone or e-mail of one's own account (where recovery codes go) needs the account's second factor when it
 * has one: a current code, used once, so a stolen session alone cannot take over the account's recovery.
 */
export async function requireFactorForContactChange(app: FastifyInstance, user: { id: string; username: string }, code: unknown): Promise<void> {
  const row = await totpRow(app, user.id);
  if (Number(row?.confirmed ?? 0) !== 1) return;
  if (typeof code !== 'string' || code.trim() === '') refuse('twoFactor.codeForContactChange');
  await codeLock.refuseIfLocked(app, user.id);
  if (!(await acceptCode(app, user.id, code.trim(), user.username, false))) {
    await codeLock.recordFailure(app, user.id);
    refuse('twoFactor.codeWrong');
  }
}

/** The login gate: users who enrolled, and administrators when the setting says so, get a challenge instead of a session. */
export async function secondFactorGate(app: FastifyInstance, user: Selectable<SysUser>): Promise<SecondFactorChallenge | null> {
  const enrolled = Number((await totpRow(app, user.id))?.confirmed ?? 0) === 1;
  if (!enrolled && !(await requiredFor(app, user.id))) return null;
  const challenge = randomBytes(32).toString('base64url');
  const expiresAt = app.clock() + AccountLimits.secondFactorChallengeMs;
  const stored: StoredChallenge = { userId: user.id, attempts: 0, expiresAt, enrolled };
  await app.cache.set(challengeKey(challenge), JSON.stringify(stored), AccountLimits.secondFactorChallengeMs);
  return { secondFactorRequired: true, challenge, enrolled };
}

async function readChallenge(app: FastifyInstance, challenge: string): Promise<StoredChallenge> {
  const raw = await app.cache.get(challengeKey(challenge));
  const stored = raw ? (JSON.parse(raw) as StoredChallenge) : null;
  if (!stored || stored.expiresAt <= app.clock()) refuse('twoFactor.challengeExpired');
  return stored;
}

/** An administrator who must use a second factor but has none yet enrols inside the login. */
export async function enrollDuringLogin(app: FastifyInstance, challenge: string): Promise<TwoFactorEnrollment> {
  const stored = await readChallenge(app, challenge);
  if (stored.enrolled !== false) refuse('twoFactor.enrolled');
  const user = await app.userDirectory.findActiveUserById(app, stored.userId);
  if (!user) refuse('twoFactor.challengeExpired');
  return enroll(app, user);
}

export async function completeLogin(app: FastifyInstance, challenge: string, code: string, ip: string, lang: Language): Promise<LoginResult> {
  const stored = await readChallenge(app, challenge);
  const user = await app.userDirectory.findActiveUserById(app, stored.userId);
  if (!user) refuse('twoFactor.challengeExpired');
  await codeLock.refuseIfLocked(app, user.id);
  const row = await totpRow(app, user.id);
  const pending = row !== undefined && Number(row.confirmed) !== 1;
  // a pending secret is confirmed only by the login that enrolled it
  const usable = row !== undefined && (!pending || stored.enrolled === false);
  if (!row || !usable || !(await acceptCode(app, user.id, code, user.username, pending))) {
    const attempts = stored.attempts + 1;
    if (attempts >= AccountLimits.codeAttempts) await app.cache.del(challengeKey(challenge));
    else await app.cache.set(challengeKey(challenge), JSON.stringify({ ...stored, attempts }), stored.expiresAt - app.clock());
    await codeLock.recordFailure(app, user.id);
    refuse('twoFactor.codeWrong');
  }
  await codeLock.clear(app, user.id);
  // used once: a replayed challenge finds nothing
  if ((await app.cache.take(challengeKey(challenge))) === null) refuse('twoFactor.challengeExpired');
  return app.userDirectory.startSession(app, user, ip, { key: 'log.signedInTwoStep', params: { username: user.username } }, lang);
}
