import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessCommandKind, crudPath, DeviceCommandKind, DeviceCommandStatus, deviceEntity, DOOR_OPEN_TTL_MS } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { adminToken, api, injectAs, type TestApp } from '../test/harness.ts';
import { approvedKey, buildLinkedApp, freePort, uniqueSn, until } from './test-support.ts';

// A standing fault test: the console's external MQTT broker restarts while a device is connected. Requests answer at
// once meanwhile, the console and the device find the broker again by themselves, and of the commands queued for the
// device, those still within their time to live are delivered and the expired ones never are. The broker is a
// Mosquitto of the test's own, on a port of its own.

const MOSQUITTO = '/usr/sbin/mosquitto';

class PrivateMosquitto {
  private readonly dir = mkdtempSync(join(tmpdir(), 'isps-mqtt-'));
  private child: ChildProcess | null = null;
  constructor(readonly port: number) {
    writeFileSync(join(this.dir, 'mosquitto.conf'), `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\n`);
  }

  get url(): string {
    return `mqtt://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.child = spawn(MOSQUITTO, ['-c', join(this.dir, 'mosquitto.conf')], { stdio: 'ignore' });
    await until(() => this.listening(), 10_000, 'mosquitto listening');
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  private listening(): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = connect({ host: '127.0.0.1', port: this.port });
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
  }

  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const usable = spawnSync(MOSQUITTO, ['-h']).error === undefined;

describe.skipIf(!usable && process.env.CI !== 'true')('the MQTT broker restarted under work', () => {
  let broker: PrivateMosquitto;
  let t: TestApp & { mqttUrl: string };
  let sim: SimDevice;

  beforeAll(async () => {
    broker = new PrivateMosquitto(await freePort());
    await broker.start();
    t = await buildLinkedApp('sqlite', { mqttUrl: broker.url, gateway: { offlineAfterMs: 600_000, offlineSweepMs: 3_600_000 } });
  });
  afterAll(async () => {
    await Promise.race([sim?.stop().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 2000))]);
    await t?.close();
    await broker?.remove();
  });

  it('answers at once meanwhile, reconnects by itself within 10 s, and delivers the queued commands within their time to live only', { timeout: 90_000 }, async () => {
    const sn = uniqueSn('BRK');
    sim = new SimDevice({ url: t.mqttUrl, sn, key: await approvedKey(t.app, sn), kind: 'door', doorOpenMs: 0, reconnectMs: 200, clock: t.clock.now });
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, 'device online');
    const { id: deviceId } = await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow();
    const token = await adminToken(t.app);
    const command = (id: string) => t.app.db.selectFrom('sys_device_command').select('status').where('id', '=', id).executeTakeFirstOrThrow();

    await broker.stop();
    await until(() => !t.app.deviceGateway.connected && !sim.online, 10_000, 'broker gone');
    // the console answers while its broker is away
    const started = performance.now();
    const listed = await injectAs(t.app, token, { method: 'GET', url: `${api(t.app, crudPath(deviceEntity, 'list'))}?pageSize=10` });
    expect(listed.envelope.success).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
    // an open queued just before the outage, and an access-list sync queued during it
    const [open, sync] = (await t.app.deviceGateway.enqueueCommands(
      [
        { deviceId, kind: DeviceCommandKind.openDoor, payload: { door: 1 } },
        { deviceId, kind: AccessCommandKind.syncPeople, payload: { op: 'clear' } },
      ],
      'admin',
    )) as [string, string];
    t.clock.advance(DOOR_OPEN_TTL_MS + 1000);

    await broker.start();
    const back = performance.now();
    await until(async () => (await command(sync)).status === DeviceCommandStatus.acked, 15_000, 'sync delivered after the broker returned');
    expect(performance.now() - back).toBeLessThan(10_000);
    expect(t.app.deviceGateway.connected).toBe(true);
    expect(sim.online).toBe(true);
    expect(sim.received.some((c) => c.id === open)).toBe(false);
    expect(sim.memory.effects.some((e) => e.id === open)).toBe(false);
    expect((await command(open)).status).toBe(DeviceCommandStatus.expired);
  });
});
