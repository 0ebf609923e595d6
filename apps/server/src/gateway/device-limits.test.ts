import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceEventKind, deviceUpTopic } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { adminToken, type TestApp } from '../test/harness.ts';
import { EVENT_DATA_MAX_BYTES } from './event-message.ts';
import { approvedKey, buildLinkedApp, uniqueSn, until } from './test-support.ts';

/** What a device may send through the whole app (embedded broker and gateway): a 5 MB message and an oversized event store nothing. */
describe('device message limits through the app', () => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  const sims: SimDevice[] = [];

  const start = async (options: { receiptWaitMs?: number; reconnectMs?: number } = {}) => {
    const sn = uniqueSn('M');
    const sim = new SimDevice({ url: t.mqttUrl, sn, key: await approvedKey(t.app, sn, admin), kind: 'camera', ...options });
    sims.push(sim);
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, `hello of ${sn}`);
    const id = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
    return { sim, sn, id };
  };
  const storedSeqs = async (deviceId: string) => {
    await t.app.deviceGateway.flush();
    return (await t.app.db.selectFrom('sys_device_event').select('seq').where('device_id', '=', deviceId).orderBy('seq').execute()).map((r) => Number(r.seq));
  };

  beforeAll(async () => {
    t = await buildLinkedApp('sqlite');
    admin = await adminToken(t.app);
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop().catch(() => undefined)));
    await t.close();
  });

  it('refuses, counts and receipts an event whose data is over the cap, and stores the rest of its batch', async () => {
    // a receipt may overtake the device's own note of what it sent: it sends again after a second, and is told again
    const { sim, sn, id } = await start({ receiptWaitMs: 1000 });
    const refusedBefore = t.app.deviceGateway.refusedEvents;
    const big = await sim.emit(DeviceEventKind.alarm, { code: 'tamper', level: 'H', note: 'x'.repeat(EVENT_DATA_MAX_BYTES) });
    const small = await sim.emit(DeviceEventKind.alarm, { code: 'tamper', level: 'M' });
    await until(async () => (await storedSeqs(id)).includes(small.seq), 15_000, 'the small event stored');
    expect(await storedSeqs(id)).toEqual([small.seq]);
    expect(t.app.deviceGateway.refusedEvents - refusedBefore).toBeGreaterThanOrEqual(1);
    // the device is told to stop sending the refused one too
    await until(() => !sim.memory.unreceipted.has(big.seq) && !sim.memory.unreceipted.has(small.seq), 15_000, 'both receipted');

    // in a batch: the oversized events are refused, the others stored
    const events = [1, 2, 3].map((n) => ({ id: `b-${n}`, seq: 100 + n, time: Date.now(), kind: DeviceEventKind.alarm, data: { code: 'tamper', level: 'L', note: n === 2 ? 'é'.repeat(EVENT_DATA_MAX_BYTES / 2) : '' } }));
    const refusedAfterOne = t.app.deviceGateway.refusedEvents;
    await sim.publishRaw(deviceUpTopic(sn, 'event'), JSON.stringify({ id: 'batch-1', events }));
    await until(async () => (await storedSeqs(id)).length === 3, 15_000, 'the batch stored');
    expect(await storedSeqs(id)).toEqual([small.seq, 101, 103]);
    expect(t.app.deviceGateway.refusedEvents - refusedAfterOne).toBe(1);
  });

  it('disconnects a device that publishes 5 MB, and stores nothing of it', async () => {
    const { sim, sn, id } = await start({ reconnectMs: 60_000 });
    const event = { id: 'huge', seq: 1, time: Date.now(), kind: DeviceEventKind.alarm, data: { code: 'tamper', level: 'H', note: 'x'.repeat(5 * 1024 * 1024) } };
    const refusedBefore = t.app.deviceGateway.refusedEvents;
    // mqtt.js never settles a QoS 0 publish its connection lost midway
    void sim.publishRaw(deviceUpTopic(sn, 'event'), JSON.stringify(event)).catch(() => undefined);
    await until(() => !sim.online, 5000, 'the device disconnected');
    await new Promise((resolve) => setTimeout(resolve, 200));
    // never read by the gateway (only the device's last will was)
    expect(t.app.deviceGateway.refusedEvents).toBe(refusedBefore);
    expect(await storedSeqs(id)).toEqual([]);
  });
});
