import { connect as connectSocket, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { adminToken, buildTestApp, type TestApp } from '../test/harness.ts';
import { EmbeddedBroker, GATEWAY_USERNAME } from './broker.ts';
import { approvedKey, uniqueSn, until } from './test-support.ts';

/*
 * What the embedded broker holds: packets bounded before and after sign-in, retained messages only on presence topics,
 * a rate per device, and client ids tied to the device. The broker runs on its own here (no gateway), with the
 * gateway's in-process subscription recording what would reach it.
 */
describe('the embedded broker’s limits', () => {
  let t: TestApp;
  let broker: EmbeddedBroker;
  let url: string;
  let port: number;
  const warnings: string[] = [];
  /** what reached the gateway's subscription, by topic */
  const received: Array<{ topic: string; bytes: number }> = [];
  const clients: MqttClient[] = [];
  let admin: string;

  const device = async (sn: string, key: string, options: mqtt.IClientOptions = {}) => {
    const client = await mqtt.connectAsync(url, { clientId: sn, username: sn, password: key, clean: true, reconnectPeriod: 0, connectTimeout: 5000, ...options });
    clients.push(client);
    return client;
  };
  /** the CONNACK refusal a sign-in gets (mqtt.js names its return code), or 'accepted' */
  const signIn = async (options: mqtt.IClientOptions): Promise<string> => {
    try {
      const client = await mqtt.connectAsync(url, { clean: true, reconnectPeriod: 0, connectTimeout: 5000, ...options });
      clients.push(client);
      return 'accepted';
    } catch (error) {
      return (error as { code?: number }).code === undefined ? String(error) : `refused ${(error as { code: number }).code}`;
    }
  };
  const closed = (client: MqttClient) => new Promise<void>((resolve) => (client.connected ? client.once('close', () => resolve()) : resolve()));

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    admin = await adminToken(t.app);
    broker = new EmbeddedBroker({
      db: t.app.db,
      port: 0,
      host: '127.0.0.1',
      log: { warn: (_obj, msg) => void warnings.push(msg) },
      limits: { messagesPerSecond: 10, burst: 20 },
    });
    port = await broker.listen();
    url = `mqtt://127.0.0.1:${port}`;
    await broker.inProcessClient().subscribe('isps/+/up/#', (topic, payload) => void received.push({ topic, bytes: payload.length }));
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.endAsync(true).catch(() => undefined)));
    received.length = 0;
  });
  afterAll(async () => {
    await broker?.close();
    await t?.close();
  });

  it('closes a connection whose CONNECT declares 200 MB at once, holding none of it', async () => {
    // a fixed header declaring 200 MB (remaining length 0x80 0x80 0x80 0x64), then 8 MB of it
    const junk = Buffer.alloc(8 * 1024 * 1024, 0x61);
    const header = Buffer.from([0x10, 0x80, 0x80, 0x80, 0x64]);
    const before = process.memoryUsage();
    const started = performance.now();
    const sockets: Socket[] = [];
    const ends = Array.from({ length: 3 }, () => {
      const socket = connectSocket({ host: '127.0.0.1', port });
      sockets.push(socket);
      socket.on('error', () => undefined);
      socket.on('connect', () => {
        socket.write(header);
        socket.write(junk);
      });
      return new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now() - started)));
    });
    const timeout = new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), 3000).unref());
    const waited = await Promise.race([Promise.all(ends), timeout]);
    for (const socket of sockets) socket.destroy();
    expect(waited, 'every socket closed by the server').not.toBe('open');
    expect(Math.max(...(waited as number[]))).toBeLessThan(2000);
    const after = process.memoryUsage();
    // three sockets sent 24 MB: the server read a chunk of each at most
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(8 * 1024 * 1024);
    expect(broker.refused.oversized).toBeGreaterThanOrEqual(3);
    expect(warnings).toContain('MQTT packet over the size limit: connection closed');
  });

  it('disconnects a signed-in device that publishes 5 MB: nothing of it reaches the gateway', async () => {
    const sn = uniqueSn('B');
    const client = await device(sn, await approvedKey(t.app, sn, admin));
    const refusedBefore = broker.refused.oversized;
    // within the limit (256 kB by default) a message goes through
    await client.publishAsync(`isps/${sn}/up/event`, Buffer.alloc(200 * 1024, 0x20), { qos: 1 });
    await until(() => received.some((r) => r.topic === `isps/${sn}/up/event`), 5000, 'the 200 kB message');
    received.length = 0;
    const gone = closed(client);
    client.publish(`isps/${sn}/up/event`, Buffer.alloc(5 * 1024 * 1024, 0x20), { qos: 1 }, () => undefined);
    await gone;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received).toEqual([]);
    expect(broker.refused.oversized).toBe(refusedBefore + 1);
  });

  it('keeps a retained message only on the device’s own presence topic, and a small one', async () => {
    const sn = uniqueSn('R');
    const client = await device(sn, await approvedKey(t.app, sn, admin));
    const presence = JSON.stringify({ id: 'p-1', sessionId: 's-1', online: false, reason: 'disconnect' });
    await client.publishAsync(`isps/${sn}/up/event`, Buffer.alloc(50 * 1024, 0x20), { qos: 1, retain: true });
    await client.publishAsync(`isps/${sn}/up/heartbeat`, '{"id":"h-1","time":1}', { qos: 1, retain: true });
    await client.publishAsync(`isps/${sn}/up/presence`, presence, { qos: 1, retain: true });
    // the messages themselves still go through, as not retained
    await until(() => received.filter((r) => r.topic.startsWith(`isps/${sn}/`)).length === 3, 5000, 'three messages');

    // what a subscriber gets as retained: the gateway's own client over a socket reads every topic
    const reader = await mqtt.connectAsync(url, { clientId: '$isps-gateway-test', username: GATEWAY_USERNAME, password: broker.internalPassword, clean: true, reconnectPeriod: 0 });
    clients.push(reader);
    const retained: string[] = [];
    reader.on('message', (topic, _payload, packet) => {
      if (packet.retain) retained.push(topic);
    });
    await reader.subscribeAsync(`isps/${sn}/#`, { qos: 1 });
    await until(() => retained.length > 0, 5000, 'the retained presence');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(retained).toEqual([`isps/${sn}/up/presence`]);

    // a presence too large to keep is not retained either: the earlier one stays
    await client.publishAsync(`isps/${sn}/up/presence`, JSON.stringify({ id: 'p-2', sessionId: 's-2', online: false, reason: 'x'.repeat(2000) }), { qos: 1, retain: true });
    const second = await mqtt.connectAsync(url, { clientId: '$isps-gateway-test2', username: GATEWAY_USERNAME, password: broker.internalPassword, clean: true, reconnectPeriod: 0 });
    clients.push(second);
    const kept: string[] = [];
    second.on('message', (_topic, payload, packet) => {
      if (packet.retain) kept.push(payload.toString());
    });
    await second.subscribeAsync(`isps/${sn}/#`, { qos: 1 });
    await until(() => kept.length > 0, 5000, 'the retained presence');
    expect(kept).toEqual([presence]);
    expect(broker.refused.retainRefused).toBeGreaterThanOrEqual(3);
  });

  it('drops a device’s messages over its rate and keeps its connection', async () => {
    const sn = uniqueSn('L');
    const client = await device(sn, await approvedKey(t.app, sn, admin));
    const droppedBefore = broker.refused.rateLimited;
    const started = performance.now();
    for (let i = 0; i < 100; i += 1) await client.publishAsync(`isps/${sn}/up/heartbeat`, `{"id":"h-${i}","time":${i}}`, { qos: 1 });
    const elapsed = (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const through = received.filter((r) => r.topic === `isps/${sn}/up/heartbeat`).length;
    // a burst of 20, then 10 a second
    expect(through).toBeGreaterThanOrEqual(20);
    expect(through).toBeLessThanOrEqual(20 + Math.ceil(elapsed * 10) + 1);
    expect(broker.refused.rateLimited - droppedBefore).toBe(100 - through);
    expect(client.connected).toBe(true);
    // the bucket fills again
    await new Promise((resolve) => setTimeout(resolve, 300));
    await client.publishAsync(`isps/${sn}/up/heartbeat`, '{"id":"h-late","time":1}', { qos: 1 });
    await until(() => received.filter((r) => r.topic === `isps/${sn}/up/heartbeat`).length === through + 1, 5000, 'a message after the wait');
  });

  it('accepts only the device’s own serial number as its client id, and the gateway client only an id no device can have', async () => {
    const [snA, snB] = [uniqueSn('A'), uniqueSn('B')];
    const [keyA, keyB] = [await approvedKey(t.app, snA, admin), await approvedKey(t.app, snB, admin)];
    const a = await device(snA, keyA);
    let aClosed = false;
    a.on('close', () => (aClosed = true));
    const refusedBefore = broker.refused.clientId;

    // B under A's client id is refused (identifier rejected), and A stays connected
    expect(await signIn({ clientId: snA, username: snB, password: keyB })).toBe('refused 2');
    expect(await signIn({ clientId: `${snB}-x`, username: snB, password: keyB })).toBe('refused 2');
    expect(await signIn({ clientId: '', username: snB, password: keyB })).toBe('refused 2');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(aClosed).toBe(false);
    expect(a.connected).toBe(true);
    expect(broker.refused.clientId - refusedBefore).toBe(3);
    expect(await signIn({ clientId: snB, username: snB, password: keyB })).toBe('accepted');
    // a wrong key under the right id is still a bad password
    expect(await signIn({ clientId: snB, username: snB, password: keyA })).toBe('refused 4');

    // the gateway's own client takes an id no serial number can be
    expect(await signIn({ clientId: snA, username: GATEWAY_USERNAME, password: broker.internalPassword })).toBe('refused 2');
    expect(a.connected).toBe(true);
    expect(await signIn({ clientId: '$isps-gateway-1', username: GATEWAY_USERNAME, password: broker.internalPassword })).toBe('accepted');

    // the device itself may replace its own connection (a reconnect before the old one timed out)
    const again = await device(snA, keyA);
    await until(() => aClosed, 5000, 'the replaced connection closed');
    expect(again.connected).toBe(true);
  });
});
