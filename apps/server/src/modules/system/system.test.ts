import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiPath,
  LANGUAGES,
  Limits,
  LogOperateType,
  LogType,
  Perm,
  dictItemsPath,
  randomImagePath,
  translate,
  type CurrentUserDeparts,
  type DashboardSummary,
  type DictOption,
  type PermissionResult,
  type UserInfo,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import {
  ADMIN_PASSWORD,
  USER_PASSWORD,
  adminToken,
  api,
  buildTestApp,
  changePassword,
  createTestUser,
  injectAs,
  login,
  redisReachable,
  testDialects,
  tryLogin,
  type TestApp,
} from '../../test/harness.ts';
import { deleteUser, setUserStatus } from './index.ts';

const dialects = await testDialects();
const withRedis = await redisReachable();

async function addDepart(app: FastifyInstance, orgCode: string, name: string, memberId?: string): Promise<void> {
  const id = randomUUID();
  await app.db
    .insertInto('sys_depart')
    .values({ id, parent_id: null, depart_name: name, org_code: orgCode, org_type: '2', depart_order: 1, mobile: null, address: null, memo: null, del_flag: 0, tenant_id: null, create_by: 'test', create_time: null, update_by: null, update_time: null })
    .execute();
  if (memberId) {
    await app.db.insertInto('sys_user_depart').values({ id: randomUUID(), user_id: memberId, dep_id: id, create_by: 'test', create_time: null, update_by: null, update_time: null }).execute();
  }
}

describe.each(dialects)('system API on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  const get = (token: string | null, path: string, headers: Record<string, string> = {}) => injectAs(app, token, { method: 'GET', url: api(app, path), headers });

  beforeAll(async () => {
    // PostgreSQL with Redis is the scaled-out shape (DESIGN section 9); the other engines keep the in-process cache
    t = await buildTestApp(dialect, {
      redis: withRedis && dialect === 'postgres',
      extraRoutes: async (routes) => {
        routes.get('/test/broken-query', { config: { permission: 'public' } }, async () => {
          await sql`select secret_column from no_such_table`.execute(routes.db);
          return null;
        });
      },
    });
    app = t.app;
  });
  afterAll(async () => {
    await t.close();
  });

  it('uses the expected cache', () => {
    expect(app.cache.kind).toBe(withRedis && dialect === 'postgres' ? 'redis' : 'memory');
  });

  describe('envelope', () => {
    it('answers unknown API paths with a 404 envelope', async () => {
      const answer = await get(null, '/no/such/path', { lang: 'en-US' });
      expect(answer.statusCode).toBe(404);
      expect(answer.envelope).toMatchObject({ success: false, code: 404, result: null, message: translate('en-US', 'error.notFound') });
      expect(typeof answer.envelope.timestamp).toBe('number');
    });

    it('answers in the lang header’s language, else Accept-Language’s, else Chinese', async () => {
      const answer = await get(null, ApiPath.userPermission);
      expect(answer.statusCode).toBe(401);
      expect(answer.envelope).toMatchObject({ success: false, code: 401, message: translate('zh-CN', 'error.unauthorized') });
      const browser = await get(null, ApiPath.userPermission, { 'accept-language': 'fr-FR,ja;q=0.9,en;q=0.8' });
      expect(browser.envelope.message).toBe(translate('ja-JP', 'error.unauthorized'));
      const named = await get(null, ApiPath.userPermission, { lang: 'en-US', 'accept-language': 'ja' });
      expect(named.envelope.message).toBe(translate('en-US', 'error.unauthorized'));
    });

    it.each(LANGUAGES)('names the invalid field with a localised prefix (%s)', async (lang) => {
      const answer = await injectAs(app, null, { method: 'POST', url: api(app, ApiPath.login), payload: { username: 'admin' }, headers: { lang } });
      expect(answer.statusCode).toBe(400);
      expect(answer.envelope.code).toBe(400);
      const prefix = translate(lang, 'error.badRequest', { detail: '' });
      expect(answer.envelope.message.startsWith(prefix)).toBe(true);
      expect(answer.envelope.message).toContain('password');
    });

    it('answers malformed JSON with 400', async () => {
      const answer = await injectAs(app, null, { method: 'POST', url: api(app, ApiPath.login), payload: '{"username":', headers: { 'content-type': 'application/json' } });
      expect(answer.statusCode).toBe(400);
      expect(answer.envelope).toMatchObject({ success: false, code: 400 });
    });

    it('answers an unexpected failure with 500 and a request id, never the SQL or the exception', async () => {
      const answer = await get(null, '/test/broken-query', { lang: 'en-US' });
      expect(answer.statusCode).toBe(500);
      expect(answer.envelope).toMatchObject({ success: false, code: 500, result: null });
      expect(answer.envelope.message).toMatch(/request [0-9a-f-]{36}/);
      expect(answer.body).not.toMatch(/secret_column|no_such_table|stack|Error/);
    });
  });

  describe('login', () => {
    it('returns the login result with token, groups and dictionaries', async () => {
      await createTestUser(app, 'carol', { roles: ['user'], orgCodes: ['A01'] });
      const answer = await tryLogin(app, 'carol', USER_PASSWORD, {}, 'en-US');
      expect(answer.statusCode).toBe(200);
      expect(answer.envelope).toMatchObject({ success: true, code: 200, message: translate('en-US', 'login.ok') });
      const result = answer.envelope.result;
      expect(result.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(result.userInfo).toMatchObject({ username: 'carol', orgCode: 'A01', status: 1, mustChangePassword: false });
      expect(result.userInfo).not.toHaveProperty('password');
      expect(result.multi_depart).toBe(1);
      expect(result.departs).toEqual([expect.objectContaining({ orgCode: 'A01' })]);
      expect(result.sysAllDictItems.user_status).toEqual([
        { value: '1', text: 'Normal', label: 'Normal', title: 'Normal' },
        { value: '2', text: 'Frozen', label: 'Frozen', title: 'Frozen' },
        { value: '3', text: 'Awaiting approval', label: 'Awaiting approval', title: 'Awaiting approval' },
      ]);
      expect(Array.isArray(result.tenantList)).toBe(true);
      const stored = await app.db.selectFrom('sys_user_token').select('token_hash').execute();
      expect(stored.some((row) => row.token_hash.includes(result.token))).toBe(false);
      const logs = await app.db.selectFrom('sys_log').selectAll().where('username', '=', 'carol').execute();
      expect(logs).toEqual([expect.objectContaining({ log_type: LogType.login, operate_type: LogOperateType.login })]);
    });

    it.each(LANGUAGES)('gives a wrong password and an unknown user the same refusal (%s)', async (lang) => {
      await createTestUser(app, `dave-${lang}`);
      const wrong = await tryLogin(app, `dave-${lang}`, 'Nope#12345', {}, lang);
      const unknown = await tryLogin(app, `nobody-${lang}`, 'Nope#12345', {}, lang);
      for (const answer of [wrong, unknown]) {
        expect(answer.statusCode).toBe(200);
        expect(answer.envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'login.wrongCredentials') });
      }
    });

    it.each(LANGUAGES)('says frozen only after the correct password (%s)', async (lang) => {
      const id = await createTestUser(app, `erin-${lang}`);
      const token = await login(app, `erin-${lang}`, USER_PASSWORD);
      await setUserStatus(app, id, 2, 'test');
      expect((await get(token, ApiPath.userPermission)).statusCode).toBe(401);
      const wrong = await tryLogin(app, `erin-${lang}`, 'Nope#12345', {}, lang);
      expect(wrong.envelope.message).toBe(translate(lang, 'login.wrongCredentials'));
      const right = await tryLogin(app, `erin-${lang}`, USER_PASSWORD, {}, lang);
      expect(right.envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'login.frozen') });
      await setUserStatus(app, id, 1, 'test');
      expect((await tryLogin(app, `erin-${lang}`, USER_PASSWORD)).envelope.success).toBe(true);
    });

    it.each(LANGUAGES)('locks after five wrong passwords in ten minutes, for known and unknown names alike (%s)', async (lang) => {
      for (const username of [`frank-${lang}`, `ghost-${lang}`]) {
        if (username.startsWith('frank')) await createTestUser(app, username);
        const messages: string[] = [];
        for (let i = 0; i < Limits.loginFailureLimit; i += 1) messages.push((await tryLogin(app, username, `Wrong#${i}abc`, {}, lang)).envelope.message);
        expect(messages.slice(0, 4)).toEqual(Array(4).fill(translate(lang, 'login.wrongCredentials')));
        expect(messages[4]).toBe(translate(lang, 'login.locked', { minutes: 10 }));
        const whileLocked = await tryLogin(app, username, USER_PASSWORD, {}, lang);
        expect(whileLocked.statusCode).toBe(200);
        expect(whileLocked.envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'login.locked', { minutes: 10 }) });
      }
      t.clock.advance(Limits.loginLockMs + 1000);
      expect((await tryLogin(app, `frank-${lang}`, USER_PASSWORD)).envelope.success).toBe(true);
    });

    it('forgets failures older than ten minutes', async () => {
      await createTestUser(app, 'hanna');
      for (let i = 0; i < 4; i += 1) await tryLogin(app, 'hanna', 'Wrong#1abc');
      t.clock.advance(Limits.loginFailureWindowMs + 1000);
      for (let i = 0; i < 4; i += 1) {
        expect((await tryLogin(app, 'hanna', 'Wrong#1abc', {}, 'en-US')).envelope.message).toBe(translate('en-US', 'login.wrongCredentials'));
      }
      expect((await tryLogin(app, 'hanna', USER_PASSWORD)).envelope.success).toBe(true);
    });

    it('a new password is not locked by the wrong guesses at the old one (a reset, here or from another process)', async () => {
      const id = await createTestUser(app, 'kim');
      for (let i = 0; i < Limits.loginFailureLimit; i += 1) await tryLogin(app, 'kim', `Wrong#${i}abc`);
      expect((await tryLogin(app, 'kim', USER_PASSWORD, {}, 'en-US')).envelope.message).toBe(translate('en-US', 'login.locked', { minutes: 10 }));
      // written straight to the database, as npm run reset-admin does beside a running server
      const renewed = 'Renewed#2468';
      await app.db.updateTable('sys_user').set({ password: await app.hasher.hash(renewed) }).where('id', '=', id).execute();
      expect((await tryLogin(app, 'kim', renewed)).envelope.success).toBe(true);
      // the new password is guarded afresh: five wrong guesses at it lock it again
      const messages: string[] = [];
      for (let i = 0; i < Limits.loginFailureLimit; i += 1) messages.push((await tryLogin(app, 'kim', `Wrong#${i}abc`, {}, 'en-US')).envelope.message);
      expect(messages.slice(0, 4)).toEqual(Array(4).fill(translate('en-US', 'login.wrongCredentials')));
      expect(messages[4]).toBe(translate('en-US', 'login.locked', { minutes: 10 }));
      expect((await tryLogin(app, 'kim', renewed, {}, 'en-US')).envelope.message).toBe(translate('en-US', 'login.locked', { minutes: 10 }));
    });

    it('reports no group and several groups through multi_depart', async () => {
      await createTestUser(app, 'ivan');
      expect((await tryLogin(app, 'ivan', USER_PASSWORD)).envelope.result.multi_depart).toBe(0);
      const id = await createTestUser(app, 'judy', { orgCodes: ['A01'] });
      await addDepart(app, 'A02', 'Second group', id);
      expect((await tryLogin(app, 'judy', USER_PASSWORD)).envelope.result.multi_depart).toBe(2);
    });
  });

  describe('sessions', () => {
    it('expires tokens after seven days', async () => {
      await createTestUser(app, 'kate');
      const token = await login(app, 'kate', USER_PASSWORD);
      t.clock.advance(Limits.tokenLifetimeMs - 60_000);
      expect((await get(token, ApiPath.userPermission)).statusCode).toBe(200);
      t.clock.advance(120_000);
      const expired = await get(token, ApiPath.userPermission);
      expect(expired.statusCode).toBe(401);
      expect(expired.envelope.code).toBe(401);
    });

    it('revokes the token on logout and logs it', async () => {
      await createTestUser(app, 'liam');
      const token = await login(app, 'liam', USER_PASSWORD);
      const other = await login(app, 'liam', USER_PASSWORD);
      const out = await injectAs(app, token, { method: 'POST', url: api(app, ApiPath.logout), headers: { lang: 'zh-CN' } });
      expect(out.envelope).toMatchObject({ success: true, message: translate('zh-CN', 'logout.ok') });
      expect((await get(token, ApiPath.userPermission)).statusCode).toBe(401);
      expect((await get(other, ApiPath.userPermission)).statusCode).toBe(200);
      const logs = await app.db.selectFrom('sys_log').select('operate_type').where('username', '=', 'liam').execute();
      expect(logs.map((l) => l.operate_type).sort()).toEqual([LogOperateType.login, LogOperateType.login, LogOperateType.logout]);
    });

    it('ignores a token passed as a query parameter', async () => {
      await createTestUser(app, 'mona');
      const token = await login(app, 'mona', USER_PASSWORD);
      const answer = await injectAs(app, null, { method: 'GET', url: `${api(app, ApiPath.userPermission)}?token=${token}&X-Access-Token=${token}` });
      expect(answer.statusCode).toBe(401);
    });

    it('ends the sessions of a deleted user', async () => {
      const id = await createTestUser(app, 'nick');
      const token = await login(app, 'nick', USER_PASSWORD);
      await deleteUser(app, id, 'test');
      expect((await get(token, ApiPath.userPermission)).statusCode).toBe(401);
      expect((await tryLogin(app, 'nick', USER_PASSWORD)).envelope.success).toBe(false);
    });
  });

  describe('password change', () => {
    it.each(LANGUAGES)('refuses each broken rule with its own message (%s)', async (lang) => {
      await createTestUser(app, `olga-${lang}`);
      const token = await login(app, `olga-${lang}`, USER_PASSWORD);
      const attempt = (body: Record<string, string>) =>
        injectAs(app, token, { method: 'POST', url: api(app, ApiPath.updatePassword), headers: { lang }, payload: { username: `olga-${lang}`, oldpassword: USER_PASSWORD, password: 'Fresh#Pass9', confirmpassword: 'Fresh#Pass9', ...body } });
      const cases = [
        [{ username: 'admin' }, 'password.notSelf'],
        [{ oldpassword: 'Wrong#Pass1' }, 'password.oldWrong'],
        [{ confirmpassword: 'Other#Pass9' }, 'password.mismatch'],
        [{ password: USER_PASSWORD, confirmpassword: USER_PASSWORD }, 'password.sameAsOld'],
        [{ password: 'weakpassword', confirmpassword: 'weakpassword' }, 'password.weak'],
      ] as const;
      for (const [body, key] of cases) {
        const answer = await attempt(body);
        expect(answer.statusCode).toBe(200);
        expect(answer.envelope).toMatchObject({ success: false, code: 500, message: translate(lang, key) });
      }
      expect((await get(token, ApiPath.userPermission)).statusCode).toBe(200);
    });

    it('changes the password and ends every session of the user', async () => {
      await createTestUser(app, 'pete');
      const token = await login(app, 'pete', USER_PASSWORD);
      const second = await login(app, 'pete', USER_PASSWORD);
      const answer = await changePassword(app, token, 'pete', USER_PASSWORD, 'Fresh#Pass9', 'en-US');
      expect(answer.envelope).toMatchObject({ success: true, code: 200, message: translate('en-US', 'password.changed') });
      expect((await get(token, ApiPath.userPermission)).statusCode).toBe(401);
      expect((await get(second, ApiPath.userPermission)).statusCode).toBe(401);
      expect((await tryLogin(app, 'pete', USER_PASSWORD)).envelope.success).toBe(false);
      expect((await tryLogin(app, 'pete', 'Fresh#Pass9')).envelope.success).toBe(true);
    });

    it('holds a user who must change the password to the change, the menu and logout', async () => {
      await createTestUser(app, 'quinn', { roles: ['user'], mustChangePassword: true });
      const token = await login(app, 'quinn', USER_PASSWORD);
      const blocked = await get(token, ApiPath.currentUserDeparts, { lang: 'en-US' });
      expect(blocked.statusCode).toBe(403);
      expect(blocked.envelope).toMatchObject({ success: false, code: 510, message: translate('en-US', 'login.mustChangePassword') });
      expect((await get(token, dictItemsPath('sex'))).statusCode).toBe(403);
      expect((await get(token, ApiPath.dashboardSummary)).statusCode).toBe(403);
      expect((await get(token, ApiPath.userPermission)).statusCode).toBe(200);
      expect((await changePassword(app, token, 'quinn', USER_PASSWORD, 'Fresh#Pass9')).envelope.success).toBe(true);
      const fresh = await login(app, 'quinn', 'Fresh#Pass9');
      expect((await get(fresh, ApiPath.currentUserDeparts)).statusCode).toBe(200);
    });

    it('seeds admin with a password that must be changed at first login', async () => {
      const token = await adminToken(app);
      expect((await get(token, ApiPath.dashboardSummary)).statusCode).toBe(200);
      expect((await tryLogin(app, 'admin', ADMIN_PASSWORD)).envelope.result.userInfo.mustChangePassword).toBe(false);
    });
  });

  describe('groups', () => {
    it('lists the groups of the caller and switches only between them', async () => {
      const id = await createTestUser(app, 'rita', { orgCodes: ['A01'] });
      await addDepart(app, 'B01', 'Rita second group', id);
      await addDepart(app, 'C01', 'Foreign group');
      const token = await login(app, 'rita', USER_PASSWORD);
      const departs = await get(token, ApiPath.currentUserDeparts);
      const list = departs.envelope.result as CurrentUserDeparts;
      expect(list.list.map((d) => d.orgCode).sort()).toEqual(['A01', 'B01']);
      expect(list.orgCode).toBe('A01');

      const foreign = await injectAs(app, token, { method: 'POST', url: api(app, ApiPath.selectDepart), payload: { orgCode: 'C01', username: 'rita' }, headers: { lang: 'en-US' } });
      expect(foreign.envelope).toMatchObject({ success: false, code: 500, message: translate('en-US', 'depart.notMember') });
      const own = await injectAs<{ userInfo: UserInfo }>(app, token, { method: 'POST', url: api(app, ApiPath.selectDepart), payload: { orgCode: 'B01' } });
      expect(own.envelope.success).toBe(true);
      expect(own.envelope.result.userInfo.orgCode).toBe('B01');
      expect(((await get(token, ApiPath.currentUserDeparts)).envelope.result as CurrentUserDeparts).orgCode).toBe('B01');
    });
  });

  describe('permissions and data', () => {
    it('gives admin the whole tree, with only the built screens routed', async () => {
      const token = await adminToken(app);
      const answer = await get(token, ApiPath.userPermission);
      const result = answer.envelope.result as PermissionResult;
      const dashboard = result.menu.find((m) => m.path === '/dashboard');
      expect(dashboard).toMatchObject({ component: 'layouts/RouteView', redirect: '/dashboard/analysis', hidden: false, route: '1', meta: { titleKey: 'menu.dashboard' } });
      expect(dashboard?.children?.slice(0, 2)).toEqual([
        // component: the origin console's view where it has one; our page key and stored title beside it
        expect.objectContaining({ path: '/dashboard/analysis', component: 'dashboard/Analysis', name: 'dashboard-analysis', hidden: false, route: '1', meta: expect.objectContaining({ titleKey: 'menu.dashboard.analysis', pageKey: 'dashboard/analysis', keepAlive: false, internalOrExternal: false }) }),
        expect.objectContaining({ path: '/dashboard/clock', component: 'dashboard/clock', route: '1', meta: expect.objectContaining({ titleKey: 'menu.dashboard.clock', pageKey: 'dashboard/clock' }) }),
      ]);
      const system = result.menu.find((m) => m.path === '/system');
      expect(system).toMatchObject({ hidden: false, route: '1' });
      expect(system?.children?.find((c) => c.path === '/system/user')).toMatchObject({ hidden: false, route: '1', component: 'system/UserList', meta: { pageKey: 'system/user' } });
      expect(system?.children?.find((c) => c.path === '/system/userAgent')).toMatchObject({ hidden: true, route: '0', component: 'system/userAgent' });
      expect(system?.children?.find((c) => c.path === '/system/position')).toMatchObject({ hidden: false, route: '1', component: 'system/SysPositionList', meta: { pageKey: 'system/position' } });
      expect(result.auth).toContainEqual({ action: 'system:user:add', describe: expect.any(String), type: '1', status: '1' });
      expect(result.auth.map((a) => a.action)).toContain(Perm.dashboardView);
      expect(result.allAuth.length).toBe(result.auth.length);
    });

    it('gives a plain user the dashboard only', async () => {
      await createTestUser(app, 'sam', { roles: ['user'] });
      const token = await login(app, 'sam', USER_PASSWORD);
      const result = (await get(token, ApiPath.userPermission)).envelope.result as PermissionResult;
      expect(result.menu.map((m) => m.path)).toEqual(['/dashboard']);
      expect(result.menu[0]?.children?.map((c) => c.path)).toEqual(['/dashboard/analysis', '/dashboard/clock', '/dashboard/panel']);
      expect(result.auth.map((a) => a.action)).toEqual([Perm.dashboardView]);
      expect(result.allAuth.length).toBeGreaterThan(100);
    });

    it('serves dictionary options', async () => {
      await createTestUser(app, 'tina');
      const token = await login(app, 'tina', USER_PASSWORD);
      const sex = await get(token, dictItemsPath('sex'), { lang: 'en-US' });
      expect(sex.envelope.result as DictOption[]).toEqual([
        { value: '1', text: 'Male', label: 'Male', title: 'Male' },
        { value: '2', text: 'Female', label: 'Female', title: 'Female' },
      ]);
      // seeded texts come in the reader's language
      expect(((await get(token, dictItemsPath('sex'), { lang: 'zh-CN' })).envelope.result as DictOption[]).map((o) => o.text)).toEqual(['男', '女']);
      expect((await get(token, dictItemsPath('no_such_dict'))).envelope.result).toEqual([]);
      expect((await get(token, dictItemsPath('bad code!'))).statusCode).toBe(400);
    });

    it('summarises the console for the home page', async () => {
      const token = await adminToken(app);
      const answer = await get(token, ApiPath.dashboardSummary);
      const summary = answer.envelope.result as DashboardSummary;
      expect(summary.userCount).toBeGreaterThan(5);
      expect(summary.roleCount).toBe(3);
      expect(summary.departCount).toBeGreaterThanOrEqual(1);
      expect(summary.onlineTokenCount).toBeGreaterThanOrEqual(1);
      expect(summary.loginsToday).toBeGreaterThanOrEqual(1);
      expect(summary.loginsLast7Days).toHaveLength(7);
      expect(summary.loginsLast7Days?.[6]?.date).toBe(new Date(t.clock.now()).toISOString().slice(0, 10));
    });

    it('answers health when the database does', async () => {
      const answer = await get(null, ApiPath.health);
      expect(answer.statusCode).toBe(200);
      // with REDIS_URL it also says whether Redis answers
      expect(answer.envelope.result).toEqual({ status: 'ready', ...(app.settings.redisUrl ? { redis: 'ok' } : {}) });
    });
  });
});

describe.each(dialects)('captcha on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  const storedCode = async (key: string) => (JSON.parse((await app.cache.get(`captcha:${key}`)) ?? '{}') as { code: string }).code;
  const image = (key: string) => injectAs<string>(app, null, { method: 'GET', url: api(app, randomImagePath(key)) });

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { LOGIN_CAPTCHA: 'on' }, redis: withRedis });
    app = t.app;
    await createTestUser(app, 'uma');
  });
  afterAll(async () => {
    await t.close();
  });

  it(`keeps codes in the ${withRedis ? 'Redis' : 'memory'} cache`, () => {
    expect(app.cache.kind).toBe(withRedis ? 'redis' : 'memory');
  });

  it('returns an SVG data URL and validates the key', async () => {
    const answer = await image('key_1');
    expect(answer.envelope.success).toBe(true);
    expect(answer.envelope.result).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(answer.envelope.result.split(',')[1] ?? '', 'base64').toString()).toContain('<svg');
    expect((await image('x'.repeat(65))).statusCode).toBe(400);
    expect((await image('bad.key')).statusCode).toBe(400);
  });

  it.each(LANGUAGES)('asks for a missing code and refuses a wrong one (%s)', async (lang) => {
    const missing = await tryLogin(app, 'uma', USER_PASSWORD, {}, lang);
    expect(missing.envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'login.captchaRequired') });
    await image(`k-${lang}`);
    const code = await storedCode(`k-${lang}`);
    const wrong = await tryLogin(app, 'uma', USER_PASSWORD, { captcha: 'zzzz', checkKey: `k-${lang}` }, lang);
    expect(wrong.envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'login.captchaWrong') });
    // a wrong guess uses the code up
    const late = await tryLogin(app, 'uma', USER_PASSWORD, { captcha: code, checkKey: `k-${lang}` }, lang);
    expect(late.envelope.message).toBe(translate(lang, 'login.captchaWrong'));
  });

  it('accepts the code once, in any letter case', async () => {
    await image('once');
    const code = await storedCode('once');
    expect((await tryLogin(app, 'uma', USER_PASSWORD, { captcha: code.toUpperCase(), checkKey: 'once' })).envelope.success).toBe(true);
    expect((await tryLogin(app, 'uma', USER_PASSWORD, { captcha: code, checkKey: 'once' })).envelope.success).toBe(false);
  });

  it('expires the code after 60 seconds', async () => {
    await image('slow');
    const code = await storedCode('slow');
    t.clock.advance(Limits.captchaLifetimeMs + 1);
    const answer = await tryLogin(app, 'uma', USER_PASSWORD, { captcha: code, checkKey: 'slow' }, 'en-US');
    expect(answer.envelope.message).toBe(translate('en-US', 'login.captchaWrong'));
  });
});
