import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { crudPath, FilePath, fileStorageEntity, tenantEntity } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { createRoleWith } from '../../test/crud-helpers.ts';
import { adminToken, api, createTestUser, defaultTenantId, injectAs, login, testDialects, buildTestApp, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

type Row = { id: string; fileName: string; fileType: string; fileSize: number; url: string; createBy: string; tenantId?: string };

describe.each(await testDialects())('file storage list on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  let tenantA = '';
  let tenantB = '';
  const tokens = { managerA: '', managerB: '', readerA: '' };
  const stored: Record<'a' | 'b', string> = { a: '', b: '' };

  const call = <T = unknown>(token: string, method: 'GET' | 'POST' | 'DELETE', path: string, payload?: unknown) =>
    injectAs<T>(app, token, { method, url: api(app, path), ...(payload ? { payload } : {}), headers: { lang: 'en-US' } });
  const listed = async (token: string, query = '') => {
    const answer = await call<{ records: Row[]; total: number }>(token, 'GET', `${crudPath(fileStorageEntity, 'list')}?pageSize=100${query}`);
    expect(answer.envelope.success, answer.envelope.message).toBe(true);
    return answer.envelope.result.records;
  };
  function upload(token: string, name: string) {
    const boundary = `----isps${randomUUID()}`;
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="biz"\r\n\r\nannountCement\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`),
      PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return injectAs<string>(app, token, { method: 'POST', url: api(app, FilePath.upload), payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
  }

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
    tenantA = await defaultTenantId(app);
    tenantB = (await call<{ id: string }>(admin, 'POST', crudPath(tenantEntity, 'add'), { name: 'Files B', code: 'files_b', status: 1 })).envelope.result.id;
    const list = `${fileStorageEntity.permissionPrefix}:list`;
    await createRoleWith(app, 'file_manager', [list, `${fileStorageEntity.permissionPrefix}:delete`, `${fileStorageEntity.permissionPrefix}:export`, 'system:announcement:add']);
    await createRoleWith(app, 'file_reader', [list]);
    await createTestUser(app, 'files-a', { roles: ['file_manager'], tenantId: tenantA });
    await createTestUser(app, 'files-b', { roles: ['file_manager'], tenantId: tenantB });
    await createTestUser(app, 'files-reader', { roles: ['file_reader'], tenantId: tenantA });
    tokens.managerA = await login(app, 'files-a', USER_PASSWORD);
    tokens.managerB = await login(app, 'files-b', USER_PASSWORD);
    tokens.readerA = await login(app, 'files-reader', USER_PASSWORD);
    for (const [tag, token] of [['a', tokens.managerA], ['b', tokens.managerB]] as const) {
      const answer = await upload(token, `floor plan ${tag}.png`);
      expect(answer.envelope.success, answer.envelope.message).toBe(true);
      stored[tag] = answer.envelope.result;
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists each tenant its own files with name, type, size and uploader; the system administrator sees every tenant’s with the tenant', async () => {
    const mine = await listed(tokens.managerA);
    expect(mine.map((r) => r.url)).toContain(stored.a);
    expect(mine.map((r) => r.url)).not.toContain(stored.b);
    expect(mine.find((r) => r.url === stored.a)).toMatchObject({ fileName: 'floor plan a.png', fileType: 'png', fileSize: PNG.length, createBy: 'files-a' });
    expect((await listed(tokens.managerB)).map((r) => r.url)).toEqual([stored.b]);
    const every = await listed(admin);
    expect(every.find((r) => r.url === stored.a)?.tenantId).toBe(tenantA);
    expect(every.find((r) => r.url === stored.b)?.tenantId).toBe(tenantB);
    // searched by name
    expect((await listed(tokens.managerA, `&fileName=${encodeURIComponent('plan a')}`)).map((r) => r.url)).toEqual([stored.a]);
    expect(await listed(tokens.managerA, '&fileName=nothing-like-it')).toEqual([]);
  });

  it('downloads a listed file and exports the list', async () => {
    const download = await app.inject({ method: 'GET', url: api(app, FilePath.static.replace('*', stored.a)), headers: { 'X-Access-Token': tokens.managerA } });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PNG)).toBe(true);
    const exported = await app.inject({ method: 'GET', url: api(app, crudPath(fileStorageEntity, 'exportXls')), headers: { 'X-Access-Token': tokens.managerA, lang: 'en-US' } });
    expect(exported.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const texts = sheet.getSheetValues().flat().map(String);
    expect(texts).toContain('File name');
    expect(texts).toContain('floor plan a.png');
    expect(texts).not.toContain('floor plan b.png');
  });

  it('deletes only with the permission and only within the tenant; a delete removes the stored file and is logged', async () => {
    const row = (await listed(tokens.managerA)).find((r) => r.url === stored.a)!;
    const other = (await listed(tokens.managerB)).find((r) => r.url === stored.b)!;
    const refused = await call(tokens.readerA, 'DELETE', `${crudPath(fileStorageEntity, 'delete')}?id=${row.id}`);
    expect(refused.statusCode).toBe(403);
    const elsewhere = await call(tokens.managerA, 'DELETE', `${crudPath(fileStorageEntity, 'delete')}?id=${other.id}`);
    expect(elsewhere.envelope.success).toBe(false);
    expect(existsSync(join(app.settings.dataDir, 'upload', stored.b))).toBe(true);
    expect(existsSync(join(app.settings.dataDir, 'upload', stored.a))).toBe(true);
    const removed = await call(tokens.managerA, 'DELETE', `${crudPath(fileStorageEntity, 'delete')}?id=${row.id}`);
    expect(removed.envelope.success, removed.envelope.message).toBe(true);
    expect(existsSync(join(app.settings.dataDir, 'upload', stored.a))).toBe(false);
    expect((await listed(tokens.managerA)).map((r) => r.url)).not.toContain(stored.a);
    const logged = await app.db.selectFrom('sys_log').select(['log_params', 'username']).where('username', '=', 'files-a').where('log_params', 'like', `%log.deleted%${row.id}%`).execute();
    expect(logged.length).toBeGreaterThan(0);
  });
});
