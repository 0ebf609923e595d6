import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerLanguage, translate, CabinetStatus, cabinetEntity, EmergencyPath, cabinetRecordEntity, crudPath, deviceEntity, peopleEntity, RealtimeCmd, StoragePath, type CabinetTreeNode, type Envelope, type RealtimeMessage } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, recordUserNotices, uniqueSn, until } from '../../gateway/test-support.ts';
import { adminToken, api, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';
import { createRoleWith } from '../../test/crud-helpers.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');

/** The cabinet numbers of the `syncCabinets` upserts a device ran, each with the holders it was given. */
const allocationsRun = (sim: SimDevice, no: number) =>
  sim.memory.effects.filter((e) => e.kind === 'syncCabinets').flatMap((e) => ((e.payload as { cabinets?: Array<{ no: number; holders: unknown[] }> }).cabinets ?? []).filter((c) => c.no === no));

describe.each(dialects)('storage cabinets driven by live devices on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  const sims: SimDevice[] = [];
  const notices: Array<{ userIds: readonly string[]; message: RealtimeMessage }> = [];

  async function call<T = unknown>(method: 'POST' | 'PUT' | 'GET' | 'DELETE', path: string, payload?: unknown, token = admin): Promise<Envelope<T>> {
    return (await injectAs<T>(t.app, token, { method, url: api(t.app, path), payload: payload as Record<string, unknown>, headers: { lang: 'en-US' } })).envelope;
  }
  async function cabinetDevice(options: { cabinets?: number; start?: boolean } = {}): Promise<{ sim: SimDevice; deviceId: string; cabinetId: (no: number) => Promise<string> }> {
    const sn = uniqueSn('CAB');
    const key = await approvedKey(t.app, sn, admin);
    const sim = new SimDevice({ url: t.mqttUrl, sn, key, kind: 'cabinet', cabinets: options.cabinets ?? 4, appVersion: '2.1.0', doorOpenMs: 0, heartbeatMs: 0, clock: t.clock.now });
    sims.push(sim);
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, `hello of ${sn}`);
    const deviceId = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
    await until(async () => (await t.app.db.selectFrom('sys_cabinet').select('id').where('device_id', '=', deviceId).execute()).length === (options.cabinets ?? 4), 5000, 'cabinets of the hello');
    // the report the hello asks for is answered before the test goes on
    await until(() => sim.memory.effects.some((e) => e.kind === 'cabinetReport'), 5000, 'first report');
    await t.app.cabinetSync.settled();
    const cabinetId = async (no: number) => (await t.app.db.selectFrom('sys_cabinet').select('id').where('device_id', '=', deviceId).where('cabinet_no', '=', no).executeTakeFirstOrThrow()).id;
    return { sim, deviceId, cabinetId };
  }
  async function person(name: string, cardNo: string): Promise<string> {
    const added = await call<{ id: string }>('POST', crudPath(peopleEntity, 'add'), { name, cardNo });
    expect(added.success, added.message).toBe(true);
    return (await t.app.db.selectFrom('sys_people').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  }
  const status = async (id: string) => (await t.app.db.selectFrom('sys_cabinet').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 60_000, offlineSweepMs: 3_600_000 } });
    admin = await adminToken(t.app);
    recordUserNotices(t.app, notices);
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop().catch(() => undefined)));
    await t.close();
  });

  it('allocates a cabinet; its holder opens it with a card and the opening record reaches the console at once', async () => {
    const { sim, deviceId, cabinetId } = await cabinetDevice();
    const tree = await call<CabinetTreeNode[]>('GET', `${StoragePath.queryCabinetTree}?deviceId=${deviceId}`);
    expect(tree.success, tree.message).toBe(true);
    expect(tree.result[0]!.children!.map((c) => [c.cabinetNo, c.status_dictText])).toEqual([1, 2, 3, 4].map((no) => [no, 'Unassigned']));
    const ann = await person('Ann Locker', 'CABCARD0001');
    const cabinet = await cabinetId(1);

    const allocated = await call('POST', StoragePath.allocateCabinet, { id: cabinet, peopleIds: [ann] });
    expect([allocated.success, allocated.message]).toEqual([true, 'Allocation succeeded']);
    expect(await status(cabinet)).toBe(CabinetStatus.assigned);
    await until(() => sim.cabinets.get(1)?.holders[0]?.peopleId === ann, 10_000, 'the allocation on the device');
    expect(sim.cabinets.get(1)!.holders[0]!.cardNo).toBe('CABCARD0001');
    // the tree names the holder, and gives her id for the allocate dialog to start from
    const held = (await call<CabinetTreeNode[]>('GET', `${StoragePath.queryCabinetTree}?deviceId=${deviceId}`)).result[0]!.children![0]!;
    expect([held.holders, held.holderIds]).toEqual([['Ann Locker'], [ann]]);

    // someone else's card opens nothing; the holder's opens the cabinet
    expect(await sim.openCabinet(1, { cardNo: 'SOMEONEELSE' })).toBe(false);
    notices.length = 0;
    expect(await sim.openCabinet(1, { cardNo: 'CABCARD0001' })).toBe(true);
    await until(() => notices.some((n) => n.message.cmd === RealtimeCmd.cabinetRecord), 10_000, 'the live notice');
    const records = await call<{ records: Array<Record<string, unknown>> }>('GET', `${crudPath(cabinetRecordEntity, 'list')}?deviceId=${deviceId}`);
    expect(records.result.records).toEqual([expect.objectContaining({ cabinetNo: 1, peopleId: ann, peopleId_dictText: 'Ann Locker', idCard: '*******0001', closeTime: null })]);
    // the notice goes to the record readers of the device's tenant (the administrator holds the list)
    const adminId = (await t.app.db.selectFrom('sys_user').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    expect(notices.find((n) => n.message.cmd === RealtimeCmd.cabinetRecord)!.userIds).toContain(adminId);
    await sim.closeCabinet(1);
    await until(async () => ((await call<{ records: Array<{ closeTime: string | null }> }>('GET', `${crudPath(cabinetRecordEntity, 'list')}?deviceId=${deviceId}`)).result.records[0]?.closeTime ?? null) !== null, 10_000, 'the closing');
  });

  it('refuses to reassign a cabinet not cleared on the device with the spec’s message, and reassigns it once the device cleared it', async () => {
    const { sim, cabinetId } = await cabinetDevice();
    const [ann, ben] = [await person('Ann Reassign', 'CABCARD0011'), await person('Ben Reassign', 'CABCARD0012')];
    const cabinet = await cabinetId(2);
    expect((await call('POST', StoragePath.allocateCabinet, { id: cabinet, peopleIds: [ann] })).success).toBe(true);
    await until(() => sim.cabinets.get(2)?.holders[0]?.peopleId === ann, 10_000, 'Ann on the device');

    const refused = await call('POST', StoragePath.allocateCabinet, { id: cabinet, peopleIds: [ben] });
    expect([refused.success, refused.message]).toEqual([false, 'Allocation failed: Cabinet must be cleared before reassignment']);
    const zh = (await injectAs(t.app, admin, { method: 'POST', url: api(t.app, StoragePath.allocateCabinet), payload: { id: cabinet, peopleIds: [ben] }, headers: { lang: 'zh-CN' } })).envelope;
    expect(zh.message).toBe('分配失败：柜格必须先在设备上清空才能重新分配');
    // the same holders again change nothing and are no reassignment
    expect((await call('POST', StoragePath.allocateCabinet, { id: cabinet, peopleIds: [ann] })).success).toBe(true);

    await sim.clearCabinet(2);
    await until(async () => (await status(cabinet)) === CabinetStatus.assignable, 10_000, 'the clearing');
    const reassigned = await call('POST', StoragePath.allocateCabinet, { id: cabinet, peopleIds: [ben] });
    expect([reassigned.success, reassigned.message]).toEqual([true, 'Allocation succeeded']);
    await until(() => sim.cabinets.get(2)?.holders[0]?.peopleId === ben, 10_000, 'Ben on the device');
  });

  it('a device in full-send mode takes a reassignment at once, as its whole list again', async () => {
    const { sim, deviceId, cabinetId } = await cabinetDevice();
    expect((await call('PUT', crudPath(deviceEntity, 'edit'), { id: deviceId, syncMode: 'full' })).success).toBe(true);
    const [ann, ben] = [await person('Ann Full', 'CABCARD0021'), await person('Ben Full', 'CABCARD0022')];
    const [one, three] = [await cabinetId(1), await cabinetId(3)];
    expect((await call('POST', StoragePath.allocateCabinet, { id: one, peopleIds: [ann] })).success).toBe(true);
    expect((await call('POST', StoragePath.allocateCabinet, { id: three, peopleIds: [ann] })).success).toBe(true);
    await until(() => sim.cabinets.get(3)?.holders[0]?.peopleId === ann, 10_000, 'Ann on the device');
    // every pass of the two allocations has reached the device (a later one may follow the first Ann is seen in)
    await t.app.cabinetSync.settled();
    await until(async () => (await t.app.db.selectFrom('sys_device_command').select('id').where('device_id', '=', deviceId).where('status', 'in', ['pending', 'sent']).execute()).length === 0, 10_000, 'the queue run');
    const ran = sim.memory.effects.length;

    const reassigned = await call('POST', StoragePath.allocateCabinet, { id: one, peopleIds: [ben] });
    expect([reassigned.success, reassigned.message]).toEqual([true, 'Allocation succeeded']);
    await until(() => sim.cabinets.get(1)?.holders[0]?.peopleId === ben, 10_000, 'Ben on the device');
    // a clear, then every allocated cabinet: the device holds exactly the console's list
    const ops = sim.memory.effects.slice(ran).filter((e) => e.kind === 'syncCabinets').map((e) => (e.payload as { op: string }).op);
    expect(ops).toEqual(['clear', 'upsert']);
    expect(sim.cabinets.report().map((line) => line.split(':')[0])).toEqual(['1', '3']);
  });

  it('a device offline during an allocation has it after reconnecting, exactly once', async () => {
    const { sim, deviceId, cabinetId } = await cabinetDevice();
    const ann = await person('Ann Offline', 'CABCARD0031');
    const cabinet = await cabinetId(4);
    sim.dropOffNetwork();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('id', '=', deviceId).executeTakeFirstOrThrow()).online === 0, 15_000, 'the device offline');

    expect((await call('POST', StoragePath.allocateCabinet, { id: cabinet, peopleIds: [ann] })).success).toBe(true);
    await t.app.cabinetSync.settled();
    expect(allocationsRun(sim, 4)).toEqual([]);

    await sim.start();
    await until(() => sim.cabinets.get(4)?.holders[0]?.peopleId === ann, 15_000, 'the allocation after reconnecting');
    // the hello's report finds the device in step: nothing is sent again
    const reports = sim.memory.effects.filter((e) => e.kind === 'cabinetReport').length;
    await until(() => sim.memory.effects.filter((e) => e.kind === 'cabinetReport').length >= reports, 5000, 'report');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await t.app.cabinetSync.settled();
    expect(allocationsRun(sim, 4)).toHaveLength(1);
  });

  it('an allocation that ends is released by the server and cleared on the device', async () => {
    const { sim, cabinetId } = await cabinetDevice();
    const ann = await person('Ann Expiry', 'CABCARD0041');
    const cabinet = await cabinetId(1);
    const soon = new Date(t.clock.now() + 60_000);
    const wire = `${soon.getUTCFullYear()}-${String(soon.getUTCMonth() + 1).padStart(2, '0')}-${String(soon.getUTCDate()).padStart(2, '0')} ${String(soon.getUTCHours()).padStart(2, '0')}:${String(soon.getUTCMinutes()).padStart(2, '0')}:${String(soon.getUTCSeconds()).padStart(2, '0')}`;
    const past = await call('POST', StoragePath.allocateCabinet, { id: cabinet, peopleIds: [ann], expireTime: '2020-01-01 00:00:00' });
    expect([past.success, past.message]).toEqual([false, 'Allocation failed: the end of the allocation must be in the future']);
    expect((await call('POST', StoragePath.allocateCabinet, { id: cabinet, peopleIds: [ann], expireTime: wire })).success).toBe(true);
    await until(() => sim.cabinets.get(1)?.expireAt !== undefined && sim.cabinets.get(1)?.holders.length === 1, 10_000, 'the allocation on the device');

    // before it ends, the device's managers and the holder (a console user by her user number) are told, once each
    const deviceId = (await t.app.db.selectFrom('sys_cabinet').select('device_id').where('id', '=', cabinet).executeTakeFirstOrThrow()).device_id;
    expect((await call('POST', '/cabinet/managerUser/add', { userName: 'admin', deviceIds: deviceId })).success).toBe(true);
    const holderUser = await createTestUser(t.app, `holder_${dialect}`);
    await t.app.db.updateTable('sys_user').set({ work_no: `W-${dialect}`, lang: 'en-US' }).where('id', '=', holderUser).execute();
    await t.app.db.updateTable('sys_people').set({ user_no: `W-${dialect}` }).where('id', '=', ann).execute();
    const { noticeExpiring } = await import('./expiry-notices.ts');
    expect(await Promise.all([noticeExpiring(t.app, t.clock.now()), noticeExpiring(t.app, t.clock.now())])).toEqual(expect.arrayContaining([1, 0]));
    expect(await noticeExpiring(t.app, t.clock.now())).toBe(0);
    const adminId = (await t.app.db.selectFrom('sys_user').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    const told = await t.app.db.selectFrom('sys_announcement').select(['user_ids', 'titile', 'msg_content']).where('bus_id', '=', cabinet).execute();
    expect(told.map((m) => m.user_ids).sort()).toEqual([adminId, holderUser].sort());
    // each in the user's language
    const toHolder = told.find((m) => m.user_ids === holderUser)!;
    expect(toHolder.titile).toBe('A cabinet allocation ends soon');
    expect(toHolder.msg_content).toContain('is allocated until');
    expect(told.find((m) => m.user_ids === adminId)!.titile).toBe(translate(answerLanguage(null, null), 'storage.expirySoonTitle'));
    expect((await call('DELETE', `/cabinet/managerUser/delete?id=${(await t.app.db.selectFrom('sys_storage_manager').select('id').where('user_name', '=', 'admin').executeTakeFirstOrThrow()).id}`)).success).toBe(true);

    t.clock.advance(120_000);
    const { releaseExpired } = await import('./allocation.ts');
    await releaseExpired(t.app.db, new Date(t.clock.now()).toISOString());
    expect(await status(cabinet)).toBe(CabinetStatus.unassigned);
    await until(() => sim.cabinets.get(1) === undefined, 10_000, 'the cabinet cleared on the device');
  });

  it('opens one cabinet remotely for a holder of the right, only while its device is online, and writes it to the log', async () => {
    const { sim, deviceId, cabinetId } = await cabinetDevice();
    const cabinet = await cabinetId(2);
    const opened = await call<{ commandId: string }>('POST', StoragePath.openCabinet, { id: cabinet });
    expect([opened.success, opened.message]).toEqual([true, 'The cabinet door is opening']);
    await until(async () => (await t.app.db.selectFrom('sys_cabinet_record').select('method').where('device_id', '=', deviceId).execute()).some((r) => r.method === 'remote'), 10_000, 'the remote opening');
    const logs = await t.app.db.selectFrom('sys_log').select('content').where('log_params', 'like', '%log.cabinetOpened%').execute();
    expect(logs.map((l) => l.content)).toContain(`Lockers: cabinet 2 of ${(await t.app.db.selectFrom('sys_device').select('device_name').where('id', '=', deviceId).executeTakeFirstOrThrow()).device_name} opened remotely`);

    await sim.stop();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('id', '=', deviceId).executeTakeFirstOrThrow()).online === 0, 15_000, 'offline');
    const queued = (await t.app.db.selectFrom('sys_device_command').select('id').where('device_id', '=', deviceId).where('kind', '=', 'openCabinet').execute()).length;
    const refused = await call('POST', StoragePath.openCabinet, { id: cabinet });
    expect([refused.success, refused.message]).toEqual([false, "The cabinet's device cannot be reached now: nothing was sent"]);
    // nothing waits to open the cabinet later
    expect((await t.app.db.selectFrom('sys_device_command').select('id').where('device_id', '=', deviceId).where('kind', '=', 'openCabinet').execute()).length).toBe(queued);
  });

  it('the interface test sends a command over the link and shows the device’s reply', async () => {
    const { deviceId } = await cabinetDevice({ cabinets: 6 });
    // the page offers the cabinet devices under its own permission (no device list needed)
    await createRoleWith(t.app, 'interface_tester', ['storage:interfaceTest:view']);
    await createTestUser(t.app, `tester_${dialect}`, { roles: ['interface_tester'] });
    const tester = await login(t.app, `tester_${dialect}`, USER_PASSWORD);
    const offered = await call<Array<{ id: string; online: number }>>('GET', StoragePath.interfaceTestDevices, undefined, tester);
    expect(offered.result.find((d) => d.id === deviceId)).toMatchObject({ online: 1 });
    const answered = await call<{ status: string; ok: boolean; reply: { cabinets: number; appVersion: string } }>('POST', StoragePath.interfaceTest, { deviceId, command: 'status' });
    expect(answered.success, answered.message).toBe(true);
    expect(answered.result).toMatchObject({ status: 'answered', ok: true, reply: { cabinets: 6, appVersion: '2.1.0' } });
    const sync = await call<{ status: string; reply: { held: string[] } }>('POST', StoragePath.interfaceTest, { deviceId, command: 'sync' });
    expect(sync.result).toMatchObject({ status: 'answered', reply: { held: [] } });
    const noCabinet = await injectAs(t.app, admin, { method: 'POST', url: api(t.app, StoragePath.interfaceTest), payload: { deviceId, command: 'open' }, headers: { lang: 'en-US' } });
    expect([noCabinet.statusCode, noCabinet.envelope.message]).toEqual([400, 'Choose the cabinet']);
  });

  it('the emergency releases the cabinets marked for it within 1 s of its start, and its end closes them again', async () => {
    const { sim, cabinetId } = await cabinetDevice();
    for (const no of [1, 3]) expect((await call('PUT', crudPath(cabinetEntity, 'edit'), { id: await cabinetId(no), releaseInEmergency: 1 })).success).toBe(true);
    const started = Date.now();
    const drill = await call<{ id: string; cabinetCount: number }>('POST', EmergencyPath.drill, {});
    expect(drill.success, drill.message).toBe(true);
    await until(() => sim.openCabinets.has(1) && sim.openCabinets.has(3), 5000, 'the marked cabinets open');
    const tookMs = Date.now() - started;
    console.log(`marked cabinets open ${tookMs} ms after the drill started`);
    expect(tookMs).toBeLessThan(1000);
    expect([...sim.openCabinets].sort()).toEqual([1, 3]);
    expect(drill.result.cabinetCount).toBeGreaterThanOrEqual(2);
    expect((await call('POST', EmergencyPath.end, { id: drill.result.id })).success).toBe(true);
    await until(() => sim.openCabinets.size === 0, 5000, 'the cabinets closed again');
    for (const no of [1, 3]) expect((await call('PUT', crudPath(cabinetEntity, 'edit'), { id: await cabinetId(no), releaseInEmergency: 0 })).success).toBe(true);
  });

  it('answers the spec’s messages for a device the cabinet query does not find or that has no cabinets', async () => {
    const missing = await call('GET', `${StoragePath.queryCabinetTree}?deviceId=${randomUUID()}`);
    expect([missing.success, missing.message]).toEqual([false, 'The device was not found in the cabinet query']);
    const { deviceId } = await cabinetDevice({ cabinets: 0 });
    const none = await call('GET', `${StoragePath.queryCabinetTree}?deviceId=${deviceId}`);
    expect([none.success, none.message]).toEqual([false, 'No cabinet information of the equipment is queried']);
  });

  it('an operator allocates only cabinets of the devices he manages; another tenant’s operator sees and changes nothing', async () => {
    const { deviceId, cabinetId } = await cabinetDevice();
    const other = await cabinetDevice();
    const ann = await person('Ann Managed', 'CABCARD0051');
    const codes = ['storage:cabinet:list', 'storage:cabinet:allocate', 'storage:cabinet:open', 'storage:openRecord:list', 'storage:manager:list', 'storage:manager:add', 'storage:manager:edit', 'storage:manager:delete'];
    await createRoleWith(t.app, 'cabinet_operator', codes);
    await createTestUser(t.app, `cabop_${dialect}`, { roles: ['cabinet_operator'] });
    const opToken = await login(t.app, `cabop_${dialect}`, USER_PASSWORD);
    // a manager of the first device only
    expect((await call('POST', '/cabinet/managerUser/add', { userName: `cabop_${dialect}`, deviceIds: deviceId })).success).toBe(true);

    // he may not read the people list, yet the allocate dialog offers him the people of his tenant
    expect((await call('GET', '/sysPeople/list', undefined, opToken)).success).toBe(false);
    const offered = await call<{ records: Array<{ value: string; label: string }> }>('GET', '/cabinet/allocation/linkOptions?field=peopleIds&keyword=Ann%20Managed', undefined, opToken);
    expect([offered.success, offered.result.records]).toEqual([true, [{ value: ann, label: 'Ann Managed' }]]);
    const own = await call('POST', StoragePath.allocateCabinet, { id: await cabinetId(1), peopleIds: [ann] }, opToken);
    expect([own.success, own.message]).toEqual([true, 'Allocation succeeded']);
    const notHis = await call('POST', StoragePath.allocateCabinet, { id: await other.cabinetId(1), peopleIds: [ann] }, opToken);
    expect([notHis.success, notHis.message]).toEqual([false, 'Allocation failed: you do not manage this cabinet device']);
    // he cannot make himself (or anyone) the manager of a device he does not manage
    const grant = await call('POST', '/cabinet/managerUser/add', { userName: 'admin', deviceIds: other.deviceId }, opToken);
    expect([grant.success, grant.message]).toEqual([false, 'You can only hand over cabinet devices you manage yourself.']);
    const entry = (await t.app.db.selectFrom('sys_storage_manager').select('id').where('user_name', '=', `cabop_${dialect}`).executeTakeFirstOrThrow()).id;
    const widened = await call('PUT', '/cabinet/managerUser/edit', { id: entry, deviceIds: `${deviceId},${other.deviceId}` }, opToken);
    expect([widened.success, widened.message]).toEqual([false, 'You can only hand over cabinet devices you manage yourself.']);
    // another manager of a device he does not manage stays, alone or in a batch
    expect((await call('POST', '/cabinet/managerUser/add', { userName: 'admin', deviceIds: other.deviceId })).success).toBe(true);
    const adminEntry = (await t.app.db.selectFrom('sys_storage_manager').select('id').where('user_name', '=', 'admin').executeTakeFirstOrThrow()).id;
    expect((await call('DELETE', `/cabinet/managerUser/delete?id=${adminEntry}`, undefined, opToken)).message).toBe('You can only hand over cabinet devices you manage yourself.');
    expect((await call('DELETE', `/cabinet/managerUser/deleteBatch?ids=${adminEntry},${entry}`, undefined, opToken)).message).toBe('You can only hand over cabinet devices you manage yourself.');
    expect(await t.app.db.selectFrom('sys_storage_manager').select('id').where('id', 'in', [adminEntry, entry]).execute()).toHaveLength(2);
    // he releases and opens only cabinets of his devices
    expect((await call('POST', StoragePath.releaseCabinet, { id: await cabinetId(1) }, opToken)).message).toBe('The cabinet is released; the device clears it');
    expect((await call('POST', StoragePath.releaseCabinet, { id: await other.cabinetId(1) }, opToken)).message).toBe('you do not manage this cabinet device');
    expect((await call('POST', StoragePath.openCabinet, { id: await other.cabinetId(1) }, opToken)).message).toBe('you do not manage this cabinet device');
    const managers = await call<Array<{ username: string; deviceIds: string[] }>>('GET', '/cabinet/managerUser/queryAllManager', undefined, opToken);
    expect(managers.result.map((m) => [m.username, m.deviceIds])).toEqual([['admin', [other.deviceId]], [`cabop_${dialect}`, [deviceId]]]);

    // another tenant
    const tenant = await call<{ id: string }>('POST', '/sys/tenant/add', { name: `Tenant ${dialect} storage`, code: `tst${Date.now().toString(36)}`, status: 1 });
    expect(tenant.success, tenant.message).toBe(true);
    const tenantId = (await t.app.db.selectFrom('sys_tenant').select('id').where('name', '=', `Tenant ${dialect} storage`).executeTakeFirstOrThrow()).id;
    await createRoleWith(t.app, 'cabinet_operator_b', codes);
    await t.app.db.updateTable('sys_role').set({ tenant_id: tenantId }).where('role_code', '=', 'cabinet_operator_b').execute();
    await createTestUser(t.app, `cabopb_${dialect}`, { roles: ['cabinet_operator_b'], tenantId });
    const tokenB = await login(t.app, `cabopb_${dialect}`, USER_PASSWORD);
    const listB = await call<{ total: number }>('GET', crudPath(cabinetEntity, 'list'), undefined, tokenB);
    expect([listB.success, listB.result.total]).toEqual([true, 0]);
    expect((await call<CabinetTreeNode[]>('GET', StoragePath.queryCabinetTree, undefined, tokenB)).result).toEqual([]);
    const foreign = await call('POST', StoragePath.allocateCabinet, { id: await cabinetId(2), peopleIds: [ann] }, tokenB);
    expect([foreign.success, foreign.message]).toEqual([false, 'No such cabinet']);
    expect((await call('POST', StoragePath.openCabinet, { id: await cabinetId(2) }, tokenB)).message).toBe('No such cabinet');
    expect((await call<{ total: number }>('GET', crudPath(cabinetRecordEntity, 'list'), undefined, tokenB)).result.total).toBe(0);
    expect((await call<{ records: unknown[] }>('GET', '/cabinet/allocation/linkOptions?field=peopleIds&keyword=Ann%20Managed', undefined, tokenB)).result.records).toEqual([]);
    expect(await status(await cabinetId(2))).toBe(CabinetStatus.unassigned);
  });
});

describe.each(await testDialects())('two operators allocating one free cabinet at the same moment on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  beforeAll(async () => {
    t = await buildLinkedApp(dialect);
    admin = await adminToken(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  it('exactly one succeeds', async () => {
    const tenantId = (await t.app.db.selectFrom('sys_tenant').select('id').where('code', '=', 'default').executeTakeFirstOrThrow()).id;
    const deviceId = randomUUID();
    const audit = { create_by: 'test', create_time: null, update_by: null, update_time: null };
    await t.app.db.insertInto('sys_device').values({ ...audit, id: deviceId, device_name: 'Race lockers', sn: uniqueSn('RACE'), mac: null, ip: null, gateway: null, subnet_mask: null, system_type: 'storage', device_type_id: null, device_model: null, background_image: null, location: null, area_id: null, online: 0, last_seen: null, session_id: null, firmware: null, tenant_id: tenantId }).execute();
    for (let round = 0; round < 5; round++) {
      const cabinet = randomUUID();
      await t.app.db.insertInto('sys_cabinet').values({ ...audit, id: cabinet, device_id: deviceId, cabinet_no: round + 1, status: 0, attribute: 1, expire_time: null, release_in_emergency: 0, remark: null, version: null, sent_version: null, expiry_notified: 0, tenant_id: tenantId }).execute();
      const people = await Promise.all(['A', 'B'].map(async (who) => {
        const added = await injectAs<{ id: string }>(t.app, admin, { method: 'POST', url: api(t.app, crudPath(peopleEntity, 'add')), payload: { name: `Racer ${who}${round}` } });
        expect(added.envelope.success).toBe(true);
        return (await t.app.db.selectFrom('sys_people').select('id').where('name', '=', `Racer ${who}${round}`).executeTakeFirstOrThrow()).id;
      }));
      const answers = await Promise.all(people.map((id) => injectAs(t.app, admin, { method: 'POST', url: api(t.app, StoragePath.allocateCabinet), payload: { id: cabinet, peopleIds: [id] }, headers: { lang: 'en-US' } })));
      expect(answers.filter((a) => a.envelope.success)).toHaveLength(1);
      const holders = await t.app.db.selectFrom('sys_cabinet_people').select('people_id').where('cabinet_id', '=', cabinet).execute();
      expect(holders).toHaveLength(1);
      const loser = answers.find((a) => !a.envelope.success)!;
      expect(loser.envelope.message).toMatch(/^Allocation failed: /);
    }
  });
});
