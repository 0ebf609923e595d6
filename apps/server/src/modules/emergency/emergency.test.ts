import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { crudPath, DeviceCommandKind, DeviceEventKind, DoorState, doorEntity, EmergencyPath, RealtimeCmd, type EmergencyNotice, type EmergencySetting, type EmergencyState, type MusterArea } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, uniqueSn, until } from '../../gateway/test-support.ts';
import { openSocket, wsBase } from '../../platform/realtime/test-client.ts';
import { createRoleWith } from '../../test/crud-helpers.ts';
import { adminToken, api, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');

describe.each(dialects)('the emergency (quake) scenario on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  const sims: SimDevice[] = [];

  async function online(kind: 'door' | 'quake') {
    const sn = uniqueSn(kind === 'door' ? 'D' : 'Q');
    const sim = new SimDevice({ url: t.mqttUrl, sn, key: await approvedKey(t.app, sn, admin), kind, doorOpenMs: 0 });
    sims.push(sim);
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, `hello of ${sn}`);
    const deviceId = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
    return { sim, sn, deviceId };
  }

  async function door(name: string) {
    const device = await online('door');
    const added = await injectAs<{ id: string }>(t.app, admin, { method: 'POST', url: api(t.app, crudPath(doorEntity, 'add')), payload: { doorName: name, deviceId: device.deviceId, doorNo: 1 } });
    expect(added.envelope.success, added.envelope.message).toBe(true);
    const row = await t.app.db.selectFrom('sys_door').selectAll().where('device_id', '=', device.deviceId).executeTakeFirstOrThrow();
    return { ...device, door: row };
  }

  const setting = (token: string, body: EmergencySetting) => injectAs<EmergencySetting>(t.app, token, { method: 'PUT', url: api(t.app, EmergencyPath.setting), payload: body, headers: { lang: 'en-US' } });
  const current = async (token = admin) => (await injectAs<EmergencyState>(t.app, token, { method: 'GET', url: api(t.app, EmergencyPath.current) })).envelope.result;
  const holdCommands = (deviceId: string) => t.app.db.selectFrom('sys_device_command').selectAll().where('device_id', '=', deviceId).where('kind', '=', DeviceCommandKind.holdOpen).execute();
  const logParams = async (key: string) =>
    (await t.app.db.selectFrom('sys_log').select('log_params').where('log_params', 'like', `%"${key}"%`).orderBy('create_time').execute()).map((r) => JSON.parse(r.log_params!) as { key: string; params: Record<string, unknown> });

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 60_000, offlineSweepMs: 3_600_000 } });
    admin = await adminToken(t.app);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop().catch(() => undefined)));
    await t.close();
  });
  beforeEach(async () => {
    // each case starts without a running scenario
    await t.app.db.updateTable('sys_emergency').set({ active_key: null }).execute();
  });

  it('starts once on a reading at the threshold: each egress door gets one holdOpen within a second, every console is told, each step is logged', async () => {
    const gate = await door('East exit');
    const stair = await door('Stairwell B');
    const office = await door('Office');
    const quake = await online('quake');
    const saved = await setting(admin, { enabled: true, threshold: 5, egressDoorIds: [gate.door.id, stair.door.id] });
    expect(saved.envelope).toMatchObject({ success: true, message: 'The emergency scenario setting is saved' });

    // every console of the tenant: a user without any device permission is told too
    await createTestUser(t.app, 'bystander', { roles: [] });
    const bystanderId = (await t.app.db.selectFrom('sys_user').select('id').where('username', '=', 'bystander').executeTakeFirstOrThrow()).id;
    const bystander = await login(t.app, 'bystander', USER_PASSWORD);
    const socket = await openSocket(wsBase(t), bystanderId, bystander);

    // below the threshold nothing happens
    await quake.sim.emit(DeviceEventKind.quakeReading, { pga: 0.02, intensity: 4 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await t.app.deviceGateway.flush();
    expect(await current()).toEqual({ active: false });
    expect(await holdCommands(gate.deviceId)).toHaveLength(0);

    const started = Date.now();
    await quake.sim.emit(DeviceEventKind.quakeReading, { pga: 0.31, intensity: 6 });
    await quake.sim.emit(DeviceEventKind.quakeReading, { pga: 0.4, intensity: 7 });
    await until(() => gate.sim.memory.effects.some((e) => e.kind === DeviceCommandKind.holdOpen) && stair.sim.memory.effects.some((e) => e.kind === DeviceCommandKind.holdOpen), 1000, 'egress doors held open within 1 s');
    const heldAfterMs = Date.now() - started;
    expect(heldAfterMs).toBeLessThan(1000);
    await until(async () => (await t.app.db.selectFrom('sys_door').select('state').where('id', '=', gate.door.id).executeTakeFirstOrThrow()).state === DoorState.open, 2000, 'door reported open');

    const message = await socket.next((m) => m.cmd === RealtimeCmd.emergency, 15_000);
    const notice = message.data as EmergencyNotice;
    expect(notice).toMatchObject({ active: true, scenario: { deviceId: quake.deviceId, intensity: 6, doorCount: 2, endTime: null } });
    expect(await current(bystander)).toMatchObject({ active: true, scenario: { id: notice.scenario!.id, intensity: 6 } });

    await t.app.deviceGateway.flush();
    expect((await holdCommands(gate.deviceId)).map((c) => JSON.parse(c.payload!))).toEqual([{ door: 1, open: true }]);
    expect(await holdCommands(stair.deviceId)).toHaveLength(1);
    expect(await holdCommands(office.deviceId)).toHaveLength(0);
    expect(await t.app.db.selectFrom('sys_emergency').select('id').where('tenant_id', '=', (await t.app.db.selectFrom('sys_device').select('tenant_id').where('id', '=', quake.deviceId).executeTakeFirstOrThrow()).tenant_id).execute()).toHaveLength(1);

    // a further strong reading while it runs starts nothing new
    await quake.sim.emit(DeviceEventKind.quakeReading, { pga: 0.5, intensity: 8 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await holdCommands(gate.deviceId)).toHaveLength(1);
    expect(socket.messages.filter((m) => m.cmd === RealtimeCmd.emergency)).toHaveLength(1);

    expect((await logParams('log.emergencyStarted')).at(-1)).toEqual({ key: 'log.emergencyStarted', params: { device: quake.sn, intensity: 6, doors: 2 } });
    expect((await logParams('log.emergencyDoorHeld')).slice(-2).map((e) => e.params.door).sort()).toEqual(['East exit', 'Stairwell B']);
    await socket.close();
  });

  it('lists who is inside per area from each person’s last access event, while a scenario runs', async () => {
    const entry = await door('Lobby');
    await injectAs(t.app, admin, { method: 'POST', url: api(t.app, '/sysPeople/add'), payload: { name: 'Wang Fang', userNo: 'U-771', cardNo: 'C99001234', status: 1 } });
    await entry.sim.emit(DeviceEventKind.opening, { door: 1, method: 'vein', userNo: 'U-771', direction: 'in' });
    await entry.sim.emit(DeviceEventKind.opening, { door: 1, method: 'card', cardNo: 'C55557777', direction: 'in' });
    await entry.sim.emit(DeviceEventKind.opening, { door: 1, method: 'card', cardNo: 'C11112222', direction: 'in' });
    await entry.sim.emit(DeviceEventKind.opening, { door: 1, method: 'card', cardNo: 'C11112222', direction: 'out' });
    await until(async () => (await t.app.db.selectFrom('sys_device_event').select('id').where('device_id', '=', entry.deviceId).where('kind', '=', 'opening').execute()).length === 4 || (await t.app.deviceGateway.flush(), false), 15_000, 'events stored');

    await createTestUser(t.app, 'musterbystander', { roles: [] });
    const bystander = await login(t.app, 'musterbystander', USER_PASSWORD);
    const muster = (token: string) => injectAs<MusterArea[]>(t.app, token, { method: 'GET', url: api(t.app, EmergencyPath.muster), headers: { lang: 'en-US' } });
    // outside a scenario only the emergency screen's holders read it
    expect((await muster(bystander)).envelope).toMatchObject({ success: false, message: 'No emergency scenario is running' });

    const quake = await online('quake');
    await quake.sim.emit(DeviceEventKind.quakeReading, { pga: 0.3, intensity: 9 });
    await until(async () => (await current()).active, 15_000, 'scenario');
    const areas = (await muster(bystander)).envelope.result;
    const people = areas.flatMap((a) => a.people).filter((p) => p.doorName === 'Lobby');
    expect(people.map((p) => [p.name, p.userNo]).sort()).toEqual([
      ['****7777', null],
      ['Wang Fang', 'U-771'],
    ]);
    expect(JSON.stringify(areas)).not.toContain('C55557777');
  });

  it('is ended only by a holder of device:emergency:end: the held doors go back to normal, every console is told, it is logged', async () => {
    const gate = await door('North exit');
    const quake = await online('quake');
    expect((await setting(admin, { enabled: true, threshold: 5, egressDoorIds: [gate.door.id] })).envelope.success).toBe(true);
    await quake.sim.emit(DeviceEventKind.quakeReading, { pga: 0.3, intensity: 5 });
    await until(async () => (await current()).active, 15_000, 'scenario');
    const state = await current();
    if (!state.active) throw new Error('no scenario');

    await createRoleWith(t.app, 'emergency_viewer', ['device:emergency:view']);
    await createTestUser(t.app, 'viewer', { roles: ['emergency_viewer'] });
    const viewer = await login(t.app, 'viewer', USER_PASSWORD);
    const refused = await injectAs(t.app, viewer, { method: 'POST', url: api(t.app, EmergencyPath.end), payload: { id: state.scenario.id } });
    expect(refused.statusCode).toBe(403);
    expect((await current()).active).toBe(true);

    const adminId = (await t.app.db.selectFrom('sys_user').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    const socket = await openSocket(wsBase(t), adminId, admin);
    const ended = await injectAs(t.app, admin, { method: 'POST', url: api(t.app, EmergencyPath.end), payload: { id: state.scenario.id }, headers: { lang: 'en-US' } });
    expect(ended.envelope).toMatchObject({ success: true, message: 'The emergency scenario is ended', result: { id: state.scenario.id, endBy: 'admin' } });
    expect(await current()).toEqual({ active: false });
    expect((await socket.next((m) => m.cmd === RealtimeCmd.emergency, 15_000)).data).toMatchObject({ active: false, scenario: { id: state.scenario.id, endBy: 'admin' } });
    expect((await holdCommands(gate.deviceId)).map((c) => JSON.parse(c.payload!)).sort((a, b) => Number(b.open) - Number(a.open))).toEqual([
      { door: 1, open: true },
      { door: 1, open: false },
    ]);
    await until(async () => (await t.app.db.selectFrom('sys_door').select('state').where('id', '=', gate.door.id).executeTakeFirstOrThrow()).state === DoorState.closed, 2000, 'door back to normal');

    const again = await injectAs(t.app, admin, { method: 'POST', url: api(t.app, EmergencyPath.end), payload: { id: state.scenario.id }, headers: { lang: 'en-US' } });
    expect(again.envelope).toMatchObject({ success: false, code: 500, message: 'No emergency scenario is running' });
    expect((await logParams('log.emergencyEnded')).at(-1)).toEqual({ key: 'log.emergencyEnded', params: { device: quake.sn } });
    expect((await logParams('log.emergencyDoorReleased')).at(-1)?.params.door).toBe('North exit');
    const log = await t.app.db.selectFrom('sys_log').select(['username', 'content']).where('log_params', 'like', '%log.emergencyEnded%').orderBy('create_time', 'desc').executeTakeFirstOrThrow();
    expect(log).toEqual({ username: 'admin', content: `Emergency: the scenario started by ${quake.sn} is ended` });
    await socket.close();
  });

  it('keeps to the setting: off starts nothing; the setting needs its permissions and names doors of the tenant only', async () => {
    const quake = await online('quake');
    expect((await setting(admin, { enabled: false, threshold: 3, egressDoorIds: [] })).envelope.success).toBe(true);
    await quake.sim.emit(DeviceEventKind.quakeReading, { pga: 0.9, intensity: 11 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await current()).toEqual({ active: false });

    expect((await setting(admin, { enabled: true, threshold: 3, egressDoorIds: ['no-such-door'] })).envelope).toMatchObject({ success: false, message: 'One of the egress doors does not exist' });
    expect((await setting(admin, { enabled: true, threshold: 13, egressDoorIds: [] })).envelope).toMatchObject({ success: false, code: 400 });
    await createTestUser(t.app, 'plainuser', { roles: [] });
    const plain = await login(t.app, 'plainuser', USER_PASSWORD);
    expect((await setting(plain, { enabled: true, threshold: 5, egressDoorIds: [] })).statusCode).toBe(403);
    expect((await injectAs(t.app, plain, { method: 'GET', url: api(t.app, EmergencyPath.setting) })).statusCode).toBe(403);
    const read = await injectAs<EmergencySetting>(t.app, admin, { method: 'GET', url: api(t.app, EmergencyPath.setting) });
    expect(read.envelope.result).toEqual({ enabled: false, threshold: 3, egressDoorIds: [] });
  });
});
