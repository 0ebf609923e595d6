import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SimDevice } from '@isps/device-sim';
import { createNamespace, type TestApp } from '../test/harness.ts';
import { approvedKey, buildLinkedApp, freePort, uniqueSn, until } from './test-support.ts';

// The simulator's own behaviour (heartbeats, reconnecting) does not depend on the database: SQLite and the embedded broker.
describe('the device simulator keeps its devices alive', () => {
  const devices: SimDevice[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(devices.splice(0).map((d) => d.stop().catch(() => undefined)));
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const onlineOf = async (t: TestApp, sn: string) => (await t.app.db.selectFrom('sys_device').select(['online', 'session_id']).where('sn', '=', sn).executeTakeFirst()) ?? null;

  it('sends heartbeats, so a connected device stays online past several of the console’s offline windows', async () => {
    // the console's window is 40 s of its (manual) clock; its sweep looks for silent devices every 50 ms
    const t = await buildLinkedApp('sqlite', { gateway: { offlineAfterMs: 40_000, offlineSweepMs: 50 } });
    cleanups.push(t.close);
    const sn = uniqueSn('HB');
    const sim = new SimDevice({ url: t.mqttUrl, sn, key: await approvedKey(t.app, sn), kind: 'door', heartbeatMs: 100 });
    devices.push(sim);
    await sim.start();
    await until(async () => (await onlineOf(t, sn))?.online === 1, 10_000, 'hello');
    // five steps of 35 s are 175 s of the console's time, over four windows; the heartbeats go on in real time
    for (let step = 1; step <= 5; step++) {
      t.clock.advance(35_000);
      const beats = sim.heartbeats;
      await until(() => sim.heartbeats >= beats + 3, 5000, `heartbeats after step ${step}`);
      await new Promise((resolve) => setTimeout(resolve, 150)); // a few sweeps
      expect({ step, online: (await onlineOf(t, sn))?.online }).toEqual({ step, online: 1 });
    }
    expect(sim.online).toBe(true);
  });

  it('counts any message as a sign of life: a device that only sends events stays online past the offline window, and goes offline once silent', async () => {
    const t = await buildLinkedApp('sqlite', { gateway: { offlineAfterMs: 40_000, offlineSweepMs: 50 } });
    cleanups.push(t.close);
    const sn = uniqueSn('EV');
    // no heartbeats at all: only events
    const sim = new SimDevice({ url: t.mqttUrl, sn, key: await approvedKey(t.app, sn), kind: 'door', heartbeatMs: 0 });
    devices.push(sim);
    await sim.start();
    await until(async () => (await onlineOf(t, sn))?.online === 1, 10_000, 'hello');
    const lastSeen = async () => (await t.app.db.selectFrom('sys_device').select('last_seen').where('sn', '=', sn).executeTakeFirstOrThrow()).last_seen;
    // five steps of 35 s: 175 s of the console's time, over four windows, with one event in each step
    for (let step = 1; step <= 5; step++) {
      t.clock.advance(35_000);
      const before = await lastSeen();
      await sim.emit();
      await until(async () => (await lastSeen()) !== before, 5000, `last seen after the event of step ${step}`);
      await new Promise((resolve) => setTimeout(resolve, 150)); // a few sweeps
      expect({ step, online: (await onlineOf(t, sn))?.online }).toEqual({ step, online: 1 });
    }
    expect(sim.heartbeats).toBe(0);
    // silent past the window: offline
    t.clock.advance(41_000);
    await until(async () => (await onlineOf(t, sn))?.online === 0, 5000, 'offline once silent');
  });

  it('reconnects with a growing wait while its broker is gone, for as long as it runs, and says hello to the server that comes back', async () => {
    const namespace = await createNamespace('sqlite');
    cleanups.push(() => namespace.drop());
    const port = await freePort();
    const first = await buildLinkedApp('sqlite', { namespace, mqttPort: port });
    const sn = uniqueSn('RC');
    const sim = new SimDevice({ url: first.mqttUrl, sn, key: await approvedKey(first.app, sn), kind: 'door', reconnectMs: 100, reconnectMaxMs: 800 });
    devices.push(sim);
    await sim.start();
    await until(async () => (await onlineOf(first, sn))?.online === 1, 10_000, 'hello');
    const before = (await onlineOf(first, sn))!.session_id;

    // the server and its broker go away: for a second nothing listens (connections refused), then for a while the
    // port only takes connections and drops them
    await first.close();
    await until(() => !sim.online, 5000, 'the connection lost');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const tries: number[] = [];
    const dropper = createServer((socket) => {
      tries.push(Date.now());
      socket.destroy();
    });
    await new Promise<void>((resolve) => dropper.listen(port, '127.0.0.1', resolve));
    await new Promise((resolve) => setTimeout(resolve, 4000));
    await new Promise<void>((resolve) => dropper.close(() => resolve()));
    // waits of 100–150, 200–300, 400–600 ms (refused), then 800 ms each: it keeps trying, at the longest wait by now
    expect(tries.length).toBeGreaterThanOrEqual(4);
    const gaps = tries.slice(1).map((at, i) => at - tries[i]!);
    expect(Math.max(...gaps)).toBeLessThan(800 + 400);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(400 - 50);

    // a new server on the same database and broker port: the device is back on its own, with a hello of a new session
    const second = await buildLinkedApp('sqlite', { namespace, mqttPort: port });
    cleanups.push(second.close);
    await until(async () => sim.online && (await onlineOf(second, sn))?.online === 1 && (await onlineOf(second, sn))?.session_id !== before, 10_000, 'the device back online');
  });
});
