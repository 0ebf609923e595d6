import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPath, TOKEN_HEADER, checkRuleEntity, crudPath, positionEntity, translate } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { adminToken, api, buildTestApp, defaultTenantId, type TestApp } from './test/harness.ts';
import { bombWorkbook } from './test/zip-bomb.ts';

/** Sends one request over the real port and answers its status, envelope and how long it took. */
async function timed(url: string, init: RequestInit = {}) {
  const started = performance.now();
  const response = await fetch(url, init);
  const body = (await response.json()) as { success: boolean; message: string };
  return { status: response.status, body, ms: performance.now() - started };
}

// a pathological request must not hold the event loop: the health check sent while it runs still answers at once
/**
 * How long a health check may wait beside heavy work. A held event loop shows as seconds (a backtracking pattern, a
 * sheet parsed in one go); on a busy two-core machine running other suites beside this one, a free loop still
 * answers in a few hundred milliseconds at worst.
 */
const ANSWERED_MS = 500;
/**
 * How much the process may grow while the requests of one test work (25 and 16 MB here): a million-row workbook read
 * whole, or a 20,000-row export held in memory, would take far more. Measured from the test's start, not as the
 * process's whole size: a test worker keeps the modules and heap of the files it ran before (isolate: false), and a
 * worker that had run other files was over 400 MB with this file's requests bounded.
 */
const GROWTH_BOUND = 100 * 1024 * 1024;
const grownSince = (rss: number) => {
  const grown = process.memoryUsage().rss - rss;
  console.log(`rss grew ${(grown / 1024 / 1024).toFixed(0)} MB`);
  return grown;
};

describe('no request stalls the server', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let base: string;
  let headers: Record<string, string>;

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    app = t.app;
    headers = { [TOKEN_HEADER]: await adminToken(app), lang: 'en-US' };
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await t.close();
  });

  /** Runs `heavy` and, 20 ms into it, a health check; both are timed. */
  async function besideHealth<T>(heavy: () => Promise<T>): Promise<{ result: T; ms: number; healthMs: number }> {
    const started = performance.now();
    const running = heavy();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const health = await timed(`${base}${api(app, ApiPath.health)}`);
    expect(health.status).toBe(200);
    const result = await running;
    return { result, ms: performance.now() - started, healthMs: health.ms };
  }

  it('checks a catastrophic-backtracking pattern in linear time', async () => {
    const rules = { localRules: [], globalRules: [{ pattern: '(a+)+$', message: 'Letters a only', priority: 1 }] };
    const saved = await besideHealth(() =>
      timed(`${base}${api(app, crudPath(checkRuleEntity, 'add'))}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ ruleName: 'Only a', ruleCode: 'only_a', ruleJson: JSON.stringify(rules) }),
      }),
    );
    expect(saved.result.body.success, saved.result.body.message).toBe(true);
    expect(saved.ms).toBeLessThan(1000);
    expect(saved.healthMs).toBeLessThan(ANSWERED_MS);
    for (const value of [`${'a'.repeat(40)}!`, `${'a'.repeat(999)}!`]) {
      const checked = await besideHealth(() => timed(`${base}${api(app, ApiPath.checkRuleByCode)}?ruleCode=only_a&value=${value}`, { headers }));
      expect(checked.result.body).toMatchObject({ success: false, message: 'Letters a only' });
      expect(checked.ms).toBeLessThan(1000);
      expect(checked.healthMs).toBeLessThan(ANSWERED_MS);
    }
    // a set of patterns that would take seconds to compile is refused before it is compiled
    const heavy = { globalRules: Array.from({ length: 100 }, (_, i) => ({ pattern: `${'(?:[\\s\\S]{1,1000})'.repeat(24)}${i}`, message: 'm', priority: 1 })) };
    const tooHeavy = await besideHealth(() =>
      timed(`${base}${api(app, crudPath(checkRuleEntity, 'add'))}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ ruleName: 'Heavy', ruleCode: 'heavy', ruleJson: JSON.stringify(heavy) }),
      }),
    );
    expect(tooHeavy.result.status).toBe(400);
    expect(tooHeavy.ms).toBeLessThan(1000);
    expect(tooHeavy.healthMs).toBeLessThan(ANSWERED_MS);
    const refused = await timed(`${base}${api(app, crudPath(checkRuleEntity, 'add'))}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ ruleName: 'Twice', ruleCode: 'twice', ruleJson: JSON.stringify({ globalRules: [{ pattern: '(a)\\1', message: 'm', priority: 1 }] }) }),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain(translate('en-US', 'validation.regexUnsupported', { field: '' }).trim());
  });

  it('refuses a million-row workbook within a second while the server keeps answering, in bounded memory', async () => {
    const before = process.memoryUsage().rss;
    for (const lie of [false, true]) {
      const file = bombWorkbook('Position code', 1_000_000, lie);
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(file)]), 'bomb.xlsx');
      const imported = await besideHealth(() => timed(`${base}${api(app, crudPath(positionEntity, 'importExcel'))}`, { method: 'POST', headers, body: form }));
      expect(imported.result.body.success).toBe(false);
      expect(imported.result.body.message).toMatch(/10000|32 MB/);
      expect(imported.ms).toBeLessThan(1000);
      expect(imported.healthMs).toBeLessThan(ANSWERED_MS);
    }
    expect(grownSince(before)).toBeLessThan(GROWTH_BOUND);
  });

  it('answers other requests while a large export streams, page by page', async () => {
    const tenant = await defaultTenantId(app);
    const now = new Date().toISOString();
    for (let i = 0; i < 20_000; i += 1000) {
      const rows = Array.from({ length: 1000 }, (_, j) => ({ id: `stall-${i + j}`, code: `S${String(i + j).padStart(6, '0')}`, name: `Stall ${i + j}`, post_rank: '1', tenant_id: tenant, create_by: 'test', create_time: now, update_by: null, update_time: null }));
      await app.db.insertInto('sys_position').values(rows).execute();
    }
    const before = process.memoryUsage().rss;
    const started = performance.now();
    let headersMs = 0;
    const exporting = fetch(`${base}${api(app, crudPath(positionEntity, 'exportXls'))}?code=S*`, { headers }).then(async (r) => {
      headersMs = performance.now() - started;
      return { status: r.status, size: (await r.arrayBuffer()).byteLength };
    });
    const healthTimes: number[] = [];
    let done = false;
    void exporting.finally(() => (done = true));
    while (!done) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      healthTimes.push((await timed(`${base}${api(app, ApiPath.health)}`)).ms);
    }
    const exported = await exporting;
    expect(exported.status).toBe(200);
    expect(exported.size).toBeGreaterThan(100_000);
    // the sheet streams: its first bytes left long before the last row was written, and the health check was answered throughout
    const totalMs = performance.now() - started;
    expect(totalMs).toBeGreaterThan(200);
    expect(headersMs).toBeLessThan(totalMs / 2);
    expect(healthTimes.length).toBeGreaterThan(2);
    expect(Math.max(...healthTimes)).toBeLessThan(ANSWERED_MS);
    expect(grownSince(before)).toBeLessThan(GROWTH_BOUND);
  });
});
