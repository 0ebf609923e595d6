import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ImportJobState,
  RealtimeCmd,
  TENANT_HEADER,
  crudPath,
  entityLabel,
  importJobPath,
  translate,
  userEntity,
  type ImportJob,
  type ImportJobProgress,
  type RealtimeMessage,
} from '@isps/contract';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { createRoleWith, postFile, uploadFile, workbookOf } from '../../test/crud-helpers.ts';
import { adminToken, api, buildTestApp, createNamespace, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

const INITIAL = 'Import#Pass5';
const header = ['user.field.username', 'user.field.realname', 'user.field.roles', 'user.field.phone'].map((label) => entityLabel('en-US', label));
/** users named prefix0, prefix1, … with one role (a role the importer holds), then the `extra` rows */
const usersSheet = (prefix: string, count: number, extra: unknown[][] = [], role = 'clerk') =>
  workbookOf(header, [...Array.from({ length: count }, (_, i) => [`${prefix}${i}`, `User ${i}`, role, null]), ...extra]);

describe.each(await testDialects())('imports as background jobs on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  let importer: string;
  let colleague: string;
  let outsider: string;
  let otherTenant: string;
  const pushes: RealtimeMessage[] = [];
  const status = (token: string, jobId: string, lang = 'en-US', headers: Record<string, string> = {}) =>
    injectAs<ImportJob>(app, token, { method: 'GET', url: `${api(app, importJobPath(userEntity, 'status'))}?jobId=${jobId}`, headers: { lang, ...headers } });
  const cancel = (token: string, jobId: string, lang = 'en-US', headers: Record<string, string> = {}) =>
    injectAs<ImportJob>(app, token, { method: 'PUT', url: api(app, importJobPath(userEntity, 'cancel')), payload: { jobId }, headers: { lang, ...headers } });
  const untilEnded = async (token: string, jobId: string) => {
    for (;;) {
      const answer = await status(token, jobId);
      if (answer.envelope.result.state !== ImportJobState.running) return answer.envelope;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const countOf = async (prefix: string) => Number((await app.db.selectFrom('sys_user').select((eb) => eb.fn.countAll().as('n')).where('username', 'like', `${prefix}%`).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
    await createRoleWith(app, 'importer', ['system:user:list', 'system:user:import']);
    await createRoleWith(app, 'clerk', ['system:user:list']);
    otherTenant = randomUUID();
    await app.db.insertInto('sys_tenant').values({ id: otherTenant, name: 'Other', code: 'other-import', begin_date: null, end_date: null, status: 1, create_by: 'test', create_time: null, update_by: null, update_time: null }).execute();
    await createTestUser(app, 'importer', { roles: ['importer'] });
    await createTestUser(app, 'colleague', { roles: ['importer'] });
    await createTestUser(app, 'outsider', { roles: ['importer'], tenantId: otherTenant });
    [importer, colleague, outsider] = [await login(app, 'importer', USER_PASSWORD), await login(app, 'colleague', USER_PASSWORD), await login(app, 'outsider', USER_PASSWORD)];
    const send = app.realtime.sendToUser.bind(app.realtime);
    vi.spyOn(app.realtime, 'sendToUser').mockImplementation(async (userId, message) => {
      if (message.cmd === RealtimeCmd.importJob) pushes.push(message);
      return send(userId, message);
    });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await t.close();
  });

  it('answers at once with a job, reports progress, hashes the one initial password once and keeps the result', async () => {
    const hash = vi.spyOn(app.hasher, 'hash');
    const file = await usersSheet('bulk', 450);
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const started = await postFile(app, admin, crudPath(userEntity, 'importExcel'), file, 'ja-JP', { password: INITIAL });
    // the origin's clients read success and message; the result is the job to follow
    expect(started.envelope).toMatchObject({ success: true, code: 200, message: translate('ja-JP', 'crud.importStarted', { total: 450 }) });
    const job = started.envelope.result as ImportJob;
    expect(job).toMatchObject({ state: ImportJobState.running, total: 450, done: 0, added: 0, failed: 0 });
    expect(await countOf('bulk')).toBe(0);
    // other requests are answered while the job runs
    const health = await injectAs(app, null, { method: 'GET', url: api(app, '/health') });
    expect(health.statusCode).toBe(200);
    const ended = await untilEnded(admin, job.jobId);
    lag.disable();
    expect(lag.max / 1e6).toBeLessThan(1000);
    expect(ended.result).toMatchObject({ jobId: job.jobId, state: ImportJobState.done, total: 450, done: 450, added: 450, failed: 0 });
    expect(ended.message).toBe(translate('en-US', 'crud.importDone', { added: 450, failed: 0 }));
    expect(ended.result.rows).toHaveLength(450);
    expect(hash).toHaveBeenCalledTimes(1);
    hash.mockRestore();
    const stored = await app.db.selectFrom('sys_user').select(['password', 'must_change_password']).where('username', 'like', 'bulk%').execute();
    expect(stored).toHaveLength(450);
    expect(new Set(stored.map((r) => r.password)).size).toBe(1);
    expect(stored.every((r) => Number(r.must_change_password) === 1)).toBe(true);
    const roles = await app.db.selectFrom('sys_user_role as ur').innerJoin('sys_user as u', 'u.id', 'ur.user_id').select('u.id').where('u.username', 'like', 'bulk%').execute();
    expect(roles).toHaveLength(450);
    expect((await login(app, 'bulk449', INITIAL)).length).toBeGreaterThan(10);
    // progress went over the real-time channel, counts only, ending with the finished job
    const mine = pushes.filter((p) => p.msgId === job.jobId).map((p) => p.data as ImportJobProgress);
    expect(mine.length).toBeGreaterThanOrEqual(1);
    expect(mine.at(-1)).toEqual({ jobId: job.jobId, entity: userEntity.name, state: ImportJobState.done, total: 450, done: 450, added: 450, failed: 0 });
    // the finished job stays readable, in the reader's language
    expect((await status(admin, job.jobId, 'zh-CN')).envelope.message).toBe(translate('zh-CN', 'crud.importDone', { added: 450, failed: 0 }));
  });

  it('reports each refused row with its reason in the caller’s language, duplicates within one file included', async () => {
    const file = await usersSheet('mixed', 3, [
      ['mixed0', 'Again in the file', 'clerk', null],
      ['bulk0', 'Taken before', 'clerk', null],
      ['mixedphone1', 'Phone one', 'clerk', '13900000001'],
      ['mixedphone2', 'Same phone', 'clerk', '13900000001'],
      ['mixedrole', 'Unknown role', 'No such role', null],
    ]);
    const answer = await uploadFile(app, admin, crudPath(userEntity, 'importExcel'), file, 'ja-JP', { password: INITIAL });
    const job = answer.envelope.result as ImportJob;
    expect(job).toMatchObject({ state: ImportJobState.done, total: 8, added: 4, failed: 4 });
    expect(answer.envelope.message).toBe(translate('ja-JP', 'crud.importDone', { added: 4, failed: 4 }));
    const refused = job.rows.filter((r) => !r.success);
    expect(refused.map((r) => r.row)).toEqual([5, 6, 8, 9]);
    expect(refused.slice(0, 3).map((r) => (r.success ? '' : r.message))).toEqual([
      translate('ja-JP', 'duplicate.userName'),
      translate('ja-JP', 'duplicate.userName'),
      translate('ja-JP', 'duplicate.phone'),
    ]);
    expect(await countOf('mixed')).toBe(4);
  });

  it('cancels a running job: the batches stored stay, whole, and are reported', async () => {
    const file = await usersSheet('stop', 1500, [], 'importer');
    const started = await postFile(app, importer, crudPath(userEntity, 'importExcel'), file, 'en-US', { password: INITIAL });
    const jobId = (started.envelope.result as ImportJob).jobId;
    // cancel once the first batch is stored
    for (;;) {
      const answer = await status(importer, jobId);
      if (answer.envelope.result.added > 0 || answer.envelope.result.state !== ImportJobState.running) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const cancelled = await cancel(importer, jobId, 'zh-CN');
    const job = cancelled.envelope.result;
    expect(job.state).toBe(ImportJobState.cancelled);
    expect(job.added).toBeGreaterThan(0);
    expect(job.added).toBeLessThan(1500);
    expect(cancelled.envelope.message).toBe(translate('zh-CN', 'crud.importCancelled', { total: 1500, done: job.done, added: job.added, failed: job.failed }));
    expect(await countOf('stop')).toBe(job.added);
    // every stored user is whole: its role link and its first data-log version are there
    const links = await app.db.selectFrom('sys_user_role as ur').innerJoin('sys_user as u', 'u.id', 'ur.user_id').select('u.id').where('u.username', 'like', 'stop%').execute();
    expect(links).toHaveLength(job.added);
    const versions = await app.db.selectFrom('sys_data_log as l').innerJoin('sys_user as u', 'u.id', 'l.data_id').select('l.id').where('u.username', 'like', 'stop%').execute();
    expect(versions).toHaveLength(job.added);
    // a second cancel answers the same ended job
    expect((await cancel(importer, jobId)).envelope.result).toMatchObject({ state: ImportJobState.cancelled, added: job.added });
  });

  it('shows a job only to its starter and to a system administrator working in its tenant', async () => {
    const answer = await postFile(app, importer, crudPath(userEntity, 'importExcel'), await usersSheet('seen', 5, [], 'importer'), 'en-US', { password: INITIAL });
    const jobId = (answer.envelope.result as ImportJob).jobId;
    await untilEnded(importer, jobId);
    expect((await status(admin, jobId)).envelope.result).toMatchObject({ state: ImportJobState.done, added: 5 });
    for (const [token, headers] of [
      [colleague, {}],
      [outsider, {}],
      [admin, { [TENANT_HEADER]: otherTenant }],
    ] as const) {
      const refused = await status(token, jobId, 'ja-JP', headers);
      expect([refused.statusCode, refused.envelope.success, refused.envelope.message]).toEqual([404, false, translate('ja-JP', 'crud.importJobMissing')]);
      expect((await cancel(token, jobId, 'en-US', headers)).statusCode).toBe(404);
    }
    expect((await status(importer, randomUUID())).statusCode).toBe(404);
    expect((await status(importer, 'x')).statusCode).toBe(404);
  });

  it('refuses a file nobody could import before any job starts', async () => {
    const noColumns = await postFile(app, admin, crudPath(userEntity, 'importExcel'), await workbookOf(['nothing known'], [['x']]), 'en-US', { password: INITIAL });
    expect(noColumns.envelope).toMatchObject({ success: false, message: translate('en-US', 'crud.importUnknownColumns') });
    const weak = await postFile(app, admin, crudPath(userEntity, 'importExcel'), await usersSheet('weak', 1), 'en-US', { password: 'weakpass' });
    expect([weak.statusCode, weak.envelope.message]).toEqual([400, translate('en-US', 'password.weak')]);
    expect(await countOf('weak')).toBe(0);
  });
});

/* Jobs live in the database (DESIGN section 9): a restart keeps them, and one left running by a dead process ends as interrupted. */
describe.each(await testDialects())('import jobs across restarts on %s', (dialect) => {
  it('a finished job is read from a new server on the same database; one a dead process left running reads as interrupted', async () => {
    const namespace = await createNamespace(dialect);
    try {
      const first = await buildTestApp(dialect, { namespace });
      let token: string;
      let jobId: string;
      const lostId = randomUUID();
      try {
        token = await adminToken(first.app);
        await createRoleWith(first.app, 'clerk', ['system:user:list']);
        const finished = await uploadFile(first.app, token, crudPath(userEntity, 'importExcel'), await usersSheet('kept', 3, [['kept0', 'Again', 'clerk', null]]), 'en-US', { password: INITIAL });
        jobId = (finished.envelope.result as ImportJob).jobId;
        expect(finished.envelope.result).toMatchObject({ state: ImportJobState.done, added: 3, failed: 1 });
        // what a server that died in the middle of a job leaves: the job still running, its heartbeat long stopped
        const admin = await first.app.db.selectFrom('sys_user').select(['id', 'tenant_id']).where('username', '=', 'admin').executeTakeFirstOrThrow();
        const longAgo = new Date(first.clock.now() - 10 * 60_000).toISOString();
        await first.app.db
          .insertInto('sys_import_job')
          .values({ id: lostId, tenant_id: admin.tenant_id, owner_id: admin.id, entity: userEntity.name, state: ImportJobState.running, total: 300, added: 100, failed: 0, cancel_requested: 0, heartbeat_at: longAgo, finished_at: null, reason: null, create_by: 'admin', create_time: longAgo, update_by: null, update_time: longAgo })
          .execute();
      } finally {
        await first.close();
      }

      const second = await buildTestApp(dialect, { namespace });
      try {
        // marked at start, before anyone asks
        expect((await second.app.db.selectFrom('sys_import_job').select(['state', 'reason']).where('id', '=', lostId).executeTakeFirstOrThrow())).toEqual({ state: ImportJobState.failed, reason: 'crud.importInterrupted' });
        const statusOf = (id: string, lang: string) => injectAs<ImportJob>(second.app, token, { method: 'GET', url: `${api(second.app, importJobPath(userEntity, 'status'))}?jobId=${id}`, headers: { lang } });
        const kept = (await statusOf(jobId, 'zh-CN')).envelope;
        expect(kept.result).toMatchObject({ jobId, state: ImportJobState.done, total: 4, done: 4, added: 3, failed: 1 });
        expect(kept.message).toBe(translate('zh-CN', 'crud.importDone', { added: 3, failed: 1 }));
        expect(kept.result.rows.map((r) => [r.row, r.success])).toEqual([[2, true], [3, true], [4, true], [5, false]]);
        expect(kept.result.rows[3]).toEqual({ row: 5, success: false, message: translate('en-US', 'duplicate.userName') });
        // the refused rows download as a spreadsheet: their number, their values as read and the reason, in the reader's language
        const download = await second.app.inject({ method: 'GET', url: `${api(second.app, importJobPath(userEntity, 'refused'))}?jobId=${jobId}`, headers: { 'X-Access-Token': token, lang: 'ja-JP' } });
        expect(download.statusCode).toBe(200);
        expect(download.headers['content-type']).toContain('spreadsheetml');
        const sheet = (await new ExcelJS.Workbook().xlsx.load(download.rawPayload as unknown as ArrayBuffer)).worksheets[0]!;
        const texts = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v)));
        expect(texts(1)[0]).toBe(translate('ja-JP', 'crud.importRowNumber'));
        expect(texts(1).at(-1)).toBe(translate('ja-JP', 'crud.importRefusalReason'));
        expect(texts(1)).toContain(entityLabel('ja-JP', 'user.field.username'));
        expect(sheet.rowCount).toBe(2);
        expect(texts(2)[0]).toBe('5');
        expect(texts(2)).toContain('kept0');
        expect(texts(2).at(-1)).toBe(translate('en-US', 'duplicate.userName'));
        for (const lang of ['zh-CN', 'en-US', 'ja-JP'] as const) {
          const lost = (await statusOf(lostId, lang)).envelope;
          expect(lost.result).toMatchObject({ state: ImportJobState.failed, total: 300, done: 100, added: 100 });
          expect(lost.message).toBe(translate(lang, 'crud.importInterrupted', { total: 300, done: 100, added: 100, failed: 0 }));
        }
      } finally {
        await second.close();
      }
    } finally {
      await namespace.drop();
    }
    // two starts of a server on a fresh database (MariaDB migrates slowly)
  }, 180_000);
});
