import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPath, LANGUAGES, Limits, VisitorPath, isValidIdCard, translate, withIdCheck, type VisitorInfo, type VisitorLoginResult } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { USER_PASSWORD, api, buildTestApp, createTestUser, injectAs, login, testDialects, tryLogin, type TestApp } from '../../test/harness.ts';

/** A legal 18-character ID card number: area, birth date, sequence and the GB 11643 check character. */
const idCard = (sequence: number): string => withIdCheck(`11010519900307${String(sequence).padStart(3, '0')}`);

describe('ID card check', () => {
  it('accepts legal numbers and refuses bad check characters and dates', () => {
    expect(isValidIdCard(idCard(1))).toBe(true);
    expect(isValidIdCard(`${idCard(1).slice(0, 17)}${idCard(1).endsWith('0') ? '1' : '0'}`)).toBe(false);
    expect(isValidIdCard('110105199013070011')).toBe(false);
    expect(isValidIdCard('110105900307001')).toBe(true);
    expect(isValidIdCard('abc')).toBe(false);
  });
});

describe.each(await testDialects())('visitor area on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  const post = <T = unknown>(path: string, payload: unknown, token: string | null = null, lang = 'en-US') =>
    injectAs<T>(app, token, { method: 'POST', url: api(app, path), payload: payload as Record<string, unknown>, headers: { lang } });
  const registration = { name: 'Wang Wei', idCard: idCard(7), phone: '13600000001', password: '246813', confirmPassword: '246813', category: 'police' };

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('registers visitors with a legal ID card and unique phone and ID card', async () => {
    for (const lang of LANGUAGES) {
      expect((await post(VisitorPath.register, { ...registration, idCard: '110105199003070000' }, null, lang)).envelope.message).toBe(translate(lang, 'visitor.idCardInvalid'));
    }
    expect((await post(VisitorPath.register, { ...registration, password: 'Abc#12345', confirmPassword: 'Abc#12345' })).envelope.message).toBe(translate('en-US', 'visitor.passwordDigits'));
    const done = await post<VisitorInfo>(VisitorPath.register, registration);
    expect(done.envelope).toMatchObject({ success: true, result: { name: 'Wang Wei', category: 'police', phone: '13600000001', linkedUsername: null } });
    expect(done.envelope.result.idCardMasked).toMatch(/^\*{14}\d{3}[\dX]$/);
    for (const lang of LANGUAGES) {
      expect((await post(VisitorPath.register, { ...registration, idCard: idCard(8) }, null, lang)).envelope.message).toBe(translate(lang, 'duplicate.phone'));
      expect((await post(VisitorPath.register, { ...registration, phone: '13600000002' }, null, lang)).envelope.message).toBe(translate(lang, 'duplicate.idCard'));
    }
    expect((await post(VisitorPath.register, { ...registration, idCard: idCard(9), phone: '13600000003', category: 'armedPolice' })).envelope.success).toBe(true);
  });

  it('logs visitors in against visitor records only, with tokens staff routes refuse', async () => {
    const byPhone = await post<VisitorLoginResult>(VisitorPath.login, { account: '13600000001', password: '246813' });
    expect(byPhone.envelope.success).toBe(true);
    const byIdCard = await post<VisitorLoginResult>(VisitorPath.login, { account: idCard(7).toLowerCase(), password: '246813' });
    expect(byIdCard.envelope.result.visitor.name).toBe('Wang Wei');
    expect((await post(VisitorPath.login, { account: '13600000001', password: '135792' })).envelope.message).toBe(translate('en-US', 'visitor.wrongCredentials'));

    // staff accounts are never visitor accounts, and the reverse
    await createTestUser(app, 'staffer');
    expect((await post(VisitorPath.login, { account: 'staffer', password: USER_PASSWORD })).envelope.message).toBe(translate('en-US', 'visitor.wrongCredentials'));
    expect((await tryLogin(app, '13600000001', '246813')).envelope.success).toBe(false);

    const visitorToken = byPhone.envelope.result.token;
    const staffToken = await login(app, 'staffer', USER_PASSWORD);
    const info = (token: string | null) => injectAs<VisitorInfo>(app, token, { method: 'GET', url: api(app, VisitorPath.info) });
    expect((await info(visitorToken)).envelope.result.phone).toBe('13600000001');
    expect((await info(staffToken)).statusCode).toBe(401);
    expect((await info(null)).statusCode).toBe(401);
    expect((await injectAs(app, visitorToken, { method: 'GET', url: api(app, ApiPath.currentUserDeparts) })).statusCode).toBe(401);
    expect((await injectAs(app, visitorToken, { method: 'GET', url: api(app, ApiPath.userPermission) })).statusCode).toBe(401);
    expect((await injectAs(app, staffToken, { method: 'GET', url: api(app, ApiPath.currentUserDeparts) })).statusCode).toBe(200);

    // frozen visitors cannot log in and lose their sessions' use
    await app.db.updateTable('sys_visitor').set({ status: 2 }).where('phone', '=', '13600000001').execute();
    expect((await post(VisitorPath.login, { account: '13600000001', password: '246813' })).envelope.message).toBe(translate('en-US', 'visitor.frozen'));
    expect((await info(visitorToken)).statusCode).toBe(401);
    await app.db.updateTable('sys_visitor').set({ status: 1 }).where('phone', '=', '13600000001').execute();

    expect((await post(VisitorPath.logout, {}, visitorToken)).envelope.success).toBe(true);
    expect((await info(visitorToken)).statusCode).toBe(401);
    expect((await info(byIdCard.envelope.result.token)).statusCode).toBe(200);
  });

  it('locks a visitor account after five failures within ten minutes for ten minutes, like staff accounts', async () => {
    const phone = '13600000009';
    expect((await post(VisitorPath.register, { ...registration, idCard: idCard(21), phone })).envelope.success).toBe(true);
    for (let i = 1; i < Limits.loginFailureLimit; i += 1) {
      expect((await post(VisitorPath.login, { account: phone, password: '000000' })).envelope.message).toBe(translate('en-US', 'visitor.wrongCredentials'));
    }
    const minutes = Limits.loginLockMs / 60_000;
    const minutesLeft = { minutes };
    expect((await post(VisitorPath.login, { account: phone, password: '000000' })).envelope.message).toBe(translate('en-US', 'login.locked', minutesLeft));
    for (const lang of LANGUAGES) {
      const locked = await post(VisitorPath.login, { account: phone, password: '246813' }, null, lang);
      expect(locked.envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'login.locked', { minutes }) });
    }
    // the right password does not help while the lock lasts; ten minutes later it does
    t.clock.advance(Limits.loginLockMs - 60_000);
    expect((await post(VisitorPath.login, { account: phone, password: '246813' })).envelope.message).toBe(translate('en-US', 'login.locked', { minutes: 1 }));
    t.clock.advance(60_000 + 1000);
    expect((await post(VisitorPath.login, { account: phone, password: '246813' })).envelope.success).toBe(true);
    // failures spread beyond the window do not add up
    for (let i = 0; i < Limits.loginFailureLimit - 1; i += 1) await post(VisitorPath.login, { account: phone, password: '000000' });
    t.clock.advance(Limits.loginFailureWindowMs + 1000);
    expect((await post(VisitorPath.login, { account: phone, password: '000000' })).envelope.message).toBe(translate('en-US', 'visitor.wrongCredentials'));
    expect((await post(VisitorPath.login, { account: phone, password: '246813' })).envelope.success).toBe(true);
    // an unknown account locks the same way, so locking tells nothing about which accounts exist
    for (let i = 1; i < Limits.loginFailureLimit; i += 1) await post(VisitorPath.login, { account: '13600009999', password: '000000' });
    expect((await post(VisitorPath.login, { account: '13600009999', password: '000000' })).envelope.message).toBe(translate('en-US', 'login.locked', { minutes }));
  });
});
