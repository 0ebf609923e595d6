import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AccountLimits,
  AccountPath,
  ApiPath,
  DeclaredPath,
  LANGUAGES,
  translate,
  type ActivationStatus,
  type IssuedActivationCode,
  type LoginResult,
  type ResetAccountResult,
  type ResetVerifyResult,
  type SecondFactorChallenge,
  type TwoFactorEnrollment,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { startCasResponder, type CasResponder } from '../../test/cas-responder.ts';
import { ADMIN_PASSWORD, adminToken, api, buildTestApp, createTestUser, injectAs, testDialects, tryLogin, type TestApp } from '../../test/harness.ts';
import { casUserOf, LogSmsProvider, WebhookSmsProvider, totpCode, type SmsMessage, type SmsProvider } from './index.ts';
import { hotp, matchTotp } from './totp.ts';

class RecordingSms implements SmsProvider {
  readonly name = 'recording';
  readonly sent: SmsMessage[] = [];
  async send(message: SmsMessage): Promise<void> {
    this.sent.push(message);
  }
  lastCodeFor(phone: string): string {
    const found = [...this.sent].reverse().find((m) => m.phone === phone);
    if (!found) throw new Error(`no SMS to ${phone}`);
    return found.code;
  }
}

const post = <T = unknown>(app: FastifyInstance, path: string, payload: unknown, options: { token?: string | null; lang?: string; ip?: string } = {}) =>
  injectAs<T>(app, options.token ?? null, {
    method: 'POST',
    url: api(app, path),
    payload: payload as Record<string, unknown>,
    headers: { lang: options.lang ?? 'en-US' },
    ...(options.ip ? { remoteAddress: options.ip } : {}),
  });
const get = <T = unknown>(app: FastifyInstance, path: string, options: { token?: string | null; lang?: string } = {}) =>
  injectAs<T>(app, options.token ?? null, { method: 'GET', url: api(app, path), headers: { lang: options.lang ?? 'en-US' } });

describe('TOTP (RFC 6238)', () => {
  it('matches the RFC test vector and refuses a replayed step', () => {
    // RFC 6238 appendix B, SHA-1 secret "12345678901234567890" at T = 59 s: 94287082 (8 digits)
    const secret = Buffer.from('12345678901234567890');
    expect(hotp(secret, 1, 8)).toBe('94287082');
    expect(hotp(secret, 1)).toBe('287082');
    const base32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    expect(totpCode(base32, 59_000)).toBe('287082');
    expect(matchTotp(base32, '287082', 59_000, null)).toBe(1);
    expect(matchTotp(base32, '287082', 59_000, 1)).toBeNull();
    expect(matchTotp(base32, '000000', 59_000, null)).toBeNull();
  });

  it('reads the user of a CAS serviceValidate answer', () => {
    expect(casUserOf('<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas"><cas:authenticationSuccess><cas:user>a&amp;b</cas:user></cas:authenticationSuccess></cas:serviceResponse>')).toBe('a&b');
    expect(casUserOf('<cas:serviceResponse><cas:authenticationFailure code="INVALID_TICKET">no</cas:authenticationFailure></cas:serviceResponse>')).toBeNull();
  });
});

describe('SMS providers', () => {
  it('writes the code to the log, or posts JSON to the webhook', async () => {
    const lines: unknown[] = [];
    await new LogSmsProvider({ info: (...args: unknown[]) => void lines.push(args) } as never).send({ phone: '13800000000', code: '123456', text: 'code 123456' });
    expect(JSON.stringify(lines)).toContain('123456');

    const received: string[] = [];
    const hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += String(c)));
      req.on('end', () => {
        received.push(body);
        res.statusCode = received.length === 1 ? 200 : 503;
        res.end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    const provider = new WebhookSmsProvider(`http://127.0.0.1:${(hook.address() as AddressInfo).port}/sms`);
    await provider.send({ phone: '13800000000', code: '654321', text: 'code 654321' });
    expect(JSON.parse(received[0] ?? '{}')).toEqual({ phone: '13800000000', code: '654321', text: 'code 654321' });
    await expect(provider.send({ phone: '1', code: '1', text: '1' })).rejects.toThrow(/503/);
    await new Promise((r) => hook.close(r));
  });
});

describe.each(await testDialects())('account flows on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  let cas: CasResponder;
  const sms = new RecordingSms();

  beforeAll(async () => {
    cas = await startCasResponder('http://console/user/apilogin');
    t = await buildTestApp(dialect, {
      env: { CAS_SERVER_URL: cas.url, CAS_SERVICE_URL: 'http://console/user/apilogin' },
      // the SMS gateway lives in the API scope; the extra routes hook reaches it
      extraRoutes: async (scope) => {
        scope.sms.provider = sms;
      },
    });
    app = t.app;
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await t?.close();
    await cas?.close();
  });

  it('registers a normal user after live uniqueness checks, with the spec messages in three languages', async () => {
    // self-registration is off until the tenant switches it on (registration-guard.test.ts)
    await app.db.updateTable('sys_tenant').set({ self_register: 1 }).execute();
    for (const lang of LANGUAGES) {
      const taken = await get(app, `${AccountPath.registerCheck}?field=username&value=admin`, { lang });
      expect(taken.envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'duplicate.userName') });
    }
    expect((await get(app, `${AccountPath.registerCheck}?field=username&value=newcomer`)).envelope.success).toBe(true);

    const phone = '13900000001';
    const body = { username: 'newcomer', password: 'Newcomer#1', confirmPassword: 'Newcomer#1', email: 'New@Example.com', phone, smscode: '000000' };
    expect((await post(app, AccountPath.register, { ...body, password: 'weakpass', confirmPassword: 'weakpass' })).envelope.message).toBe(translate('en-US', 'password.weak'));
    expect((await post(app, AccountPath.register, { ...body, confirmPassword: 'Other#Pass1' })).envelope.message).toBe(translate('en-US', 'password.mismatch'));
    expect((await post(app, AccountPath.sms, { mobile: phone, smsmode: '1' })).envelope.success).toBe(true);
    expect((await post(app, AccountPath.register, body)).envelope.message).toBe(translate('en-US', 'sms.codeWrong'));
    const done = await post<{ username: string }>(app, AccountPath.register, { ...body, smscode: sms.lastCodeFor(phone) });
    expect(done.envelope).toMatchObject({ success: true, message: translate('en-US', 'register.ok'), result: { username: 'newcomer' } });
    // the e-mail address and the phone are taken now, the address whatever its case
    for (const lang of LANGUAGES) {
      const email = await get(app, `${AccountPath.registerCheck}?field=email&value=${encodeURIComponent('NEW@example.com')}`, { lang });
      expect(email.envelope).toMatchObject({ success: false, message: translate(lang, 'duplicate.email') });
      const taken = await get(app, `${AccountPath.registerCheck}?field=phone&value=${phone}`, { lang });
      expect(taken.envelope).toMatchObject({ success: false, message: translate(lang, 'duplicate.phone') });
    }
    expect((await get(app, `${AccountPath.registerCheck}?field=email&value=${encodeURIComponent('someone.else@example.com')}`)).envelope.success).toBe(true);

    // the new user signs in and holds only the plain user role
    const session = await tryLogin(app, 'newcomer', 'Newcomer#1');
    expect(session.envelope.result.userInfo).toMatchObject({ email: 'New@Example.com', phone, mustChangePassword: false });
    const roles = await app.db
      .selectFrom('sys_user_role as ur')
      .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
      .innerJoin('sys_user as u', 'u.id', 'ur.user_id')
      .select('r.role_code')
      .where('u.username', '=', 'newcomer')
      .execute();
    expect(roles.map((r) => r.role_code)).toEqual(['user']);

    for (const lang of LANGUAGES) {
      const again = (field: string, value: string) => get(app, `${AccountPath.registerCheck}?field=${field}&value=${encodeURIComponent(value)}`, { lang });
      expect((await again('email', 'new@example.COM')).envelope.message).toBe(translate(lang, 'duplicate.email'));
      expect((await again('phone', phone)).envelope.message).toBe(translate(lang, 'duplicate.phone'));
      expect((await post(app, AccountPath.register, { ...body, username: 'other', email: 'x@example.com' }, { lang })).envelope.message).toBe(
        translate(lang, 'duplicate.phone'),
      );
    }
    expect((await post(app, AccountPath.register, { ...body, phone: '13900000008' })).envelope.message).toBe(translate('en-US', 'duplicate.userName'));
    // a registration code is not sent to a phone that is already taken
    expect((await post(app, AccountPath.sms, { mobile: phone, smsmode: '1' })).envelope.message).toBe(translate('en-US', 'duplicate.phone'));
  });

  it('logs in by phone with a single-use code valid ten minutes, one code a minute per phone', async () => {
    const phone = '13900000002';
    const id = await createTestUser(app, 'phoneuser');
    await app.db.updateTable('sys_user').set({ phone }).where('id', '=', id).execute();

    expect((await post(app, AccountPath.sms, { mobile: phone, smsmode: '0' })).envelope.success).toBe(true);
    const tooSoon = await post(app, AccountPath.sms, { mobile: phone, smsmode: '0' });
    expect(tooSoon.envelope).toMatchObject({ success: false, message: translate('en-US', 'sms.tooFrequent', { seconds: 60 }) });
    const code = sms.lastCodeFor(phone);
    const result = await post<LoginResult>(app, AccountPath.phoneLogin, { mobile: phone, captcha: code });
    expect(result.envelope.success).toBe(true);
    expect(Object.keys(result.envelope.result).sort()).toEqual(['departs', 'multi_depart', 'sysAllDictItems', 'tenantList', 'token', 'userInfo']);
    expect(result.envelope.result.userInfo.username).toBe('phoneuser');
    expect((await get(app, ApiPath.currentUserDeparts, { token: result.envelope.result.token })).statusCode).toBe(200);
    // used once
    expect((await post(app, AccountPath.phoneLogin, { mobile: phone, captcha: code })).envelope.message).toBe(translate('en-US', 'sms.codeWrong'));

    // a code past ten minutes no longer works
    t.clock.advance(AccountLimits.smsCooldownMs + 1000);
    expect((await post(app, AccountPath.sms, { mobile: phone, smsmode: '0' })).envelope.success).toBe(true);
    t.clock.advance(AccountLimits.smsCodeLifetimeMs + 1000);
    expect((await post(app, AccountPath.phoneLogin, { mobile: phone, captcha: sms.lastCodeFor(phone) })).envelope.message).toBe(translate('en-US', 'sms.codeWrong'));

    // five wrong guesses throw the code away
    t.clock.advance(AccountLimits.smsCooldownMs + 1000);
    await post(app, AccountPath.sms, { mobile: phone, smsmode: '0' });
    const good = sms.lastCodeFor(phone);
    const wrong = good === '111111' ? '222222' : '111111';
    for (let i = 0; i < AccountLimits.codeAttempts; i += 1) await post(app, AccountPath.phoneLogin, { mobile: phone, captcha: wrong });
    expect((await post(app, AccountPath.phoneLogin, { mobile: phone, captcha: good })).envelope.success).toBe(false);

    // an unknown phone gets the same answer and no SMS
    const before = sms.sent.length;
    expect((await post(app, AccountPath.sms, { mobile: '13911111111', smsmode: '0' })).envelope.success).toBe(true);
    expect(sms.sent.length).toBe(before);
  });

  it('limits SMS requests per caller address', async () => {
    const answers: number[] = [];
    for (let i = 0; i <= AccountLimits.smsPerIpPerMinute; i += 1) {
      answers.push((await post(app, AccountPath.sms, { mobile: `1370000${String(i).padStart(4, '0')}`, smsmode: '0' }, { ip: '10.20.30.40' })).statusCode);
    }
    expect(answers.slice(0, -1).every((s) => s === 200)).toBe(true);
    expect(answers.at(-1)).toBe(429);
  });

  it('resets a password in steps with a code sent to the account phone', async () => {
    for (const lang of LANGUAGES) {
      const unknown = await post(app, AccountPath.resetAccount, { username: 'nobody-here' }, { lang });
      expect(unknown.envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'account.notFound') });
    }
    expect(translate('en-US', 'account.notFound')).toBe('Account dose not exist!');
    const phone = '13900000003';
    const id = await createTestUser(app, 'forgetful');
    await app.db.updateTable('sys_user').set({ phone }).where('id', '=', id).execute();
    const oldSession = (await tryLogin(app, 'forgetful', 'User#Pass333')).envelope.result.token;

    const step1 = await post<ResetAccountResult>(app, AccountPath.resetAccount, { username: 'forgetful' });
    expect(step1.envelope.result.maskedPhone).toBe('139****0003');
    expect((await post(app, AccountPath.resetSendCode, { username: 'forgetful' })).envelope.success).toBe(true);
    expect((await post(app, AccountPath.resetVerify, { username: 'forgetful', smscode: '999999' === sms.lastCodeFor(phone) ? '888888' : '999999' })).envelope.message).toBe(
      translate('en-US', 'sms.codeWrong'),
    );
    const step2 = await post<ResetVerifyResult>(app, AccountPath.resetVerify, { username: 'forgetful', smscode: sms.lastCodeFor(phone) });
    const resetToken = step2.envelope.result.resetToken;
    const step3 = { username: 'forgetful', resetToken, password: 'Renewed#Pass1', confirmPassword: 'Renewed#Pass1' };
    expect((await post(app, AccountPath.resetPassword, { ...step3, confirmPassword: 'Other#Pass1' })).envelope.message).toBe(translate('en-US', 'password.mismatch'));
    expect((await post(app, AccountPath.resetPassword, { ...step3, username: 'newcomer' })).envelope.message).toBe(translate('en-US', 'reset.stepExpired'));
    // the refusal above used up the reset token: the person starts again
    t.clock.advance(AccountLimits.smsCooldownMs + 1000);
    await post(app, AccountPath.resetSendCode, { username: 'forgetful' });
    const again = await post<ResetVerifyResult>(app, AccountPath.resetVerify, { username: 'forgetful', smscode: sms.lastCodeFor(phone) });
    const done = await post(app, AccountPath.resetPassword, { ...step3, resetToken: again.envelope.result.resetToken });
    expect(done.envelope).toMatchObject({ success: true, message: translate('en-US', 'reset.done') });
    expect((await tryLogin(app, 'forgetful', 'User#Pass333')).envelope.success).toBe(false);
    expect((await tryLogin(app, 'forgetful', 'Renewed#Pass1')).envelope.success).toBe(true);
    expect((await get(app, ApiPath.currentUserDeparts, { token: oldSession })).statusCode).toBe(401);
    expect((await post(app, AccountPath.resetPassword, { ...step3, resetToken: again.envelope.result.resetToken })).envelope.message).toBe(translate('en-US', 'reset.stepExpired'));
  });

  it('answers the declared calls /auth/register, /account/sms, /auth/forge-password and /user/info as aliases, described in the API description', async () => {
    await app.db.updateTable('sys_tenant').set({ self_register: 1 }).execute();
    const phone = '13900000009';
    const body = { username: 'declared', password: 'Declared#1', confirmPassword: 'Declared#1', email: 'declared@example.com', phone, smscode: '000000' };
    t.clock.advance(AccountLimits.smsCooldownMs + 1000);
    expect((await post(app, DeclaredPath.sms, { mobile: phone, smsmode: '1' })).envelope).toMatchObject({ success: true, message: translate('en-US', 'sms.sent') });
    const registered = await post<{ username: string }>(app, DeclaredPath.register, { ...body, smscode: sms.lastCodeFor(phone) });
    expect(registered.envelope.message).toBe(translate('en-US', 'register.ok'));
    expect(registered.envelope).toMatchObject({ success: true, result: { username: 'declared' } });
    // the same rules as the flow it aliases
    expect((await post(app, DeclaredPath.register, { ...body, username: 'declared2', email: 'declared2@example.com', phone: '13900000010' })).envelope.message).toBe(translate('en-US', 'sms.codeWrong'));

    const session = (await tryLogin(app, 'declared', 'Declared#1')).envelope.result;
    const info = await get<Record<string, unknown>>(app, DeclaredPath.userInfo, { token: session.token });
    expect(info.envelope.success).toBe(true);
    expect(info.envelope.result).toEqual(session.userInfo);
    expect((await get(app, DeclaredPath.userInfo)).statusCode).toBe(401);

    t.clock.advance(AccountLimits.smsCooldownMs + 1000);
    await post(app, AccountPath.resetSendCode, { username: 'declared' });
    const verified = await post<ResetVerifyResult>(app, AccountPath.resetVerify, { username: 'declared', smscode: sms.lastCodeFor(phone) });
    const reset = await post(app, DeclaredPath.forgePassword, { username: 'declared', resetToken: verified.envelope.result.resetToken, password: 'Forged#Pass2', confirmPassword: 'Forged#Pass2' });
    expect(reset.envelope).toMatchObject({ success: true, message: translate('en-US', 'reset.done') });
    expect((await tryLogin(app, 'declared', 'Forged#Pass2')).envelope.success).toBe(true);

    const document = app.swagger() as { paths: Record<string, Record<string, { description?: string }>> };
    const described = (path: string, method: string) => document.paths[`${app.settings.apiPrefix}${path}`]?.[method]?.description ?? '';
    expect(described(DeclaredPath.register, 'post')).toContain(`POST ${AccountPath.register}`);
    expect(described(DeclaredPath.sms, 'post')).toContain(`POST ${AccountPath.sms}`);
    expect(described(DeclaredPath.forgePassword, 'post')).toContain(`POST ${AccountPath.resetPassword}`);
    expect(described(DeclaredPath.userInfo, 'get')).toContain('userInfo');
  });

  it('asks enrolled users for a TOTP code at login, and administrators when the setting says so', async () => {
    await createTestUser(app, 'careful');
    const session = (await tryLogin(app, 'careful', 'User#Pass333')).envelope.result.token;
    const enrollment = (await post<TwoFactorEnrollment>(app, AccountPath.twoFactorEnroll, {}, { token: session })).envelope.result;
    expect(enrollment.uri).toMatch(/^otpauth:\/\/totp\/ISPS%20Console%3Acareful\?secret=[A-Z2-7]+&issuer=ISPS\+Console/);
    expect((await post(app, AccountPath.twoFactorConfirm, { code: '000000' === totpCode(enrollment.secret, t.clock.now()) ? '111111' : '000000' }, { token: session })).envelope.message).toBe(
      'Verification Error',
    );
    expect((await post(app, AccountPath.twoFactorConfirm, { code: totpCode(enrollment.secret, t.clock.now()) }, { token: session })).envelope.success).toBe(true);

    const first = await tryLogin(app, 'careful', 'User#Pass333', {}, 'en-US');
    const challenge = first.envelope.result as unknown as SecondFactorChallenge;
    expect(first.envelope.message).toBe(translate('en-US', 'login.secondFactorRequired'));
    expect(challenge).toEqual({ secondFactorRequired: true, challenge: expect.any(String), enrolled: true });
    // an SMS code stands for the password only: the second factor is still asked for
    const phone = '13900000004';
    await app.db.updateTable('sys_user').set({ phone }).where('username', '=', 'careful').execute();
    expect((await post(app, AccountPath.sms, { mobile: phone, smsmode: '0' })).envelope.success).toBe(true);
    const byPhone = await post<SecondFactorChallenge>(app, AccountPath.phoneLogin, { mobile: phone, captcha: sms.lastCodeFor(phone) });
    expect(byPhone.envelope.message).toBe(translate('en-US', 'login.secondFactorRequired'));
    expect(byPhone.envelope.result).toEqual({ secondFactorRequired: true, challenge: expect.any(String), enrolled: true });
    // so does a CAS ticket
    cas.tickets.set('ST-careful', 'careful');
    const byCas = await get<SecondFactorChallenge>(app, `${AccountPath.casValidate}?ticket=ST-careful&service=${encodeURIComponent('http://console/user/apilogin')}`);
    expect(byCas.envelope.message).toBe(translate('en-US', 'login.secondFactorRequired'));
    expect(byCas.envelope.result).toEqual({ secondFactorRequired: true, challenge: expect.any(String), enrolled: true });
    // the code of the step used for confirming does not work twice
    expect((await post(app, AccountPath.twoFactorLogin, { challenge: challenge.challenge, code: totpCode(enrollment.secret, t.clock.now()) })).envelope.message).toBe('Verification Error');
    t.clock.advance(30_000);
    const done = await post<LoginResult>(app, AccountPath.twoFactorLogin, { challenge: challenge.challenge, code: totpCode(enrollment.secret, t.clock.now()) });
    expect(done.envelope.success).toBe(true);
    expect(done.envelope.result.userInfo.username).toBe('careful');
    t.clock.advance(30_000);
    expect((await post(app, AccountPath.twoFactorLogin, { challenge: challenge.challenge, code: totpCode(enrollment.secret, t.clock.now()) })).envelope.message).toBe(
      translate('en-US', 'twoFactor.challengeExpired'),
    );
    // switching it off needs a fresh code
    t.clock.advance(30_000);
    expect((await post(app, AccountPath.twoFactorDisable, { code: totpCode(enrollment.secret, t.clock.now()) }, { token: done.envelope.result.token })).envelope.success).toBe(true);
    expect((await tryLogin(app, 'careful', 'User#Pass333')).envelope.result.token).toEqual(expect.any(String));

    // administrators must enrol at login once the system setting is on; ordinary users are not asked
    const normal = (await tryLogin(app, 'careful', 'User#Pass333')).envelope.result.token;
    expect((await injectAs(app, normal, { method: 'PUT', url: api(app, AccountPath.accountSettings), payload: { twoFactorForAdmins: true } })).statusCode).toBe(403);
    expect((await injectAs(app, admin, { method: 'PUT', url: api(app, AccountPath.accountSettings), payload: { twoFactorForAdmins: true } })).envelope.success).toBe(true);
    const adminFirst = (await tryLogin(app, 'admin', ADMIN_PASSWORD)).envelope.result as unknown as SecondFactorChallenge;
    expect(adminFirst).toMatchObject({ secondFactorRequired: true, enrolled: false });
    const adminSecret = (await post<TwoFactorEnrollment>(app, AccountPath.twoFactorChallengeEnroll, { challenge: adminFirst.challenge })).envelope.result.secret;
    const adminDone = await post<LoginResult>(app, AccountPath.twoFactorLogin, { challenge: adminFirst.challenge, code: totpCode(adminSecret, t.clock.now()) });
    expect(adminDone.envelope.success).toBe(true);
    t.clock.advance(30_000);
    const refused = await post(app, AccountPath.twoFactorDisable, { code: totpCode(adminSecret, t.clock.now()) }, { token: adminDone.envelope.result.token });
    expect(refused.envelope.message).toBe(translate('en-US', 'twoFactor.requiredForAdmins'));
    expect((await tryLogin(app, 'careful', 'User#Pass333')).envelope.result.token).toEqual(expect.any(String));
    await injectAs(app, admin, { method: 'PUT', url: api(app, AccountPath.accountSettings), payload: { twoFactorForAdmins: false } });
    await app.db.deleteFrom('sys_user_totp').execute();
  });

  it('signs in through CAS with a ticket the CAS server confirms', async () => {
    cas.tickets.set('ST-good', 'newcomer');
    cas.tickets.set('ST-stranger', 'stranger');
    const validate = (ticket: string, lang = 'en-US') =>
      get<LoginResult>(app, `${AccountPath.casValidate}?ticket=${ticket}&service=${encodeURIComponent('http://console/user/apilogin')}`, { lang });
    const ok = await validate('ST-good');
    expect(ok.envelope).toMatchObject({ success: true, result: { token: expect.any(String), userInfo: { username: 'newcomer' } } });
    for (const lang of LANGUAGES) {
      expect((await validate('ST-bad', lang)).envelope.message).toBe(translate(lang, 'cas.ticketInvalid'));
      expect((await validate('ST-stranger', lang)).envelope.message).toBe(translate(lang, 'cas.noLocalUser', { user: 'stranger' }));
    }
  });

  it('answers the spec 500 reaction while the system authorisation is over, until a valid code activates it', async () => {
    // activation can be required only while an authorisation runs: install a short one and let it run out
    const first = (await post<IssuedActivationCode>(app, AccountPath.activationIssue, { days: 1 }, { token: admin })).envelope.result;
    expect((await post(app, AccountPath.activate, { code: first.code })).envelope.success).toBe(true);
    expect((await injectAs(app, admin, { method: 'PUT', url: api(app, AccountPath.accountSettings), payload: { activationRequired: true } })).envelope.success).toBe(true);
    const issued = (await post<IssuedActivationCode>(app, AccountPath.activationIssue, { days: 30 }, { token: admin })).envelope.result;
    t.clock.advance(24 * 60 * 60_000 + 1000);
    admin = await adminAgain(app);
    const clientPatterns = [/授权.*过期/, /authori[sz]ation.*expired/i, /ライセンス.*期限/];
    for (const [i, lang] of LANGUAGES.entries()) {
      const blocked = await get(app, ApiPath.currentUserDeparts, { token: admin, lang });
      expect(blocked.statusCode).toBe(500);
      expect(blocked.envelope.message).toBe(translate(lang, 'activation.expired'));
      expect(blocked.envelope.message).toMatch(clientPatterns[i] as RegExp);
    }
    // a caller without a session learns nothing of it: 401 first, as on any day
    expect((await get(app, ApiPath.currentUserDeparts, { lang: 'en-US' })).statusCode).toBe(401);
    // every non-public route, those registered outside the account module too (the API description)
    expect((await get(app, '/docs/json', { token: admin })).statusCode).toBe(500);
    // public calls and logins still answer
    // it names the site's zone, the zone of its time, for a page read before any sign-in
    expect((await get<ActivationStatus>(app, AccountPath.activationStatus)).envelope.result).toMatchObject({ required: true, expired: true, timeZone: 'UTC' });
    expect((await tryLogin(app, 'newcomer', 'Newcomer#1')).envelope.success).toBe(true);

    expect((await post(app, AccountPath.activate, { code: 'AAAAAA-BBBBBB' })).envelope.message).toBe(translate('en-US', 'activation.codeInvalid'));
    const activated = await post<ActivationStatus>(app, AccountPath.activate, { code: issued.code.toLowerCase() });
    expect(activated.envelope.result).toMatchObject({ required: true, expired: false, authorizedUntil: issued.authorizedUntil });
    expect(activated.envelope.message).toBe(translate('en-US', 'activation.done', { until: issued.authorizedUntil }));
    expect((await get(app, ApiPath.currentUserDeparts, { token: admin })).statusCode).toBe(200);
    expect((await post(app, AccountPath.activate, { code: issued.code })).envelope.message).toBe(translate('en-US', 'activation.codeInvalid'));

    t.clock.advance(31 * 24 * 60 * 60_000);
    expect((await get(app, ApiPath.currentUserDeparts, { token: await adminAgain(app) })).statusCode).toBe(500);
  });
});

/** The admin session of the test above has expired with the clock; a new login still works (public). */
async function adminAgain(app: FastifyInstance): Promise<string> {
  return (await tryLogin(app, 'admin', ADMIN_PASSWORD)).envelope.result.token;
}
