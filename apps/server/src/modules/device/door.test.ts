import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crudPath, DeviceCommandStatus, DeviceEventKind, DeviceSettingPath, deviceSettingEntity, DOOR_OPEN_TTL_MS, DoorPath, doorEntity, DoorState, LANGUAGES, RealtimeCmd, translate, type DevicePresenceNotice, type DoorStateNotice, type DoorStatusRow } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { approvedKey, brokerOptions, buildLinkedApp, testBrokers, uniqueSn, until } from '../../gateway/test-support.ts';
import { openSocket, wsBase } from '../../platform/realtime/test-client.ts';
import { createRoleWith } from '../../test/crud-helpers.ts';
import { adminToken, api, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');
const brokers = await testBrokers();
const cases = dialects.flatMap((dialect) => brokers.map((broker) => ({ dialect, broker })));

describe.each(cases)('doors and device settings on $dialect with the $broker broker', ({ dialect, broker }) => {
  let t: TestApp & { mqttUrl: string };
  // the external broker is shared: this suite's topics live under a root of their own
  const { topicRoot, ...linked } = brokerOptions(broker);
  let admin: string;
  let adminId: string;
  const sims: SimDevice[] = [];

  /** a simulated door device online, with its device row and one door on lock 1 */
  async function doorDevice(doorName: string, options: { doorOpenMs?: number } = {}) {
    const sn = uniqueSn('D');
    const key = await approvedKey(t.app, sn, admin);
    // the device's clock is the server's: commands' time to live is read alike on both sides
    const sim = new SimDevice({ url: t.mqttUrl, sn, key, kind: 'door', doorOpenMs: options.doorOpenMs ?? 0, topicRoot, clock: t.clock.now });
    sims.push(sim);
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, `hello of ${sn}`);
    const deviceId = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
    const added = await injectAs<{ id: string }>(t.app, admin, { method: 'POST', url: api(t.app, crudPath(doorEntity, 'add')), payload: { doorName, deviceId, doorNo: 1 } });
    expect(added.envelope.success, added.envelope.message).toBe(true);
    const door = await t.app.db.selectFrom('sys_door').selectAll().where('device_id', '=', deviceId).executeTakeFirstOrThrow();
    return { sim, sn, deviceId, door, key };
  }

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { ...linked, gateway: { offlineAfterMs: 60_000, offlineSweepMs: 3_600_000, ...linked.gateway } });
    admin = await adminToken(t.app);
    adminId = (await t.app.db.selectFrom('sys_user').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop().catch(() => undefined)));
    await t.close();
  });

  it('opens a door remotely: exactly one openDoor command queued, audited, acknowledged by the device, which reports the door open', async () => {
    const { sim, door } = await doorDevice('Front gate');
    const opened = await injectAs<{ commandId: string }>(t.app, admin, { method: 'POST', url: api(t.app, DoorPath.open), payload: { id: door.id }, headers: { lang: 'en-US' } });
    expect(opened.envelope).toMatchObject({ success: true, code: 200, message: 'The open command is sent to the device' });
    const { commandId } = opened.envelope.result;
    const commands = await t.app.db.selectFrom('sys_device_command').selectAll().where('device_id', '=', door.device_id).execute();
    expect(commands.map((c) => [c.id, c.kind, JSON.parse(c.payload ?? 'null')])).toEqual([[commandId, 'openDoor', { door: 1 }]]);

    // the device's acknowledgement is reflected in the command's state
    const state = () => injectAs<{ status: string; ackedTime: string | null }>(t.app, admin, { method: 'GET', url: `${api(t.app, DoorPath.command)}?id=${commandId}` });
    await until(async () => (await state()).envelope.result.status === DeviceCommandStatus.acked, 15_000, 'acknowledgement');
    expect((await state()).envelope.result.ackedTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(sim.memory.effects.map((e) => e.kind)).toEqual(['openDoor']);
    await until(async () => (await t.app.db.selectFrom('sys_door').select('state').where('id', '=', door.id).executeTakeFirstOrThrow()).state === DoorState.open, 15_000, 'door open');

    // audited with a message key and its parameters, read in the reader's language
    const log = await t.app.db.selectFrom('sys_log').selectAll().where('log_params', 'like', '%log.doorOpened%').where('log_params', 'like', `%${commandId}%`).execute();
    expect(log).toHaveLength(1);
    expect(JSON.parse(log[0]!.log_params!)).toEqual({ key: 'log.doorOpened', params: { entity: 'door.title', door: 'Front gate', command: commandId } });
    expect(log[0]!.content).toBe(`Doors: remote open of Front gate (command ${commandId})`);
  });

  it('requires device:door:open to open and answers doors of the caller’s tenant only', async () => {
    const { door } = await doorDevice('Side door');
    await createRoleWith(t.app, 'door_reader', ['device:door:list']);
    await createRoleWith(t.app, 'door_opener', ['device:door:list', 'device:door:open']);
    await createTestUser(t.app, 'doorreader', { roles: ['door_reader'] });
    await createTestUser(t.app, 'dooropener', { roles: ['door_opener'] });
    await createTestUser(t.app, 'otherTenantOpener', { roles: ['door_opener'], tenantId: null });
    const reader = await login(t.app, 'doorreader', USER_PASSWORD);
    const refused = await injectAs(t.app, reader, { method: 'POST', url: api(t.app, DoorPath.open), payload: { id: door.id } });
    expect(refused.statusCode).toBe(403);
    expect(refused.envelope).toMatchObject({ success: false, code: 510 });
    const outsider = await login(t.app, 'otherTenantOpener', USER_PASSWORD);
    const unseen = await injectAs(t.app, outsider, { method: 'POST', url: api(t.app, DoorPath.open), payload: { id: door.id } });
    expect(unseen.envelope.success).toBe(false);
    expect(await t.app.db.selectFrom('sys_device_command').select('id').where('device_id', '=', door.device_id).execute()).toHaveLength(0);

    const opener = await login(t.app, 'dooropener', USER_PASSWORD);
    const done = await injectAs(t.app, opener, { method: 'POST', url: api(t.app, DoorPath.open), payload: { id: door.id } });
    expect(done.envelope.success).toBe(true);
    expect(await t.app.db.selectFrom('sys_device_command').select('id').where('device_id', '=', door.device_id).execute()).toHaveLength(1);
  });

  it('binds doors to groups and answers their ids by door', async () => {
    const { door } = await doorDevice('Lab');
    const departs = await t.app.db.selectFrom('sys_depart').select('id').where('del_flag', '=', 0).orderBy('id').limit(2).execute();
    expect(departs.length).toBeGreaterThan(0);
    const ids = departs.map((d) => d.id);
    const edited = await injectAs(t.app, admin, { method: 'PUT', url: api(t.app, crudPath(doorEntity, 'edit')), payload: { id: door.id, departIds: ids.join(',') } });
    expect(edited.envelope.success, edited.envelope.message).toBe(true);
    const answer = await injectAs<string[]>(t.app, admin, { method: 'GET', url: `${api(t.app, DoorPath.deptIdsByDoorId)}?doorId=${door.id}` });
    expect(answer.envelope.result).toEqual(ids);
    const duplicate = await injectAs(t.app, admin, { method: 'POST', url: api(t.app, crudPath(doorEntity, 'add')), payload: { doorName: 'Lab again', deviceId: door.device_id, doorNo: 1 }, headers: { lang: 'en-US' } });
    expect(duplicate.envelope).toMatchObject({ success: false, message: 'This device already has a door with this number' });
  });

  it('turns a door state event into the door row and a doorState message to door readers, and ignores an older one', async () => {
    const { sim, door, deviceId } = await doorDevice('Warehouse');
    await createTestUser(t.app, 'nodoors', { roles: [] });
    const nobodyId = (await t.app.db.selectFrom('sys_user').select('id').where('username', '=', 'nodoors').executeTakeFirstOrThrow()).id;
    const socket = await openSocket(wsBase(t), adminId, admin);
    const bystander = await openSocket(wsBase(t), nobodyId, await login(t.app, 'nodoors', USER_PASSWORD));
    const event = await sim.emit(DeviceEventKind.doorState, { door: 1, state: 'alarm' });
    const message = await socket.next((m) => m.cmd === RealtimeCmd.doorState && (m.data as DoorStateNotice).doors.some((d) => d.id === door.id), 15_000);
    expect(message).toMatchObject({ msgId: door.id, msgTxt: 'Warehouse' });
    expect((message.data as DoorStateNotice).doors).toEqual([{ id: door.id, doorName: 'Warehouse', deviceId, state: DoorState.alarm, stateTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/) }]);
    const row = await t.app.db.selectFrom('sys_door').selectAll().where('id', '=', door.id).executeTakeFirstOrThrow();
    expect([row.state, row.state_time]).toEqual([DoorState.alarm, new Date(event.time).toISOString()]);

    // an event the device made earlier, arriving late, does not roll the state back
    await sim.emit(DeviceEventKind.doorState, { door: 1, state: 'closed' }).then(() => undefined);
    const late = { id: 'late-1', seq: sim.memory.seq + 1, time: event.time - 60_000, kind: DeviceEventKind.doorState, data: { door: 1, state: 'open' } };
    sim.memory.seq += 1;
    await sim.publishEvent(late);
    await until(async () => (await t.app.db.selectFrom('sys_device_event').select('id').where('device_id', '=', deviceId).execute()).length >= 3 || (await t.app.deviceGateway.flush(), false), 15_000, 'events stored');
    expect((await t.app.db.selectFrom('sys_door').select('state').where('id', '=', door.id).executeTakeFirstOrThrow()).state).toBe(DoorState.closed);

    const status = await injectAs<DoorStatusRow[]>(t.app, admin, { method: 'GET', url: api(t.app, DoorPath.status) });
    expect(status.envelope.result.find((d) => d.id === door.id)).toMatchObject({ doorName: 'Warehouse', deviceOnline: true, state: DoorState.closed, deviceName: expect.any(String) });
    expect(bystander.messages.filter((m) => m.cmd === RealtimeCmd.doorState)).toEqual([]);
    await socket.close();
    await bystander.close();
  });

  it('marks a device offline when its heartbeats stop without a last will, and tells the device readers', async () => {
    const { sn, deviceId } = await doorDevice('Silent');
    const socket = await openSocket(wsBase(t), adminId, admin);
    expect(await t.app.deviceGateway.markSilentOffline()).toBe(0);
    t.clock.advance(61_000);
    expect(await t.app.deviceGateway.markSilentOffline()).toBeGreaterThanOrEqual(1);
    expect((await t.app.db.selectFrom('sys_device').select('online').where('id', '=', deviceId).executeTakeFirstOrThrow()).online).toBe(0);
    await t.app.deviceGateway.flush();
    await socket.next((m) => m.cmd === RealtimeCmd.deviceDisConnect && ((m.data as DevicePresenceNotice).devices ?? []).some((d) => d.sn === sn), 15_000);
    await socket.close();
  });

  it('validates device settings: weight of 1 or 2 digits, listen values separated by |, a time window in order', async () => {
    const add = (payload: Record<string, unknown>) => injectAs(t.app, admin, { method: 'POST', url: api(t.app, crudPath(deviceSettingEntity, 'add')), payload, headers: { lang: 'en-US' } });
    const base = { paramsTitle: 'Open time', fieldName: 'door.openSeconds', fieldValue: '5' };
    expect((await add({ ...base, weight: 100 })).envelope).toMatchObject({ success: false, code: 400 });
    expect((await add({ ...base, weight: 10, listenValue: 'a||b' })).envelope).toMatchObject({ success: false, code: 400 });
    expect((await add({ ...base, weight: 10, effectiveTime: '2026-02-01 00:00:00', invalidTime: '2026-01-01 00:00:00' })).envelope).toMatchObject({ success: false, message: 'The invalid time must be after the effective time' });
    expect((await add({ ...base, weight: 10, listenValue: 'card|vein|remote' })).envelope.success).toBe(true);
  });

  it('applies a default setting (weight below 5) only where the device has no configured one', async () => {
    const { deviceId } = await doorDevice('Settings');
    const model = (await t.app.db.selectFrom('sys_device').select('device_model').where('id', '=', deviceId).executeTakeFirstOrThrow()).device_model;
    const add = (payload: Record<string, unknown>) => injectAs(t.app, admin, { method: 'POST', url: api(t.app, crudPath(deviceSettingEntity, 'add')), payload });
    await add({ paramsTitle: 'Alarm delay default', fieldName: 'alarm.delay', fieldValue: '30', weight: 1 });
    await add({ paramsTitle: 'Volume default', fieldName: 'volume', fieldValue: '3', weight: 2 });
    await add({ paramsTitle: 'Alarm delay of the model', fieldName: 'alarm.delay', fieldValue: '10', weight: 8, deviceModel: model });
    await add({ paramsTitle: 'Volume of another model', fieldName: 'volume', fieldValue: '9', weight: 50, deviceModel: 'OTHER' });
    const effective = await injectAs<Array<{ fieldName: string; fieldValue: string }>>(t.app, admin, { method: 'GET', url: `${api(t.app, DeviceSettingPath.effective)}?deviceId=${deviceId}` });
    const byField = Object.fromEntries(effective.envelope.result.filter((s) => ['alarm.delay', 'volume'].includes(s.fieldName)).map((s) => [s.fieldName, s.fieldValue]));
    expect(byField).toEqual({ 'alarm.delay': '10', volume: '3' });
  });

  it('refuses at once to open a door whose device is offline, in the reader’s language, and leaves nothing to run when it comes back', async () => {
    const { sim, door, deviceId } = await doorDevice('Back door');
    await sim.stop();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('id', '=', deviceId).executeTakeFirstOrThrow()).online === 0, 15_000, 'device offline');
    for (const lang of LANGUAGES) {
      const refused = await injectAs(t.app, admin, { method: 'POST', url: api(t.app, DoorPath.open), payload: { id: door.id }, headers: { lang } });
      expect(refused.statusCode).toBe(200);
      expect(refused.envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'door.deviceOffline') });
    }
    expect(await t.app.db.selectFrom('sys_device_command').select('id').where('device_id', '=', deviceId).execute()).toEqual([]);

    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('id', '=', deviceId).executeTakeFirstOrThrow()).online === 1, 15_000, 'device back');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sim.received).toEqual([]);
    expect(sim.memory.effects).toEqual([]);
  });

  it('expires an open its device does not take within its time to live: the operator reads it expired, and it never runs when the device returns', async () => {
    const { sim, door, deviceId, key } = await doorDevice('Loading bay');
    // the device is gone without a last will reaching the console (a broker restart): its row still says online
    sim.kill();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('id', '=', deviceId).executeTakeFirstOrThrow()).online === 0, 15_000, 'last will');
    await t.app.db.updateTable('sys_device').set({ online: 1 }).where('id', '=', deviceId).execute();
    const opened = await injectAs<{ commandId: string }>(t.app, admin, { method: 'POST', url: api(t.app, DoorPath.open), payload: { id: door.id } });
    expect(opened.envelope.success, opened.envelope.message).toBe(true);
    const state = async () => (await injectAs<{ status: string }>(t.app, admin, { method: 'GET', url: `${api(t.app, DoorPath.command)}?id=${opened.envelope.result.commandId}` })).envelope.result.status;
    expect(await state()).toBe(DeviceCommandStatus.sent);

    t.clock.advance(DOOR_OPEN_TTL_MS + 1000);
    await until(async () => (await state()) === DeviceCommandStatus.expired, 15_000, 'expiry');
    // the device returns: a hello, then whatever retries come find nothing to send
    const before = (await t.app.db.selectFrom('sys_device').select('session_id').where('id', '=', deviceId).executeTakeFirstOrThrow()).session_id;
    const back = new SimDevice({ url: t.mqttUrl, sn: sim.sn, key, kind: 'door', doorOpenMs: 0, topicRoot, clock: t.clock.now });
    sims.push(back);
    await back.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('session_id').where('id', '=', deviceId).executeTakeFirstOrThrow()).session_id !== before, 15_000, 'hello');
    t.clock.advance(60_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(back.received).toEqual([]);
    expect(await state()).toBe(DeviceCommandStatus.expired);
  });
});
