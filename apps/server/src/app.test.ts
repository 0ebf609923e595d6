import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPath, MENU_TITLE_KEYS, Perm, crudPath, dictItemsPath, userEntity } from '@isps/contract';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { requestLogger } from './app.ts';
import { accessCodes } from './platform/access.ts';
import { seededMenuTitleKeys, seededPermissionCodes } from './db/seed/menus.ts';
import { USER_PASSWORD, adminToken, api, buildTestApp, createTestUser, injectAs, login, type TestApp } from './test/harness.ts';

/** A concrete URL for a route pattern: parameters and wildcards get harmless values. */
function concrete(url: string): string {
  return url.replace(/:[A-Za-z]+/g, 'sample').replace(/\*$/, 'sample');
}

describe('request logger', () => {
  const logger = (level: string) => {
    const made: unknown[] = [];
    const parent = { level, child: (bindings: unknown) => (made.push(bindings), { level, bindings }) } as unknown as FastifyBaseLogger;
    return { parent, made };
  };

  it('binds each request id to its lines at every level that writes, and makes no child at level silent', () => {
    for (const level of ['info', 'warn', 'error']) {
      const { parent, made } = logger(level);
      expect(requestLogger(parent, { reqId: 'r1' }, {})).not.toBe(parent);
      expect(made).toEqual([{ reqId: 'r1' }]);
    }
    const { parent, made } = logger('silent');
    expect(requestLogger(parent, { reqId: 'r1' }, {})).toBe(parent);
    expect(made).toEqual([]);
  });
});

describe('route declarations', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let noPermissionToken: string;

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    app = t.app;
    // a real user whose role grants nothing
    await app.db
      .insertInto('sys_role')
      .values({ id: 'empty-role', role_name: 'Nothing', role_code: 'nothing', role_type: 1, description: null, tenant_id: null, create_by: 'test', create_time: null, update_by: null, update_time: null })
      .execute();
    await createTestUser(app, 'walker', { roles: ['nothing'] });
    noPermissionToken = await login(app, 'walker', USER_PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });

  it('declares access on every route', () => {
    const undeclared = app.routeCatalogue.filter((r) => r.permission === undefined).map((r) => `${r.method} ${r.url}`);
    expect(undeclared).toEqual([]);
    expect(app.routeCatalogue.length).toBeGreaterThan(10);
  });

  it('keeps the public list short', () => {
    const publicApi = app.routeCatalogue
      .filter((r) => r.permission === 'public' && r.method !== 'HEAD' && r.url.startsWith('/api') && !r.url.startsWith('/api/docs'))
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    expect(publicApi).toEqual([
      'GET /api/cas/client/validateLogin',
      'GET /api/health',
      // the login page asks whether its tenant takes registrations and whether the captcha is on
      'GET /api/sys/account/loginSettings',
      'GET /api/sys/activation/status',
      'GET /api/sys/randomImage/:key',
      // the origin console's login page asks it before anyone signs in
      'GET /api/sys/thirdApp/getEnabledType',
      // uploaded files under unguessable names, read by <img src> without a token (file-routes.ts)
      'GET /api/sys/common/static/*',
      'GET /api/sys/user/register/check',
      // software packages for devices, signed with the device's serial number and key (soft-update-routes.ts)
      'GET /api/device/softUpdate/package',
      // a device's log, asked of it with a one-time token, uploaded signed the same way (modules/device/log-file-routes.ts)
      'POST /api/device/logFile/upload',
      // cabinet terminals ask for a newer app and fetch it, signed the same way (modules/storage/routes.ts)
      'GET /api/cabinet/checkUpdate/latest',
      'GET /api/cabinet/checkUpdate/package',
      'POST /api/sys/activation/activate',
      'POST /api/sys/login',
      'POST /api/sys/phoneLogin',
      'POST /api/sys/sms',
      'POST /api/sys/twoFactor/challenge/enroll',
      'POST /api/sys/twoFactor/login',
      'POST /api/sys/user/passwordReset/account',
      'POST /api/sys/user/passwordReset/password',
      'POST /api/sys/user/passwordReset/sendCode',
      'POST /api/sys/user/passwordReset/verify',
      'POST /api/sys/user/register',
      // SPEC section 7's declared calls, aliases of the three above them (account/routes.ts)
      'POST /api/auth/forge-password',
      'POST /api/auth/register',
      'POST /api/account/sms',
      // visitor routes: public to the staff access layer, guarded by visitor tokens of their own
      'POST /api/vistor/login',
      'POST /api/vistor/register',
      'GET /api/vistor/info',
      'POST /api/vistor/logout',
      // the visitor's own visits, requests and messages (visit-requests.ts), behind the same visitor-token hook
      'GET /api/vistor/myVisit/list',
      'GET /api/vistor/myVisit/hosts',
      'POST /api/vistor/myVisit/ask',
      'PUT /api/vistor/myVisit/cancel',
      'GET /api/vistor/message/list',
      'PUT /api/vistor/message/read',
    ].sort());
  });

  it('refuses every non-public route without a token (401) and without the permission (403/510)', async () => {
    const guarded = app.routeCatalogue.filter((r) => r.permission !== 'public' && r.method !== 'HEAD');
    expect(guarded.length).toBeGreaterThan(5);
    for (const route of guarded) {
      const request = { method: route.method as 'GET', url: concrete(route.url) };
      const anonymous = await injectAs(app, null, request);
      expect(anonymous.statusCode, `${route.method} ${route.url} without token`).toBe(401);
      expect(anonymous.envelope.code).toBe(401);
      if (route.permission === 'authenticated') continue;
      const denied = await injectAs(app, noPermissionToken, { ...request, headers: { lang: 'en-US' } });
      expect(denied.statusCode, `${route.method} ${route.url} without permission`).toBe(403);
      expect(denied.envelope).toMatchObject({ success: false, code: 510 });
      for (const code of accessCodes(route.permission)) expect(denied.envelope.message).toContain(code);
    }
  });

  it('answers HEAD only where a file or readiness is asked for, not on every API route', async () => {
    const heads = app.routeCatalogue.filter((r) => r.method === 'HEAD').map((r) => r.url);
    expect(heads.length).toBeLessThan(20);
    expect(heads).toContain(`${app.settings.apiPrefix}${ApiPath.health}`);
    expect((await app.inject({ method: 'HEAD', url: api(app, ApiPath.health) })).statusCode).toBe(200);
    // an API call's HEAD is not a route: not found, never the call's work
    const listed = await app.inject({ method: 'HEAD', url: api(app, '/sys/user/list'), headers: { 'X-Access-Token': await adminToken(app) } });
    expect(listed.statusCode).toBe(404);
  });

  it('declares only permission codes that exist as seeded buttons', async () => {
    const seeded = new Set(seededPermissionCodes());
    const declared = app.routeCatalogue.flatMap((r) => accessCodes(r.permission));
    expect(declared.filter((code) => !seeded.has(code as string))).toEqual([]);
    const buttons = await app.db.selectFrom('sys_permission').select('perms').where('menu_type', '=', 2).execute();
    expect(new Set(buttons.map((b) => b.perms))).toEqual(seeded);
    for (const code of Object.values(Perm)) expect(seeded.has(code)).toBe(true);
  });

  it('publishes every seeded menu title key in the contract', () => {
    expect([...MENU_TITLE_KEYS]).toEqual(seededMenuTitleKeys());
  });

  it('serves the API description to administrators only', async () => {
    const admin = await adminToken(app);
    const spec = await injectAs(app, admin, { method: 'GET', url: '/api/docs/json' });
    expect(spec.statusCode).toBe(200);
    expect(spec.json<{ paths: Record<string, unknown> }>().paths).toHaveProperty('/api/sys/login');
    expect((await injectAs(app, null, { method: 'GET', url: '/api/docs/json' })).statusCode).toBe(401);
    expect((await injectAs(app, noPermissionToken, { method: 'GET', url: '/api/docs/json' })).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/docs/' })).statusCode).toBe(200);
    const yaml = await injectAs(app, admin, { method: 'GET', url: '/api/docs/yaml' });
    expect(yaml.statusCode).toBe(200);
    expect(yaml.body).toContain('/api/sys/login');
    expect((await injectAs(app, null, { method: 'GET', url: '/api/docs/yaml' })).statusCode).toBe(401);
    expect((await injectAs(app, noPermissionToken, { method: 'GET', url: '/api/docs/yaml' })).statusCode).toBe(403);
  });

  it('serves the API docs page, its assets and its redirect as Swagger UI does, with its own content policy', async () => {
    const page = await app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('swagger-ui');
    expect(String(page.headers['content-security-policy'])).toContain('img-src \'self\' data: validator.swagger.io');
    // the console's other security headers stay
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const initializer = await app.inject({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' });
    expect(initializer.statusCode).toBe(200);
    // the console's session reaches the calls made from the page
    expect(initializer.body).toContain('pro__Access-Token');
    const css = await app.inject({ method: 'GET', url: '/api/docs/static/swagger-ui.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const etag = String(css.headers.etag);
    expect((await app.inject({ method: 'GET', url: '/api/docs/static/swagger-ui.css', headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    const head = await app.inject({ method: 'HEAD', url: '/api/docs/static/swagger-ui.css' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(css.headers['content-length']);
    expect(head.body).toBe('');
    const redirect = await app.inject({ method: 'GET', url: '/api/docs/static/index.html' });
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toBe('/api/docs/');
    const missing = await app.inject({ method: 'GET', url: '/api/docs/static/missing.js', headers: { lang: 'en-US' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ success: false, code: 404 });
  });

  it('sends security headers that let the console run', async () => {
    const page = await app.inject({ method: 'GET', url: '/user/login' });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain('img-src');
    expect(csp).toContain('data:');
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
  });

  it('sends an API answer the headers of an answer that is no page, and no header only a page needs', async () => {
    const answers = [
      await app.inject({ method: 'GET', url: api(app, ApiPath.health) }),
      await injectAs(app, null, { method: 'GET', url: '/api/sys/no-such-call', headers: { lang: 'en-US' } }),
      // refused before any handler runs: without a token, with a token lacking the permission
      await injectAs(app, null, { method: 'GET', url: api(app, dictItemsPath('sex')), headers: { lang: 'en-US' } }),
      await injectAs(app, noPermissionToken, { method: 'GET', url: api(app, crudPath(userEntity, 'list')), headers: { lang: 'en-US' } }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 404, 401, 403]);
    for (const answer of answers) {
      expect(answer.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(answer.headers['strict-transport-security']).toContain('max-age=');
      for (const pageOnly of ['referrer-policy', 'x-xss-protection', 'x-dns-prefetch-control', 'x-download-options', 'origin-agent-cluster', 'cross-origin-opener-policy']) {
        expect(answer.headers[pageOnly]).toBeUndefined();
      }
    }
  });

  it('limits the login rate with an envelope', async () => {
    const limited = await buildTestApp('sqlite', { config: { rateLimit: { loginPerMinute: 2, captchaPerMinute: 2, apiKeyPerMinute: 10_000 } } });
    try {
      const attempt = () => injectAs(limited.app, null, { method: 'POST', url: '/api/sys/login', payload: { username: 'x', password: 'y' }, headers: { lang: 'en-US' } });
      await attempt();
      await attempt();
      const third = await attempt();
      expect(third.statusCode).toBe(429);
      expect(third.envelope).toMatchObject({ success: false, code: 429 });
    } finally {
      await limited.close();
    }
  });
});

describe('health', () => {
  it('answers 503 with an envelope when the database does not answer', async () => {
    const t = await buildTestApp('sqlite');
    await t.app.db.destroy();
    const answer = await injectAs(t.app, null, { method: 'GET', url: '/api/health', headers: { lang: 'en-US' } });
    expect(answer.statusCode).toBe(503);
    expect(answer.envelope).toMatchObject({ success: false, code: 503 });
    await t.close();
  });
});

describe('console files', () => {
  let dist: string;
  beforeAll(() => {
    dist = mkdtempSync(join(tmpdir(), 'isps-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>ISPS Console</title>');
    writeFileSync(join(dist, 'assets', 'app-1a2b.js'), 'console.log(1)');
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('serves the built console with a single-page fallback', async () => {
    const t = await buildTestApp('sqlite', { config: { webDistDir: dist } });
    try {
      const html = { accept: 'text/html,application/xhtml+xml' };
      const root = await t.app.inject({ method: 'GET', url: '/', headers: html });
      expect(root.statusCode).toBe(200);
      expect(root.body).toContain('ISPS Console');
      const deep = await t.app.inject({ method: 'GET', url: '/system/user?x=1', headers: html });
      expect(deep.statusCode).toBe(200);
      expect(deep.body).toContain('ISPS Console');
      const asset = await t.app.inject({ method: 'GET', url: '/assets/app-1a2b.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toContain('immutable');
      expect((await t.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: '/../../etc/passwd', headers: { accept: '*/*' } })).statusCode).toBe(404);
      const apiMiss = await t.app.inject({ method: 'GET', url: '/api/unknown', headers: html });
      expect(apiMiss.statusCode).toBe(404);
      expect(apiMiss.json()).toMatchObject({ success: false, code: 404 });
    } finally {
      await t.close();
    }
  });

  it('sends the build’s brotli or gzip copy to a browser that accepts it, and the plain file otherwise', async () => {
    const script = `export const big = ${JSON.stringify('console '.repeat(4000))};`;
    writeFileSync(join(dist, 'assets', 'big-9f8e.js'), script);
    writeFileSync(join(dist, 'assets', 'big-9f8e.js.br'), brotliCompressSync(script));
    writeFileSync(join(dist, 'assets', 'big-9f8e.js.gz'), gzipSync(script));
    const t = await buildTestApp('sqlite', { config: { webDistDir: dist } });
    try {
      const url = '/assets/big-9f8e.js';
      const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toContain('javascript');
      expect(br.headers['cache-control']).toContain('immutable');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
      const gz = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
      const plain = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(script);
    } finally {
      await t.close();
    }
  });

  it('says how to build the console when it is missing', async () => {
    const t = await buildTestApp('sqlite', { config: { webDistDir: join(dist, 'absent') } });
    try {
      const root = await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
      expect(root.statusCode).toBe(200);
      expect(root.headers['content-type']).toContain('text/plain');
      expect(root.body).toContain('npm run build');
    } finally {
      await t.close();
    }
  });
});
