import { randomUUID } from 'node:crypto';
import { API_KEY_HEADER, ApiKeyPath, ApiPath, TENANT_HEADER, type ApiKeyCreated, type ApiKeyRow, type Envelope } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoleWith } from '../../test/crud-helpers.ts';
import { USER_PASSWORD, adminToken, api, buildTestApp, createTestUser, injectAs, login, testDialects, type TestApp } from '../../test/harness.ts';
import { formatWireTime } from '../../platform/wire-time.ts';

const AUDIT = { create_by: 'test', create_time: null, update_by: null, update_time: null };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MAKER_CODES = ['system:position:list', 'system:apiKey:list', 'system:apiKey:add', 'system:apiKey:revoke', 'system:apiKey:rotate', 'system:apiKey:delete'];

describe.each(await testDialects())('API keys on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  let maker: string;
  const ids: Record<string, string> = {};

  const wire = (ms: number) => formatWireTime(t.clock.now() + ms, 'UTC');
  const withKey = async <T = unknown>(key: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, headers: Record<string, string> = {}) => {
    const response = await app.inject({ method, url: api(app, path), headers: { [API_KEY_HEADER]: key, lang: 'en-US', ...headers } });
    let envelope: Envelope<T>;
    try {
      envelope = response.json<Envelope<T>>();
    } catch {
      // an export or the API description: no envelope to read
      envelope = { success: response.statusCode < 400, message: '', code: response.statusCode, result: null as T, timestamp: 0 };
    }
    return Object.assign(response, { envelope });
  };
  const addKey = (token: string, body: Record<string, unknown>) =>
    injectAs<ApiKeyCreated>(app, token, { method: 'POST', url: api(app, ApiKeyPath.add), payload: { expiresAt: wire(30 * DAY), ...body }, headers: { lang: 'en-US' } });
  const listKeys = (token: string) => injectAs<{ records: ApiKeyRow[] }>(app, token, { method: 'GET', url: api(app, `${ApiKeyPath.list}?pageSize=200`), headers: { lang: 'en-US' } });
  const positionCodes = (answer: { envelope: Envelope<unknown> }) => ((answer.envelope.result as { records?: { code: string }[] } | null)?.records ?? []).map((r) => r.code);
  /** what runs after an answer (the operation log, the last use) has landed */
  const eventually = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 50 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  };

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
    ids.tenantA = (await app.db.selectFrom('sys_tenant').select('id').where('code', '=', 'default').executeTakeFirstOrThrow()).id;
    ids.tenantB = randomUUID();
    await app.db.insertInto('sys_tenant').values({ id: ids.tenantB, name: 'Tenant B', code: 'tenant-b', begin_date: null, end_date: null, status: 1, ...AUDIT }).execute();
    for (const [code, tenant] of [['pos-a', ids.tenantA], ['pos-b', ids.tenantB]] as const) {
      await app.db.insertInto('sys_position').values({ id: randomUUID(), code, name: code, post_rank: '1', tenant_id: tenant, ...AUDIT }).execute();
    }
    await createRoleWith(app, 'integrator', MAKER_CODES);
    ids.maker = await createTestUser(app, 'key-maker', { roles: ['integrator'], tenantId: ids.tenantA });
    maker = await login(app, 'key-maker', USER_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a key works on the routes its codes allow, in its own tenant only, and is refused elsewhere', async () => {
    const created = await addKey(maker, { name: 'erp', tenantId: ids.tenantA, permCodes: ['system:position:list'] });
    expect(created.envelope.success).toBe(true);
    const key = created.envelope.result.secret;
    expect(key).toMatch(/^isps_[0-9a-f]{16}\./);
    ids.erpKey = key;
    ids.erpId = created.envelope.result.id;

    const listed = await withKey(key, 'GET', '/sys/position/list');
    expect(listed.statusCode).toBe(200);
    expect(positionCodes(listed)).toEqual(['pos-a']);
    // the tenant header is a system administrator's choice; a key never leaves its tenant
    expect(positionCodes(await withKey(key, 'GET', '/sys/position/list', { [TENANT_HEADER]: ids.tenantB! }))).toEqual(['pos-a']);

    const roles = await withKey(key, 'GET', '/sys/role/list');
    expect([roles.statusCode, roles.envelope.code]).toEqual([403, 510]);
    // routes of a signed-in user's own identity refuse keys, saying why
    for (const [method, path] of [['GET', ApiPath.userPermission], ['POST', ApiPath.logout], ['GET', ApiPath.currentUserDeparts]] as const) {
      const answer = await withKey(key, method, path);
      expect([answer.statusCode, answer.envelope.message]).toEqual([403, 'This call needs a signed-in user: an API key cannot make it']);
    }
    // key management is for signed-in users even when the key names its codes
    const manager = (await addKey(maker, { name: 'manager', tenantId: ids.tenantA, permCodes: ['system:apiKey:list', 'system:apiKey:add'] })).envelope.result.secret;
    const managed = await withKey(manager, 'GET', ApiKeyPath.list);
    expect([managed.statusCode, managed.envelope.message]).toEqual([403, 'This call needs a signed-in user: an API key cannot make it']);
    // the websocket handshake is a signed-in user's too
    const socket = await withKey(key, 'GET', `/websocket/${ids.maker}`, { connection: 'upgrade', upgrade: 'websocket' });
    expect([socket.statusCode, socket.envelope.message]).toEqual([403, 'This call needs a signed-in user: an API key cannot make it']);
  });

  it('unknown, malformed, revoked and expired keys are refused alike, with one localised message', async () => {
    const good = (await addKey(maker, { name: 'short-lived', tenantId: ids.tenantA, permCodes: ['system:position:list'], expiresAt: wire(HOUR) })).envelope.result;
    expect((await withKey(good.secret, 'GET', '/sys/position/list')).statusCode).toBe(200);
    const forged = good.secret.slice(0, -4) + (good.secret.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    for (const bad of ['nonsense', forged, `isps_${'0'.repeat(16)}.${'A'.repeat(43)}`]) {
      const answer = await withKey(bad, 'GET', '/sys/position/list');
      expect([answer.statusCode, answer.envelope.code, answer.envelope.message]).toEqual([401, 401, 'Invalid or expired API key']);
    }
    const zh = await withKey('nonsense', 'GET', '/sys/position/list', { lang: 'zh-CN' });
    expect(zh.envelope.message).toBe('API 密钥无效或已过期');

    const revocable = (await addKey(maker, { name: 'revocable', tenantId: ids.tenantA, permCodes: ['system:position:list'] })).envelope.result;
    expect((await withKey(revocable.secret, 'GET', '/sys/position/list')).statusCode).toBe(200);
    const revoked = await injectAs(app, maker, { method: 'PUT', url: api(app, ApiKeyPath.revoke), payload: { id: revocable.id } });
    expect(revoked.envelope.success).toBe(true);
    expect((await withKey(revocable.secret, 'GET', '/sys/position/list')).envelope.message).toBe('Invalid or expired API key');

    t.clock.advance(2 * HOUR);
    expect((await withKey(good.secret, 'GET', '/sys/position/list')).statusCode).toBe(401);
    const statuses = Object.fromEntries((await listKeys(maker)).envelope.result.records.map((r) => [r.name, r.status]));
    expect(statuses).toMatchObject({ 'short-lived': 'expired', revocable: 'revoked', erp: 'active' });
  });

  it('a rotated key works beside its successor until the overlap ends, then only the successor does', async () => {
    const old = (await addKey(maker, { name: 'rotating', tenantId: ids.tenantA, permCodes: ['system:position:list'] })).envelope.result;
    const rotated = await injectAs<ApiKeyCreated>(app, maker, { method: 'POST', url: api(app, ApiKeyPath.rotate), payload: { id: old.id, overlapHours: 1 }, headers: { lang: 'en-US' } });
    expect(rotated.envelope.success).toBe(true);
    const successor = rotated.envelope.result;
    expect(successor.secret).not.toBe(old.secret);
    expect(successor.rotatedFrom).toBe(old.id);
    expect((await withKey(old.secret, 'GET', '/sys/position/list')).statusCode).toBe(200);
    expect((await withKey(successor.secret, 'GET', '/sys/position/list')).statusCode).toBe(200);
    const again = await injectAs(app, maker, { method: 'POST', url: api(app, ApiKeyPath.rotate), payload: { id: old.id }, headers: { lang: 'en-US' } });
    expect(again.envelope.success).toBe(false);

    t.clock.advance(2 * HOUR);
    expect((await withKey(old.secret, 'GET', '/sys/position/list')).statusCode).toBe(401);
    expect((await withKey(successor.secret, 'GET', '/sys/position/list')).statusCode).toBe(200);
    const rows = (await listKeys(maker)).envelope.result.records;
    expect(rows.find((r) => r.id === old.id)?.status).toBe('superseded');
  });

  it('a key holds its codes only while its creator does, and stops with a frozen creator', async () => {
    await createRoleWith(app, 'fading', ['system:position:list', 'system:apiKey:add']);
    const creatorId = await createTestUser(app, 'fading-maker', { roles: ['fading'], tenantId: ids.tenantA });
    const creator = await login(app, 'fading-maker', USER_PASSWORD);
    const key = (await addKey(creator, { name: 'fading', tenantId: ids.tenantA, permCodes: ['system:position:list'] })).envelope.result.secret;
    expect((await withKey(key, 'GET', '/sys/position/list')).statusCode).toBe(200);

    const roleId = (await app.db.selectFrom('sys_role').select('id').where('role_code', '=', 'fading').executeTakeFirstOrThrow()).id;
    const listPermission = (await app.db.selectFrom('sys_permission').select('id').where('perms', '=', 'system:position:list').executeTakeFirstOrThrow()).id;
    await app.db.deleteFrom('sys_role_permission').where('role_id', '=', roleId).where('permission_id', '=', listPermission).execute();
    expect((await withKey(key, 'GET', '/sys/position/list')).statusCode).toBe(403);
    await app.db.insertInto('sys_role_permission').values({ ...AUDIT, id: randomUUID(), role_id: roleId, permission_id: listPermission }).execute();
    expect((await withKey(key, 'GET', '/sys/position/list')).statusCode).toBe(200);

    await app.db.updateTable('sys_user').set({ status: 2 }).where('id', '=', creatorId).execute();
    expect((await withKey(key, 'GET', '/sys/position/list')).statusCode).toBe(401);
    // moved to another tenant, a creator who is no system administrator no longer vouches for his old tenant's key
    await app.db.updateTable('sys_user').set({ status: 1, tenant_id: ids.tenantB }).where('id', '=', creatorId).execute();
    expect((await withKey(key, 'GET', '/sys/position/list')).statusCode).toBe(401);
  });

  it('a key reads rows as its creator does: his data rules narrow them too', async () => {
    await createRoleWith(app, 'narrowed', ['system:position:list', 'system:apiKey:add']);
    await createTestUser(app, 'narrowed-maker', { roles: ['narrowed'], tenantId: ids.tenantA });
    await app.db.insertInto('sys_position').values({ id: randomUUID(), code: 'pos-a2', name: 'pos-a2', post_rank: '1', tenant_id: ids.tenantA!, ...AUDIT }).execute();
    const roleId = (await app.db.selectFrom('sys_role').select('id').where('role_code', '=', 'narrowed').executeTakeFirstOrThrow()).id;
    const menu = (await app.db.selectFrom('sys_permission').select('id').where('component', '=', 'system/position').executeTakeFirstOrThrow()).id;
    const ruleId = randomUUID();
    await app.db.insertInto('sys_permission_data_rule').values({ ...AUDIT, id: ruleId, permission_id: menu, rule_name: 'only pos-a2', rule_column: 'code', rule_conditions: 'eq', rule_value: 'pos-a2', status: '1' }).execute();
    await app.db.insertInto('sys_role_data_rule').values({ ...AUDIT, id: randomUUID(), role_id: roleId, permission_id: menu, rule_id: ruleId }).execute();
    const creator = await login(app, 'narrowed-maker', USER_PASSWORD);
    const own = await injectAs(app, creator, { method: 'GET', url: api(app, '/sys/position/list') });
    expect(positionCodes(own)).toEqual(['pos-a2']);
    const key = (await addKey(creator, { name: 'narrowed', tenantId: ids.tenantA, permCodes: ['system:position:list'] })).envelope.result.secret;
    expect(positionCodes(await withKey(key, 'GET', '/sys/position/list'))).toEqual(['pos-a2']);
    await app.db.deleteFrom('sys_position').where('code', '=', 'pos-a2').execute();
  });

  it('nobody makes a key with a code he does not hold or for a tenant not his; bad expiries are refused', async () => {
    const wider = await addKey(maker, { name: 'wider', tenantId: ids.tenantA, permCodes: ['system:position:list', 'system:role:list'] });
    expect([wider.statusCode, wider.envelope.success, wider.envelope.message]).toEqual([200, false, 'You cannot give an API key the permission system:role:list: you do not hold it']);
    const foreign = await addKey(maker, { name: 'foreign', tenantId: ids.tenantB, permCodes: ['system:position:list'] });
    expect([foreign.envelope.success, foreign.envelope.message]).toEqual([false, 'An API key can only be made for your own tenant']);
    expect((await addKey(maker, { name: 'past', tenantId: ids.tenantA, permCodes: ['system:position:list'], expiresAt: wire(-HOUR) })).envelope.success).toBe(false);
    expect((await addKey(maker, { name: 'far', tenantId: ids.tenantA, permCodes: ['system:position:list'], expiresAt: wire(800 * DAY) })).envelope.success).toBe(false);
    const garbled = await addKey(maker, { name: 'garbled', tenantId: ids.tenantA, permCodes: ['system:position:list'], expiresAt: 'soon' });
    expect([garbled.statusCode, garbled.envelope.success]).toEqual([400, false]);
    expect((await addKey(maker, { name: 'empty', tenantId: ids.tenantA, permCodes: [] })).statusCode).toBe(400);
    const names = (await listKeys(admin)).envelope.result.records.map((r) => r.name);
    expect(names).not.toContain('wider');
    expect(names).not.toContain('foreign');
  });

  it('a system administrator makes a key for another tenant, which sees only that tenant', async () => {
    const created = await addKey(admin, { name: 'tenant-b-feed', tenantId: ids.tenantB, permCodes: ['system:position:list'] });
    expect(created.envelope.success).toBe(true);
    const key = created.envelope.result.secret;
    expect(positionCodes(await withKey(key, 'GET', '/sys/position/list'))).toEqual(['pos-b']);
    expect(positionCodes(await withKey(key, 'GET', '/sys/position/list', { [TENANT_HEADER]: ids.tenantA! }))).toEqual(['pos-b']);
    // tenant A's key administrator neither lists nor revokes tenant B's key
    expect((await listKeys(maker)).envelope.result.records.map((r) => r.name)).not.toContain('tenant-b-feed');
    const revoke = await injectAs(app, maker, { method: 'PUT', url: api(app, ApiKeyPath.revoke), payload: { id: created.envelope.result.id } });
    expect(revoke.envelope.success).toBe(false);
    expect((await withKey(key, 'GET', '/sys/position/list')).statusCode).toBe(200);
    const adminList = (await listKeys(admin)).envelope.result.records.find((r) => r.name === 'tenant-b-feed');
    expect(adminList?.tenantName).toBe('Tenant B');
  });

  it('every call with a key is in the operation log under its name; the list shows the last use and address, never a secret', async () => {
    const key = ids.erpKey!;
    await withKey(key, 'GET', '/sys/position/list');
    await withKey(key, 'GET', '/sys/role/list');
    const logged = () => app.db.selectFrom('sys_log').selectAll().where('username', '=', 'api-key:erp').execute();
    await eventually(async () => (await logged()).some((r) => r.content.includes('/sys/role/list')));
    const rows = await logged();
    expect(rows.every((r) => r.userid === ids.erpId && r.tenant_id === ids.tenantA)).toBe(true);
    expect(rows.some((r) => r.content === `API key call GET ${api(app, '/sys/position/list')}: HTTP 200`)).toBe(true);
    expect(rows.some((r) => r.content === `API key call GET ${api(app, '/sys/role/list')}: HTTP 403`)).toBe(true);

    await eventually(async () => Boolean((await app.db.selectFrom('sys_api_key_use').select('last_used_at').where('id', '=', ids.erpId!).executeTakeFirst())?.last_used_at));
    const list = await listKeys(maker);
    const erp = list.envelope.result.records.find((r) => r.id === ids.erpId);
    expect(erp?.lastUsedAt).toBeTruthy();
    expect(erp?.lastUsedIp).toBe('127.0.0.1');
    expect(erp?.permCount).toBe(1);

    const secretPart = key.split('.')[1]!;
    expect(list.body).not.toContain(secretPart);
    expect(list.body).not.toContain('key_hash');
    const everyLog = await app.db.selectFrom('sys_log').select(['content', 'log_params']).execute();
    expect(everyLog.filter((r) => `${r.content} ${r.log_params ?? ''}`.includes(secretPart))).toEqual([]);
  });

  it('a key holding every code of a system administrator reads every list without a server fault', async () => {
    const codes = ((await injectAs<{ auth: { action: string }[] }>(app, admin, { method: 'GET', url: api(app, ApiPath.userPermission) })).envelope.result.auth).map((a) => a.action);
    const key = (await addKey(admin, { name: 'everything', tenantId: ids.tenantA, permCodes: [...new Set(codes)].slice(0, 500) })).envelope.result.secret;
    const prefix = app.settings.apiPrefix;
    const routes = app.routeCatalogue.filter((r) => r.method === 'GET' && r.url.startsWith(`${prefix}/`) && !/[:*]/.test(r.url) && r.permission !== 'public');
    const faults: string[] = [];
    for (const route of routes) {
      const answer = await withKey(key, 'GET', route.url.slice(prefix.length));
      if (answer.statusCode >= 500) faults.push(`${route.url}: HTTP ${answer.statusCode} ${answer.envelope.message}`);
    }
    expect(routes.length).toBeGreaterThan(50);
    expect(faults).toEqual([]);
  });

  it('the API description declares the X-Api-Key scheme beside the session token', async () => {
    const docs = await app.inject({ method: 'GET', url: api(app, '/docs/json'), headers: { 'X-Access-Token': admin } });
    const description = docs.json<{ components: { securitySchemes: Record<string, unknown> }; security: unknown[] }>();
    expect(description.components.securitySchemes.apiKey).toEqual({ type: 'apiKey', in: 'header', name: API_KEY_HEADER });
    expect(description.security).toContainEqual({ apiKey: [] });
  });

  // the limiter counts in memory or Redis, never in the database: one engine proves it (a second app costs seconds)
  it.runIf(dialect === 'sqlite')('a key over its rate hears 429 in the reader’s language, and another key is not held back', async () => {
    const limited = await buildTestApp(dialect, { config: { rateLimit: { loginPerMinute: 10_000, captchaPerMinute: 10_000, apiKeyPerMinute: 3 } } });
    try {
      const token = await adminToken(limited.app);
      const tenant = (await limited.app.db.selectFrom('sys_tenant').select('id').where('code', '=', 'default').executeTakeFirstOrThrow()).id;
      const make = async (name: string) =>
        (
          await injectAs<ApiKeyCreated>(limited.app, token, {
            method: 'POST',
            url: api(limited.app, ApiKeyPath.add),
            payload: { name, tenantId: tenant, permCodes: ['system:position:list'], expiresAt: formatWireTime(limited.clock.now() + DAY, 'UTC') },
          })
        ).envelope.result.secret;
      const [first, second] = [await make('busy'), await make('quiet')];
      const call = (key: string) => limited.app.inject({ method: 'GET', url: api(limited.app, '/sys/position/list'), headers: { [API_KEY_HEADER]: key, lang: 'en-US' } });
      for (let i = 0; i < 3; i++) expect((await call(first)).statusCode).toBe(200);
      const over = await call(first);
      expect(over.statusCode).toBe(429);
      expect(over.json<Envelope<null>>().message).toBe('Too many requests, please try again later');
      expect((await call(second)).statusCode).toBe(200);
      // a signed-in user is not counted against any key
      expect((await injectAs(limited.app, token, { method: 'GET', url: api(limited.app, '/sys/position/list') })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
