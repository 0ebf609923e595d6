import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceCommandKind, DeviceLogFilePath, SEND_LOG_COMMAND, SoftUpdatePath, SoftUpdateState, type SendLogCommandPayload, type SoftUpdateCommandPayload } from '@isps/contract';
import { startFleet, type Fleet } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, uniqueSn, until } from './gateway/test-support.ts';
import { startSilentServer } from './test/outbound-listeners.ts';
import { uploadSoftUpdate } from './test/software-packages.ts';
import { adminToken, api, injectAs, testDialects, type TestApp } from './test/harness.ts';

/*
 * The privilege suite's device URL cases: a URL handed to a device (where it sends its serial number and key) comes from
 * PUBLIC_URL or is a path on the server the device was provisioned with, never from a request's Host header.
 */
describe.each((await testDialects()).filter((d) => d !== 'mysql'))('device URLs on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  let listener: Awaited<ReturnType<typeof startSilentServer>>;
  let serverOrigin: string;
  let fleet: Fleet;
  let deviceId: string;

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 600_000, offlineSweepMs: 3_600_000 } });
    admin = await adminToken(t.app);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    serverOrigin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    listener = await startSilentServer();
    const sn = uniqueSn('H');
    fleet = await startFleet({ url: t.mqttUrl, keys: new Map([[sn, await approvedKey(t.app, sn, admin)]]), kinds: ['vein'], softUpdateStepMs: 5, apiUrl: `${serverOrigin}${t.app.settings.apiPrefix}` });
    await until(async () => (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).where('online', '=', 1).executeTakeFirst()) !== undefined, 10_000, 'device online');
    deviceId = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await fleet?.stop().catch(() => undefined);
    await listener?.close();
    await t?.close();
  });

  /** Pushes a new package with these request headers; answers the command's payload and the push's end. */
  async function push(version: string, headers: Record<string, string>): Promise<{ payload: SoftUpdateCommandPayload; state: number; error: string | null }> {
    const updateId = await uploadSoftUpdate(t.app, admin, version);
    const pushed = await injectAs(t.app, admin, { method: 'POST', url: api(t.app, SoftUpdatePath.push), payload: { id: updateId, deviceIds: [deviceId] }, headers });
    expect(pushed.envelope.success, pushed.envelope.message).toBe(true);
    const ended = async () => t.app.db.selectFrom('sys_soft_update_push').select(['state', 'error', 'command_id']).where('update_id', '=', updateId).executeTakeFirstOrThrow();
    const done: number[] = [SoftUpdateState.ok, SoftUpdateState.failed];
    await until(async () => done.includes((await ended()).state), 10_000, 'push ended');
    const row = await ended();
    const command = await t.app.db.selectFrom('sys_device_command').select(['payload']).where('id', '=', row.command_id).where('kind', '=', DeviceCommandKind.softUpdate).executeTakeFirstOrThrow();
    return { payload: JSON.parse(command.payload ?? 'null') as SoftUpdateCommandPayload, state: row.state, error: row.error };
  }

  it('a push sent with a forged Host header names no other host, and the device fetches from its own server only', async () => {
    const forged = `127.0.0.1:${listener.port}`;
    const result = await push('5.0.0', { host: forged, 'x-forwarded-host': forged, 'x-forwarded-proto': 'http' });
    expect(JSON.stringify(result.payload)).not.toContain(String(listener.port));
    // without PUBLIC_URL the device gets a path, which it resolves against the server it was provisioned with
    expect(result.payload.url).toBeUndefined();
    expect(result.payload.path).toMatch(new RegExp(`^${SoftUpdatePath.download.replace(/\//g, '\\/')}\\?id=`));
    expect([result.state, result.error]).toEqual([SoftUpdateState.ok, null]);
    expect(listener.connections).toBe(0);
  });

  it('with PUBLIC_URL the URL is the configured one; a device refuses a URL of another origin than its server and sends its key nowhere', async () => {
    try {
      t.app.settings.publicUrl = serverOrigin;
      const configured = await push('5.1.0', { host: `127.0.0.1:${listener.port}` });
      expect(configured.payload.url).toBe(`${serverOrigin}${t.app.settings.apiPrefix}${configured.payload.path}`);
      expect(configured.state).toBe(SoftUpdateState.ok);
      // a PUBLIC_URL naming another origin than the device's own server (a wrong or hostile setting) is not followed
      t.app.settings.publicUrl = `http://127.0.0.1:${listener.port}`;
      const elsewhere = await push('5.2.0', {});
      expect([elsewhere.state, elsewhere.error]).toEqual([SoftUpdateState.failed, 'untrusted url']);
      expect(listener.connections).toBe(0);
    } finally {
      t.app.settings.publicUrl = null;
    }
  });

  /** Asks the device for its log with these request headers; answers the command's payload and how it ended. */
  async function askLog(headers: Record<string, string>): Promise<{ payload: SendLogCommandPayload; status: string; result: string | null }> {
    const asked = await injectAs<{ commandId: string }>(t.app, admin, { method: 'POST', url: api(t.app, DeviceLogFilePath.request), payload: { deviceId }, headers });
    expect(asked.envelope.success, asked.envelope.message).toBe(true);
    const command = () => t.app.db.selectFrom('sys_device_command').select(['payload', 'status', 'result']).where('id', '=', asked.envelope.result.commandId).where('kind', '=', SEND_LOG_COMMAND).executeTakeFirstOrThrow();
    await until(async () => ['acked', 'failed'].includes((await command()).status), 10_000, 'sendLog answered');
    const row = await command();
    return { payload: JSON.parse(row.payload ?? 'null') as SendLogCommandPayload, status: row.status, result: row.result };
  }

  it('a log asked for with a forged Host header is uploaded to the device’s own server; a PUBLIC_URL of another origin is not followed', async () => {
    const forged = `127.0.0.1:${listener.port}`;
    const sent = await askLog({ host: forged, 'x-forwarded-host': forged, 'x-forwarded-proto': 'http' });
    expect(JSON.stringify(sent.payload)).not.toContain(String(listener.port));
    expect(sent.payload.url).toBeUndefined();
    expect(sent.payload.path).toBe(DeviceLogFilePath.upload);
    expect(sent.status).toBe('acked');
    try {
      t.app.settings.publicUrl = `http://127.0.0.1:${listener.port}`;
      const elsewhere = await askLog({});
      expect(elsewhere.status).toBe('failed');
      expect(elsewhere.result).toContain('untrusted url');
      expect(listener.connections).toBe(0);
    } finally {
      t.app.settings.publicUrl = null;
    }
  });
});
