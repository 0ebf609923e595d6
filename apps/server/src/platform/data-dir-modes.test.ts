import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FilePath } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { resolveDataSourceKey, resolveTokenPepper } from '../config.ts';
import { adminToken, api, buildTestApp, createNamespace, injectAs, type TestApp } from '../test/harness.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('DATA_DIR files', () => {
  let t: TestApp;
  let app: FastifyInstance;

  beforeAll(async () => {
    const namespace = await createNamespace('sqlite');
    // a DATA_DIR an operator made by hand, open to everyone
    chmodSync(namespace.dataDir, 0o755);
    t = await buildTestApp('sqlite', { namespace });
    app = t.app;
  });
  afterAll(async () => {
    await t?.close();
    await t?.namespace.drop();
  });

  it('are readable by the server user only: database, its journal files, secrets, key and uploads', async () => {
    const admin = await adminToken(app);
    const boundary = `----isps${randomUUID()}`;
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`),
      PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await injectAs<string>(app, admin, { method: 'POST', url: api(app, FilePath.upload), payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, lang: 'en-US' } });
    expect(uploaded.envelope.success, uploaded.envelope.message).toBe(true);
    // secrets.json is written when no TOKEN_PEPPER is given; the data-source key at the first start
    resolveTokenPepper({ ...app.settings, tokenPepper: null });
    resolveDataSourceKey(app.settings, {});

    const dir = t.namespace.dataDir;
    const files = ['isps.db', 'isps.db-wal', 'isps.db-shm', 'secrets.json', 'data-source.key'].map((name) => join(dir, name));
    const uploadRoot = join(dir, 'upload');
    const below = readdirSync(uploadRoot, { recursive: true }) as string[];
    const uploadFiles = below.map((p) => join(uploadRoot, p)).filter((p) => statSync(p).isFile());
    const uploadDirs = [uploadRoot, ...below.map((p) => join(uploadRoot, p)).filter((p) => statSync(p).isDirectory())];
    expect(uploadFiles.length).toBe(1);
    expect(uploadDirs.length).toBeGreaterThanOrEqual(3);
    for (const file of [...files, ...uploadFiles]) {
      expect(existsSync(file), file).toBe(true);
      expect(modeOf(file).toString(8), file).toBe('600');
    }
    for (const folder of [dir, ...uploadDirs]) expect(modeOf(folder).toString(8), folder).toBe('700');
  });
});
