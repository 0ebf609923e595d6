import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { createRoleWith } from '../../test/crud-helpers.ts';
import { INITIAL_ADMIN_PASSWORD, USER_PASSWORD, api, buildTestApp, createTestUser, injectAs, testDialects, type TestApp } from '../../test/harness.ts';

/*
 * Calls made the way the origin console (the JeecgBoot-based ISPS console) makes them: its login form sends the
 * captcha key as the timestamp number it fetched the image with, plus `remember_me`; its password dialog sends PUT;
 * its login page asks which third-party logins are enabled.
 */
describe.each((await testDialects()).filter((d) => d !== 'mysql'))('origin console calls on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  const storedCode = async (key: string) => (JSON.parse((await app.cache.get(`captcha:${key}`)) ?? '{}') as { code: string }).code;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { LOGIN_CAPTCHA: 'on' } });
    app = t.app;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('logs in with the captcha key as a number and remember_me, then completes the due password change with PUT', async () => {
    const currdatetime = 1764066000123;
    const image = await injectAs(app, null, { method: 'GET', url: api(app, `/sys/randomImage/${currdatetime}`) });
    expect(image.envelope.success).toBe(true);
    const captcha = await storedCode(String(currdatetime));
    const login = await injectAs<{ token: string }>(app, null, {
      method: 'POST',
      url: api(app, '/sys/login'),
      payload: { username: 'admin', password: INITIAL_ADMIN_PASSWORD, captcha, checkKey: currdatetime, remember_me: true },
    });
    expect(login.statusCode).toBe(200);
    expect(login.envelope.success).toBe(true);
    const token = login.envelope.result.token;

    const changed = await injectAs(app, token, {
      method: 'PUT',
      url: api(app, '/sys/user/updatePassword'),
      payload: { username: 'admin', oldpassword: INITIAL_ADMIN_PASSWORD, password: 'Origin#Pass9', confirmpassword: 'Origin#Pass9' },
    });
    expect(changed.envelope).toMatchObject({ success: true, code: 200 });

    const nextKey = currdatetime + 1;
    await injectAs(app, null, { method: 'GET', url: api(app, `/sys/randomImage/${nextKey}`) });
    const again = await injectAs(app, null, {
      method: 'POST',
      url: api(app, '/sys/login'),
      payload: { username: 'admin', password: 'Origin#Pass9', captcha: await storedCode(String(nextKey)), checkKey: nextKey, remember_me: false },
    });
    expect(again.envelope.success).toBe(true);
  });

  it('draws the captcha for the origin’s 105×35 slot, scaled from its own drawing', async () => {
    const image = await injectAs<string>(app, null, { method: 'GET', url: api(app, '/sys/randomImage/1764066000999') });
    const svg = Buffer.from(image.envelope.result.split(',')[1] ?? '', 'base64').toString();
    expect(svg).toMatch(/^<svg[^>]* width="105" height="35"/);
    expect(svg).toMatch(/^<svg[^>]* viewBox="0,0,150,50"/);
  });

  it('refuses a captcha key that is neither text nor a whole number with a 400', async () => {
    for (const checkKey of [{ nested: 1 }, 1.5, true]) {
      const answer = await injectAs(app, null, { method: 'POST', url: api(app, '/sys/login'), payload: { username: 'admin', password: 'x', captcha: 'abcd', checkKey } });
      expect(answer.statusCode).toBe(400);
      expect(answer.envelope.success).toBe(false);
    }
  });

  it('counts sign-ins for the home page charts (/sys/loginfo, /sys/visitInfo) of the caller’s tenant only', async () => {
    const signIn = async (username: string, ip: string) => {
      const key = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
      await injectAs(app, null, { method: 'GET', url: api(app, `/sys/randomImage/${key}`) });
      const answer = await injectAs<{ token: string }>(app, null, {
        method: 'POST',
        url: api(app, '/sys/login'),
        payload: { username, password: username === 'admin' ? 'Origin#Pass9' : USER_PASSWORD, captcha: await storedCode(key), checkKey: key },
        remoteAddress: ip,
      });
      expect(answer.envelope.success).toBe(true);
      return answer.envelope.result.token;
    };
    const otherTenant = randomUUID();
    await app.db.insertInto('sys_tenant').values({ id: otherTenant, name: 'Other', code: 'other', begin_date: null, end_date: null, status: 1, create_by: 'test', create_time: null, update_by: null, update_time: null }).execute();
    await createRoleWith(app, 'viewer', ['dashboard:analysis:view']);
    await createTestUser(app, 'outsider', { roles: ['viewer'], tenantId: otherTenant });
    const admin = await signIn('admin', '127.0.0.2');
    await signIn('admin', '127.0.0.3');
    await signIn('admin', '127.0.0.3');
    const outsider = await signIn('outsider', '127.0.0.9');

    const info = await injectAs<{ totalVisitCount: number; todayVisitCount: number; todayIp: number }>(app, admin, { method: 'GET', url: api(app, '/sys/loginfo') });
    // two earlier sign-ins of this suite's admin (from the test's default address) and the three above
    expect(info.envelope.result).toEqual({ totalVisitCount: 5, todayVisitCount: 5, todayIp: 3 });
    const days = await injectAs<{ tian: string; type: string; visit: number; ip: number }[]>(app, admin, { method: 'GET', url: api(app, '/sys/visitInfo') });
    expect(days.envelope.result).toHaveLength(7);
    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    expect(days.envelope.result.at(-1)).toEqual({ tian: today, type: today.slice(5), visit: 5, ip: 3 });
    expect(days.envelope.result[0]).toMatchObject({ visit: 0, ip: 0 });
    const theirs = await injectAs<{ totalVisitCount: number }>(app, outsider, { method: 'GET', url: api(app, '/sys/loginfo') });
    expect(theirs.envelope.result).toEqual({ totalVisitCount: 1, todayVisitCount: 1, todayIp: 1 });
  });

  it('answers that no third-party login is enabled', async () => {
    const answer = await injectAs(app, null, { method: 'GET', url: api(app, '/sys/thirdApp/getEnabledType') });
    expect(answer.envelope).toMatchObject({ success: true, result: { wechat_enterprise: false, dingtalk: false } });
  });
});
