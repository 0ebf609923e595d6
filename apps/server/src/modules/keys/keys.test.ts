import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  crudPath,
  deviceRoleEntity,
  EmergencyPath,
  KEY_OVERDUE_ALARM,
  keyEntity,
  KeyPath,
  keyPeopleEntity,
  keyRoleEntity,
  KeyStatus,
  peopleEntity,
  RealtimeCmd,
  type EmergencyRelease,
  type Envelope,
  type KeyHistoryRow,
  type KeyOverdueNotice,
  type RealtimeMessage,
} from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, recordUserNotices, uniqueSn, until } from '../../gateway/test-support.ts';
import { adminToken, api, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';
import { createRoleWith } from '../../test/crud-helpers.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');

/** `HH:mm` of an instant in UTC (the test server's TIME_ZONE). */
const clockOf = (ms: number) => new Date(ms).toISOString().slice(11, 16);

describe.each(dialects)('key cabinets driven by live devices on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  const sims: SimDevice[] = [];
  const notices: Array<{ userIds: readonly string[]; message: RealtimeMessage }> = [];

  async function call<T = unknown>(method: 'POST' | 'PUT' | 'GET' | 'DELETE', path: string, payload?: unknown, token = admin): Promise<Envelope<T>> {
    return (await injectAs<T>(t.app, token, { method, url: api(t.app, path), payload: payload as Record<string, unknown>, headers: { lang: 'en-US' } })).envelope;
  }
  async function keyCabinet(): Promise<{ sim: SimDevice; deviceId: string }> {
    const sn = uniqueSn('KEY');
    const key = await approvedKey(t.app, sn, admin);
    const sim = new SimDevice({ url: t.mqttUrl, sn, key, kind: 'keys', heartbeatMs: 0, clock: t.clock.now });
    sims.push(sim);
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, `hello of ${sn}`);
    const deviceId = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
    return { sim, deviceId };
  }
  async function addKey(deviceId: string, slotNo: number, keyName: string, extra: Record<string, unknown> = {}): Promise<string> {
    const added = await call('POST', crudPath(keyEntity, 'add'), { deviceId, slotNo, keyName, ...extra });
    expect(added.success, added.message).toBe(true);
    return (await t.app.db.selectFrom('sys_key').select('id').where('key_name', '=', keyName).executeTakeFirstOrThrow()).id;
  }
  async function person(name: string, cardNo: string, keyPerson = true, userNo?: string): Promise<string> {
    const added = await call('POST', crudPath(peopleEntity, 'add'), { name, cardNo, ...(userNo ? { userNo } : {}) });
    expect(added.success, added.message).toBe(true);
    const id = (await t.app.db.selectFrom('sys_people').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    if (keyPerson) expect((await call('POST', crudPath(keyPeopleEntity, 'add'), { peopleId: id })).success).toBe(true);
    return id;
  }
  /** A key role giving `keyIds` to `peopleIds` from 5 minutes ago for an hour (UTC), every day. */
  async function hourRole(roleName: string, keyIds: string[], peopleIds: string[]): Promise<void> {
    const now = t.clock.now();
    const timeSetting = JSON.stringify({ mode: 'custom', periods: [{ start: clockOf(now - 5 * 60_000), end: clockOf(now + 60 * 60_000) }], days: [] });
    const added = await call('POST', crudPath(keyRoleEntity, 'add'), { roleName, keyIds: keyIds.join(','), peopleIds: peopleIds.join(','), timeSetting });
    expect(added.success, added.message).toBe(true);
  }
  const keyRow = (id: string) => t.app.db.selectFrom('sys_key').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 60_000, offlineSweepMs: 3_600_000 } });
    admin = await adminToken(t.app);
    recordUserNotices(t.app, notices);
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop().catch(() => undefined)));
    await t.close();
  });

  it('a key role gives a key person a key for a window; the device lets them take it, and the take and the return are recorded', async () => {
    const { sim, deviceId } = await keyCabinet();
    const van = await addKey(deviceId, 1, `Van key ${dialect}`, { description: 'The white van' });
    const ann = await person(`Ann Key ${dialect}`, 'KEYCARD0001');
    const bob = await person(`Bob Key ${dialect}`, 'KEYCARD0002', false);
    await hourRole(`Van drivers ${dialect}`, [van], [ann, bob]);
    await t.app.keySync.settled();
    // the device holds the key with Ann alone: Bob is in the role but no key person
    await until(() => sim.keys.entry(1)?.holders.length === 1, 10_000, 'the list on the device');
    expect(sim.keys.entry(1)!.holders.map((h) => [h.peopleId, h.cardNo])).toEqual([[ann, 'KEYCARD0001']]);
    expect(await sim.takeKey(1, { cardNo: 'KEYCARD0002' }, t.clock.now())).toBe(false);
    // outside the window the device keeps the key
    expect(await sim.takeKey(1, { cardNo: 'KEYCARD0001' }, t.clock.now() + 3 * 60 * 60_000)).toBe(false);

    notices.length = 0;
    expect(await sim.takeKey(1, { cardNo: 'KEYCARD0001' }, t.clock.now())).toBe(true);
    await until(async () => (await keyRow(van)).status === KeyStatus.taken, 10_000, 'the key out');
    expect((await keyRow(van)).holder_id).toBe(ann);
    await until(() => notices.some((n) => n.message.cmd === RealtimeCmd.keyState), 10_000, 'the live notice');
    const listed = await call<{ records: Array<Record<string, unknown>> }>('GET', `${crudPath(keyEntity, 'list')}?deviceId=${deviceId}`);
    expect(listed.result.records).toEqual([expect.objectContaining({ keyName: `Van key ${dialect}`, status: KeyStatus.taken, holderId: ann, holderId_dictText: `Ann Key ${dialect}` })]);

    await sim.returnKey(1, t.clock.now() + 60_000);
    await until(async () => (await keyRow(van)).status === KeyStatus.inCabinet, 10_000, 'the key back');
    const history = await call<KeyHistoryRow[]>('GET', `${KeyPath.history}?id=${van}`);
    expect(history.success, history.message).toBe(true);
    expect(history.result).toEqual([expect.objectContaining({ peopleId: ann, peopleName: `Ann Key ${dialect}`, idCard: '*******0001', overdueTime: null })]);
    expect(history.result[0]!.returnTime).not.toBeNull();

    // a role may name a user: the key goes to the key person whose user number is the user's work number
    const dora = await person(`Dora Key ${dialect}`, 'KEYCARD0003', true, `KU-${dialect}`);
    const doraUser = await createTestUser(t.app, `dora_${dialect}`);
    await t.app.db.updateTable('sys_user').set({ work_no: `KU-${dialect}` }).where('id', '=', doraUser).execute();
    const added = await call('POST', crudPath(keyRoleEntity, 'add'), { roleName: `Van users ${dialect}`, keyIds: van, userIds: doraUser, timeSetting: '{"mode":"permanent"}' });
    expect(added.success, added.message).toBe(true);
    await until(() => sim.keys.entry(1)?.holders.some((h) => h.peopleId === dora) === true, 10_000, 'Dora on the device');
    expect(sim.keys.entry(1)!.holders.find((h) => h.peopleId === dora)!.times).toEqual(['{"mode":"permanent"}']);
    // the same event delivered again is one take
    expect(await t.app.db.selectFrom('sys_key_record').select('id').where('key_id', '=', van).execute()).toHaveLength(1);
  });

  it('a key kept past the end of its window raises exactly one overdue alarm, pushed to the consoles once', async () => {
    const { sim, deviceId } = await keyCabinet();
    const safe = await addKey(deviceId, 2, `Safe key ${dialect}`);
    const cal = await person(`Cal Key ${dialect}`, 'KEYCARD0011');
    await hourRole(`Safe openers ${dialect}`, [safe], [cal]);
    await t.app.keySync.settled();
    await until(() => sim.keys.entry(2)?.holders.length === 1, 10_000, 'the list on the device');
    expect(await sim.takeKey(2, { cardNo: 'KEYCARD0011' }, t.clock.now())).toBe(true);
    await until(async () => (await keyRow(safe)).status === KeyStatus.taken, 10_000, 'the key out');

    // within the window: not overdue
    expect(await t.app.sweepOverdueKeys()).toEqual([]);
    notices.length = 0;
    t.clock.advance(2 * 60 * 60_000);
    // this server's sweep and another server's at the same moment: the take is raised once
    const { raiseOverdueKeys } = await import('./overdue.ts');
    const [mine, other] = await Promise.all([t.app.sweepOverdueKeys(), raiseOverdueKeys(t.app.db, t.clock.now(), { timeZone: 'UTC' })]);
    await t.app.sweepOverdueKeys();
    expect([...mine, ...other].filter((r) => r.keyId === safe)).toHaveLength(1);
    const alarms = await t.app.db.selectFrom('sys_device_alarm').select(['id', 'code', 'state']).where('device_id', '=', deviceId).execute();
    expect(alarms.map((a) => a.code)).toEqual([KEY_OVERDUE_ALARM]);
    expect((await keyRow(safe)).overdue).toBe(1);
    // the server that raised it tells the consoles, once
    const pushed = notices.filter((n) => n.message.cmd === RealtimeCmd.keyOverdue && (n.message.data as KeyOverdueNotice).keyId === safe);
    expect(pushed).toHaveLength(mine.some((r) => r.keyId === safe) ? 1 : 0);
    // a take by nobody the console knows is overdue at once, and told once
    const spare = await addKey(deviceId, 3, `Spare key ${dialect}`);
    notices.length = 0;
    await sim.emit('keyTaken', { slot: 3, cardNo: 'NOBODYSCARD' }, t.clock.now());
    await until(() => notices.some((n) => n.message.cmd === RealtimeCmd.keyOverdue), 10_000, 'the overdue notice');
    await t.app.sweepOverdueKeys();
    const told = notices.filter((n) => n.message.cmd === RealtimeCmd.keyOverdue);
    expect(told).toHaveLength(1);
    expect(told[0]!.message.data).toMatchObject({ keyId: spare, keyName: `Spare key ${dialect}`, peopleName: null } satisfies Partial<KeyOverdueNotice>);
    const adminId = (await t.app.db.selectFrom('sys_user').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    expect(told[0]!.userIds).toContain(adminId);
    // the alarm list shows both
    const listed = await call<{ records: Array<{ code: string }> }>('GET', `/sysDeviceAlarm/list?deviceId=${deviceId}`);
    expect(listed.result.records.map((r) => r.code)).toEqual([KEY_OVERDUE_ALARM, KEY_OVERDUE_ALARM]);
    await sim.emit('keyReturned', { slot: 3 }, t.clock.now());

    // the return ends the overdue state; a later sweep raises nothing more
    await sim.returnKey(2, t.clock.now());
    await until(async () => (await keyRow(safe)).status === KeyStatus.inCabinet, 10_000, 'the key back');
    expect((await keyRow(safe)).overdue).toBe(0);
    expect(await t.app.sweepOverdueKeys()).toEqual([]);
    const [take] = (await call<KeyHistoryRow[]>('GET', `${KeyPath.history}?id=${safe}`)).result;
    expect(take!.overdueTime).not.toBeNull();
  });

  it('the emergency frees the keys marked for it within 1 s of its start, and its end holds them again', async () => {
    const { sim, deviceId } = await keyCabinet();
    await addKey(deviceId, 3, `Exit key ${dialect}`, { releaseInEmergency: 1 });
    await addKey(deviceId, 4, `Office key ${dialect}`);
    const started = Date.now();
    const drill = await call<{ id: string; keyCount: number }>('POST', EmergencyPath.drill, {});
    expect(drill.success, drill.message).toBe(true);
    await until(() => sim.keys.isReleased(3), 5000, 'the marked key freed');
    const tookMs = Date.now() - started;
    console.log(`marked keys freed ${tookMs} ms after the drill started`);
    expect(tookMs).toBeLessThan(1000);
    expect(sim.keys.isReleased(4)).toBe(false);
    expect(drill.result.keyCount).toBeGreaterThanOrEqual(1);
    // the emergency screen lists the key cabinet beside the egress doors, released once the device acknowledged
    await until(async () => (await call<EmergencyRelease[]>('GET', EmergencyPath.releases)).result.some((r) => r.kind === 'keys' && r.deviceId === deviceId && r.count === 1 && r.state === 'done'), 5000, 'the release on the emergency screen');
    // anyone takes a freed key; the take is recorded as the emergency's, and judged by no window
    expect(await sim.takeKey(3, { cardNo: 'NOBODYSCARD' }, t.clock.now())).toBe(true);
    await until(async () => (await t.app.db.selectFrom('sys_key_record').select('method').where('device_id', '=', deviceId).execute()).some((r) => r.method === 'emergency'), 10_000, 'the emergency take');
    expect(await t.app.sweepOverdueKeys()).toEqual([]);
    expect((await call('POST', EmergencyPath.end, { id: drill.result.id })).success).toBe(true);
    await until(() => !sim.keys.isReleased(3), 5000, 'the key held again');
    await sim.returnKey(3, t.clock.now());
  });

  it('refuses a key in a taken slot, a device that is no key cabinet, and a move of a key that is out', async () => {
    const { sim, deviceId } = await keyCabinet();
    const key = await addKey(deviceId, 5, `Store key ${dialect}`);
    const twice = await call('POST', crudPath(keyEntity, 'add'), { deviceId, slotNo: 5, keyName: `Second store key ${dialect}` });
    expect([twice.success, twice.message]).toEqual([false, 'This key cabinet already has a key in this slot!']);
    const door = await call<{ id: string }>('POST', '/sysDevice/add', { deviceName: `Door ${dialect}`, sn: uniqueSn('DOOR'), systemType: 'abDoor', deviceKind: '1', location: 1 });
    expect(door.success, door.message).toBe(true);
    const doorId = (await t.app.db.selectFrom('sys_device').select('id').where('device_name', '=', `Door ${dialect}`).executeTakeFirstOrThrow()).id;
    const notCabinet = await call('POST', crudPath(keyEntity, 'add'), { deviceId: doorId, slotNo: 1, keyName: `Door key ${dialect}` });
    expect([notCabinet.success, notCabinet.message]).toEqual([false, 'This device is not a key cabinet']);
    const zh = (await injectAs(t.app, admin, { method: 'POST', url: api(t.app, crudPath(keyEntity, 'add')), payload: { deviceId: doorId, slotNo: 1, keyName: 'x' }, headers: { lang: 'zh-CN' } })).envelope;
    expect(zh.message).toBe('该设备不是钥匙柜');

    const dan = await person(`Dan Key ${dialect}`, 'KEYCARD0021');
    await hourRole(`Storemen ${dialect}`, [key], [dan]);
    await t.app.keySync.settled();
    await until(() => sim.keys.entry(5)?.holders.length === 1, 10_000, 'the list on the device');
    expect(await sim.takeKey(5, { cardNo: 'KEYCARD0021' }, t.clock.now())).toBe(true);
    await until(async () => (await keyRow(key)).status === KeyStatus.taken, 10_000, 'the key out');
    const moved = await call('PUT', crudPath(keyEntity, 'edit'), { id: key, slotNo: 6 });
    expect([moved.success, moved.message]).toEqual([false, 'The key is out: it can move to another slot once it is back']);
    // its name may change; the device gets the new list once
    const before = sim.memory.effects.filter((e) => e.kind === 'syncKeys').length;
    expect((await call('PUT', crudPath(keyEntity, 'edit'), { id: key, keyName: `Stores key ${dialect}` })).success).toBe(true);
    await t.app.keySync.settled();
    await until(() => sim.keys.entry(5)?.name === `Stores key ${dialect}`, 10_000, 'the new name on the device');
    expect(sim.memory.effects.filter((e) => e.kind === 'syncKeys').length).toBe(before + 1);
    await sim.returnKey(5, t.clock.now());
  });

  it('key roles and door roles keep apart, and another tenant’s operator sees and changes nothing of the keys', async () => {
    const { deviceId } = await keyCabinet();
    const key = await addKey(deviceId, 7, `Gate key ${dialect}`);
    const eve = await person(`Eve Key ${dialect}`, 'KEYCARD0031');
    await hourRole(`Gatekeepers ${dialect}`, [key], [eve]);
    const roleId = (await t.app.db.selectFrom('sys_device_role').select('id').where('role_name', '=', `Gatekeepers ${dialect}`).executeTakeFirstOrThrow()).id;
    // a key role is no door-access role: the device role list does not show it, nor read or change it
    const doorRoles = await call<{ records: Array<{ id: string }> }>('GET', `${crudPath(deviceRoleEntity, 'list')}?pageSize=1000`);
    expect(doorRoles.result.records.map((r) => r.id)).not.toContain(roleId);
    expect((await call('GET', `${crudPath(deviceRoleEntity, 'queryById')}?id=${roleId}`)).success).toBe(false);
    expect((await call('DELETE', `${crudPath(deviceRoleEntity, 'delete')}?id=${roleId}`)).success).toBe(false);
    expect(await t.app.db.selectFrom('sys_device_role').select('role_type').where('id', '=', roleId).executeTakeFirstOrThrow()).toEqual({ role_type: '5' });
    const keyRoles = await call<{ records: Array<{ id: string; keyIds: string; keyIds_dictText: string }> }>('GET', crudPath(keyRoleEntity, 'list'));
    expect(keyRoles.result.records.find((r) => r.id === roleId)).toMatchObject({ keyIds: key, keyIds_dictText: `Gate key ${dialect}` });

    const codes = ['ks:key:list', 'ks:key:add', 'ks:key:edit', 'ks:key:delete', 'ks:keyPeople:list', 'ks:keyPeople:add', 'ks:role:list', 'ks:role:edit', 'ks:role:delete'];
    const tenant = await call('POST', '/sys/tenant/add', { name: `Tenant ${dialect} keys`, code: `tks${Date.now().toString(36)}`, status: 1 });
    expect(tenant.success, tenant.message).toBe(true);
    const tenantId = (await t.app.db.selectFrom('sys_tenant').select('id').where('name', '=', `Tenant ${dialect} keys`).executeTakeFirstOrThrow()).id;
    await createRoleWith(t.app, 'key_operator_b', codes);
    await t.app.db.updateTable('sys_role').set({ tenant_id: tenantId }).where('role_code', '=', 'key_operator_b').execute();
    await createTestUser(t.app, `keyopb_${dialect}`, { roles: ['key_operator_b'], tenantId });
    const tokenB = await login(t.app, `keyopb_${dialect}`, USER_PASSWORD);
    for (const entity of [keyEntity, keyPeopleEntity, keyRoleEntity]) {
      const list = await call<{ total: number }>('GET', crudPath(entity, 'list'), undefined, tokenB);
      expect([entity.name, list.success, list.result.total]).toEqual([entity.name, true, 0]);
    }
    expect((await call('GET', `${KeyPath.history}?id=${key}`, undefined, tokenB)).message).toBe('No such key');
    expect((await call('PUT', crudPath(keyEntity, 'edit'), { id: key, keyName: 'Taken over' }, tokenB)).success).toBe(false);
    expect((await call('DELETE', `${crudPath(keyRoleEntity, 'delete')}?id=${roleId}`, undefined, tokenB)).success).toBe(false);
    const foreignDevice = await call('POST', crudPath(keyEntity, 'add'), { deviceId, slotNo: 8, keyName: `Foreign key ${dialect}` }, tokenB);
    expect([foreignDevice.success, foreignDevice.message]).toEqual([false, 'Key cabinet: the chosen record does not exist']);
    expect((await keyRow(key)).key_name).toBe(`Gate key ${dialect}`);
    expect(await t.app.db.selectFrom('sys_device_role').select('id').where('id', '=', roleId).executeTakeFirst()).toBeDefined();
  });

  it('an operator hands out only keys of the key cabinets he manages: in key roles and through key people', async () => {
    const mine = await keyCabinet();
    const theirs = await keyCabinet();
    const myKey = await addKey(mine.deviceId, 1, `My key ${dialect}`);
    const theirKey = await addKey(theirs.deviceId, 1, `Their key ${dialect}`);
    const fay = await person(`Fay Key ${dialect}`, 'KEYCARD0041', false);
    const gus = await person(`Gus Key ${dialect}`, 'KEYCARD0042', false);
    const codes = ['ks:key:list', 'ks:keyPeople:list', 'ks:keyPeople:add', 'ks:keyPeople:edit', 'ks:keyPeople:delete', 'ks:role:list', 'ks:role:add', 'ks:role:edit', 'ks:role:delete'];
    await createRoleWith(t.app, 'key_operator', codes);
    await createTestUser(t.app, `keyop_${dialect}`, { roles: ['key_operator'] });
    const op = await login(t.app, `keyop_${dialect}`, USER_PASSWORD);
    expect((await call('POST', '/cabinet/managerUser/add', { userName: `keyop_${dialect}`, deviceIds: mine.deviceId })).success).toBe(true);
    const refusal = 'You can only hand out keys of the key cabinets you manage yourself.';

    const own = await call('POST', '/ks/role/add', { roleName: `Mine ${dialect}`, keyIds: myKey, peopleIds: fay, timeSetting: '{"mode":"permanent"}' }, op);
    expect(own.success, own.message).toBe(true);
    const notHis = await call('POST', '/ks/role/add', { roleName: `Theirs ${dialect}`, keyIds: theirKey, peopleIds: fay, timeSetting: '{"mode":"permanent"}' }, op);
    expect([notHis.success, notHis.message]).toEqual([false, refusal]);
    const ownId = (await t.app.db.selectFrom('sys_device_role').select('id').where('role_name', '=', `Mine ${dialect}`).executeTakeFirstOrThrow()).id;
    const widened = await call('PUT', '/ks/role/edit', { id: ownId, keyIds: `${myKey},${theirKey}` }, op);
    expect([widened.success, widened.message]).toEqual([false, refusal]);

    // a role of the administrator's giving the other cabinet's key to Gus: the operator neither changes it nor deletes it
    expect((await call('POST', '/ks/role/add', { roleName: `Admin's ${dialect}`, keyIds: theirKey, peopleIds: gus, timeSetting: '{"mode":"permanent"}' })).success).toBe(true);
    const adminRole = (await t.app.db.selectFrom('sys_device_role').select('id').where('role_name', '=', `Admin's ${dialect}`).executeTakeFirstOrThrow()).id;
    expect((await call('PUT', '/ks/role/edit', { id: adminRole, peopleIds: `${gus},${fay}` }, op)).message).toBe(refusal);
    expect((await call('DELETE', `/ks/role/delete?id=${adminRole}`, undefined, op)).message).toBe(refusal);
    expect((await call('DELETE', `/ks/role/deleteBatch?ids=${adminRole},${ownId}`, undefined, op)).message).toBe(refusal);
    expect(await t.app.db.selectFrom('sys_device_role').select('id').where('id', 'in', [adminRole, ownId]).execute()).toHaveLength(2);

    // making Gus a key person would hand him the other cabinet's key: refused; Fay gets only the operator's key
    expect((await call('POST', '/ks/keyPeople/add', { peopleId: gus }, op)).message).toBe(refusal);
    expect((await call('POST', '/ks/keyPeople/add', { peopleId: fay }, op)).success).toBe(true);
    const fayEntry = (await t.app.db.selectFrom('sys_key_people').select('id').where('people_id', '=', fay).executeTakeFirstOrThrow()).id;
    expect((await call('PUT', '/ks/keyPeople/edit', { id: fayEntry, peopleId: gus }, op)).message).toBe(refusal);
    expect((await call('POST', '/ks/keyPeople/add', { peopleId: gus })).success).toBe(true);
    const gusEntry = (await t.app.db.selectFrom('sys_key_people').select('id').where('people_id', '=', gus).executeTakeFirstOrThrow()).id;
    expect((await call('DELETE', `/ks/keyPeople/delete?id=${gusEntry}`, undefined, op)).message).toBe(refusal);
    expect((await call('DELETE', `/ks/keyPeople/deleteBatch?ids=${gusEntry},${fayEntry}`, undefined, op)).message).toBe(refusal);
    expect((await call('DELETE', `/ks/role/delete?id=${ownId}`, undefined, op)).success).toBe(true);
  });
});
