import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ALARM_CODES, DeviceEventKind, type DeviceEvent } from '@isps/contract';
import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nextAlarmDelayMs, quakeReading, SimDevice } from './device.ts';
import { startFleet, type Fleet } from './fleet.ts';
import { runPromptCommand } from './prompt.ts';
import { sessionToken, signIn } from './sign-in.ts';

/** The local Mosquitto (as the server's external-broker suites use it); each run on its own topic root. */
const BROKER_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';

describe('alarm rate and quake readings', () => {
  it('waits a random time between alarms whose mean is an hour over the rate', () => {
    // the uniform numbers of [0, 1) on a fine grid stand for many random draws
    const draws = Array.from({ length: 10_000 }, (_, i) => (i + 0.5) / 10_000);
    const mean = draws.reduce((sum, r) => sum + nextAlarmDelayMs(0.25, r), 0) / draws.length;
    expect(mean / 3_600_000).toBeCloseTo(4, 1);
    expect(nextAlarmDelayMs(0.25, 0)).toBeCloseTo(0);
  });

  it('reports a quake of a given intensity with the ground acceleration of its band', () => {
    expect(quakeReading(7).intensity).toBe(7);
    // intensity VII: 0.90-1.77 m/s²
    expect(quakeReading(7).pga * 9.80665).toBeGreaterThan(0.9);
    expect(quakeReading(7).pga * 9.80665).toBeLessThan(1.77);
    expect(quakeReading(15).intensity).toBe(12);
    expect(quakeReading(0)).toEqual({ pga: 0.001, intensity: 0 });
  });
});

describe('simulated devices on a broker', () => {
  const root = `isps-sim${randomBytes(4).toString('hex')}`;
  const seen: Array<{ sn: string; event: DeviceEvent }> = [];
  let listener: mqtt.MqttClient;
  let fleet: Fleet | null = null;
  const devices: SimDevice[] = [];

  beforeAll(async () => {
    listener = await mqtt.connectAsync(BROKER_URL, { clientId: `sim-test-${randomBytes(4).toString('hex')}`, reconnectPeriod: 0 });
    listener.on('message', (topic, payload) => {
      const body = JSON.parse(payload.toString()) as DeviceEvent | { events: DeviceEvent[] };
      for (const event of 'events' in body ? body.events : [body]) seen.push({ sn: topic.split('/')[1]!, event });
    });
    await listener.subscribeAsync(`${root}/+/up/event`, { qos: 1 });
  });
  afterEach(async () => {
    await fleet?.stop();
    fleet = null;
    await Promise.all(devices.splice(0).map((d) => d.stop()));
  });
  afterAll(async () => {
    await listener.endAsync();
  });
  const until = async (check: () => boolean, what: string) => {
    const deadline = Date.now() + 10_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`${what} not seen`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const alarmsOf = (sn: string) => seen.filter((s) => s.sn === sn && s.event.kind === DeviceEventKind.alarm);

  it('says in its hello what it is and the doors a door controller drives when given doors, and neither otherwise', async () => {
    const hellos = new Map<string, Record<string, unknown>>();
    const watcher = await mqtt.connectAsync(BROKER_URL, { clientId: `sim-hello-${randomBytes(4).toString('hex')}`, reconnectPeriod: 0 });
    watcher.on('message', (topic, payload) => hellos.set(topic.split('/')[1]!, JSON.parse(payload.toString()) as Record<string, unknown>));
    await watcher.subscribeAsync(`${root}/+/up/hello`, { qos: 1 });
    try {
      const make = (kind: 'door' | 'camera', doors?: number) =>
        new SimDevice({ url: BROKER_URL, sn: `H-${randomBytes(3).toString('hex')}`, key: 'k', kind, topicRoot: root, heartbeatMs: 0, ...(doors === undefined ? {} : { doors }) });
      const controller = make('door', 2);
      const camera = make('camera', 2);
      const older = make('door');
      devices.push(controller, camera, older);
      await Promise.all(devices.map((d) => d.start()));
      await until(() => hellos.size >= 3, 'three hellos');
      expect(hellos.get(controller.sn)).toMatchObject({ kind: 'controller', doors: 2, system: 'abDoor' });
      expect(hellos.get(camera.sn)).toMatchObject({ kind: 'camera' });
      expect(hellos.get(camera.sn)).not.toHaveProperty('doors');
      expect(hellos.get(older.sn)).not.toHaveProperty('kind');
      expect(hellos.get(older.sn)).not.toHaveProperty('doors');
    } finally {
      await watcher.endAsync();
    }
  });

  it('raises alarms on its own only at the rate it is given, with codes of its kind the console names', async () => {
    const quiet = new SimDevice({ url: BROKER_URL, sn: `Q-${randomBytes(3).toString('hex')}`, key: 'k', kind: 'camera', topicRoot: root, rate: 20, heartbeatMs: 0 });
    // 36,000 an hour: one every 100 ms on average
    const busy = new SimDevice({ url: BROKER_URL, sn: `B-${randomBytes(3).toString('hex')}`, key: 'k', kind: 'door', topicRoot: root, alarmsPerHour: 36_000, heartbeatMs: 0 });
    devices.push(quiet, busy);
    await Promise.all([quiet.start(), busy.start()]);
    await until(() => alarmsOf(busy.sn).length >= 5 && seen.filter((s) => s.sn === quiet.sn).length >= 20, 'alarms of the busy device and events of the quiet one');
    // a camera's routine events (20 a second) hold no alarm: it raises none unless given a rate
    expect(alarmsOf(quiet.sn)).toEqual([]);
    for (const { event } of alarmsOf(busy.sn)) {
      expect(['forcedOpen', 'heldOpen', 'tamper']).toContain(event.data.code);
      expect(ALARM_CODES).toContain(event.data.code);
    }
  });

  it('sends a quake of the intensity typed at its prompt from every quake sensor, and refuses a bad intensity', async () => {
    const keys = new Map([`QS-${randomBytes(3).toString('hex')}`, `QS-${randomBytes(3).toString('hex')}`, `QD-${randomBytes(3).toString('hex')}`].map((sn) => [sn, 'k']));
    fleet = await startFleet({ url: BROKER_URL, keys, kinds: ['quake', 'quake', 'door'], topicRoot: root, heartbeatMs: 60_000 });
    expect(await runPromptCommand('quake 7', fleet)).toBe('2 quake sensor(s) reported intensity 7\n');
    const readings = () => seen.filter((s) => keys.has(s.sn) && s.event.kind === DeviceEventKind.quakeReading);
    await until(() => readings().length === 2, 'two quake readings');
    expect(readings().map((r) => r.event.data)).toEqual([quakeReading(7), quakeReading(7)]);
    expect(await runPromptCommand('quake 13', fleet)).toMatch(/whole number from 0 to 12/);
    expect(await runPromptCommand('quake', fleet)).toMatch(/whole number from 0 to 12/);
    expect(await runPromptCommand('alarm tamper', fleet)).toMatch(/raised alarm tamper/);
    expect(await runPromptCommand('shake', fleet)).toMatch(/unknown command "shake"/);
  });
});

describe('the session token of --provision', () => {
  let server: Server;
  let apiBase: string;
  const logins: unknown[] = [];

  beforeAll(async () => {
    // the console's sign-in as the simulator sees it: an envelope with the token, or a refusal
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const login = JSON.parse(body) as { username: string; password: string };
        logins.push({ path: request.url, ...login });
        const ok = login.username === 'admin' && login.password === 'Admin#Pass22';
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ success: ok, code: ok ? 200 : 500, message: ok ? '' : 'Wrong user name or password', result: ok ? { token: 'token-1' } : null, timestamp: 0 }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    apiBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('takes ISPS_TOKEN without asking anything', async () => {
    const token = await sessionToken({ env: { ISPS_TOKEN: ' abc ' }, ask: () => Promise.reject(new Error('asked')), signIn: () => Promise.reject(new Error('signed in')) });
    expect(token).toBe('abc');
  });

  it('otherwise asks for the user name and the password (not shown) and signs in itself', async () => {
    const asked: Array<[string, boolean]> = [];
    const answers = ['admin', 'Admin#Pass22'];
    const token = await sessionToken({ env: {}, ask: (question, hidden = false) => (asked.push([question, hidden]), Promise.resolve(answers.shift()!)), signIn: (u, p) => signIn(apiBase, u, p) });
    expect(token).toBe('token-1');
    expect(asked.map(([, hidden]) => hidden)).toEqual([false, true]);
    expect(logins.at(-1)).toEqual({ path: '/api/sys/login', username: 'admin', password: 'Admin#Pass22' });
    await expect(signIn(apiBase, 'admin', 'wrong')).rejects.toThrow('sign-in refused: Wrong user name or password');
  });

  it('without a token and without a terminal says what to do', async () => {
    await expect(sessionToken({ env: {}, ask: null, signIn: () => Promise.reject(new Error('signed in')) })).rejects.toThrow(/ISPS_TOKEN/);
  });
});
