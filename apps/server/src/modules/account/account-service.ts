import { createHash, randomBytes } from 'node:crypto';
import {
  AccountLimits,
  SelfRegister,
  SmsMode,
  UserStatus,
  isStrongPassword,
  maskPhone,
  type Language,
  type LoginResult,
  type RegisterBody,
  type RegisterCheckQuery,
  type ResetAccountResult,
  type ResetPasswordBody,
  type ResetSendCodeBody,
  type ResetVerifyResult,
  type SecondFactorChallenge,
  type SmsBody,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { refuse } from '../../platform/envelope.ts';
import { RoleCode } from '../../db/seed/index.ts';
import { forgetInitialPassword } from '../../initial-password.ts';
import { USER_STATUS_NORMAL } from './user-directory.ts';
import { consumeSmsCode, sendSmsCode } from './sms-codes.ts';
import { registrationOf } from './settings.ts';
import { secondFactorGate } from './two-factor-service.ts';

const duplicateKey = { username: 'duplicate.userName', email: 'duplicate.email', phone: 'duplicate.phone' } as const;

/** Is the value taken by a user, deleted ones included (their names come back on restore)? Emails compare case-blind. */
async function taken(app: FastifyInstance, field: RegisterCheckQuery['field'], value: string): Promise<boolean> {
  const query = app.db.selectFrom('sys_user').select('id');
  const row =
    field === 'email'
      ? await query.where((eb) => eb(eb.fn('lower', ['email']), '=', value.trim().toLowerCase())).executeTakeFirst()
      : await query.where(field, '=', value.trim()).executeTakeFirst();
  return row !== undefined;
}

/** Live check of one registration field; refuses with the spec's message when the value is taken. */
export async function checkRegistrationValue(app: FastifyInstance, query: RegisterCheckQuery): Promise<void> {
  if (await taken(app, query.field, query.value)) refuse(duplicateKey[query.field]);
}

async function activeUserByPhone(app: FastifyInstance, phone: string) {
  return app.db.selectFrom('sys_user').selectAll().where('phone', '=', phone.trim()).where('del_flag', '=', 0).orderBy('create_time').executeTakeFirst();
}

/** The login captcha, used up, before any code is sent (while LOGIN_CAPTCHA is on): a script cannot send codes. */
async function requireCaptcha(app: FastifyInstance, body: { captcha?: string; checkKey?: string }): Promise<void> {
  if (app.settings.loginCaptcha) await app.userDirectory.checkCaptcha(app, body);
}

/** POST /sys/sms. A login code goes only to a phone of an active user, yet the answer is the same either way. */
export async function requestSmsCode(app: FastifyInstance, body: SmsBody, lang: Language): Promise<void> {
  await requireCaptcha(app, body);
  if (body.smsmode === SmsMode.register) {
    // no code for an account that could not be registered anyway
    if ((await registrationOf(app, body.tenant)).mode === SelfRegister.off) refuse('register.closed');
    if (await taken(app, 'phone', body.mobile)) refuse('duplicate.phone');
    return sendSmsCode(app, SmsMode.register, body.mobile, null, lang);
  }
  const user = await activeUserByPhone(app, body.mobile);
  if (!user) return;
  return sendSmsCode(app, body.smsmode, body.mobile, user.id, lang);
}

/**
 * Self-registration, where the tenant allows it: a user of that tenant holding only the plain user role, phone proven
 * by an SMS code; with approval the account awaits an administrator before it can sign in.
 */
export async function register(app: FastifyInstance, body: RegisterBody): Promise<{ username: string; awaitingApproval: boolean }> {
  const { tenantId, mode } = await registrationOf(app, body.tenant);
  if (mode === SelfRegister.off) refuse('register.closed');
  if (!isStrongPassword(body.password)) refuse('password.weak');
  if (body.password !== body.confirmPassword) refuse('password.mismatch');
  for (const field of ['username', 'email', 'phone'] as const) {
    if (await taken(app, field, body[field])) refuse(duplicateKey[field]);
  }
  await consumeSmsCode(app, SmsMode.register, body.phone, null, body.smscode);
  const username = body.username.trim();
  let id: string;
  try {
    id = await app.userDirectory.createUser(app, { username, realname: username, password: body.password, roleCodes: [RoleCode.user], tenantId }, username);
  } catch (error) {
    // two registrations racing for one name: the unique index decides
    if (await taken(app, 'username', username)) refuse('duplicate.userName');
    app.log.error({ err: error }, 'registration failed');
    refuse('register.failed');
  }
  await app.db
    .updateTable('sys_user')
    .set({
      email: body.email.trim(),
      phone: body.phone.trim(),
      status: mode === SelfRegister.approval ? UserStatus.awaitingApproval : UserStatus.normal,
      update_by: username,
      update_time: new Date(app.clock()).toISOString(),
    })
    .where('id', '=', id)
    .execute();
  return { username, awaitingApproval: mode === SelfRegister.approval };
}

/** An SMS code stands for the password: users with two-step verification (or administrators who must) still give their code. */
export async function phoneLogin(app: FastifyInstance, mobile: string, code: string, ip: string, lang: Language): Promise<LoginResult | SecondFactorChallenge> {
  const user = await activeUserByPhone(app, mobile);
  if (!user) refuse('sms.codeWrong');
  await consumeSmsCode(app, SmsMode.login, mobile, user.id, code);
  if (Number(user.status) === UserStatus.awaitingApproval) refuse('login.awaitingApproval');
  if (Number(user.status) !== USER_STATUS_NORMAL) refuse('login.frozen');
  const challenge = await secondFactorGate(app, user);
  if (challenge) return challenge;
  return app.userDirectory.startSession(app, user, ip, { key: 'log.signedInSms', params: { username: user.username } }, lang);
}

/** Password reset step 1. The spec's own message says when the account does not exist; nothing more is told. */
async function resettableUser(app: FastifyInstance, username: string) {
  const user = await app.userDirectory.findActiveUserByName(app, username.trim());
  if (!user) refuse('account.notFound');
  if (!user.phone) refuse('account.noPhone');
  return { ...user, phone: user.phone };
}

export async function resetFindAccount(app: FastifyInstance, username: string): Promise<ResetAccountResult> {
  const user = await resettableUser(app, username);
  return { maskedPhone: maskPhone(user.phone) };
}

export async function resetSendCode(app: FastifyInstance, body: ResetSendCodeBody, lang: Language): Promise<ResetAccountResult> {
  await requireCaptcha(app, body);
  const user = await resettableUser(app, body.username);
  await sendSmsCode(app, SmsMode.reset, user.phone, user.id, lang);
  return { maskedPhone: maskPhone(user.phone) };
}

const resetKey = (token: string) => `reset:${createHash('sha256').update(token).digest('hex')}`;

/** Step 2: the code sent to the account's phone buys a short-lived permission to set a new password. */
export async function resetVerify(app: FastifyInstance, username: string, code: string): Promise<ResetVerifyResult> {
  const user = await resettableUser(app, username);
  await consumeSmsCode(app, SmsMode.reset, user.phone, user.id, code);
  const resetToken = randomBytes(32).toString('base64url');
  await app.cache.set(resetKey(resetToken), user.id, AccountLimits.resetSessionMs);
  return { resetToken };
}

/** Step 3: the new password; every session of the user ends, and an initial-password demand is lifted. */
export async function resetPassword(app: FastifyInstance, body: ResetPasswordBody): Promise<void> {
  if (body.password !== body.confirmPassword) refuse('password.mismatch');
  if (!isStrongPassword(body.password)) refuse('password.weak');
  const user = await app.userDirectory.findActiveUserByName(app, body.username.trim());
  const userId = await app.cache.take(resetKey(body.resetToken));
  if (!user || !userId || userId !== user.id) refuse('reset.stepExpired');
  await app.db
    .updateTable('sys_user')
    .set({ password: await app.hasher.hash(body.password), must_change_password: 0, update_by: user.username, update_time: new Date(app.clock()).toISOString() })
    .where('id', '=', user.id)
    .execute();
  forgetInitialPassword(app.settings.dataDir, user.username);
  await app.tokens.revokeAllOf(user.id);
}
