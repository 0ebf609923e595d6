import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPath, crudPath, DeviceEventKind, doorEntity, type DashboardDevices } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, uniqueSn, until } from '../../gateway/test-support.ts';
import { adminToken, api, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');

describe.each(dialects)('the home page device figures on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  const sims: SimDevice[] = [];

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 60_000, offlineSweepMs: 3_600_000 } });
    admin = await adminToken(t.app);
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop().catch(() => undefined)));
    await t.close();
  });

  const figures = async (token = admin) => (await injectAs<Required<DashboardDevices>>(t.app, token, { method: 'GET', url: api(t.app, ApiPath.dashboardDevices) })).envelope.result;

  it('counts devices online and offline, doors open and in alarm, and today’s events in the hour they came', async () => {
    const before = await figures();
    const start = async () => {
      const sn = uniqueSn('H');
      const sim = new SimDevice({ url: t.mqttUrl, sn, key: await approvedKey(t.app, sn, admin), kind: 'door', doorOpenMs: 0 });
      sims.push(sim);
      await sim.start();
      await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, `hello of ${sn}`);
      const deviceId = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
      await injectAs(t.app, admin, { method: 'POST', url: api(t.app, crudPath(doorEntity, 'add')), payload: { doorName: `Door ${sn}`, deviceId, doorNo: 1 } });
      return { sim, deviceId };
    };
    const a = await start();
    const b = await start();
    const c = await start();
    await a.sim.emit(DeviceEventKind.doorState, { door: 1, state: 'open' });
    await b.sim.emit(DeviceEventKind.doorState, { door: 1, state: 'alarm' });
    await c.sim.emit(DeviceEventKind.punch, { userNo: 'U1', hand: 'left' });
    await c.sim.dropOffNetwork();
    await until(async () => {
      await t.app.deviceGateway.flush();
      const now = await figures();
      return now.devicesOffline === before.devicesOffline + 1 && now.doorsOpen === before.doorsOpen + 1 && now.openAlarms === before.openAlarms + 1;
    }, 15_000, 'figures');
    const after = await figures();
    expect(after.devicesOnline).toBe(before.devicesOnline + 2);
    expect(after.eventsByHour).toHaveLength(24);
    expect(after.eventsByHour.reduce((s, n) => s + n, 0) - before.eventsByHour.reduce((s, n) => s + n, 0)).toBe(3);
    expect(after.emergencyActive).toBe(false);

    // another tenant's user sees none of them
    await createTestUser(t.app, 'othertenant', { roles: ['admin'], tenantId: null });
    const outsider = await figures(await login(t.app, 'othertenant', USER_PASSWORD));
    expect(outsider).toMatchObject({ devicesOnline: 0, devicesOffline: 0, doorsOpen: 0, openAlarms: 0 });
  });
});
