import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarmPackageEntity, crudPath, DEVICE_PACKAGE_MAX_BYTES, devicePluginEntity, pluginDataEntity } from '@isps/contract';
import { uploadRoot } from '../../platform/files.ts';
import { adminToken, api, buildTestApp, injectAs, testDialects, type TestApp } from '../../test/harness.ts';

type Row = Record<string, unknown>;

describe.each((await testDialects()).filter((d) => d !== 'mysql'))('device plugins, plugin data and alarm packages on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  const add = (path: string, values: Row, lang = 'en-US') => injectAs<{ id: string }>(t.app, admin, { method: 'POST', url: api(t.app, path), payload: values, headers: { lang } });
  const upload = async (name: string, content: Buffer) => {
    const boundary = `----plugin${randomUUID()}`;
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n`),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const answer = await injectAs<string>(t.app, admin, { method: 'POST', url: api(t.app, '/sys/common/upload'), payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, lang: 'en-US' } });
    expect(answer.envelope.success, answer.envelope.message).toBe(true);
    return answer.envelope.result;
  };

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = await adminToken(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  it('a plugin or alarm package file is an uploaded file of at most 10 MB', async () => {
    const stored = await upload('plugin.txt', Buffer.from('plugin body'));
    expect((await add(crudPath(devicePluginEntity, 'add'), { name: 'Reader', code: 'reader', version: '1.0.0', pluginFile: stored, status: 1 })).envelope.success).toBe(true);
    expect((await add(crudPath(alarmPackageEntity, 'add'), { name: 'Siren', version: '1.0.0', packageFile: stored })).envelope.success).toBe(true);

    const missing = await add(crudPath(devicePluginEntity, 'add'), { name: 'Ghost', code: 'ghost', version: '1.0.0', pluginFile: `plugin/20260101/${'a'.repeat(32)}_ghost.txt`, status: 1 });
    expect([missing.statusCode, missing.envelope.message]).toEqual([400, 'This is not the path of an uploaded file']);
    expect((await add(crudPath(alarmPackageEntity, 'add'), { name: 'Escape', version: '1.0.0', packageFile: '../../etc/passwd' })).statusCode).toBe(400);

    // a file stored beside the upload (larger than an upload may be) is still refused by size
    const bigPath = `plugin/20260101/${'b'.repeat(32)}_big.txt`;
    await mkdir(join(uploadRoot(t.app.settings.dataDir), 'plugin', '20260101'), { recursive: true });
    await writeFile(join(uploadRoot(t.app.settings.dataDir), bigPath), Buffer.alloc(DEVICE_PACKAGE_MAX_BYTES + 1));
    const big = await add(crudPath(devicePluginEntity, 'add'), { name: 'Big', code: 'big', version: '1.0.0', pluginFile: bigPath, status: 1 }, 'zh-CN');
    expect(big.envelope).toMatchObject({ success: false });
    expect(big.envelope.message).toContain('10');
  });

  it('plugin data values are JSON objects and a key is unique per plugin and device', async () => {
    const notJson = await add(crudPath(pluginDataEntity, 'add'), { pluginCode: 'reader', dataKey: 'threshold', dataValue: '{oops' });
    expect(notJson.envelope.success).toBe(false);
    expect(notJson.envelope.message).toMatch(/JSON/i);
    expect((await add(crudPath(pluginDataEntity, 'add'), { pluginCode: 'reader', dataKey: 'threshold', dataValue: '{"level": 3}' })).envelope.success).toBe(true);
    const again = await add(crudPath(pluginDataEntity, 'add'), { pluginCode: 'reader', dataKey: 'threshold', dataValue: '{"level": 4}' }, 'ja-JP');
    expect(again.envelope).toMatchObject({ success: false, message: 'このプラグインとデバイスのこのキーは既に存在します！' });
  });
});
