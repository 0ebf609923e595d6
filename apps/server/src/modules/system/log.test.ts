import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogOperateType, LogType, crudPath, logEntity, positionEntity, type Page } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { createRoleWith, sheetRows } from '../../test/crud-helpers.ts';
import { USER_PASSWORD, adminToken, api, buildTestApp, createTestUser, injectAs, login, testDialects, type TestApp } from '../../test/harness.ts';

type Row = Record<string, unknown>;

describe.each(await testDialects())('login and operation logs on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  const list = (query: string, token = admin) => injectAs<Page<Row>>(app, token, { method: 'GET', url: `${api(app, crudPath(logEntity, 'list'))}?${query}`, headers: { lang: 'en-US' } });

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
    await createRoleWith(app, 'log_reader', ['system:log:list']);
    await createTestUser(app, 'auditor', { roles: ['log_reader'] });
    await login(app, 'auditor', USER_PASSWORD);
    for (const code of ['L1', 'L2']) {
      await injectAs(app, admin, { method: 'POST', url: api(app, crudPath(positionEntity, 'add')), payload: { code, name: code, postRank: '1' } });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists sign-ins in the login log with their own operate type', async () => {
    const logins = (await list(`logType=${LogType.login}&username=auditor`)).envelope.result.records;
    expect(logins).toHaveLength(1);
    expect(logins[0]).toMatchObject({ logType: LogType.login, operateType: LogOperateType.login, username: 'auditor' });
    expect(typeof logins[0]?.costTime).toBe('number');
  });

  it('lists changes in the operation log, searchable by content and sortable by cost time', async () => {
    const adds = (await list(`logType=${LogType.operation}&operateType=${LogOperateType.add}&content=*position*`)).envelope.result;
    expect(adds.total).toBe(2);
    const sorted = (await list(`logType=${LogType.operation}&column=costTime&order=asc`)).envelope.result.records.map((r) => Number(r.costTime));
    expect(sorted).toEqual([...sorted].sort((a, b) => a - b));
    // a sort on an unknown column or an SQL fragment is not executed
    const hostile = await list(`column=${encodeURIComponent('cost_time; drop table sys_log')}&username=${encodeURIComponent("' or 1=1 --")}`);
    expect(hostile.envelope.result.total).toBe(0);
    expect((await list('')).envelope.result.total).toBeGreaterThan(2);
  });

  it('exports the filtered log as xlsx; a reader may list but not export, and nobody may write', async () => {
    const exported = await injectAs(app, admin, { method: 'GET', url: `${api(app, crudPath(logEntity, 'exportXls'))}?logType=${LogType.login}`, headers: { lang: 'en-US' } });
    expect(exported.statusCode).toBe(200);
    const sheet = await sheetRows(exported.rawPayload);
    expect(sheet[0]).toContain('Cost time (ms)');
    expect(sheet.slice(1).every((row) => row.includes('Sign in') || row.includes('Sign out'))).toBe(true);

    const reader = await login(app, 'auditor', USER_PASSWORD);
    expect((await list('', reader)).envelope.success).toBe(true);
    const refused = await injectAs(app, reader, { method: 'GET', url: api(app, crudPath(logEntity, 'exportXls')) });
    expect(refused.envelope.code).toBe(510);
    const write = await injectAs(app, admin, { method: 'POST', url: api(app, crudPath(logEntity, 'add')), payload: { content: 'forged' } });
    expect(write.statusCode).toBe(404);
  });
});
