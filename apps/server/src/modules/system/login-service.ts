import { Limits, LogOperateType, isStrongPassword, type Language, type LoginBody, type LoginResult, type PasswordLoginResult, type SecondFactorChallenge, type UpdatePasswordBody } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { SysUser } from '../../db/schema.ts';
import { forgetInitialPassword } from '../../initial-password.ts';
import { writeLoginLog, type LogText } from '../../platform/audit-log.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { failureLock, secretEpoch } from '../../platform/failure-lock.ts';
import { allDictOptions, dictReaderOf } from './dict-service.ts';
import { UserStatus, findActiveUserById, findActiveUserByName, setCurrentOrgCode, toUserInfo, userDeparts, userTenants } from './user-service.ts';

const captchaKey = (checkKey: string) => `captcha:${checkKey}`;
const passwordLock = failureLock('login');

interface StoredCaptcha {
  code: string;
  expiresAt: number;
}

/** A fresh captcha image for `checkKey`, valid once for 60 seconds. */
export async function issueCaptcha(app: FastifyInstance, checkKey: string): Promise<string> {
  let image: { data: string; text: string };
  try {
    // the captcha library (and its font) loads at the first captcha, not at start
    const svgCaptcha = (await import('svg-captcha')).default;
    image = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0oO1ilI', color: true, background: '#f0f2f5' });
  } catch {
    throw new AppError('refused', 'login.captchaError');
  }
  const stored: StoredCaptcha = { code: image.text, expiresAt: app.clock() + Limits.captchaLifetimeMs };
  await app.cache.set(captchaKey(checkKey), JSON.stringify(stored), Limits.captchaLifetimeMs);
  return `data:image/svg+xml;base64,${Buffer.from(fitCaptchaSlot(image.data)).toString('base64')}`;
}

/** The origin console shows the image unscaled in a 105×35 slot; drawn at 150×50, it keeps its viewBox and shrinks. */
function fitCaptchaSlot(svg: string): string {
  return svg.replace(/^<svg([^>]*?) width="\d+" height="\d+"/, '<svg$1 width="105" height="35"');
}

/** Uses up the captcha of `checkKey` when `captcha` is its text; refuses otherwise (login, and before a code is sent). */
export async function checkCaptcha(app: FastifyInstance, body: Pick<LoginBody, 'captcha' | 'checkKey'>): Promise<void> {
  if (!body.captcha || !body.checkKey) refuse('login.captchaRequired');
  const raw = await app.cache.take(captchaKey(body.checkKey));
  const stored = raw ? (JSON.parse(raw) as StoredCaptcha) : null;
  if (!stored || stored.expiresAt <= app.clock() || stored.code.toLowerCase() !== body.captcha.toLowerCase()) {
    refuse('login.captchaWrong');
  }
}

/** Counts a failure for the name, existing or not, so locking reveals nothing about which names exist. */
async function recordFailure(app: FastifyInstance, username: string, epoch: string | undefined): Promise<never> {
  await passwordLock.recordFailure(app, username.toLowerCase(), epoch);
  refuse('login.wrongCredentials');
}

declare module 'fastify' {
  interface FastifyInstance {
    /** set by the account module: a challenge when the user must also give a second factor, else null */
    secondFactorGate?: (user: Selectable<SysUser>) => Promise<SecondFactorChallenge | null>;
  }
}

export async function login(app: FastifyInstance, body: LoginBody, ip: string, lang: Language): Promise<PasswordLoginResult> {
  const started = performance.now();
  if (app.settings.loginCaptcha) await checkCaptcha(app, body);
  const user = await findActiveUserByName(app, body.username);
  // a lock counted against an earlier password (reset since) no longer holds
  const epoch = user ? secretEpoch(user.password) : undefined;
  await passwordLock.refuseIfLocked(app, body.username.toLowerCase(), epoch);

  const passwordOk = user ? await app.hasher.verify(user.password, body.password) : await app.hasher.verifyNobody(body.password);
  if (!user || !passwordOk) return recordFailure(app, body.username, epoch);
  await passwordLock.clear(app, body.username.toLowerCase());
  if (Number(user.status) === UserStatus.awaitingApproval) refuse('login.awaitingApproval');
  if (Number(user.status) !== UserStatus.normal) refuse('login.frozen');
  const challenge = app.secondFactorGate ? await app.secondFactorGate(user) : null;
  if (challenge) return challenge;
  return startSession(app, user, ip, { key: 'log.signedIn', params: { username: user.username } }, lang, started);
}

/** The session of a user whose identity is established (password, SMS code, CAS ticket or second factor). */
export async function startSession(app: FastifyInstance, user: Selectable<SysUser>, ip: string, content: LogText, lang: Language, started = performance.now()): Promise<LoginResult> {
  const departs = await userDeparts(app, user.id);
  const multiDepart: 0 | 1 | 2 = departs.length === 0 ? 0 : departs.length === 1 ? 1 : 2;
  let current = user;
  const only = departs[0];
  if (multiDepart === 1 && only && user.org_code !== only.orgCode) {
    await setCurrentOrgCode(app, user.id, only.orgCode, user.username);
    current = { ...user, org_code: only.orgCode };
  }
  const token = await app.tokens.issue(user.id, user.username);
  await writeLoginLog(app, {
    operateType: LogOperateType.login,
    userId: user.id,
    username: user.username,
    tenantId: user.tenant_id,
    ip,
    content,
    costMs: performance.now() - started,
  });
  return {
    token,
    userInfo: toUserInfo(current, lang),
    departs,
    multi_depart: multiDepart,
    sysAllDictItems: await allDictOptions(app, await dictReaderOf(app, user), lang),
    tenantList: await userTenants(app, user),
  };
}

export async function logout(app: FastifyInstance, token: string, user: { id: string; username: string; tenantId: string | null }, ip: string): Promise<void> {
  await app.tokens.revoke(token);
  await writeLoginLog(app, { operateType: LogOperateType.logout, userId: user.id, username: user.username, tenantId: user.tenantId, ip, content: { key: 'log.signedOut', params: { username: user.username } }, costMs: 0 });
}

/** Own password only; every session of the user ends, so the client logs in again (SPEC section 5). */
export async function updateOwnPassword(app: FastifyInstance, caller: { id: string; username: string }, body: UpdatePasswordBody): Promise<void> {
  if (body.username !== caller.username) refuse('password.notSelf');
  const user = await findActiveUserById(app, caller.id);
  if (!user || !(await app.hasher.verify(user.password, body.oldpassword))) refuse('password.oldWrong');
  if (body.password !== body.confirmpassword) refuse('password.mismatch');
  if (body.password === body.oldpassword) refuse('password.sameAsOld');
  if (!isStrongPassword(body.password)) refuse('password.weak');
  const passwordHash = await app.hasher.hash(body.password);
  await app.db
    .updateTable('sys_user')
    .set({ password: passwordHash, must_change_password: 0, update_by: caller.username, update_time: new Date(app.clock()).toISOString() })
    .where('id', '=', caller.id)
    .execute();
  forgetInitialPassword(app.settings.dataDir, caller.username);
  await app.tokens.revokeAllOf(caller.id);
}
