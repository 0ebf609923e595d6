import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPath, QuartzJobPath, crudPath, dataSourceEntity, quartzJobEntity, type ServerOption } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { createRoleWith } from '../../test/crud-helpers.ts';
import { USER_PASSWORD, adminToken, api, buildTestApp, createTestUser, injectAs, login, testDialects, type TestApp } from '../../test/harness.ts';

describe.each(await testDialects())('choices the server offers the job and data-source forms on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  const get = (url: string, lang: string, token = admin) => injectAs<(ServerOption & { driver?: string })[]>(app, token, { method: 'GET', url: api(app, url), headers: { lang } });

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists the job handlers the server runs, named in the reader language', async () => {
    const zh = (await get(QuartzJobPath.handlers, 'zh-CN')).envelope.result;
    expect(zh.map((o) => o.value).sort()).toEqual(['attendanceMonth', 'cleanExpiredSessions', 'heartbeat', 'purgeOldLogs', 'reportSchedule']);
    expect(zh.find((o) => o.value === 'cleanExpiredSessions')?.text).toBe('清理过期会话');
    const ja = (await get(QuartzJobPath.handlers, 'ja-JP')).envelope.result;
    expect(ja.find((o) => o.value === 'heartbeat')?.text).toBe('ハートビート（実行を記録）');
    expect(ja.every((o) => !/[A-Z][a-z]+[A-Z]/.test(o.text))).toBe(true);
  });

  it('lists the database kinds the server connects to, with their drivers', async () => {
    const kinds = (await get(ApiPath.dataSourceKinds, 'en-US')).envelope.result;
    expect(kinds).toEqual([
      { value: 'postgresql', text: 'PostgreSQL', driver: 'pg' },
      { value: 'mysql', text: 'MySQL', driver: 'mysql2' },
      { value: 'mariadb', text: 'MariaDB', driver: 'mysql2' },
    ]);
    expect(kinds.some((k) => /\.Driver$|^com\.|^org\./.test(String(k.driver)))).toBe(false);
  });

  it('saves a job or a data source only with a value the server offers', async () => {
    const post = (path: string, payload: Record<string, unknown>) => injectAs(app, admin, { method: 'POST', url: api(app, path), headers: { lang: 'zh-CN' }, payload });
    const job = await post(crudPath(quartzJobEntity, 'add'), { jobClassName: 'purgeOldLogs', cronExpression: '0 0 3 * * ?' });
    expect(job.envelope.success, job.envelope.message).toBe(true);
    expect((await post(crudPath(quartzJobEntity, 'add'), { jobClassName: 'com.example.Job', cronExpression: '0 0 3 * * ?' })).envelope).toMatchObject({ success: false, code: 400 });
    const source = { name: 'Archive', code: 'archive', dbUrl: 'postgresql://127.0.0.1:5432/archive', dbUsername: 'reader' };
    expect((await post(crudPath(dataSourceEntity, 'add'), { ...source, dbType: 'mariadb' })).envelope.success).toBe(true);
    expect((await post(crudPath(dataSourceEntity, 'add'), { ...source, code: 'oracle', dbType: 'oracle' })).envelope).toMatchObject({ success: false, code: 400 });
  });

  it('offers them only to readers of the screens', async () => {
    await createRoleWith(app, 'job_reader', ['system:quartzJob:list']);
    await createTestUser(app, 'jobby', { roles: ['job_reader'] });
    const jobby = await login(app, 'jobby', USER_PASSWORD);
    expect((await get(QuartzJobPath.handlers, 'en-US', jobby)).envelope.success).toBe(true);
    expect((await get(ApiPath.dataSourceKinds, 'en-US', jobby)).envelope.code).toBe(510);
  });
});
