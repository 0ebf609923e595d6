import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPath, LANGUAGES, crudPath, dataSourceEntity, permissionCode, translate } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { closedPort, startSilentServer } from '../../test/outbound-listeners.ts';
import { createRoleWith, sheetRows } from '../../test/crud-helpers.ts';
import { POSTGRES_URL, USER_PASSWORD, adminToken, api, buildTestApp, createTestUser, injectAs, login, testDialects, type TestApp } from '../../test/harness.ts';

// the deadline given to the app; the checks allow for a busy machine yet stay under the former five seconds
const TIMEOUT_MS = 1500;
const SECRET = 'Stored#Secret9';

describe.each(await testDialects())('data-source connection test on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  let silent: Awaited<ReturnType<typeof startSilentServer>>;
  let storedId: string;
  const pg = new URL(POSTGRES_URL);
  const pgAddress = `${pg.hostname}:${pg.port || 5432}`;
  const stored = { dbType: 'postgresql', dbUrl: `jdbc:postgresql://${pgAddress}/test`, dbName: '', dbUsername: decodeURIComponent(pg.username) };

  const call = (token: string, method: 'GET' | 'POST' | 'PUT', path: string, payload?: Record<string, unknown>, lang = 'en-US') =>
    injectAs<Record<string, unknown>>(app, token, { method, url: api(app, path), ...(payload ? { payload } : {}), headers: { lang } });
  const test = (payload: Record<string, unknown>, token = admin, lang = 'en-US') => call(token, 'POST', ApiPath.dataSourceTest, payload, lang);

  beforeAll(async () => {
    silent = await startSilentServer();
    t = await buildTestApp(dialect, { config: { outboundTimeoutMs: TIMEOUT_MS } });
    app = t.app;
    admin = await adminToken(app);
    const created = await call(admin, 'POST', crudPath(dataSourceEntity, 'add'), { name: 'Reports', code: 'reports', ...stored, dbPassword: SECRET });
    expect(created.envelope.success, created.envelope.message).toBe(true);
    storedId = String((created.envelope.result as { id: string }).id);
  });
  afterAll(async () => {
    await t?.close();
    await silent?.close();
  });

  it('tests a stored source against its stored address only: a changed address must carry the password again', async () => {
    // the stored settings with the stored password connect
    expect((await test({ id: storedId, ...stored })).envelope).toMatchObject({ success: true, message: translate('en-US', 'dataSource.connectionSuccess') });
    // aiming the stored password elsewhere is refused before anything is connected
    const before = silent.connections;
    const moved = [
      { dbUrl: `127.0.0.1:${silent.port}` },
      { dbUrl: `jdbc:postgresql://${pgAddress}/other` },
      { dbName: 'other' },
      { dbType: 'mysql' },
      { dbUsername: 'someone' },
    ];
    for (const change of moved) {
      for (const lang of LANGUAGES) {
        const refused = await test({ id: storedId, ...stored, ...change }, admin, lang);
        expect(refused.envelope, JSON.stringify(change)).toMatchObject({ success: false, code: 500, message: translate(lang, 'dataSource.passwordRequired') });
      }
    }
    expect(silent.connections).toBe(before);
    // with the password typed again the changed address is tried
    const retyped = await test({ id: storedId, ...stored, dbUrl: `127.0.0.1:${silent.port}`, dbPassword: 'typed-again' });
    expect(retyped.envelope).toMatchObject({ success: false, message: translate('en-US', 'dataSource.connectionFailed') });
    expect(silent.connections).toBe(before + 1);
  });

  it('answers a silent server and a closed port with the same message, within the timeout', async () => {
    const port = await closedPort();
    for (const dbType of ['postgresql', 'mysql']) {
      const messages: string[] = [];
      for (const address of [`127.0.0.1:${silent.port}`, `127.0.0.1:${port}`]) {
        const started = performance.now();
        const answer = await test({ dbType, dbUrl: address, dbUsername: 'probe', dbPassword: 'probe' });
        expect(performance.now() - started, `${dbType} ${address}`).toBeLessThan(TIMEOUT_MS + 2500);
        expect(answer.envelope.success).toBe(false);
        messages.push(answer.envelope.message);
      }
      expect(messages).toEqual([translate('en-US', 'dataSource.connectionFailed'), translate('en-US', 'dataSource.connectionFailed')]);
    }
  });

  it('lets only system administrators test connections, whatever permissions a role grants', async () => {
    await createRoleWith(app, 'ds_tester', [permissionCode(dataSourceEntity, 'test'), permissionCode(dataSourceEntity, 'list')]);
    await createTestUser(app, 'ds-tester', { roles: ['ds_tester'] });
    const token = await login(app, 'ds-tester', USER_PASSWORD);
    const before = silent.connections;
    for (const payload of [{ id: storedId, ...stored }, { dbType: 'postgresql', dbUrl: `127.0.0.1:${silent.port}`, dbUsername: 'x', dbPassword: 'x' }]) {
      const refused = await test(payload, token);
      expect(refused.statusCode).toBe(403);
      expect(refused.envelope.success).toBe(false);
    }
    expect(silent.connections).toBe(before);
  });

  it('never returns the stored password: not in the list, the record or the export', async () => {
    const list = await call(admin, 'GET', crudPath(dataSourceEntity, 'list'));
    const byId = await call(admin, 'GET', `${crudPath(dataSourceEntity, 'queryById')}?id=${storedId}`);
    const row = await app.db.selectFrom('sys_data_source').select('db_password').where('id', '=', storedId).executeTakeFirstOrThrow();
    for (const body of [list.body, byId.body]) {
      expect(body).not.toContain(SECRET);
      expect(body).not.toContain(String(row.db_password));
      expect(body).not.toContain('dbPassword');
    }
    const exported = await injectAs(app, admin, { method: 'GET', url: api(app, crudPath(dataSourceEntity, 'exportXls')), headers: { lang: 'en-US' } });
    const cells = JSON.stringify(await sheetRows(exported.rawPayload));
    expect(cells).toContain('Reports');
    expect(cells).not.toContain(SECRET);
    expect(cells).not.toContain(String(row.db_password));
  });

  it('names the driver from the database kind: a driver sent by a client is ignored, a changed kind changes it', async () => {
    const created = await call(admin, 'POST', crudPath(dataSourceEntity, 'add'), { name: 'Kinds', code: 'kinds', ...stored, dbDriver: 'org.example.Driver' });
    expect(created.envelope.success, created.envelope.message).toBe(true);
    const id = String((created.envelope.result as { id: string }).id);
    const driver = async () => (await app.db.selectFrom('sys_data_source').select('db_driver').where('id', '=', id).executeTakeFirstOrThrow()).db_driver;
    expect(await driver()).toBe('pg');
    expect((await call(admin, 'PUT', crudPath(dataSourceEntity, 'edit'), { id, dbType: 'mysql', dbDriver: 'org.example.Driver' })).envelope.success).toBe(true);
    expect(await driver()).toBe('mysql2');
    const kinds = await call(admin, 'GET', ApiPath.dataSourceKinds);
    expect(kinds.envelope.result).toEqual(expect.arrayContaining([expect.objectContaining({ value: 'postgresql', driver: 'pg' })]));
  });

  it('keeps the stored password at its address: an edit that moves the source must carry the password again', async () => {
    const created = await call(admin, 'POST', crudPath(dataSourceEntity, 'add'), { name: 'Archive', code: 'archive', ...stored, dbPassword: SECRET });
    const id = String((created.envelope.result as { id: string }).id);
    const edit = (payload: Record<string, unknown>, lang = 'en-US') => call(admin, 'PUT', crudPath(dataSourceEntity, 'edit'), { id, ...payload }, lang);
    for (const change of [{ dbUrl: `127.0.0.1:${silent.port}` }, { dbName: 'other' }, { dbType: 'mysql' }, { dbUsername: 'someone' }]) {
      for (const lang of LANGUAGES) {
        const refused = await edit({ ...change, dbPassword: '' }, lang);
        expect(refused.envelope, JSON.stringify(change)).toMatchObject({ success: false, code: 500, message: translate(lang, 'dataSource.passwordRequired') });
      }
    }
    const row = () => app.db.selectFrom('sys_data_source').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect((await row()).db_url).toBe(stored.dbUrl);
    // other fields, and the same address, keep the stored password
    expect((await edit({ name: 'Archive 2', ...stored, dbPassword: '' })).envelope.success).toBe(true);
    expect(app.secretBox.decrypt(String((await row()).db_password))).toBe(SECRET);
    // with the password typed again the source moves
    expect((await edit({ dbUrl: `127.0.0.1:${silent.port}`, dbPassword: 'New#Secret1' })).envelope.success).toBe(true);
    expect(app.secretBox.decrypt(String((await row()).db_password))).toBe('New#Secret1');
  });
});
