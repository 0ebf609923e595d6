import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crudPath, positionEntity as position, translate, type ImportReport } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { sheetRows, uploadFile, workbookOf } from '../../test/crud-helpers.ts';
import { adminToken, api, buildTestApp, defaultTenantId, injectAs, type TestApp } from '../../test/harness.ts';
import { bombWorkbook } from '../../test/zip-bomb.ts';
import { MAX_IMPORT_INFLATED_BYTES, MAX_IMPORT_ROWS, readWorkbook } from './excel.ts';

// the bounds are the server's own, not the database's: SQLite is enough
describe('spreadsheet import and export bounds', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  const count = async () => Number((await app.db.selectFrom('sys_position').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    app = t.app;
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses a million-row zip bomb within a second, by its declared size and, when the sizes lie, while inflating', async () => {
    const honest = bombWorkbook('Position code', 1_000_000);
    const lying = bombWorkbook('Position code', 1_000_000, true);
    expect(honest.length).toBeLessThan(200_000);
    const before = process.memoryUsage().rss;
    for (const [file, key, params] of [
      [honest, 'crud.importTooLarge', { max: MAX_IMPORT_INFLATED_BYTES / 1024 / 1024 }],
      [lying, 'crud.importTooManyRows', { max: MAX_IMPORT_ROWS }],
    ] as const) {
      const started = performance.now();
      const answer = await uploadFile(app, admin, crudPath(position, 'importExcel'), file, 'ja-JP');
      expect(performance.now() - started).toBeLessThan(1000);
      expect(answer.envelope).toMatchObject({ success: false, code: 500, message: translate('ja-JP', key, params) });
    }
    // a part stored without compression is counted the same way
    const stored = await uploadFile(app, admin, crudPath(position, 'importExcel'), bombWorkbook('Position code', MAX_IMPORT_ROWS + 1000, true, true), 'en-US');
    expect(stored.envelope).toMatchObject({ success: false, message: translate('en-US', 'crud.importTooManyRows', { max: MAX_IMPORT_ROWS }) });
    // the inflated sheet (about 50 MB) was never held
    expect(process.memoryUsage().rss - before).toBeLessThan(40 * 1024 * 1024);
    expect(await count()).toBe(0);
  });

  it('stops reading at the row limit', async () => {
    const file = await workbookOf(['Position code', 'Position name', 'Rank'], Array.from({ length: MAX_IMPORT_ROWS + 1 }, (_, i) => [`R${i}`, 'n', '1']));
    const answer = await uploadFile(app, admin, crudPath(position, 'importExcel'), file, 'en-US');
    expect(answer.envelope).toMatchObject({ success: false, message: translate('en-US', 'crud.importTooManyRows', { max: MAX_IMPORT_ROWS }) });
    expect(await count()).toBe(0);
    const fine = await uploadFile(app, admin, crudPath(position, 'importExcel'), await workbookOf(['Position code', 'Position name', 'Rank'], [['S1', 'Stream one', '1']]), 'en-US');
    expect(fine.envelope.result as ImportReport).toMatchObject({ total: 1, added: 1 });
  });

  it('reads a date cell as the wall-clock time it shows, which the site’s TIME_ZONE then places', async () => {
    const withTime = { ...position, fields: { ...position.fields, startTime: { ...position.fields.code!, kind: 'datetime' as const } } };
    const file = await workbookOf(['Position code', 'startTime'], [['T1', new Date(Date.UTC(2026, 2, 2, 1, 30, 0))]]);
    const rows = await readWorkbook(withTime, file, {}, app.log);
    expect(rows[0]?.values).toMatchObject({ startTime: '2026-03-02 01:30:00' });
  });

  it('answers a truncated or malformed upload with a 400', async () => {
    const boundary = '----isps-truncated';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="data.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    for (const payload of [`${head}PK\u0003\u0004partial`, `--${boundary}\r\nContent-Disposition: form-da`, 'no boundary at all']) {
      for (const path of [crudPath(position, 'importExcel'), '/sys/common/upload']) {
        const answer = await injectAs(app, admin, { method: 'POST', url: api(app, path), payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, lang: 'zh-CN' } });
        expect(answer.statusCode, `${path}: ${answer.body}`).toBe(400);
        expect(answer.envelope.success).toBe(false);
      }
    }
    const answer = await injectAs(app, admin, { method: 'POST', url: api(app, crudPath(position, 'importExcel')), payload: `${head}PK`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, lang: 'zh-CN' } });
    expect(answer.envelope.message).toBe(translate('zh-CN', 'upload.malformed'));
  });

  it('streams a large export page by page while other requests are answered', async () => {
    const now = new Date().toISOString();
    const tenant = await defaultTenantId(app);
    const rows = Array.from({ length: 3000 }, (_, i) => ({ id: `pos-${String(i).padStart(5, '0')}`, code: `E${String(i).padStart(5, '0')}`, name: `Export ${i}`, post_rank: '1', tenant_id: tenant, create_by: 'test', create_time: now, update_by: null, update_time: null }));
    for (let i = 0; i < rows.length; i += 500) await app.db.insertInto('sys_position').values(rows.slice(i, i + 500)).execute();
    const exporting = injectAs(app, admin, { method: 'GET', url: `${api(app, crudPath(position, 'exportXls'))}?code=E*`, headers: { lang: 'en-US' } });
    const health = injectAs(app, null, { method: 'GET', url: api(app, '/health') });
    const exported = await exporting;
    expect((await health).statusCode).toBe(200);
    expect(exported.statusCode).toBe(200);
    const sheet = await sheetRows(exported.rawPayload);
    expect(sheet.length).toBe(3001);
    // one creation time: the id breaks the tie in the list's own direction (newest first), as the list pages do
    expect(sheet[1]?.[0]).toBe('E02999');
    expect(sheet[3000]?.[0]).toBe('E00000');
  });
});
