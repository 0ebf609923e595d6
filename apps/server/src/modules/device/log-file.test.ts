import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crudPath, DeviceLogFilePath, deviceLogFileEntity, SEND_LOG_COMMAND, type SendLogCommandPayload } from '@isps/contract';
import { startFleet, type Fleet } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, uniqueSn, until } from '../../gateway/test-support.ts';
import { createRoleWith } from '../../test/crud-helpers.ts';
import { adminToken, api, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');

describe.each(dialects)('device log files on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  let fleet: Fleet;
  const sn = uniqueSn('L');
  const otherSn = uniqueSn('L');
  const keys = new Map<string, string>();
  let deviceId = '';
  const logText = 'boot ok\nreader 2 offline\n';

  function upload(headers: Record<string, string>, content = 'a log line\n', name = 'device.log') {
    const boundary = `----isps${Math.random().toString(16).slice(2)}`;
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n`),
      Buffer.from(content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return injectAs<{ id: string }>(t.app, null, { method: 'POST', url: api(t.app, DeviceLogFilePath.upload), payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, lang: 'en-US', ...headers } });
  }

  async function ask(token = admin) {
    return injectAs<{ commandId: string }>(t.app, token, { method: 'POST', url: api(t.app, DeviceLogFilePath.request), payload: { deviceId }, headers: { lang: 'en-US' } });
  }

  async function tokenOf(commandId: string): Promise<string> {
    const row = await t.app.db.selectFrom('sys_device_command').select(['payload', 'kind']).where('id', '=', commandId).executeTakeFirstOrThrow();
    expect(row.kind).toBe(SEND_LOG_COMMAND);
    return (JSON.parse(row.payload ?? '{}') as SendLogCommandPayload).token;
  }

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 600_000, offlineSweepMs: 3_600_000 } });
    admin = await adminToken(t.app);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    keys.set(sn, await approvedKey(t.app, sn, admin));
    keys.set(otherSn, await approvedKey(t.app, otherSn, admin));
    const address = t.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    fleet = await startFleet({ url: t.mqttUrl, keys, kinds: ['door'], apiUrl: `http://127.0.0.1:${port}${t.app.settings.apiPrefix}`, logFile: { name: 'door.log', content: logText } });
    await until(async () => (await t.app.db.selectFrom('sys_device').select('id').where('sn', 'in', [sn, otherSn]).where('online', '=', 1).execute()).length === 2, 10_000, 'devices online');
    deviceId = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await fleet?.stop().catch(() => undefined);
    await t.close();
  });

  it('a device asked for its log uploads it with its key and one-time token; the list shows it, it downloads, and a delete removes the stored file', async () => {
    const asked = await ask();
    expect(asked.envelope).toMatchObject({ success: true, message: 'The device was asked for its log file' });
    const commandId = asked.envelope.result.commandId;
    await until(async () => (await t.app.db.selectFrom('sys_device_command').select('status').where('id', '=', commandId).executeTakeFirst())?.status === 'acked', 10_000, 'sendLog acknowledged');
    const list = await injectAs<{ records: Array<Record<string, unknown>> }>(t.app, admin, { method: 'GET', url: `${api(t.app, crudPath(deviceLogFileEntity, 'list'))}?deviceId=${deviceId}` });
    expect(list.envelope.success).toBe(true);
    const [row] = list.envelope.result.records;
    expect(row).toMatchObject({ deviceId, fileName: 'door.log', fileSize: Buffer.byteLength(logText) });
    const path = String(row!.filePath);
    const download = await t.app.inject({ method: 'GET', url: api(t.app, `/sys/common/static/${path}`), headers: { 'x-access-token': admin } });
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe(logText);
    // the asking is in the operation log
    const logged = await t.app.db.selectFrom('sys_log').select('log_params').where('log_params', 'like', '%log.deviceLogRequested%').execute();
    expect(logged.length).toBeGreaterThan(0);
    // the same token again is refused: it was used
    const reused = await upload({ 'x-device-sn': sn, 'x-device-key': keys.get(sn)!, 'x-upload-token': await tokenOf(commandId) });
    expect(reused.statusCode).toBe(403);
    expect(reused.envelope).toMatchObject({ success: false, message: 'This log upload was not asked for, was already made or has expired' });

    const removed = await injectAs(t.app, admin, { method: 'DELETE', url: `${api(t.app, crudPath(deviceLogFileEntity, 'delete'))}?id=${String(row!.id)}` });
    expect(removed.envelope.success).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: api(t.app, `/sys/common/static/${path}`) })).statusCode).toBe(404);
    expect(await t.app.db.selectFrom('sys_file').select('id').where('file_path', '=', path).execute()).toEqual([]);
  });

  it('refuses an upload with a wrong key, from another device, with an expired or no token, and of a file that is no log', async () => {
    // the device is asked, but the fleet is stopped first so the token stays unused for the checks
    await fleet.stop();
    const asked = await ask();
    const token = await tokenOf(asked.envelope.result.commandId);
    const wrongKey = await upload({ 'x-device-sn': sn, 'x-device-key': 'not-the-key', 'x-upload-token': token });
    expect(wrongKey.statusCode).toBe(401);
    const otherDevice = await upload({ 'x-device-sn': otherSn, 'x-device-key': keys.get(otherSn)!, 'x-upload-token': token });
    expect(otherDevice.statusCode).toBe(403);
    const noToken = await upload({ 'x-device-sn': sn, 'x-device-key': keys.get(sn)! });
    expect(noToken.statusCode).toBe(403);
    const notLog = await upload({ 'x-device-sn': sn, 'x-device-key': keys.get(sn)!, 'x-upload-token': token }, 'MZ', 'tool.exe');
    expect(notLog.envelope).toMatchObject({ success: false, message: 'tool.exe is not a log file: only .txt, .log or .zip files can be uploaded' });

    const late = await ask();
    const lateToken = await tokenOf(late.envelope.result.commandId);
    await t.app.db.updateTable('sys_device_log_request').set({ expire_time: new Date(t.app.clock() - 1000).toISOString() }).where('command_id', '=', late.envelope.result.commandId).execute();
    const expired = await upload({ 'x-device-sn': sn, 'x-device-key': keys.get(sn)!, 'x-upload-token': lateToken });
    expect(expired.statusCode).toBe(403);

    const fresh = await ask();
    const ok = await upload({ 'x-device-sn': sn, 'x-device-key': keys.get(sn)!, 'x-upload-token': await tokenOf(fresh.envelope.result.commandId) }, 'line\n', 'run.txt');
    expect(ok.envelope.success).toBe(true);
    const rows = await t.app.db.selectFrom('sys_device_log_file').select('file_name').where('device_id', '=', deviceId).execute();
    expect(rows.map((r) => r.file_name)).toEqual(['run.txt']);
  });

  it('asks a device for its log only with the permission, and only for a device of the caller’s tenant', async () => {
    await createRoleWith(t.app, 'log_reader', [`${deviceLogFileEntity.permissionPrefix}:list`]);
    await createTestUser(t.app, 'log_reader_user', { roles: ['log_reader'] });
    const reader = await login(t.app, 'log_reader_user', USER_PASSWORD);
    const refused = await ask(reader);
    expect(refused.statusCode).toBe(403);
    const missing = await injectAs(t.app, admin, { method: 'POST', url: api(t.app, DeviceLogFilePath.request), payload: { deviceId: '00000000-0000-4000-8000-000000000000' } });
    expect(missing.envelope.success).toBe(false);
  });
});
