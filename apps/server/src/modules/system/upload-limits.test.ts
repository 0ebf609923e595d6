import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnnouncementPerm, crudPath, FilePath, permissionCode, positionEntity, SoftUpdatePath, SoftUpdatePerm, translate } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { createRoleWith, uploadFile, workbookOf } from '../../test/crud-helpers.ts';
import { zipOf } from '../../test/software-packages.ts';
import { api, buildInstancePair, buildTestApp, createTestUser, injectAs, login, redisReachable, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

// a 1×1 transparent png, padded to the size a test needs (only the first bytes are checked)
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const png = (bytes = PNG.length) => Buffer.concat([PNG, Buffer.alloc(Math.max(0, bytes - PNG.length))]);
const KB = 1024;

function upload(app: FastifyInstance, token: string, file: Buffer, biz?: string, lang = 'en-US') {
  const boundary = `----isps${randomUUID()}`;
  const payload = Buffer.concat([
    ...(biz ? [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="biz"\r\n\r\n${biz}\r\n`)] : []),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return injectAs<string>(app, token, { method: 'POST', url: api(app, FilePath.upload), payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, lang } });
}

/** Every file below the upload folder, the temporary folder included. */
function storedFiles(app: FastifyInstance): number {
  const root = join(app.settings.dataDir, 'upload');
  if (!existsSync(root)) return 0;
  return (readdirSync(root, { recursive: true }) as string[]).filter((p) => statSync(join(root, p)).isFile()).length;
}

const limits = { perMinute: 4, mbPerMinute: 1, tenantQuotaMb: 2 };

/* DESIGN section 5: uploads need a permission or a purpose, with per-user rate limits and per-tenant quotas (#25, item 7). */
describe.each(await testDialects())('upload permissions, rates and quotas on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  const tokens: Record<string, string> = {};
  const files = async () => Number((await app.db.selectFrom('sys_file').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await buildTestApp(dialect, { config: { uploads: limits } });
    app = t.app;
    await createRoleWith(app, 'editor', [AnnouncementPerm.list, AnnouncementPerm.add, AnnouncementPerm.edit]);
    await createRoleWith(app, 'reader', [AnnouncementPerm.list]);
    await createRoleWith(app, 'packager', [SoftUpdatePerm.list, SoftUpdatePerm.add]);
    await createRoleWith(app, 'importer', [permissionCode(positionEntity, 'list'), permissionCode(positionEntity, 'import')]);
    const quotaTenant = randomUUID();
    await app.db.insertInto('sys_tenant').values({ id: quotaTenant, name: 'Small', code: 'small-uploads', begin_date: null, end_date: null, status: 1, create_by: 'test', create_time: null, update_by: null, update_time: null }).execute();
    for (const [name, roles, tenantId] of [['nobody', [], undefined], ['reader', ['reader'], undefined], ['editor', ['editor'], undefined], ['sender', ['editor'], undefined], ['filler', ['editor'], quotaTenant], ['packager', ['packager'], quotaTenant], ['importer', ['importer'], undefined]] as const) {
      await createTestUser(app, name, { roles: [...roles], ...(tenantId ? { tenantId } : {}) });
      tokens[name] = await login(app, name, USER_PASSWORD);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses an upload from a user with no permission its purpose asks for, and stores nothing', async () => {
    const before = [await files(), storedFiles(app)];
    for (const [user, biz] of [['nobody', undefined], ['nobody', 'annountCement'], ['nobody', 'device'], ['reader', 'temp'], ['editor', 'device']] as const) {
      const answer = await upload(app, tokens[user]!, png(), biz, 'zh-CN');
      expect([answer.statusCode, answer.envelope.code, answer.envelope.message], `${user} ${biz}`).toEqual([403, 510, translate('zh-CN', 'upload.purposeRefused', { biz: biz ?? 'temp' })]);
    }
    expect([await files(), storedFiles(app)]).toEqual(before);
    // an announcement editor uploads the editor's images, and files of the origin's default folder
    for (const biz of ['annountCement', 'jeditor', undefined]) expect((await upload(app, tokens.editor!, png(), biz)).envelope.success).toBe(true);
  });

  it('refuses a user over the files or the bytes of a minute with 429, and takes them again a minute later', async () => {
    const over = { success: false, code: 429, message: translate('ja-JP', 'upload.tooManyUploads', { count: limits.perMinute, mb: limits.mbPerMinute }) };
    // the editor sent his four files of this minute above (the refused one counts: it is an attempt)
    const fifth = await upload(app, tokens.editor!, png(), 'annountCement', 'ja-JP');
    expect(fifth.statusCode).toBe(429);
    expect(fifth.envelope).toMatchObject(over);
    // bytes: 700 kB, then 400 kB more passes the 1 MB of a minute
    expect((await upload(app, tokens.sender!, png(700 * KB), 'annountCement')).envelope.success).toBe(true);
    const heavy = await upload(app, tokens.sender!, png(400 * KB), 'annountCement', 'ja-JP');
    expect([heavy.statusCode, heavy.envelope]).toMatchObject([429, over]);
    // all at once: no more than the limit gets through
    t.clock.advance(61_000);
    const together = await Promise.all(Array.from({ length: 8 }, () => upload(app, tokens.editor!, png(), 'annountCement')));
    expect(together.filter((a) => a.envelope.success)).toHaveLength(limits.perMinute);
    t.clock.advance(61_000);
    expect((await upload(app, tokens.sender!, png(400 * KB), 'annountCement')).envelope.success).toBe(true);
  });

  it('refuses a file that would take its tenant past its quota, and stores nothing', async () => {
    for (let i = 0; i < 2; i++) {
      t.clock.advance(61_000);
      const filled = await upload(app, tokens.filler!, png(900 * KB), 'annountCement');
      expect(filled.envelope.success, filled.envelope.message).toBe(true);
    }
    t.clock.advance(61_000);
    const before = [await files(), storedFiles(app)];
    const full = await upload(app, tokens.filler!, png(400 * KB), 'annountCement', 'en-US');
    expect([full.statusCode, full.envelope.code, full.envelope.message]).toEqual([200, 500, translate('en-US', 'upload.quotaExceeded', { used: 2, quota: 2 })]);
    expect([await files(), storedFiles(app)]).toEqual(before);
    // a file that fits still goes in; the quota is the tenant's: the default tenant's users are not held by it
    expect((await upload(app, tokens.filler!, png(200 * KB), 'annountCement')).envelope.success).toBe(true);
    expect((await upload(app, tokens.sender!, png(400 * KB), 'annountCement')).envelope.success).toBe(true);
  });

  it('counts software packages against the same quota and rate', async () => {
    const packages = async () => Number((await app.db.selectFrom('sys_soft_update').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const sendPackage = (version: string, bytes: number) => {
      const boundary = `----isps${randomUUID()}`;
      const apk = zipOf({ 'AndroidManifest.xml': '<manifest package="com.isps.panel"/>', 'assets/data': 'x'.repeat(bytes) });
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="version"\r\n\r\n${version}\r\n`),
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="panel.apk"\r\nContent-Type: application/octet-stream\r\n\r\n`),
        apk,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return injectAs(app, tokens.packager!, { method: 'POST', url: api(app, SoftUpdatePath.upload), payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, lang: 'en-US' } });
    };
    // the tenant keeps 2000 kB of its 2 MB: a 20 kB package fits, a 300 kB one does not
    expect((await sendPackage('1.0.0', 20 * KB)).envelope.success).toBe(true);
    const before = [await packages(), storedFiles(app)];
    const full = await sendPackage('1.0.1', 300 * KB);
    expect(full.envelope).toMatchObject({ success: false, code: 500, message: translate('en-US', 'upload.quotaExceeded', { used: 2, quota: 2 }) });
    expect([await packages(), storedFiles(app)]).toEqual(before);
    for (let i = 2; i < limits.perMinute; i++) await sendPackage(`1.0.${i}`, KB);
    expect((await sendPackage('1.1.0', KB)).statusCode).toBe(429);
  });

  it('counts spreadsheet imports against the same rate', async () => {
    const sheet = (i: number) => workbookOf(['Position code', 'Position name'], [[`rate-${dialect}-${i}`, `Rate ${i}`]]);
    for (let i = 0; i < limits.perMinute; i++) expect((await uploadFile(app, tokens.importer!, crudPath(positionEntity, 'importExcel'), await sheet(i))).envelope.success).toBe(true);
    const over = await uploadFile(app, tokens.importer!, crudPath(positionEntity, 'importExcel'), await sheet(limits.perMinute), 'ja-JP');
    expect(over.statusCode).toBe(429);
    expect(over.envelope).toMatchObject({ success: false, code: 429, message: translate('ja-JP', 'upload.tooManyUploads', { count: limits.perMinute, mb: limits.mbPerMinute }) });
  });
});

describe.runIf(await redisReachable())('upload rate limits across instances', () => {
  it('counts one user’s uploads on every instance behind the load balancer', async () => {
    const pair = await buildInstancePair();
    try {
      for (const { app } of [pair.a, pair.b]) Object.assign(app.settings, { uploads: limits });
      await createRoleWith(pair.a.app, 'editor', [AnnouncementPerm.add]);
      await createTestUser(pair.a.app, 'editor', { roles: ['editor'] });
      const token = await login(pair.a.app, 'editor', USER_PASSWORD);
      for (let i = 0; i < limits.perMinute; i++) expect((await upload(i % 2 ? pair.b.app : pair.a.app, token, png(), 'annountCement')).envelope.success).toBe(true);
      expect((await upload(pair.b.app, token, png(), 'annountCement')).statusCode).toBe(429);
    } finally {
      await pair.close();
    }
  });
});
