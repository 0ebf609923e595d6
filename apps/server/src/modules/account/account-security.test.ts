import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AccountLimits,
  AccountPath,
  LANGUAGES,
  Limits,
  crudPath,
  translate,
  userEntity,
  type IssuedActivationCode,
  type LoginResult,
  type ResetVerifyResult,
  type SecondFactorChallenge,
  type TwoFactorEnrollment,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { closedPort, startSilentServer } from '../../test/outbound-listeners.ts';
import { ADMIN_PASSWORD, USER_PASSWORD, adminToken, api, buildTestApp, createTestUser, injectAs, testDialects, tryLogin, type TestApp } from '../../test/harness.ts';
import { WebhookSmsProvider, totpCode, type SmsMessage, type SmsProvider } from './index.ts';

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

/** A CAS server that issues each ticket for one service, as real CAS servers do. */
async function startCas() {
  const tickets = new Map<string, { user: string; service: string }>();
  const asked: string[] = [];
  const server = createHttpServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://cas');
    asked.push(url.searchParams.get('service') ?? '');
    const ticket = tickets.get(url.searchParams.get('ticket') ?? '');
    const user = ticket && ticket.service === url.searchParams.get('service') ? ticket.user : undefined;
    res.setHeader('content-type', 'application/xml');
    res.end(
      user
        ? `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas"><cas:authenticationSuccess><cas:user>${user}</cas:user></cas:authenticationSuccess></cas:serviceResponse>`
        : '<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas"><cas:authenticationFailure code="INVALID_TICKET">no</cas:authenticationFailure></cas:serviceResponse>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cas`,
    tickets,
    asked,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const SERVICE = 'http://console.test/user/apilogin';
// the deadline given to the app; the checks allow for a busy machine yet stay under the former five seconds
const TIMEOUT_MS = 1500;

describe.each(await testDialects())('account security on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  let cas: Awaited<ReturnType<typeof startCas>>;
  let silent: Awaited<ReturnType<typeof startSilentServer>>;
  let scope: FastifyInstance;
  const sms = new RecordingSms();

  const post = <T = unknown>(path: string, payload: unknown, options: { token?: string | null; lang?: string } = {}) =>
    injectAs<T>(app, options.token ?? null, { method: 'POST', url: api(app, path), payload: payload as Record<string, unknown>, headers: { lang: options.lang ?? 'en-US' } });
  const get = <T = unknown>(path: string, options: { token?: string | null; lang?: string } = {}) =>
    injectAs<T>(app, options.token ?? null, { method: 'GET', url: api(app, path), headers: { lang: options.lang ?? 'en-US' } });
  const putSettings = (token: string, payload: Record<string, unknown>, lang = 'en-US') =>
    injectAs(app, token, { method: 'PUT', url: api(app, AccountPath.accountSettings), payload, headers: { lang } });
  const casValidate = (ticket: string, service: string, lang = 'en-US') =>
    get<LoginResult>(`${AccountPath.casValidate}?ticket=${encodeURIComponent(ticket)}&service=${encodeURIComponent(service)}`, { lang });

  beforeAll(async () => {
    cas = await startCas();
    silent = await startSilentServer();
    t = await buildTestApp(dialect, {
      env: { CAS_SERVER_URL: cas.url, CAS_SERVICE_URL: SERVICE },
      config: { outboundTimeoutMs: TIMEOUT_MS },
      extraRoutes: async (s) => {
        s.sms.provider = sms;
        scope = s;
      },
    });
    app = t.app;
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await t?.close();
    await cas?.close();
    await silent?.close();
  });

  async function userWithPhone(username: string, phone: string): Promise<string> {
    const id = await createTestUser(app, username);
    await app.db.updateTable('sys_user').set({ phone }).where('id', '=', id).execute();
    // every user gets its own creation time, so "the first user of a phone" is well defined
    t.clock.advance(1000);
    return id;
  }

  it('binds a password-reset code to the account it was sent for, and a reset token to its account', async () => {
    const phone = '13700000101';
    await userWithPhone('reset-a', phone);
    await userWithPhone('reset-b', phone);
    expect((await post(AccountPath.resetSendCode, { username: 'reset-a' })).envelope.success).toBe(true);
    const codeForA = sms.lastCodeFor(phone);
    // the code sent for A does not open B, although B has the same phone
    for (const lang of LANGUAGES) {
      const other = await post(AccountPath.resetVerify, { username: 'reset-b', smscode: codeForA }, { lang });
      expect(other.envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'sms.codeWrong') });
    }
    const verified = await post<ResetVerifyResult>(AccountPath.resetVerify, { username: 'reset-a', smscode: codeForA });
    expect(verified.envelope.success).toBe(true);
    // the reset token of A does not set the password of B, and is gone after that try
    const step3 = { resetToken: verified.envelope.result.resetToken, password: 'Changed#Pass1', confirmPassword: 'Changed#Pass1' };
    expect((await post(AccountPath.resetPassword, { ...step3, username: 'reset-b' })).envelope.message).toBe(translate('en-US', 'reset.stepExpired'));
    expect((await post(AccountPath.resetPassword, { ...step3, username: 'reset-a' })).envelope.message).toBe(translate('en-US', 'reset.stepExpired'));
    expect((await tryLogin(app, 'reset-b', USER_PASSWORD)).envelope.success).toBe(true);
    expect((await tryLogin(app, 'reset-a', USER_PASSWORD)).envelope.success).toBe(true);
  });

  it('binds an SMS code to its purpose: a login code does not reset a password and a reset code does not log in', async () => {
    const phone = '13700000102';
    await userWithPhone('purpose-a', phone);
    expect((await post(AccountPath.sms, { mobile: phone, smsmode: '0' })).envelope.success).toBe(true);
    const loginCode = sms.lastCodeFor(phone);
    expect((await post(AccountPath.resetVerify, { username: 'purpose-a', smscode: loginCode })).envelope.message).toBe(translate('en-US', 'sms.codeWrong'));
    expect((await post(AccountPath.resetSendCode, { username: 'purpose-a' })).envelope.success).toBe(true);
    const resetCode = sms.lastCodeFor(phone);
    expect((await post(AccountPath.phoneLogin, { mobile: phone, captcha: resetCode })).envelope.message).toBe(translate('en-US', 'sms.codeWrong'));
    // each still works for its own purpose, once
    expect((await post<LoginResult>(AccountPath.phoneLogin, { mobile: phone, captcha: loginCode })).envelope.result.userInfo.username).toBe('purpose-a');
    expect((await post(AccountPath.phoneLogin, { mobile: phone, captcha: loginCode })).envelope.success).toBe(false);
    expect((await post(AccountPath.resetVerify, { username: 'purpose-a', smscode: resetCode })).envelope.success).toBe(true);
  });

  it('enrols a second factor during login only for the account whose first factor the challenge proved, and never over an existing factor', async () => {
    await createTestUser(app, 'guarded');
    const session = (await tryLogin(app, 'guarded', USER_PASSWORD)).envelope.result.token;
    const enrollment = (await post<TwoFactorEnrollment>(AccountPath.twoFactorEnroll, {}, { token: session })).envelope.result;
    expect((await post(AccountPath.twoFactorConfirm, { code: totpCode(enrollment.secret, t.clock.now()) }, { token: session })).envelope.success).toBe(true);

    // someone who knows the password gets a challenge; it cannot enrol another authenticator
    const challenge = (await tryLogin(app, 'guarded', USER_PASSWORD)).envelope.result as unknown as SecondFactorChallenge;
    expect(challenge).toMatchObject({ secondFactorRequired: true, enrolled: true });
    for (const lang of LANGUAGES) {
      const refused = await post(AccountPath.twoFactorChallengeEnroll, { challenge: challenge.challenge }, { lang });
      expect(refused.envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'twoFactor.enrolled') });
    }
    // not even when the factor is gone while the challenge still runs (an administrator removed it)
    await app.db.deleteFrom('sys_user_totp').where('user_id', '=', (await app.db.selectFrom('sys_user').select('id').where('username', '=', 'guarded').executeTakeFirstOrThrow()).id).execute();
    expect((await post(AccountPath.twoFactorChallengeEnroll, { challenge: challenge.challenge })).envelope.message).toBe(translate('en-US', 'twoFactor.enrolled'));
    expect((await app.db.selectFrom('sys_user_totp').selectAll().execute()).length).toBe(0);

    // a challenge is no session: it cannot call the signed-in enrolment
    expect((await post(AccountPath.twoFactorEnroll, {}, { token: challenge.challenge })).statusCode).toBe(401);

    // an administrator's enrolment challenge enrols that administrator only
    expect((await putSettings(admin, { twoFactorForAdmins: true })).envelope.success).toBe(true);
    const adminChallenge = (await tryLogin(app, 'admin', ADMIN_PASSWORD)).envelope.result as unknown as SecondFactorChallenge;
    expect(adminChallenge).toMatchObject({ secondFactorRequired: true, enrolled: false });
    const adminSecret = (await post<TwoFactorEnrollment>(AccountPath.twoFactorChallengeEnroll, { challenge: adminChallenge.challenge })).envelope.result;
    expect(adminSecret.uri).toContain('%3Aadmin?');
    const rows = await app.db.selectFrom('sys_user_totp as t').innerJoin('sys_user as u', 'u.id', 't.user_id').select('u.username').execute();
    expect(rows.map((r) => r.username)).toEqual(['admin']);
    const done = await post<LoginResult>(AccountPath.twoFactorLogin, { challenge: adminChallenge.challenge, code: totpCode(adminSecret.secret, t.clock.now()) });
    expect(done.envelope.result.userInfo.username).toBe('admin');
    admin = done.envelope.result.token;
    expect((await putSettings(admin, { twoFactorForAdmins: false })).envelope.success).toBe(true);
    await app.db.deleteFrom('sys_user_totp').execute();
  });

  it('validates CAS tickets only for the configured service URL, never for a service the caller names', async () => {
    cas.tickets.set('ST-elsewhere', { user: 'guarded', service: 'http://other-app.test/' });
    cas.tickets.set('ST-console', { user: 'guarded', service: SERVICE });
    cas.asked.length = 0;
    // a ticket another application received for its own users does not sign anyone in here
    for (const lang of LANGUAGES) {
      expect((await casValidate('ST-elsewhere', 'http://other-app.test/', lang)).envelope).toMatchObject({ success: false, message: translate(lang, 'cas.ticketInvalid') });
    }
    expect(cas.asked.every((service) => service === SERVICE)).toBe(true);
    // a ticket for the console works, whatever service the caller writes
    const ok = await casValidate('ST-console', 'http://other-app.test/');
    expect(ok.envelope).toMatchObject({ success: true, result: { userInfo: { username: 'guarded' } } });
  });

  it('refuses CAS logins while CAS_SERVICE_URL is not configured', async () => {
    const bare = await buildTestApp(dialect, { env: { CAS_SERVER_URL: cas.url } });
    try {
      const answer = await injectAs(bare.app, null, { method: 'GET', url: api(bare.app, `${AccountPath.casValidate}?ticket=ST-console&service=${encodeURIComponent(SERVICE)}`), headers: { lang: 'en-US' } });
      expect(answer.envelope).toMatchObject({ success: false, message: translate('en-US', 'cas.notConfigured') });
    } finally {
      await bare.close();
    }
  });

  it('answers a silent CAS server and a closed CAS port with the same message, within the timeout', async () => {
    const port = await closedPort();
    const messages: string[] = [];
    for (const url of [`http://127.0.0.1:${silent.port}/cas`, `http://127.0.0.1:${port}/cas`]) {
      app.settings.casServerUrl = url;
      const started = performance.now();
      const answer = await casValidate('ST-console', SERVICE);
      expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 2500);
      expect(answer.envelope.success).toBe(false);
      messages.push(answer.envelope.message);
    }
    app.settings.casServerUrl = cas.url;
    expect(messages).toEqual([translate('en-US', 'cas.ticketInvalid'), translate('en-US', 'cas.ticketInvalid')]);
  });

  it('answers a silent SMS webhook and a closed webhook port with the same message, within the timeout', async () => {
    const phone = '13700000103';
    await userWithPhone('webhook-user', phone);
    const port = await closedPort();
    const messages: string[] = [];
    try {
      for (const url of [`http://127.0.0.1:${silent.port}/sms`, `http://127.0.0.1:${port}/sms`]) {
        scope.sms.provider = new WebhookSmsProvider(url, app.settings.outboundTimeoutMs);
        const started = performance.now();
        const answer = await post(AccountPath.resetSendCode, { username: 'webhook-user' });
        expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 2500);
        messages.push(answer.envelope.message);
      }
    } finally {
      scope.sms.provider = sms;
    }
    expect(messages).toEqual([translate('en-US', 'sms.sendFailed'), translate('en-US', 'sms.sendFailed')]);
  });

  it('refuses to require activation while no valid authorisation is installed', async () => {
    for (const lang of LANGUAGES) {
      const refused = await putSettings(admin, { activationRequired: true }, lang);
      expect(refused.envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'activation.noAuthorization') });
    }
    expect((await get(AccountPath.activationStatus)).envelope.result).toMatchObject({ required: false });
    // a code that is issued but not entered is no authorisation yet
    const issued = (await post<IssuedActivationCode>(AccountPath.activationIssue, { days: 1 }, { token: admin })).envelope.result;
    expect((await putSettings(admin, { activationRequired: true })).envelope.message).toBe(translate('en-US', 'activation.noAuthorization'));
    expect((await post(AccountPath.activate, { code: issued.code })).envelope.success).toBe(true);
    expect((await putSettings(admin, { activationRequired: true })).envelope.success).toBe(true);
    expect((await putSettings(admin, { activationRequired: false })).envelope.success).toBe(true);
    // once the authorisation is over, it cannot be required again
    t.clock.advance(2 * 24 * 60 * 60_000);
    admin = await adminToken(app);
    expect((await putSettings(admin, { activationRequired: true })).envelope.message).toBe(translate('en-US', 'activation.noAuthorization'));
    expect((await putSettings(admin, { activationRequired: false })).envelope.success).toBe(true);
  });

  it('keeps SMS code attempts limited per account code', async () => {
    const phone = '13700000104';
    await userWithPhone('attempts-a', phone);
    await post(AccountPath.resetSendCode, { username: 'attempts-a' });
    const good = sms.lastCodeFor(phone);
    const wrong = good === '111111' ? '222222' : '111111';
    for (let i = 0; i < AccountLimits.codeAttempts; i += 1) await post(AccountPath.resetVerify, { username: 'attempts-a', smscode: wrong });
    expect((await post(AccountPath.resetVerify, { username: 'attempts-a', smscode: good })).envelope.message).toBe(translate('en-US', 'sms.codeWrong'));
  });

  it('changes the phone or e-mail of an own account that has a second factor only with a current code of it', async () => {
    const adminId = (await app.db.selectFrom('sys_user').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    const edit = (payload: Record<string, unknown>, lang = 'en-US') =>
      injectAs(app, admin, { method: 'PUT', url: api(app, crudPath(userEntity, 'edit')), payload: { id: adminId, ...payload }, headers: { lang } });
    // without a factor the own phone changes as before
    expect((await edit({ phone: '13700000201' })).envelope.success).toBe(true);
    const enrollment = (await post<TwoFactorEnrollment>(AccountPath.twoFactorEnroll, {}, { token: admin })).envelope.result;
    expect((await post(AccountPath.twoFactorConfirm, { code: totpCode(enrollment.secret, t.clock.now()) }, { token: admin })).envelope.success).toBe(true);
    t.clock.advance(30_000);
    for (const lang of LANGUAGES) {
      for (const change of [{ phone: '13700000202' }, { email: 'taken-over@example.test' }]) {
        const refused = await edit(change, lang);
        expect(refused.envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'twoFactor.codeForContactChange') });
      }
    }
    const wrong = totpCode(enrollment.secret, t.clock.now()) === '000000' ? '111111' : '000000';
    expect((await edit({ phone: '13700000202', totpCode: wrong })).envelope.message).toBe(translate('en-US', 'twoFactor.codeWrong'));
    const row = () => app.db.selectFrom('sys_user').select(['phone', 'email']).where('id', '=', adminId).executeTakeFirstOrThrow();
    expect(await row()).toMatchObject({ phone: '13700000201' });
    // other fields, and the unchanged phone, need no code
    expect((await edit({ realname: 'Administrator', phone: '13700000201' })).envelope.success).toBe(true);
    const code = totpCode(enrollment.secret, t.clock.now());
    expect((await edit({ phone: '13700000202', email: 'admin@example.test', totpCode: code })).envelope.success).toBe(true);
    expect(await row()).toMatchObject({ phone: '13700000202', email: 'admin@example.test' });
    // the code works once
    expect((await edit({ phone: '13700000203', totpCode: code })).envelope.message).toBe(translate('en-US', 'twoFactor.codeWrong'));
    await app.db.deleteFrom('sys_user_totp').execute();
  });

  it('locks the second step of an account after five wrong codes, however many challenges they are spread over', async () => {
    await createTestUser(app, 'brute');
    const session = (await tryLogin(app, 'brute', USER_PASSWORD)).envelope.result.token;
    const enrollment = (await post<TwoFactorEnrollment>(AccountPath.twoFactorEnroll, {}, { token: session })).envelope.result;
    expect((await post(AccountPath.twoFactorConfirm, { code: totpCode(enrollment.secret, t.clock.now()) }, { token: session })).envelope.success).toBe(true);
    t.clock.advance(30_000);
    const challenge = async () => ((await tryLogin(app, 'brute', USER_PASSWORD)).envelope.result as unknown as SecondFactorChallenge).challenge;
    const good = () => totpCode(enrollment.secret, t.clock.now());
    const wrong = () => (good() === '000000' ? '111111' : '000000');
    // one wrong code on each fresh challenge, as someone who knows the password would try
    for (let i = 1; i < Limits.loginFailureLimit; i += 1) {
      const answer = await post(AccountPath.twoFactorLogin, { challenge: await challenge(), code: wrong() });
      expect(answer.envelope.message).toBe(translate('en-US', 'twoFactor.codeWrong'));
    }
    const minutes = Limits.loginLockMs / 60_000;
    expect((await post(AccountPath.twoFactorLogin, { challenge: await challenge(), code: wrong() })).envelope.message).toBe(translate('en-US', 'login.locked', { minutes }));
    for (const lang of LANGUAGES) {
      const locked = await post(AccountPath.twoFactorLogin, { challenge: await challenge(), code: good() }, { lang });
      expect(locked.envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'login.locked', { minutes }) });
    }
    t.clock.advance(Limits.loginLockMs + 1000);
    const done = await post<LoginResult>(AccountPath.twoFactorLogin, { challenge: await challenge(), code: good() });
    expect(done.envelope.result.userInfo.username).toBe('brute');
    // the signed-in steps that take a code count towards the same lock: switching the factor off is not a way around it
    const token = done.envelope.result.token;
    for (let i = 1; i < Limits.loginFailureLimit; i += 1) {
      expect((await post(AccountPath.twoFactorDisable, { code: wrong() }, { token })).envelope.message).toBe(translate('en-US', 'twoFactor.codeWrong'));
    }
    expect((await post(AccountPath.twoFactorDisable, { code: wrong() }, { token })).envelope.message).toBe(translate('en-US', 'login.locked', { minutes }));
    t.clock.advance(30_000);
    expect((await post(AccountPath.twoFactorDisable, { code: good() }, { token })).envelope.message).toBe(translate('en-US', 'login.locked', { minutes }));
  });

  it('follows no redirect of the CAS server or the SMS webhook', async () => {
    const received: string[] = [];
    const target = createHttpServer((req, res) => {
      received.push(req.url ?? '');
      res.end();
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const redirector = createHttpServer((req, res) => {
      res.statusCode = 307;
      res.setHeader('location', `${targetUrl}${req.url ?? '/'}`);
      res.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    const redirectorUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
    try {
      app.settings.casServerUrl = `${redirectorUrl}/cas`;
      expect((await casValidate('ST-console', SERVICE)).envelope.message).toBe(translate('en-US', 'cas.ticketInvalid'));
      await expect(new WebhookSmsProvider(`${redirectorUrl}/sms`, TIMEOUT_MS).send({ phone: '1', code: '1', text: '1' })).rejects.toThrow();
      expect(received).toEqual([]);
    } finally {
      app.settings.casServerUrl = cas.url;
      await new Promise((resolve) => redirector.close(resolve));
      await new Promise((resolve) => target.close(resolve));
    }
  });
});
