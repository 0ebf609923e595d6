import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crudPath, tenantEntity, VisitorPath, visitorEntity, visitorLoginEntity, type Page } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { createRoleWith, sheetRows } from '../../test/crud-helpers.ts';
import { USER_PASSWORD, adminToken, api, buildTestApp, createTestUser, injectAs, login, testDialects, type TestApp } from '../../test/harness.ts';

type Row = Record<string, unknown> & { id: string };

describe.each((await testDialects()).filter((d) => d !== 'mysql'))('the API login list on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  const call = <T = unknown>(token: string | null, method: 'GET' | 'POST' | 'DELETE', path: string, payload?: Record<string, unknown>, headers: Record<string, string> = {}) =>
    injectAs<T>(app, token, { method, url: api(app, path), payload, headers: { lang: 'en-US', ...headers } });

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
    const added = await call(admin, 'POST', crudPath(visitorEntity, 'add'), { name: 'Li Na', idType: '3', idCard: 'E12345678', phone: '13700000001', category: 'armedPolice', password: '135790' });
    expect(added.envelope.success, added.envelope.message).toBe(true);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('records each visitor sign-in with time, visitor, address, method and result; filters, exports and deletes them', async () => {
    // from the visitor area's page (the browser sends its Origin), then a program through the API, then a wrong password
    expect((await call(null, 'POST', VisitorPath.login, { account: '13700000001', password: '135790' }, { origin: 'http://console.example' })).envelope.success).toBe(true);
    expect((await call(null, 'POST', VisitorPath.login, { account: '13700000001', password: '135790' })).envelope.success).toBe(true);
    expect((await call(null, 'POST', VisitorPath.login, { account: '13700000001', password: '000000' })).envelope.success).toBe(false);

    const list = await call<Page<Row>>(admin, 'GET', `${crudPath(visitorLoginEntity, 'list')}?pageSize=50`);
    expect(list.envelope.success, list.envelope.message).toBe(true);
    const records = list.envelope.result.records;
    expect(records).toHaveLength(3);
    for (const r of records) {
      expect(r).toMatchObject({ visitorName: 'Li Na', accountMasked: '*******0001', ip: '127.0.0.1' });
      expect(String(r.createTime)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    }
    expect(records.map((r) => `${r.method}:${r.result}`).sort()).toEqual(['api:0', 'api:1', 'login:1']);
    // the phone typed never shows whole
    expect(JSON.stringify(list.envelope)).not.toContain('13700000001');

    // filtered by result and method
    const refused = await call<Page<Row>>(admin, 'GET', `${crudPath(visitorLoginEntity, 'list')}?result=0`);
    expect(refused.envelope.result.records.map((r) => r.method)).toEqual(['api']);
    const byPage = await call<Page<Row>>(admin, 'GET', `${crudPath(visitorLoginEntity, 'list')}?method=login`);
    expect(byPage.envelope.result.total).toBe(1);

    // exported
    const file = await injectAs(app, admin, { method: 'GET', url: `${api(app, crudPath(visitorLoginEntity, 'exportXls'))}?result=1`, headers: { lang: 'en-US' } });
    expect(file.statusCode).toBe(200);
    const sheet = await sheetRows(file.rawPayload);
    expect(sheet).toHaveLength(3);
    expect(JSON.stringify(sheet)).toContain('Li Na');
    expect(JSON.stringify(sheet)).not.toContain('13700000001');

    // nobody adds or edits a sign-in
    expect((await call(admin, 'POST', crudPath(visitorLoginEntity, 'add'), { visitorName: 'forged' })).statusCode).toBe(404);
    const removed = await call(admin, 'DELETE', `${crudPath(visitorLoginEntity, 'delete')}?id=${refused.envelope.result.records[0]!.id}`);
    expect(removed.envelope.success, removed.envelope.message).toBe(true);
    expect((await call<Page<Row>>(admin, 'GET', crudPath(visitorLoginEntity, 'list'))).envelope.result.total).toBe(2);
  });

  it('shows another tenant nothing, and needs vistor:apiLogin:list', async () => {
    const other = await call<{ id: string }>(admin, 'POST', crudPath(tenantEntity, 'add'), { name: 'Other site', code: 'other_site', status: 1 });
    expect(other.envelope.success, other.envelope.message).toBe(true);
    await createRoleWith(app, 'login_reader', ['vistor:apiLogin:list']);
    await createTestUser(app, 'elsewhere', { roles: ['login_reader'], tenantId: other.envelope.result.id });
    const elsewhere = await login(app, 'elsewhere', USER_PASSWORD);
    expect((await call<Page<Row>>(elsewhere, 'GET', crudPath(visitorLoginEntity, 'list'))).envelope.result.total).toBe(0);
    await createTestUser(app, 'no_reader');
    const plain = await login(app, 'no_reader', USER_PASSWORD);
    expect((await call(plain, 'GET', crudPath(visitorLoginEntity, 'list'))).statusCode).toBe(403);
  });
});
