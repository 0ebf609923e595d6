import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, QuartzJobPath, crudPath, entityLabel, jobLogEntity, quartzJobEntity, translate, type Page } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { manualRunTimes } from '../../db/migrations/0820-manual-run-times.ts';
import { adminToken, api, buildTestApp, injectAs, testDialects, type TestApp } from '../../test/harness.ts';

type Row = Record<string, unknown> & { id: string };

describe.each(await testDialects())('scheduled jobs on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  const call = <T = Row>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: Record<string, unknown>, lang = 'en-US') =>
    injectAs<T>(app, admin, { method, url: api(app, path), ...(payload ? { payload } : {}), headers: { lang } });
  const runs = async (jobId: string) => (await call<Page<Row>>('GET', `${crudPath(jobLogEntity, 'list')}?jobId=${jobId}&pageSize=100`)).envelope.result.records;
  let heartbeat = '';

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('validates cron expressions and handlers in each language', async () => {
    for (const lang of LANGUAGES) {
      for (const cron of ['61 * * * * ?', '* * * * *', 'every minute']) {
        const answer = await call('POST', crudPath(quartzJobEntity, 'add'), { jobClassName: 'heartbeat', cronExpression: cron }, lang);
        expect(answer.statusCode, cron).toBe(400);
        expect(answer.envelope.message).toBe(translate(lang, 'validation.cron', { field: entityLabel(lang, 'quartzJob.field.cronExpression') }));
      }
      const unknown = await call('POST', crudPath(quartzJobEntity, 'add'), { jobClassName: 'rm -rf', cronExpression: '0 0 2 * * ?' }, lang);
      expect(unknown.statusCode).toBe(400);
    }
    const added = await call<{ id: string }>('POST', crudPath(quartzJobEntity, 'add'), { jobClassName: 'heartbeat', cronExpression: '0/5 * * * * ?', description: 'Every five seconds' });
    expect(added.envelope.success).toBe(true);
    heartbeat = added.envelope.result.id;
    expect((await call('POST', crudPath(quartzJobEntity, 'add'), { jobClassName: 'heartbeat', cronExpression: '0 0 2 * * ?' })).envelope.message).toBe(translate('en-US', 'duplicate.jobClassName'));
    // a new job waits to be started
    expect((await call('GET', `${crudPath(quartzJobEntity, 'queryById')}?id=${heartbeat}`)).envelope.result.status).toBe(-1);
    expect(app.jobScheduler.isScheduled(heartbeat)).toBe(false);
  });

  it('starts, stops and runs a job once, keeping the run history', async () => {
    expect((await call('GET', `${QuartzJobPath.resume}?id=${heartbeat}`, undefined, 'zh-CN')).envelope.message).toBe(translate('zh-CN', 'quartzJob.resumed'));
    expect(app.jobScheduler.isScheduled(heartbeat)).toBe(true);
    expect((await call('GET', `${QuartzJobPath.pause}?id=${heartbeat}`)).envelope.message).toBe(translate('en-US', 'quartzJob.paused'));
    expect(app.jobScheduler.isScheduled(heartbeat)).toBe(false);
    const once = await call('GET', `${QuartzJobPath.execute}?id=${heartbeat}`);
    expect(once.envelope.message).toBe(translate('en-US', 'quartzJob.executed', { result: 'alive' }));
    // two runs by hand in the same second are two runs, each at a real time
    await call('GET', `${QuartzJobPath.execute}?id=${heartbeat}`);
    const history = await runs(heartbeat);
    expect(history).toHaveLength(2);
    for (const run of history) expect(run.fireTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(history[0]).toMatchObject({ manual: 1, success: 1, message: 'alive' });
    expect(Number(history[0]?.costMs)).toBeGreaterThanOrEqual(0);
    expect((await call('GET', `${QuartzJobPath.execute}?id=no-such-job`)).statusCode).toBe(404);
  });

  it('moves runs by hand stored with letters in their time to a free millisecond of their second', async () => {
    const row = (id: string, fireTime: string, manual: number) => ({
      id,
      job_id: heartbeat,
      fire_time: fireTime,
      manual,
      cost_ms: 1,
      success: 1,
      message: 'alive',
      instance: 'old',
      create_by: 'manual',
      create_time: '2026-01-02T03:04:05.000Z',
      update_by: null,
      update_time: null,
    });
    await app.db
      .insertInto('sys_quartz_job_log')
      .values([
        row('old-scheduled', '2026-01-02T03:04:05.000Z', 0),
        row('old-taken', '2026-01-02T03:04:05.001Z', 1),
        row('old-a', '2026-01-02T03:04:05.a3fZ', 1),
        row('old-b', '2026-01-02T03:04:05.0c1Z', 1),
      ])
      .execute();
    await manualRunTimes.up(app.db);
    const moved = await app.db.selectFrom('sys_quartz_job_log').select(['id', 'fire_time']).where('instance', '=', 'old').orderBy('id').execute();
    expect(Object.fromEntries(moved.map((run) => [run.id, run.fire_time]))).toEqual({
      'old-a': '2026-01-02T03:04:05.003Z',
      'old-b': '2026-01-02T03:04:05.002Z',
      'old-scheduled': '2026-01-02T03:04:05.000Z',
      'old-taken': '2026-01-02T03:04:05.001Z',
    });
    // a second pass finds nothing to move
    await manualRunTimes.up(app.db);
    expect(await app.db.selectFrom('sys_quartz_job_log').select(['id', 'fire_time']).where('instance', '=', 'old').orderBy('id').execute()).toEqual(moved);
    await app.db.deleteFrom('sys_quartz_job_log').where('instance', '=', 'old').execute();
  });

  it('purges logs older than the days its parameter names', async () => {
    const old = new Date(app.clock() - 40 * 86_400_000).toISOString();
    await app.db
      .insertInto('sys_log')
      .values({ id: `old-${dialect}`, log_type: 2, operate_type: 1, content: 'ancient', userid: null, username: 'x', ip: null, cost_time: 1, create_by: null, create_time: old, update_by: null, update_time: null })
      .execute();
    const job = (await call<{ id: string }>('POST', crudPath(quartzJobEntity, 'add'), { jobClassName: 'purgeOldLogs', cronExpression: '0 0 3 * * ?', parameter: '30' })).envelope.result.id;
    const answer = await call<{ message: string }>('GET', `${QuartzJobPath.execute}?id=${job}`);
    expect(answer.envelope.result.message).toMatch(/^removed [1-9]\d* log entries older than 30 days$/);
    expect(await app.db.selectFrom('sys_log').select('id').where('id', '=', `old-${dialect}`).execute()).toHaveLength(0);
  });

  it('runs each firing once when two servers share the database', async () => {
    const second = await buildTestApp(dialect, { namespace: t.namespace });
    try {
      await call('GET', `${QuartzJobPath.resume}?id=${heartbeat}`);
      await second.app.jobScheduler.sync();
      expect(second.app.jobScheduler.isScheduled(heartbeat)).toBe(true);
      // both instances wake for the same three firings; each firing runs in exactly one of them
      const firings = [0, 5000, 10_000].map((ms) => new Date(Date.UTC(2030, 0, 1, 8, 0, 0) + ms));
      const outcomes = await Promise.all(firings.flatMap((at) => [app.jobScheduler.fire(heartbeat, at), second.app.jobScheduler.fire(heartbeat, at)]));
      expect(outcomes.filter((o) => o.ran)).toHaveLength(3);
      const scheduled = (await runs(heartbeat)).filter((r) => r.manual === 0 && String(r.fireTime).startsWith('2030-01-01'));
      expect(scheduled.map((r) => r.fireTime).sort()).toEqual(firings.map((f) => f.toISOString().slice(0, 19).replace('T', ' ')));
      // and the schedule itself fires: within the next five-second slot a run appears
      await expect.poll(async () => (await runs(heartbeat)).filter((r) => r.manual === 0 && !String(r.fireTime).startsWith('2030')).length, { timeout: 12_000, interval: 500 }).toBeGreaterThan(0);
      const live = (await runs(heartbeat)).filter((r) => r.manual === 0 && !String(r.fireTime).startsWith('2030'));
      expect(new Set(live.map((r) => r.fireTime)).size).toBe(live.length);
    } finally {
      await call('GET', `${QuartzJobPath.pause}?id=${heartbeat}`);
      await second.close();
    }
  });
});
