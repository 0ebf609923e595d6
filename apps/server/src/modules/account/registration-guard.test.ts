import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountLimits, AccountPath, LANGUAGES, SelfRegister, UserAdminPath, UserStatus, randomImagePath, translate, type LoginSettings } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import {
  USER_PASSWORD,
  adminToken,
  api,
  buildInstancePair,
  buildTestApp,
  createTestUser,
  injectAs,
  redisReachable,
  testDialects,
  tryLogin,
  type InstancePair,
  type TestApp,
} from '../../test/harness.ts';
import type { SmsMessage, SmsProvider } from './index.ts';

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

const call = <T = unknown>(app: FastifyInstance, method: 'GET' | 'POST' | 'PUT', path: string, payload?: unknown, options: { token?: string | null; lang?: string } = {}) =>
  injectAs<T>(app, options.token ?? null, {
    method,
    url: api(app, path),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    headers: { lang: options.lang ?? 'en-US' },
  });

async function defaultTenant(app: FastifyInstance) {
  return app.db.selectFrom('sys_tenant').selectAll().where('code', '=', 'default').executeTakeFirstOrThrow();
}

/** What the login page is told, as the public call answers. */
async function settingsOf(app: FastifyInstance, query = ''): Promise<LoginSettings> {
  const answer = await call<LoginSettings>(app, 'GET', `${AccountPath.loginSettings}${query}`);
  expect(answer.statusCode).toBe(200);
  return answer.envelope.result;
}

describe.each(await testDialects())('self-registration on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  const sms = new RecordingSms();

  beforeAll(async () => {
    t = await buildTestApp(dialect, {
      extraRoutes: async (scope) => {
        scope.sms.provider = sms;
      },
    });
    app = t.app;
    admin = await adminToken(app);
  });
  afterAll(async () => t?.close());

  const body = (n: string, phone: string) => ({ username: `stranger${n}`, password: 'Stranger#1', confirmPassword: 'Stranger#1', email: `s${n}@example.com`, phone, smscode: '000000' });

  it('is off by default: the page offers no link, the call and its codes refuse in every language', async () => {
    expect(Number((await defaultTenant(app)).self_register)).toBe(SelfRegister.off);
    expect(await settingsOf(app)).toEqual({ captcha: false, registration: 'off' });
    for (const lang of LANGUAGES) {
      const refused = await call(app, 'POST', AccountPath.register, body('0', '13911110000'), { lang });
      expect(refused.envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'register.closed') });
      const code = await call(app, 'POST', AccountPath.sms, { mobile: '13911110000', smsmode: '1' }, { lang });
      expect(code.envelope).toMatchObject({ success: false, message: translate(lang, 'register.closed') });
    }
    expect(sms.sent).toHaveLength(0);
    expect(await app.db.selectFrom('sys_user').select('id').where('username', '=', 'stranger0').executeTakeFirst()).toBeUndefined();
  });

  it('is switched on per tenant by an administrator on the tenant form; the account joins that tenant', async () => {
    const tenant = await defaultTenant(app);
    const edited = await call(app, 'PUT', '/sys/tenant/edit', { id: tenant.id, name: tenant.name, code: tenant.code, status: 1, selfRegister: SelfRegister.open }, { token: admin });
    expect(edited.envelope).toMatchObject({ success: true });
    // a value the form does not offer is refused, and nothing changes
    const wrong = await call(app, 'PUT', '/sys/tenant/edit', { id: tenant.id, name: tenant.name, code: tenant.code, status: 1, selfRegister: 7 }, { token: admin });
    expect(wrong.statusCode).toBe(400);
    expect(await settingsOf(app)).toEqual({ captcha: false, registration: 'open' });
    // another tenant, named by its code, keeps its own choice (off)
    await app.db
      .insertInto('sys_tenant')
      .values({ id: 'tenant-closed', name: 'Closed', code: 'closed', begin_date: null, end_date: null, status: 1, create_by: 'test', create_time: '2999-01-01T00:00:00.000Z', update_by: null, update_time: null })
      .execute();
    expect((await settingsOf(app, '?tenant=closed')).registration).toBe('off');
    expect((await call(app, 'POST', AccountPath.register, { ...body('1', '13911110001'), tenant: 'closed' })).envelope.message).toBe(translate('en-US', 'register.closed'));

    expect((await call(app, 'POST', AccountPath.sms, { mobile: '13911110001', smsmode: '1' })).envelope.success).toBe(true);
    const done = await call(app, 'POST', AccountPath.register, { ...body('1', '13911110001'), smscode: sms.lastCodeFor('13911110001') });
    expect(done.envelope).toMatchObject({ success: true, message: translate('en-US', 'register.ok'), result: { username: 'stranger1', awaitingApproval: false } });
    const row = await app.db.selectFrom('sys_user').select(['tenant_id', 'status']).where('username', '=', 'stranger1').executeTakeFirstOrThrow();
    expect(row).toEqual({ tenant_id: tenant.id, status: UserStatus.normal });
    expect((await tryLogin(app, 'stranger1', 'Stranger#1')).envelope.success).toBe(true);
  });

  it('with approval: the account cannot sign in until a permitted administrator approves it', async () => {
    const tenant = await defaultTenant(app);
    await call(app, 'PUT', '/sys/tenant/edit', { id: tenant.id, name: tenant.name, code: tenant.code, status: 1, selfRegister: SelfRegister.approval }, { token: admin });
    expect((await settingsOf(app)).registration).toBe('approval');
    await call(app, 'POST', AccountPath.sms, { mobile: '13911110002', smsmode: '1' });
    const done = await call(app, 'POST', AccountPath.register, { ...body('2', '13911110002'), smscode: sms.lastCodeFor('13911110002') }, { lang: 'ja-JP' });
    expect(done.envelope).toMatchObject({ success: true, message: translate('ja-JP', 'register.awaitingApproval'), result: { awaitingApproval: true } });
    const row = await app.db.selectFrom('sys_user').select(['id', 'status']).where('username', '=', 'stranger2').executeTakeFirstOrThrow();
    expect(Number(row.status)).toBe(UserStatus.awaitingApproval);
    for (const lang of LANGUAGES) {
      const refused = await tryLogin(app, 'stranger2', 'Stranger#1', {}, lang);
      expect(refused.envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'login.awaitingApproval') });
    }
    // a wrong password says nothing about the account's state
    expect((await tryLogin(app, 'stranger2', 'Wrong#Pass1', {}, 'en-US')).envelope.message).toBe(translate('en-US', 'login.wrongCredentials'));

    // approving is the user screen's thaw, under its permission: someone without it is refused
    await createTestUser(app, 'plainclerk', { roles: ['user'] });
    const clerk = (await tryLogin(app, 'plainclerk', USER_PASSWORD)).envelope.result.token;
    const denied = await call(app, 'PUT', UserAdminPath.frozenBatch, { ids: row.id, status: UserStatus.normal }, { token: clerk });
    expect(denied.statusCode).toBe(403);
    expect((await tryLogin(app, 'stranger2', 'Stranger#1')).envelope.success).toBe(false);

    const approved = await call(app, 'PUT', UserAdminPath.frozenBatch, { ids: row.id, status: UserStatus.normal }, { token: admin, lang: 'zh-CN' });
    expect(approved.envelope).toMatchObject({ success: true, message: translate('zh-CN', 'userAdmin.approvedBatch', { count: 1 }) });
    expect((await tryLogin(app, 'stranger2', 'Stranger#1')).envelope.success).toBe(true);
  });

  it('lists the awaiting status with its localised text', async () => {
    for (const lang of LANGUAGES) {
      const items = await call<{ value: string; text: string }[]>(app, 'GET', '/sys/dict/getDictItems/user_status', undefined, { token: admin, lang });
      expect(items.envelope.result.find((i) => i.value === '3')?.text).toBe({ 'en-US': 'Awaiting approval', 'zh-CN': '待审核', 'ja-JP': '承認待ち' }[lang]);
    }
  });
});

describe.each(await testDialects())('codes need the login captcha on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  const sms = new RecordingSms();

  beforeAll(async () => {
    t = await buildTestApp(dialect, {
      env: { LOGIN_CAPTCHA: 'on' },
      extraRoutes: async (scope) => {
        scope.sms.provider = sms;
      },
    });
    app = t.app;
    const id = await createTestUser(app, 'phoneowner');
    await app.db.updateTable('sys_user').set({ phone: '13922220000' }).where('id', '=', id).execute();
  });
  afterAll(async () => t?.close());

  /** The captcha a person reads off the picture of `key`. */
  async function captchaFor(key: string): Promise<string> {
    expect((await call(app, 'GET', randomImagePath(key))).envelope.success).toBe(true);
    return (JSON.parse((await app.cache.get(`captcha:${key}`)) ?? '{}') as { code: string }).code;
  }

  it('tells the login page the captcha is on', async () => {
    expect((await settingsOf(app)).captcha).toBe(true);
  });

  it('refuses a code without the captcha, with a wrong one, and with one already used', async () => {
    for (const lang of LANGUAGES) {
      const none = await call(app, 'POST', AccountPath.sms, { mobile: '13922220000', smsmode: '0' }, { lang });
      expect(none.envelope).toMatchObject({ success: false, message: translate(lang, 'login.captchaRequired') });
      await captchaFor(`w-${lang}`);
      const wrong = await call(app, 'POST', AccountPath.sms, { mobile: '13922220000', smsmode: '0', captcha: 'zzzz', checkKey: `w-${lang}` }, { lang });
      expect(wrong.envelope).toMatchObject({ success: false, message: translate(lang, 'login.captchaWrong') });
      const reset = await call(app, 'POST', AccountPath.resetSendCode, { username: 'phoneowner' }, { lang });
      expect(reset.envelope).toMatchObject({ success: false, message: translate(lang, 'login.captchaRequired') });
    }
    expect(sms.sent).toHaveLength(0);

    const code = await captchaFor('right');
    expect((await call(app, 'POST', AccountPath.sms, { mobile: '13922220000', smsmode: '0', captcha: code, checkKey: 'right' })).envelope.success).toBe(true);
    expect(sms.sent).toHaveLength(1);
    // used up: the same captcha does not send another
    t.clock.advance(AccountLimits.smsCooldownMs + 1000);
    expect((await call(app, 'POST', AccountPath.sms, { mobile: '13922220000', smsmode: '0', captcha: code, checkKey: 'right' })).envelope.message).toBe(translate('en-US', 'login.captchaWrong'));
    const again = await captchaFor('reset');
    expect((await call(app, 'POST', AccountPath.resetSendCode, { username: 'phoneowner', captcha: again, checkKey: 'reset' })).envelope.success).toBe(true);
    expect(sms.sent).toHaveLength(2);
  });
});

describe.runIf(await redisReachable())('codes per phone across instances', () => {
  let pair: InstancePair;
  beforeAll(async () => {
    pair = await buildInstancePair();
    const id = await createTestUser(pair.a.app, 'sharedphone');
    await pair.a.app.db.updateTable('sys_user').set({ phone: '13933330000' }).where('id', '=', id).execute();
  });
  afterAll(async () => pair?.close());

  it('refuses a second code within the minute on another instance, saying when to retry, and stops after the hourly number', async () => {
    const send = (app: FastifyInstance, lang = 'en-US') => call(app, 'POST', AccountPath.resetSendCode, { username: 'sharedphone' }, { lang });
    expect((await send(pair.a.app)).envelope.success).toBe(true);
    for (const lang of LANGUAGES) {
      const refused = await send(pair.b.app, lang);
      expect(refused.envelope.success).toBe(false);
      expect(refused.envelope.message).toMatch(/\d+/);
      expect(refused.envelope.message).toBe(translate(lang, 'sms.tooFrequent', { seconds: refused.envelope.message.match(/\d+/)![0] }));
    }
    // the cooldown is the real clock's minute in Redis: each instance's clock moves on, the hourly count is shared
    for (let sent = 1; sent < AccountLimits.smsPerPhonePerHour; sent += 1) {
      await pair.a.app.cache.del('sms:cooldown:2:13933330000');
      expect((await send(sent % 2 ? pair.b.app : pair.a.app)).envelope.success).toBe(true);
    }
    await pair.a.app.cache.del('sms:cooldown:2:13933330000');
    const capped = await send(pair.b.app, 'zh-CN');
    expect(capped.envelope).toMatchObject({ success: false, message: translate('zh-CN', 'sms.hourlyLimitUntil', { minutes: 60 }) });
  });
});
