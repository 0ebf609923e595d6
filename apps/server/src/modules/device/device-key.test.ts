import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_KEY_GRACE_MS, DeviceCommandKind, DeviceCommandStatus, DevicePath, SoftUpdatePath } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, uniqueSn, until } from '../../gateway/test-support.ts';
import { createRoleWith } from '../../test/crud-helpers.ts';
import { adminToken, api, createNamespace, createTestUser, injectAs, login, redisReachable, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

/** Stops a simulated device, not waiting long: one the broker refused or dropped may not end its client at once (mqtt.js). */
function stopSoon(sim: SimDevice): Promise<unknown> {
  return Promise.race([sim.stop().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 2000))]);
}

describe.each((await testDialects()).filter((d) => d !== 'mysql'))('device key rotation and revocation on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  const sims: SimDevice[] = [];

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 600_000, offlineSweepMs: 3_600_000 } });
    admin = await adminToken(t.app);
  });
  afterAll(async () => {
    await Promise.all(sims.map(stopSoon));
    await t.close();
  });

  async function onlineDevice(): Promise<{ sim: SimDevice; id: string; key: string }> {
    const sn = uniqueSn('RK');
    const key = await approvedKey(t.app, sn, admin);
    const sim = new SimDevice({ url: t.mqttUrl, sn, key, kind: 'door', reconnectMs: 60_000 });
    sims.push(sim);
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 10_000, 'device online');
    const { id } = await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow();
    return { sim, id, key };
  }

  /** Whether the broker lets `sn` sign in with `key` (a second simulated device tries). */
  async function signsIn(sn: string, key: string): Promise<boolean> {
    const probe = new SimDevice({ url: t.mqttUrl, sn, key, kind: 'door', reconnectMs: 60_000 });
    try {
      await probe.start();
      return true;
    } catch {
      return false;
    } finally {
      await stopSoon(probe);
    }
  }

  /** What the HTTP device endpoint answers to this key: 401 refused, 404 signed in (nothing was pushed to it). */
  async function downloadStatus(sn: string, key: string): Promise<number> {
    const answer = await t.app.inject({ method: 'GET', url: `${api(t.app, SoftUpdatePath.download)}?id=00000000-0000-4000-8000-000000000000`, headers: { 'x-device-sn': sn, 'x-device-key': key } });
    return answer.statusCode;
  }

  const post = (token: string, path: string, id: string, lang = 'en-US') => injectAs(t.app, token, { method: 'POST', url: api(t.app, path), payload: { id }, headers: { lang } });

  it('rotates a key over the link: the device takes the new key, the old one is refused once it has, and the new key is not kept', async () => {
    const { sim, id, key: oldKey } = await onlineDevice();
    const rotated = await post(admin, DevicePath.rotateKey, id);
    expect(rotated.envelope).toMatchObject({ success: true, message: 'A new key is sent to the device: its old key stops working once the device confirms it' });
    await until(async () => (await t.app.db.selectFrom('sys_device_command').select('status').where('device_id', '=', id).where('kind', '=', DeviceCommandKind.rotateKey).executeTakeFirst())?.status === DeviceCommandStatus.acked, 10_000, 'rotation acknowledged');
    await until(async () => (await t.app.db.selectFrom('sys_device_code').select('previous_key_hash').where('sn', '=', sim.sn).executeTakeFirstOrThrow()).previous_key_hash === null, 5_000, 'old key ended');
    expect(sim.key).not.toBe(oldKey);
    // the queue no longer holds the key it carried
    const command = await t.app.db.selectFrom('sys_device_command').select('payload').where('device_id', '=', id).where('kind', '=', DeviceCommandKind.rotateKey).executeTakeFirstOrThrow();
    expect(command.payload).toBe('null');
    expect([await downloadStatus(sim.sn, oldKey), await downloadStatus(sim.sn, sim.key)]).toEqual([401, 404]);
    expect(await signsIn(sim.sn, oldKey)).toBe(false);
    // the device signs in again with its new key
    await sim.stop();
    await sim.start();
    expect(sim.online).toBe(true);
  });

  it('keeps the old key working until the device has taken the new one, and refuses a rotation for an offline device', async () => {
    const { sim, id, key: oldKey } = await onlineDevice();
    await sim.stop();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('id', '=', id).executeTakeFirstOrThrow()).online === 0, 5_000, 'device offline');
    const refused = await post(admin, DevicePath.rotateKey, id, 'zh-CN');
    expect(refused.envelope.success).toBe(false);
    // online again: the rotation is queued; before the device acknowledges, its old key still signs it in
    await t.app.db.updateTable('sys_device').set({ online: 1 }).where('id', '=', id).execute();
    expect((await post(admin, DevicePath.rotateKey, id)).envelope.success).toBe(true);
    expect(await downloadStatus(sim.sn, oldKey)).toBe(404);
    await sim.start();
    await until(async () => sim.key !== oldKey, 10_000, 'new key taken');
    await until(async () => (await downloadStatus(sim.sn, oldKey)) === 401, 5_000, 'old key refused');
  });

  it('ends the old key after the grace when the device never takes the new one', async () => {
    const { sim, id, key: oldKey } = await onlineDevice();
    await sim.stop();
    // the device's goodbye is handled first, then the console is made to think it online: the rotation waits for it
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('id', '=', id).executeTakeFirstOrThrow()).online === 0, 5_000, 'device offline');
    await t.app.db.updateTable('sys_device').set({ online: 1 }).where('id', '=', id).execute();
    expect((await post(admin, DevicePath.rotateKey, id)).envelope.success).toBe(true);
    expect(await downloadStatus(sim.sn, oldKey)).toBe(404);
    await t.app.db.updateTable('sys_device_code').set({ previous_key_until: new Date(Date.now() - 1000).toISOString() }).where('sn', '=', sim.sn).execute();
    expect(await downloadStatus(sim.sn, oldKey)).toBe(401);
    expect(await signsIn(sim.sn, oldKey)).toBe(false);
    // the rotation that can no longer reach its device expires with the grace, and the queue keeps no key
    t.clock.advance(DEVICE_KEY_GRACE_MS + 1000);
    const rotation = () => t.app.db.selectFrom('sys_device_command').select(['status', 'payload']).where('device_id', '=', id).where('kind', '=', DeviceCommandKind.rotateKey).executeTakeFirstOrThrow();
    await until(async () => (await rotation()).status === DeviceCommandStatus.expired, 5_000, 'rotation expired');
    expect((await rotation()).payload).toBe('null');
  });

  it('revokes a key at once: the device is disconnected, cannot sign in, and the HTTP device endpoints refuse its key', async () => {
    const { sim, id, key } = await onlineDevice();
    const revoked = await post(admin, DevicePath.revokeKey, id);
    expect(revoked.envelope).toMatchObject({ success: true, message: 'The device key is revoked: the device is disconnected and cannot sign in until its code is approved again' });
    await until(() => !sim.online, 5_000, 'device disconnected');
    expect((await t.app.db.selectFrom('sys_device').select('online').where('id', '=', id).executeTakeFirstOrThrow()).online).toBe(0);
    expect(await signsIn(sim.sn, key)).toBe(false);
    expect(await downloadStatus(sim.sn, key)).toBe(401);
    const again = await post(admin, DevicePath.revokeKey, id, 'ja-JP');
    expect(again.envelope).toMatchObject({ success: false, message: 'このデバイスには、承認済みでキーが発行されたデバイスコードがありません' });
  });

  it('rotates and revokes only for holders of their permissions', async () => {
    const { id } = await onlineDevice();
    await createRoleWith(t.app, 'device_viewer', ['device:list:list']);
    await createTestUser(t.app, 'deviceviewer', { roles: ['device_viewer'] });
    const viewer = await login(t.app, 'deviceviewer', USER_PASSWORD);
    for (const path of [DevicePath.rotateKey, DevicePath.revokeKey]) {
      const answer = await post(viewer, path, id);
      expect([answer.statusCode, answer.envelope.code]).toEqual([403, 510]);
    }
  });
});

describe.runIf((await testDialects()).includes('postgres') && (await redisReachable()))('device key revocation behind a load balancer', () => {
  it('closes the device connection on the server it is connected to, whichever server revoked the key', async () => {
    const namespace = await createNamespace('postgres');
    const shared = { namespace, redis: true, config: { cacheKeyPrefix: `isps-revoke:${randomBytes(4).toString('hex')}:` }, gateway: { offlineAfterMs: 600_000, offlineSweepMs: 3_600_000 } };
    const one = await buildLinkedApp('postgres', shared);
    const two = await buildLinkedApp('postgres', shared);
    const sn = uniqueSn('RV');
    const sim = new SimDevice({ url: one.mqttUrl, sn, key: await approvedKey(one.app, sn), kind: 'door', reconnectMs: 60_000 });
    try {
      await sim.start();
      await until(async () => (await one.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 10_000, 'device online');
      const { id } = await one.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow();
      const revoked = await injectAs(two.app, await adminToken(two.app), { method: 'POST', url: api(two.app, DevicePath.revokeKey), payload: { id } });
      expect(revoked.envelope.success, revoked.envelope.message).toBe(true);
      // the device is connected to the first server's broker: the second one's revocation closes it there
      await until(() => !sim.online, 5_000, 'device disconnected from the other server');
    } finally {
      await stopSoon(sim);
      await one.app.close();
      await two.app.close();
      await namespace.drop();
    }
  });
});
