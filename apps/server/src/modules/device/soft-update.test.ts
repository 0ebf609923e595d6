import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarmEntity, AlarmPath, AlarmState, crudPath, DeviceEventKind, deviceRunLogEntity, RealtimeCmd, SoftUpdatePath, SoftUpdateState, softUpdateEntity, type SoftUpdateNotice, type SoftUpdatePushRow } from '@isps/contract';
import { startFleet, type Fleet } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, uniqueSn, until } from '../../gateway/test-support.ts';
import { openSocket, wsBase } from '../../platform/realtime/test-client.ts';
import { createRoleWith } from '../../test/crud-helpers.ts';
import { sampleApk as apk, tarOf, zipOf } from '../../test/software-packages.ts';
import { adminToken, api, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');

describe.each(dialects)('soft update, run logs and alarms on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  let adminId: string;
  const fleets: Fleet[] = [];

  function upload(file: Buffer, filename: string, fields: Record<string, string>, token = admin, lang = 'en-US') {
    const boundary = `----isps${Math.random().toString(16).slice(2)}`;
    const payload = Buffer.concat([
      ...Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return injectAs<{ id: string; checksum: string; fileSize: number }>(t.app, token, { method: 'POST', url: api(t.app, SoftUpdatePath.upload), payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, lang } });
  }

  async function fleetOf(count: number, options: { softUpdateFailRate?: number } = {}): Promise<{ fleet: Fleet; deviceIds: Map<string, string> }> {
    const keys = new Map<string, string>();
    for (let i = 0; i < count; i += 1) {
      const sn = uniqueSn('U');
      keys.set(sn, await approvedKey(t.app, sn, admin));
    }
    const address = t.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const fleet = await startFleet({ url: t.mqttUrl, keys, kinds: ['vein'], softUpdateStepMs: 30, apiUrl: `http://127.0.0.1:${port}${t.app.settings.apiPrefix}`, ...options });
    fleets.push(fleet);
    const sns = [...keys.keys()];
    await until(async () => (await t.app.db.selectFrom('sys_device').select('id').where('sn', 'in', sns).where('online', '=', 1).execute()).length === count, 10_000, 'fleet online');
    const rows = await t.app.db.selectFrom('sys_device').select(['id', 'sn']).where('sn', 'in', sns).execute();
    return { fleet, deviceIds: new Map(rows.map((r) => [r.sn, r.id])) };
  }

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 600_000, offlineSweepMs: 3_600_000 } });
    admin = await adminToken(t.app);
    adminId = (await t.app.db.selectFrom('sys_user').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await Promise.all(fleets.map((f) => f.stop().catch(() => undefined)));
    await t.close();
  });

  it('accepts an APK, a tar and a tar.gz by their content and refuses a text file renamed to .apk or another type, in the reader’s language', async () => {
    const tar = tarOf('firmware.bin', 'firmware 2.0');
    for (const [file, name, version] of [[apk, 'panel.apk', '1.0.0'], [tar, 'firmware.tar', '2.0.0'], [gzipSync(tar), 'firmware.tar.gz', '2.0.1'], [gzipSync(tar), 'firmware.tgz', '2.0.2']] as const) {
      const answer = await upload(file, name, { version, deviceModel: 'PV-200', updateLog: 'fixes' });
      expect(answer.envelope.success, `${name}: ${answer.envelope.message}`).toBe(true);
      expect(answer.envelope.result.fileSize).toBe(file.length);
      expect(answer.envelope.result.checksum).toMatch(/^[0-9a-f]{64}$/);
    }
    const renamed = await upload(Buffer.from('just some notes\n'), 'notes.apk', { version: '9.9.9' }, admin, 'zh-CN');
    expect(renamed.envelope).toMatchObject({ success: false, message: '文件 notes.apk 的内容与其文件类型不符' });
    // a ZIP without a manifest is no APK; gzip of something else is no tar
    const zipOnly = await upload(zipOf({ 'readme.txt': 'hello' }), 'plain.apk', { version: '9.9.8' });
    expect(zipOnly.envelope).toMatchObject({ success: false, message: 'plain.apk is not a software package: only an APK or a tar archive (.tar, .tar.gz, .tgz) can be uploaded' });
    const gzText = await upload(gzipSync(Buffer.from('x'.repeat(600))), 'text.tgz', { version: '9.9.7' }, admin, 'ja-JP');
    expect(gzText.envelope.success).toBe(false);
    expect(gzText.envelope.message).toContain('ソフトウェアパッケージではありません');
    const exe = await upload(Buffer.from('MZ'), 'tool.exe', { version: '9.9.6' });
    expect(exe.envelope.success).toBe(false);
    expect(await t.app.db.selectFrom('sys_soft_update').select('version').where('version', 'like', '9.9.%').execute()).toEqual([]);
    const again = await upload(apk, 'panel.apk', { version: '1.0.0', deviceModel: 'PV-200' });
    expect(again.envelope).toMatchObject({ success: false, message: 'This version of this device model already exists!' });
  });

  it('names a package by the file a person uploaded, with its size, and never sends where the server stores it', async () => {
    const added = await upload(apk, 'Door Panel v4.apk', { version: '4.0.0', deviceModel: 'PV-NAME' });
    expect(added.envelope.success, added.envelope.message).toBe(true);
    expect(JSON.stringify(added.envelope.result)).not.toContain('softUpdate/');
    const stored = await t.app.db.selectFrom('sys_soft_update').select('apk_file').where('id', '=', added.envelope.result.id).executeTakeFirstOrThrow();
    const list = await injectAs<{ records: Record<string, unknown>[] }>(t.app, admin, { method: 'GET', url: `${api(t.app, crudPath(softUpdateEntity, 'list'))}?deviceModel=PV-NAME` });
    expect(list.envelope.result.records).toHaveLength(1);
    expect(list.envelope.result.records[0]).toMatchObject({ version: '4.0.0', fileName: 'Door Panel v4.apk', fileSize: apk.length });
    const one = await injectAs(t.app, admin, { method: 'GET', url: `${api(t.app, crudPath(softUpdateEntity, 'queryById'))}?id=${added.envelope.result.id}` });
    for (const body of [list.body, one.body]) {
      expect(body).not.toContain(stored.apk_file);
      expect(body).not.toContain('apkFile');
    }
  });

  it('pushes a package to 20 simulated devices: each downloads it with its key, reports progress live, and ends updated or failed as the device says', async () => {
    const added = await upload(apk, 'panel.apk', { version: '3.1.0', deviceModel: 'SIM-VEIN' });
    const updateId = added.envelope.result.id;
    const { fleet, deviceIds } = await fleetOf(20, { softUpdateFailRate: 0.3 });
    const socket = await openSocket(wsBase(t), adminId, admin);
    const pushed = await injectAs<SoftUpdatePushRow[]>(t.app, admin, { method: 'POST', url: api(t.app, SoftUpdatePath.push), payload: { id: updateId, deviceIds: [...deviceIds.values()] }, headers: { lang: 'en-US' } });
    expect(pushed.envelope).toMatchObject({ success: true, message: 'Update sent to devices: 20' });
    expect(pushed.envelope.result.map((p) => p.state)).toEqual(Array(20).fill(SoftUpdateState.queued));

    const pushes = () => injectAs<SoftUpdatePushRow[]>(t.app, admin, { method: 'GET', url: `${api(t.app, SoftUpdatePath.pushes)}?id=${updateId}` });
    await until(async () => (await pushes()).envelope.result.every((p) => p.state === SoftUpdateState.ok || p.state === SoftUpdateState.failed), 15_000, 'every push ended');
    const final = (await pushes()).envelope.result;
    expect(final).toHaveLength(20);
    for (const sim of fleet.devices) {
      const outcome = [...sim.memory.updates.values()];
      expect(outcome).toHaveLength(1);
      const row = final.find((p) => p.deviceId === deviceIds.get(sim.sn))!;
      expect([row.state, row.error]).toEqual(outcome[0]!.ok ? [SoftUpdateState.ok, null] : [SoftUpdateState.failed, 'install']);
      if (outcome[0]!.ok) expect(row.progress).toBe(100);
      else expect(row.progress).toBe(40);
    }

    // the console saw progress between 0 and 100 and every final state, without asking
    await until(() => {
      const seen = new Map<string, SoftUpdatePushRow>();
      for (const m of socket.messages) if (m.cmd === RealtimeCmd.softUpdate) for (const p of (m.data as SoftUpdateNotice).pushes) seen.set(p.id, p);
      return seen.size === 20 && [...seen.values()].every((p) => p.state === SoftUpdateState.ok || p.state === SoftUpdateState.failed);
    }, 15_000, 'final states over the socket').catch((error: Error) => {
      const seen = socket.messages.filter((m) => m.cmd === RealtimeCmd.softUpdate).flatMap((m) => (m.data as SoftUpdateNotice).pushes);
      throw new Error(`${error.message}: ${JSON.stringify(seen.slice(-25))}`);
    });
    const progress = socket.messages.filter((m) => m.cmd === RealtimeCmd.softUpdate).flatMap((m) => (m.data as SoftUpdateNotice).pushes);
    expect(progress.some((p) => p.state === SoftUpdateState.running && p.progress > 0 && p.progress < 100)).toBe(true);
    await socket.close();
  });

  it('lets only a device the package was pushed to download it, with its own key', async () => {
    const added = await upload(apk, 'panel.apk', { version: '4.0.0' });
    const sn = uniqueSn('K');
    const key = await approvedKey(t.app, sn, admin);
    const url = `${api(t.app, SoftUpdatePath.download)}?id=${added.envelope.result.id}`;
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url, headers: { 'x-device-sn': sn, 'x-device-key': 'wrong' } })).statusCode).toBe(401);
    // approved, but the package was not pushed to it
    expect((await t.app.inject({ method: 'GET', url, headers: { 'x-device-sn': sn, 'x-device-key': key } })).statusCode).toBe(404);
  });

  it('stores run errors and alarms from device events once each; alarms are acknowledged then closed by holders of device:alarm:handle', async () => {
    const { fleet, deviceIds } = await fleetOf(1);
    const sim = fleet.devices[0]!;
    const deviceId = deviceIds.get(sim.sn)!;
    const error = await sim.emit(DeviceEventKind.runError, { type: 'sensor', code: 'E104', content: 'sensor read timeout', ip: '10.0.3.17' });
    await sim.publishEvent(error); // a repeated delivery
    await sim.emit(DeviceEventKind.alarm, { code: 'tamper', level: 'H' });
    type Page = { records: Array<Record<string, unknown>>; total: number };
    const list = (path: string, query: string, lang = 'en-US') => injectAs<Page>(t.app, admin, { method: 'GET', url: `${api(t.app, path)}?${query}`, headers: { lang } });
    await until(async () => (await list(crudPath(deviceRunLogEntity, 'list'), `deviceId=${deviceId}`)).envelope.result.total === 1 && (await list(crudPath(alarmEntity, 'list'), `deviceId=${deviceId}`)).envelope.result.total === 1, 15_000, 'run log and alarm');
    const [entry] = (await list(crudPath(deviceRunLogEntity, 'list'), `deviceId=${deviceId}&errorType=sensor`)).envelope.result.records;
    expect(entry).toMatchObject({ errorType: 'sensor', code: 'E104', content: 'sensor read timeout', reportIp: '10.0.3.17', state: 0 });
    expect(String(entry!.errorTime)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const exported = await injectAs(t.app, admin, { method: 'GET', url: `${api(t.app, crudPath(deviceRunLogEntity, 'exportXls'))}?deviceId=${deviceId}` });
    expect(exported.statusCode).toBe(200);

    const [alarm] = (await list(crudPath(alarmEntity, 'list'), `deviceId=${deviceId}`, 'zh-CN')).envelope.result.records;
    expect(alarm).toMatchObject({ code: 'tamper', level: 'H', state: AlarmState.open });
    await createRoleWith(t.app, 'alarm_reader', ['device:alarm:list']);
    await createTestUser(t.app, 'alarmreader', { roles: ['alarm_reader'] });
    const reader = await login(t.app, 'alarmreader', USER_PASSWORD);
    const refused = await injectAs(t.app, reader, { method: 'PUT', url: api(t.app, AlarmPath.acknowledge), payload: { id: alarm!.id } });
    expect([refused.statusCode, refused.envelope.code]).toEqual([403, 510]);
    const acknowledged = await injectAs(t.app, admin, { method: 'PUT', url: api(t.app, AlarmPath.acknowledge), payload: { id: alarm!.id }, headers: { lang: 'en-US' } });
    expect(acknowledged.envelope).toMatchObject({ success: true, message: 'The alarm is acknowledged' });
    const twice = await injectAs(t.app, admin, { method: 'PUT', url: api(t.app, AlarmPath.acknowledge), payload: { id: alarm!.id }, headers: { lang: 'ja-JP' } });
    expect(twice.envelope).toMatchObject({ success: false, message: 'このアラームは既に対応済みです' });
    const closed = await injectAs(t.app, admin, { method: 'PUT', url: api(t.app, AlarmPath.close), payload: { id: alarm!.id } });
    expect(closed.envelope.success).toBe(true);
    const [after] = (await list(crudPath(alarmEntity, 'list'), `deviceId=${deviceId}`)).envelope.result.records;
    expect(after).toMatchObject({ state: AlarmState.closed, handledBy: 'admin' });
  });
});
