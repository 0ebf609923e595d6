import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { crudPath, DeviceCommandKind, DeviceEventKind, DoorState, doorEntity, EmergencyPath, EmergencyPerm, RealtimeCmd, type EmergencyNotice, type EmergencyReport, type EmergencyScenario, type EmergencySetting, type EmergencyState, type MusterArea, type Page, type RollCallEntry } from '@isps/contract';
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
    // people only: the unknown card is listed apart, by its last four characters, and not counted as a person
    const people = areas.flatMap((a) => a.people).filter((p) => p.doorName === 'Lobby');
    expect(people.map((p) => [p.name, p.userNo, p.safeBy])).toEqual([['Wang Fang', 'U-771', null]]);
    expect(areas.flatMap((a) => a.unknown).filter((u) => u.doorName === 'Lobby').map((u) => u.label)).toEqual(['****7777']);
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
    // out of the scale is refused with the range in the reader's language, never clamped
    const before = (await injectAs<EmergencySetting>(t.app, admin, { method: 'GET', url: api(t.app, EmergencyPath.setting) })).envelope.result;
    for (const threshold of [99, 0, 4.5]) {
      const refused = await setting(admin, { enabled: true, threshold, egressDoorIds: [] });
      expect(refused.statusCode).toBe(400);
      expect(refused.envelope).toMatchObject({ success: false, code: 400, message: 'The intensity threshold must be a whole number from 1 to 12' });
    }
    const zh = await injectAs(t.app, admin, { method: 'PUT', url: api(t.app, EmergencyPath.setting), payload: { enabled: true, threshold: 99, egressDoorIds: [] }, headers: { lang: 'zh-CN' } });
    expect(zh.envelope.message).toBe('烈度阈值须为 1 到 12 之间的整数');
    expect((await injectAs<EmergencySetting>(t.app, admin, { method: 'GET', url: api(t.app, EmergencyPath.setting) })).envelope.result).toEqual(before);
    await createTestUser(t.app, 'plainuser', { roles: [] });
    const plain = await login(t.app, 'plainuser', USER_PASSWORD);
    expect((await setting(plain, { enabled: true, threshold: 5, egressDoorIds: [] })).statusCode).toBe(403);
    expect((await injectAs(t.app, plain, { method: 'GET', url: api(t.app, EmergencyPath.setting) })).statusCode).toBe(403);
    const read = await injectAs<EmergencySetting>(t.app, admin, { method: 'GET', url: api(t.app, EmergencyPath.setting) });
    expect(read.envelope.result).toEqual({ enabled: false, threshold: 3, egressDoorIds: [] });
  });
  const drill = (token: string) => injectAs<EmergencyScenario>(t.app, token, { method: 'POST', url: api(t.app, EmergencyPath.drill), payload: {}, headers: { lang: 'en-US' } });
  const rollCall = (token: string, body: { id: string; peopleId: string; safe: boolean }) => injectAs<RollCallEntry>(t.app, token, { method: 'POST', url: api(t.app, EmergencyPath.rollCall), payload: body, headers: { lang: 'en-US' } });
  const endNow = (token: string, id: string) => injectAs<EmergencyScenario>(t.app, token, { method: 'POST', url: api(t.app, EmergencyPath.end), payload: { id }, headers: { lang: 'en-US' } });
  async function person(name: string, userNo: string) {
    await injectAs(t.app, admin, { method: 'POST', url: api(t.app, '/sysPeople/add'), payload: { name, userNo, status: 1 } });
    return (await t.app.db.selectFrom('sys_people').select('id').where('user_no', '=', userNo).executeTakeFirstOrThrow()).id;
  }
  async function cameIn(device: { sim: SimDevice; deviceId: string }, entries: Array<Record<string, unknown>>) {
    const before = (await t.app.db.selectFrom('sys_device_event').select('id').where('device_id', '=', device.deviceId).where('kind', '=', 'opening').execute()).length;
    for (const entry of entries) await device.sim.emit(DeviceEventKind.opening, { door: 1, method: 'card', direction: 'in', ...entry });
    await until(async () => (await t.app.db.selectFrom('sys_device_event').select('id').where('device_id', '=', device.deviceId).where('kind', '=', 'opening').execute()).length === before + entries.length || (await t.app.deviceGateway.flush(), false), 15_000, 'entries stored');
  }

  it('a permitted operator starts a drill: marked as a drill on every console, to the doors and in the log; one scenario at a time', async () => {
    const gate = await door('Drill exit');
    expect((await setting(admin, { enabled: false, threshold: 5, egressDoorIds: [gate.door.id] })).envelope.success).toBe(true);
    await createRoleWith(t.app, 'drill_viewer', [EmergencyPerm.view, EmergencyPerm.end]);
    await createTestUser(t.app, 'drillviewer', { roles: ['drill_viewer'] });
    const viewer = await login(t.app, 'drillviewer', USER_PASSWORD);
    expect((await drill(viewer)).statusCode).toBe(403);
    expect(await current()).toEqual({ active: false });

    await createRoleWith(t.app, 'drill_lead', [EmergencyPerm.drill]);
    await createTestUser(t.app, 'drilllead', { roles: ['drill_lead'] });
    const lead = await login(t.app, 'drilllead', USER_PASSWORD);
    const adminId = (await t.app.db.selectFrom('sys_user').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    const socket = await openSocket(wsBase(t), adminId, admin);
    // a drill runs even with quake readings switched off: it is the operator's, not the sensor's
    const started = await drill(lead);
    expect(started.envelope).toMatchObject({ success: true, message: 'The drill is started', result: { drill: true, startBy: 'drilllead', deviceId: null, doorCount: 1, endTime: null } });
    const notice = (await socket.next((m) => m.cmd === RealtimeCmd.emergency, 15_000)).data as EmergencyNotice;
    expect(notice).toMatchObject({ active: true, scenario: { drill: true, startBy: 'drilllead' } });
    expect(await current(viewer)).toMatchObject({ active: true, scenario: { id: started.envelope.result.id, drill: true } });
    await t.app.deviceGateway.flush();
    expect((await holdCommands(gate.deviceId)).map((c) => JSON.parse(c.payload!))).toEqual([{ door: 1, open: true, drill: true }]);
    await until(() => gate.sim.memory.effects.some((e) => e.kind === DeviceCommandKind.holdOpen), 5000, 'drill door held open');

    // one scenario at a time
    expect((await drill(admin)).envelope).toMatchObject({ success: false, code: 500, message: 'An emergency scenario is already running: end it first' });
    expect((await logParams('log.drillStarted')).at(-1)).toEqual({ key: 'log.drillStarted', params: { user: 'drilllead', doors: 1 } });
    expect((await logParams('log.drillDoorHeld')).at(-1)?.params.door).toBe('Drill exit');
    const startLog = await t.app.db.selectFrom('sys_log').select(['username', 'content']).where('log_params', 'like', '%log.drillStarted%').orderBy('create_time', 'desc').executeTakeFirstOrThrow();
    expect(startLog).toEqual({ username: 'drilllead', content: 'Drill: started by drilllead, 1 egress doors held open' });

    const ended = await endNow(viewer, started.envelope.result.id);
    expect(ended.envelope).toMatchObject({ success: true, message: 'The drill is ended', result: { drill: true, endBy: 'drillviewer' } });
    expect((await holdCommands(gate.deviceId)).map((c) => JSON.parse(c.payload!)).filter((p) => p.open === false)).toEqual([{ door: 1, open: false, drill: true }]);
    expect((await logParams('log.drillEnded')).at(-1)).toEqual({ key: 'log.drillEnded', params: { user: 'drilllead' } });
    expect((await logParams('log.drillDoorReleased')).at(-1)?.params.door).toBe('Drill exit');
    await socket.close();
  });

  it('the roll call marks a person safe with who and when, tells the other consoles, and needs its permission and a running scenario', async () => {
    const lobby = await door('Roll lobby');
    const zhou = await person('Zhou Min', 'R-201');
    const li = await person('Li Lei', 'R-202');
    await cameIn(lobby, [{ userNo: 'R-201' }, { userNo: 'R-202' }, { cardNo: 'C40404040' }]);
    expect((await setting(admin, { enabled: true, threshold: 5, egressDoorIds: [] })).envelope.success).toBe(true);
    const started = (await drill(admin)).envelope.result;

    await createRoleWith(t.app, 'marshal', [EmergencyPerm.rollCall]);
    await createTestUser(t.app, 'marshal1', { roles: ['marshal'] });
    const marshal = await login(t.app, 'marshal1', USER_PASSWORD);
    await createTestUser(t.app, 'nomarshal', { roles: [] });
    const plain = await login(t.app, 'nomarshal', USER_PASSWORD);
    expect((await rollCall(plain, { id: started.id, peopleId: zhou, safe: true })).statusCode).toBe(403);

    const adminId = (await t.app.db.selectFrom('sys_user').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    const socket = await openSocket(wsBase(t), adminId, admin);
    const marked = await rollCall(marshal, { id: started.id, peopleId: zhou, safe: true });
    expect(marked.envelope).toMatchObject({ success: true, message: 'Zhou Min is marked safe', result: { peopleId: zhou, name: 'Zhou Min', safeBy: 'marshal1' } });
    expect(marked.envelope.result.safeTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // the other consoles re-read their muster list
    expect((await socket.next((m) => m.cmd === RealtimeCmd.emergency, 15_000)).data).toMatchObject({ active: true, scenario: { id: started.id } });
    const areas = (await injectAs<MusterArea[]>(t.app, plain, { method: 'GET', url: api(t.app, EmergencyPath.muster) })).envelope.result;
    const listed = areas.flatMap((a) => a.people).filter((p) => p.doorName === 'Roll lobby');
    expect(listed.map((p) => [p.name, p.safeBy])).toEqual([
      ['Li Lei', null],
      ['Zhou Min', 'marshal1'],
    ]);
    expect(areas.flatMap((a) => a.unknown).some((u) => u.label === '****4040')).toBe(true);
    expect((await logParams('log.drillMarkedSafe')).at(-1)).toEqual({ key: 'log.drillMarkedSafe', params: { person: 'Zhou Min (R-201)' } });

    // a mark taken back, a person of no one, another scenario's id
    expect((await rollCall(marshal, { id: started.id, peopleId: li, safe: true })).envelope.success).toBe(true);
    expect((await rollCall(marshal, { id: started.id, peopleId: li, safe: false })).envelope).toMatchObject({ success: true, result: { safeBy: null, safeTime: null } });
    expect((await rollCall(marshal, { id: started.id, peopleId: randomUUID(), safe: true })).envelope).toMatchObject({ success: false, message: 'This person does not exist' });
    expect((await rollCall(marshal, { id: started.id, peopleId: 'x\u0000', safe: true })).statusCode).toBe(400);
    expect((await endNow(admin, started.id)).envelope.success).toBe(true);
    expect((await rollCall(marshal, { id: started.id, peopleId: li, safe: true })).envelope).toMatchObject({ success: false, message: 'No emergency scenario is running' });
    await socket.close();
  });

  it('keeps each emergency as a report: start, end and who, the doors it held open and the roll call; listed, exported and tenant scoped', async () => {
    const exit = await door('Report exit');
    const wu = await person('Wu Qing', 'P-301');
    await person('Sun Yue', 'P-302');
    await cameIn(exit, [{ userNo: 'P-301' }, { userNo: 'P-302' }, { cardNo: 'C77770000' }]);
    expect((await setting(admin, { enabled: true, threshold: 5, egressDoorIds: [exit.door.id] })).envelope.success).toBe(true);
    const started = (await drill(admin)).envelope.result;
    expect((await rollCall(admin, { id: started.id, peopleId: wu, safe: true })).envelope.success).toBe(true);
    expect((await endNow(admin, started.id)).envelope.success).toBe(true);

    const list = await injectAs<Page<EmergencyScenario>>(t.app, admin, { method: 'GET', url: api(t.app, `${EmergencyPath.list}?pageNo=1&pageSize=50`) });
    expect(list.envelope.result.records.find((r) => r.id === started.id)).toMatchObject({ drill: true, startBy: 'admin', endBy: 'admin' });
    const starts = list.envelope.result.records.map((r) => r.startTime);
    expect(starts).toEqual([...starts].sort().reverse());
    expect(list.envelope.result.total).toBe(list.envelope.result.records.length);

    const report = (await injectAs<EmergencyReport>(t.app, admin, { method: 'GET', url: api(t.app, `${EmergencyPath.queryById}?id=${started.id}`) })).envelope.result;
    expect(report.scenario).toMatchObject({ id: started.id, drill: true, startBy: 'admin', endBy: 'admin', doorCount: 1 });
    expect(report.scenario.startTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(report.scenario.endTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(report.doors).toEqual([{ id: exit.door.id, name: 'Report exit' }]);
    const ours = report.rollCall.filter((r) => r.doorName === 'Report exit');
    expect(ours.map((r) => [r.name, r.safeBy])).toEqual([
      ['Sun Yue', null],
      ['Wu Qing', 'admin'],
    ]);
    // unknown cards are no people of the roll call
    expect(JSON.stringify(report)).not.toContain('****0000');
    expect(JSON.stringify(report)).not.toContain('C77770000');

    const sheet = await t.app.inject({ method: 'GET', url: api(t.app, `${EmergencyPath.exportXls}?id=${started.id}`), headers: { 'x-access-token': admin, lang: 'en-US' } });
    expect(sheet.statusCode).toBe(200);
    expect(sheet.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(sheet.rawPayload as unknown as ArrayBuffer);
    const rows = workbook.worksheets[0]!.getSheetValues().slice(1).map((r) => (r as unknown[]).slice(1));
    expect(rows[0]).toEqual(['Name', 'User number', 'Area', 'Entered through', 'Status', 'Marked by', 'Marked at']);
    expect(rows.find((r) => r[0] === 'Wu Qing')?.slice(4, 6)).toEqual(['Safe', 'admin']);
    expect(rows.find((r) => r[0] === 'Sun Yue')?.[4]).toBe('Not accounted for');

    // the reports need the emergency screen; another tenant's user does not find them
    await createTestUser(t.app, 'reportless', { roles: [] });
    const plain = await login(t.app, 'reportless', USER_PASSWORD);
    expect((await injectAs(t.app, plain, { method: 'GET', url: api(t.app, EmergencyPath.list) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: api(t.app, `${EmergencyPath.exportXls}?id=${started.id}`), headers: { 'x-access-token': plain } })).statusCode).toBe(403);
    const otherTenant = randomUUID();
    await t.app.db.insertInto('sys_tenant').values({ id: otherTenant, create_by: 'test', create_time: null, update_by: null, update_time: null, name: 'Other', code: `other-${otherTenant.slice(0, 8)}`, begin_date: null, end_date: null, status: 1 }).execute();
    await createRoleWith(t.app, 'report_reader', [EmergencyPerm.view]);
    await createTestUser(t.app, 'elsewhere', { roles: ['report_reader'], tenantId: otherTenant });
    const elsewhere = await login(t.app, 'elsewhere', USER_PASSWORD);
    expect((await injectAs<Page<EmergencyScenario>>(t.app, elsewhere, { method: 'GET', url: api(t.app, EmergencyPath.list) })).envelope.result.records).toEqual([]);
    expect((await injectAs(t.app, elsewhere, { method: 'GET', url: api(t.app, `${EmergencyPath.queryById}?id=${started.id}`), headers: { lang: 'en-US' } })).envelope).toMatchObject({ success: false, message: 'This emergency does not exist' });
  });
});
