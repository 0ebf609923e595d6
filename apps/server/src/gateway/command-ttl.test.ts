import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessCommandKind, COMMAND_EXPIRED_REASON, DeviceCommandKind, DeviceCommandStatus, DOOR_OPEN_TTL_MS } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { testDialects, type TestApp } from '../test/harness.ts';
import { approvedKey, brokerOptions, buildLinkedApp, testBrokers, uniqueSn, until } from './test-support.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');
const brokers = await testBrokers();
const cases = dialects.flatMap((dialect) => brokers.map((broker) => ({ dialect, broker })));

describe.each(cases)('command time to live on $dialect with the $broker broker', ({ dialect, broker }) => {
  let t: TestApp & { mqttUrl: string };
  const sims: SimDevice[] = [];
  // the external broker is shared: this suite's topics live under a root of their own
  const { topicRoot, ...linked } = brokerOptions(broker);
  const command = (id: string) => t.app.db.selectFrom('sys_device_command').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const online = async (deviceId: string) => (await t.app.db.selectFrom('sys_device').select('online').where('id', '=', deviceId).executeTakeFirstOrThrow()).online;

  /** a door device that said hello once and went away: its row exists, offline; answers how to bring it back */
  async function awayDevice() {
    const sn = uniqueSn('TTL');
    const key = await approvedKey(t.app, sn);
    const device = (deviceClock?: () => number) => {
      // by default the device's clock is the server's: only the command's age decides
      const sim = new SimDevice({ url: t.mqttUrl, sn, key, kind: 'door', doorOpenMs: 0, topicRoot, clock: deviceClock ?? t.clock.now });
      sims.push(sim);
      return sim;
    };
    const first = device();
    await first.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, `hello of ${sn}`);
    const deviceId = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
    await first.stop();
    await until(async () => (await online(deviceId)) === 0, 15_000, 'device offline');
    return { deviceId, device };
  }

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, linked);
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop().catch(() => undefined)));
    await t.close();
  });

  it('never delivers a door open older than its time to live when its device reconnects, and marks it expired', async () => {
    const { deviceId, device } = await awayDevice();
    const id = await t.app.deviceGateway.enqueueCommand(deviceId, DeviceCommandKind.openDoor, { door: 1 }, 'admin');
    const queued = await command(id);
    expect(queued.status).toBe(DeviceCommandStatus.pending);
    expect(Date.parse(queued.expire_time!) - Date.parse(queued.create_time!)).toBe(DOOR_OPEN_TTL_MS);

    t.clock.advance(DOOR_OPEN_TTL_MS + 1000);
    await until(async () => (await command(id)).status === DeviceCommandStatus.expired, 15_000, 'expiry while offline');
    const back = device();
    await back.start();
    await until(async () => (await online(deviceId)) === 1, 15_000, 'reconnect');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(back.received).toEqual([]);
    expect(back.memory.effects).toEqual([]);
    expect((await command(id)).status).toBe(DeviceCommandStatus.expired);
  });

  it('still delivers an access-list sync queued while its device was offline, however long it waited, but not the open queued with it', async () => {
    const { deviceId, device } = await awayDevice();
    const [sync, open] = (await t.app.deviceGateway.enqueueCommands(
      [
        { deviceId, kind: AccessCommandKind.syncPeople, payload: { op: 'clear' } },
        { deviceId, kind: DeviceCommandKind.openDoor, payload: { door: 1 } },
      ],
      'admin',
    )) as [string, string];
    expect((await command(sync)).expire_time).toBeNull();

    t.clock.advance(60 * 60_000);
    const back = device();
    await back.start();
    await until(async () => (await command(sync)).status === DeviceCommandStatus.acked, 15_000, 'sync acknowledged');
    const delivered = back.received.find((c) => c.id === sync);
    // it carries its creation time, and no time to live: it waits for the device
    expect(delivered).toMatchObject({ kind: AccessCommandKind.syncPeople, createdAt: Date.parse((await command(sync)).create_time!) });
    expect(delivered?.ttl).toBeUndefined();
    expect(back.received.some((c) => c.id === open)).toBe(false);
    expect((await command(open)).status).toBe(DeviceCommandStatus.expired);
  });

  it('a device drops a command whose time to live has passed by its own clock, and the server records it expired', async () => {
    const { deviceId, device } = await awayDevice();
    // a device whose clock reads 20 s later: every open reaches it too late
    const late = device(() => t.clock.now() + 20_000);
    await late.start();
    await until(async () => (await online(deviceId)) === 1, 15_000, 'hello');
    const id = await t.app.deviceGateway.enqueueCommand(deviceId, DeviceCommandKind.openDoor, { door: 1 }, 'admin');
    await until(async () => (await command(id)).status === DeviceCommandStatus.expired, 15_000, 'expired acknowledgement');
    // a busy broker may hand it over again (a later attempt of the same command) before the device's drop is in:
    // every delivery is this one command, carrying its time to live and creation time
    expect(late.received.length).toBeGreaterThanOrEqual(1);
    expect(late.received.map((c) => c.id)).toEqual(late.received.map(() => id));
    expect(late.received[0]).toMatchObject({ id, kind: DeviceCommandKind.openDoor, ttl: DOOR_OPEN_TTL_MS, createdAt: Date.parse((await command(id)).create_time!) });
    expect(late.memory.effects).toEqual([]);
    expect(JSON.parse((await command(id)).result!)).toEqual({ reason: COMMAND_EXPIRED_REASON });
  });
});
