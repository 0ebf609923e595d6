import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessEventEntity, crudPath, dataLogEntity, departEntity, DeviceEventKind, deviceRoleEntity, doorEntity, logEntity, SyncPeopleOp, translate, VisitorDeskPath, visitEntity, visitorEntity, type Envelope, type Page } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, uniqueSn, until } from '../../gateway/test-support.ts';
import { createRoleWith, sheetRows, uploadFile } from '../../test/crud-helpers.ts';
import { adminToken, api, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');

/** A wire time (`yyyy-MM-dd HH:mm:ss`, the test server's zone is UTC) of an instant. */
const wire = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

describe.each(dialects)('visitors through the door on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  const sims: SimDevice[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'isps-visit-'));

  async function call<T = unknown>(method: 'POST' | 'PUT' | 'GET' | 'DELETE', path: string, payload?: unknown, token = admin): Promise<Envelope<T>> {
    return (await injectAs<T>(t.app, token, { method, url: api(t.app, path), payload: payload as Record<string, unknown>, headers: { lang: 'en-US' } })).envelope;
  }
  async function startSim(sn: string, key: string): Promise<SimDevice> {
    const sim = new SimDevice({ url: t.mqttUrl, sn, key, kind: 'door', accessDir: dir, doorOpenMs: 0, heartbeatMs: 0, clock: t.clock.now });
    sims.push(sim);
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, `hello of ${sn}`);
    return sim;
  }
  async function doorDevice() {
    const sn = uniqueSn('VIS');
    const key = await approvedKey(t.app, sn, admin);
    const sim = await startSim(sn, key);
    const deviceId = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
    const added = await call('POST', crudPath(doorEntity, 'add'), { doorName: `Door ${sn}`, deviceId, doorNo: 1 });
    expect(added.success, added.message).toBe(true);
    const doorId = (await t.app.db.selectFrom('sys_door').select('id').where('device_id', '=', deviceId).where('door_no', '=', 1).executeTakeFirstOrThrow()).id;
    return { sn, key, sim, deviceId, doorId };
  }
  let idSeq = 0;
  async function visitor(name: string, cardNo: string, departId?: string): Promise<string> {
    idSeq += 1;
    const added = await call<{ id: string }>('POST', crudPath(visitorEntity, 'add'), {
      ...(departId ? { departId } : {}),
      name,
      idType: '3',
      idCard: `V${Date.now()}${idSeq}`,
      phone: `139${String(Date.now() + idSeq).slice(-8)}`,
      category: 'police',
      password: '123456',
      cardNo,
    });
    expect(added.success, added.message).toBe(true);
    return (await t.app.db.selectFrom('sys_visitor').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  }

  const logLines: string[] = [];
  const pushed: unknown[] = [];

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 60_000, offlineSweepMs: 3_600_000 }, accessSync: { visitSweepMs: 100 }, config: { logLevel: 'debug' } });
    // every line the server logs, and every message it pushes to any console
    const streamSym = Object.getOwnPropertySymbols(t.app.log).find((sym) => sym.description === 'pino.stream');
    if (!streamSym) throw new Error('no pino stream on the app logger');
    (t.app.log as unknown as Record<symbol, unknown>)[streamSym] = { write: (line: string) => void logLines.push(line) };
    const hub = t.app.realtime;
    for (const method of ['sendToUser', 'sendToUsers', 'broadcast'] as const) {
      const original = (hub[method] as (...args: unknown[]) => Promise<void>).bind(hub);
      (hub as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        pushed.push(args);
        return original(...args);
      };
    }
    admin = await adminToken(t.app);
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop().catch(() => undefined)));
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a visitor with a one-hour window opens a door inside it, the host is told once, and at its end every device drops the visitor, an offline one on reconnecting', async () => {
    const front = await doorDevice();
    const back = await doorDevice();
    const host = await createTestUser(t.app, `host_${dialect}`);
    const guest = await visitor(`Guest ${dialect}`, `VCARD${dialect}01`);
    const card = `VCARD${dialect}01`;
    expect((await front.sim.swipe(card, 1, t.clock.now())).allowed).toBe(false);

    const start = t.clock.now() - 60_000;
    const end = start + 60 * 60_000;
    const added = await call('POST', crudPath(visitEntity, 'add'), { visitorId: guest, hostId: host, startTime: wire(start), endTime: wire(end), doorIds: `${front.doorId},${back.doorId}` });
    expect(added.success, added.message).toBe(true);
    const visitId = (await t.app.db.selectFrom('sys_visit').select('id').where('visitor_id', '=', guest).executeTakeFirstOrThrow()).id;
    await until(() => front.sim.access.entries.has(guest) && back.sim.access.entries.has(guest), 2000, 'the visitor on both devices');

    // inside the window: the door opens, the server agrees (no flag), and the host is told of the first opening once
    const opening = await front.sim.swipe(card, 1, t.clock.now());
    expect(opening.allowed).toBe(true);
    expect(opening.event).toMatchObject({ kind: DeviceEventKind.opening, data: { peopleId: guest } });
    await until(async () => !!(await t.app.db.selectFrom('sys_announcement').select('id').where('bus_id', '=', visitId).executeTakeFirst()), 5000, 'the host told');
    const stored = await t.app.db.selectFrom('sys_access_event').select(['people_id', 'flagged', 'server_verdict']).where('device_id', '=', front.deviceId).where('kind', '=', 'opening').executeTakeFirstOrThrow();
    expect(stored.people_id).toBe(guest);
    expect(Number(stored.flagged)).toBe(0);
    expect((await back.sim.swipe(card, 1, t.clock.now())).allowed).toBe(true);
    await until(async () => (await t.app.db.selectFrom('sys_access_event').select('id').where('device_id', '=', back.deviceId).where('kind', '=', 'opening').execute()).length === 1, 5000, 'the second opening stored');
    const told = await t.app.db.selectFrom('sys_announcement').select(['user_ids', 'titile']).where('bus_id', '=', visitId).execute();
    expect(told).toHaveLength(1);
    expect(told[0]!.user_ids).toBe(host);
    expect(told[0]!.titile).toContain(`Guest ${dialect}`);

    // the back device goes offline before the window ends
    await back.sim.stop();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('id', '=', back.deviceId).executeTakeFirstOrThrow()).online === 0, 15_000, 'back offline');

    // the window ends: within 2 s the visitor leaves the online device and is refused there
    t.clock.advance(end - t.clock.now() + 1000);
    const ended = Date.now();
    await until(() => !front.sim.access.entries.has(guest), 2000, 'the visitor gone from the online device');
    expect(Date.now() - ended).toBeLessThan(2000);
    expect(await front.sim.swipe(card, 1, t.clock.now())).toMatchObject({ allowed: false, event: { kind: DeviceEventKind.denial } });
    // the edge is taken once: once marked, another sweep marks nothing
    await until(async () => Number((await t.app.db.selectFrom('sys_visit').select('end_synced').where('id', '=', visitId).executeTakeFirstOrThrow()).end_synced) === 1, 2000, 'the end edge marked');
    // (a sweep of the timer may be under way: it is joined first, then a fresh one looks)
    await t.app.accessSync.sweepVisitWindows();
    expect(await t.app.accessSync.sweepVisitWindows()).toBe(0);

    // the offline device drops the visitor on reconnecting
    const returned = await startSim(back.sn, back.key);
    await until(() => returned.access.entries.size === 0 || !returned.access.entries.has(guest), 5000, 'the visitor gone from the returned device');
    expect((await returned.swipe(card, 1, t.clock.now())).allowed).toBe(false);
    // exactly one removal was queued for each device
    for (const deviceId of [front.deviceId, back.deviceId]) {
      const commands = await t.app.db.selectFrom('sys_device_command').select(['payload']).where('device_id', '=', deviceId).where('kind', '=', 'syncPeople').execute();
      const payloads = commands.map((c) => (typeof c.payload === 'string' ? JSON.parse(c.payload) : c.payload) as { op: string; ids?: string[] });
      expect(payloads.filter((p) => p.op === SyncPeopleOp.remove && p.ids?.includes(guest)), deviceId).toHaveLength(1);
    }
  });

  it("a door-access role that binds a group lets the group's visitors through inside their visit's window only", async () => {
    const gate = await doorDevice();
    const host = await createTestUser(t.app, `group_host_${dialect}`);
    const group = await call<{ id: string }>('POST', crudPath(departEntity, 'add'), { departName: `Contractors ${dialect}`, departOrder: 0 });
    expect(group.success, group.message).toBe(true);
    const role = await call('POST', crudPath(deviceRoleEntity, 'add'), { roleName: `Gate ${dialect}`, roleType: '1', deviceIds: gate.deviceId, departIds: group.result.id, timeSetting: '{"mode":"permanent"}' });
    expect(role.success, role.message).toBe(true);
    const card = `VGRP${dialect}01`;
    const guest = await visitor(`Contractor ${dialect}`, card, group.result.id);
    // the group's role alone opens nothing: a visitor passes only inside a visit's window
    expect((await gate.sim.swipe(card, 1, t.clock.now())).allowed).toBe(false);

    const start = t.clock.now() - 60_000;
    const end = start + 30 * 60_000;
    // a visit with no doors of its own: the group's role is what reaches the gate
    const added = await call('POST', crudPath(visitEntity, 'add'), { visitorId: guest, hostId: host, startTime: wire(start), endTime: wire(end) });
    expect(added.success, added.message).toBe(true);
    await until(() => gate.sim.access.entries.has(guest), 2000, 'the visitor on the gate through the group role');
    expect((await gate.sim.swipe(card, 1, t.clock.now())).allowed).toBe(true);
    const opening = () => t.app.db.selectFrom('sys_access_event').select(['people_id', 'flagged']).where('device_id', '=', gate.deviceId).where('kind', '=', 'opening').executeTakeFirst();
    await until(async () => (await opening()) !== undefined, 5000, 'the opening stored');
    const stored = (await opening())!;
    expect(stored.people_id).toBe(guest);
    // the server agrees with the device: the opening is not flagged
    expect(Number(stored.flagged)).toBe(0);

    t.clock.advance(end - t.clock.now() + 1000);
    await until(() => !gate.sim.access.entries.has(guest), 2000, 'the visitor gone from the gate at the end of the window');
    expect((await gate.sim.swipe(card, 1, t.clock.now())).allowed).toBe(false);
  });

  it('a visit opens only doors its author may hand out, and its window must end after it starts', async () => {
    const { doorId } = await doorDevice();
    const guest = await visitor(`Grant ${dialect}`, `VCARD${dialect}02`);
    const host = await createTestUser(t.app, `granthost_${dialect}`);
    const now = t.clock.now();
    const backwards = await call('POST', crudPath(visitEntity, 'add'), { visitorId: guest, hostId: host, startTime: wire(now + 3_600_000), endTime: wire(now), doorIds: doorId });
    expect(backwards.success).toBe(false);
    expect(backwards.message).toBe('The end of a visit must come after its start.');
    // a visit manager who holds no device role covering the door is refused it
    await createRoleWith(t.app, `visit_clerk_${dialect}`, ['vistor:visit:list', 'vistor:visit:add', 'vistor:list:list', 'system:user:list']);
    const clerk = await createTestUser(t.app, `clerk_${dialect}`, { roles: [`visit_clerk_${dialect}`] });
    expect(clerk).toBeTruthy();
    const clerkToken = await login(t.app, `clerk_${dialect}`, USER_PASSWORD);
    const refused = await call('POST', crudPath(visitEntity, 'add'), { visitorId: guest, hostId: host, startTime: wire(now), endTime: wire(now + 3_600_000), doorIds: doorId }, clerkToken);
    expect(refused.success, refused.message).toBe(false);
    expect(refused.message).toBe(translate('en-US', 'grant.deviceTargetNotHeld'));
    expect(await t.app.db.selectFrom('sys_visit').select('id').where('visitor_id', '=', guest).execute()).toHaveLength(0);

    // a visit of that door made by the administrator: the clerk may neither change, delete nor re-import it
    await createRoleWith(t.app, `visit_editor_${dialect}`, ['vistor:visit:list', 'vistor:visit:edit', 'vistor:visit:delete', 'vistor:visit:import', 'vistor:visit:export']);
    await createTestUser(t.app, `editor_${dialect}`, { roles: [`visit_editor_${dialect}`] });
    const editor = await login(t.app, `editor_${dialect}`, USER_PASSWORD);
    expect((await call('POST', '/vistor/visit/add', { visitorId: guest, hostId: host, startTime: wire(now), endTime: wire(now + 3_600_000), doorIds: doorId, remark: 'by admin' })).success).toBe(true);
    const visitId = (await t.app.db.selectFrom('sys_visit').select('id').where('visitor_id', '=', guest).executeTakeFirstOrThrow()).id;
    const notHeld = translate('en-US', 'grant.deviceTargetNotHeld');
    expect(await call('PUT', '/vistor/visit/edit', { id: visitId, doorIds: '' }, editor)).toMatchObject({ success: false, message: notHeld });
    expect(await call('DELETE', `/vistor/visit/delete?id=${visitId}`, undefined, editor)).toMatchObject({ success: false, message: notHeld });
    expect(await call('DELETE', `/vistor/visit/deleteBatch?ids=${visitId}`, undefined, editor)).toMatchObject({ success: false, message: notHeld });
    const file = await injectAs(t.app, admin, { method: 'GET', url: api(t.app, '/vistor/visit/exportXls'), headers: { lang: 'en-US' } });
    const imported = await uploadFile(t.app, editor, '/vistor/visit/importExcel', file.rawPayload, 'en-US');
    expect(JSON.stringify(imported.envelope)).toContain(notHeld);
    const kept = await t.app.db.selectFrom('sys_visit_door').select('door_id').where('visit_id', '=', visitId).execute();
    expect(kept.map((d) => d.door_id)).toEqual([doorId]);
    expect(await t.app.db.selectFrom('sys_visit').select('id').where('visitor_id', '=', guest).execute()).toHaveLength(1);

    // a device role that binds the door, given to a visitor: the same grant, refused to the clerk, allowed to the administrator
    const role = await call<{ id: string }>('POST', '/deviceRole/add', { roleName: `Visitors ${dialect}`, roleType: '1', doorIds: doorId, timeSetting: '{"mode":"permanent"}' });
    expect(role.success, role.message).toBe(true);
    const roleId = (await t.app.db.selectFrom('sys_device_role').select('id').where('role_name', '=', `Visitors ${dialect}`).executeTakeFirstOrThrow()).id;
    await createRoleWith(t.app, `visitor_clerk_${dialect}`, ['vistor:list:list', 'vistor:list:edit']);
    await createTestUser(t.app, `vclerk_${dialect}`, { roles: [`visitor_clerk_${dialect}`] });
    const visitorClerk = await login(t.app, `vclerk_${dialect}`, USER_PASSWORD);
    expect(await call('PUT', crudPath(visitorEntity, 'edit'), { id: guest, roleIds: roleId }, visitorClerk)).toMatchObject({ success: false, message: notHeld });
    expect((await call('PUT', crudPath(visitorEntity, 'edit'), { id: guest, roleIds: roleId })).success).toBe(true);
    expect((await t.app.db.selectFrom('sys_device_role_visitor').select('role_id').where('visitor_id', '=', guest).execute()).map((r) => r.role_id)).toEqual([roleId]);
  });

  it('never shows a visitor\'s card number or palm-vein template in a list, detail, export, the recycle bin, a log or a pushed message', async () => {
    const CARD = `VSECRET${dialect}77`;
    const TEMPLATE = `VISITORPALM-${dialect}-9a8b7c6d5e`;
    const { sim, doorId, deviceId } = await doorDevice();
    const guest = await visitor(`Secret ${dialect}`, CARD);
    // a palm-vein template, as an enrollment stores it (people's table, keyed by the holder's id)
    await t.app.db.insertInto('sys_people_palm').values({ id: randomUUID(), people_id: guest, hand: 'left', template: TEMPLATE, create_by: 'device', create_time: null, update_by: null, update_time: null }).execute();
    await t.app.db.updateTable('sys_visitor').set({ palm_left: 1 }).where('id', '=', guest).execute();
    const host = await createTestUser(t.app, `secrethost_${dialect}`);
    const now = t.clock.now();
    expect((await call('POST', crudPath(visitEntity, 'add'), { visitorId: guest, hostId: host, startTime: wire(now - 60_000), endTime: wire(now + 3_600_000), doorIds: doorId })).success).toBe(true);
    // the device gets them (it needs them), and the visitor opens the door with the card
    await until(() => sim.access.entries.get(guest)?.palm.left === TEMPLATE && sim.access.entries.get(guest)?.cardNo === CARD, 2000, 'card and template on the device');
    expect((await sim.swipe(CARD, 1, t.clock.now())).allowed).toBe(true);
    await until(async () => !!(await t.app.db.selectFrom('sys_access_event').select('id').where('device_id', '=', deviceId).where('people_id', '=', guest).executeTakeFirst()), 5000, 'the opening stored');

    const get = async (path: string) => JSON.stringify(await call('GET', path));
    const list = await call<Page<Record<string, unknown>>>('GET', `${crudPath(visitorEntity, 'list')}?name=*Secret*`);
    expect(list.result.records[0]).toMatchObject({ cardNoMasked: `${'*'.repeat(CARD.length - 4)}${CARD.slice(-4)}`, palmLeft: 1, palmRight: 0 });
    expect(list.result.records[0]).not.toHaveProperty('cardNo');
    const exported = await injectAs(t.app, admin, { method: 'GET', url: api(t.app, crudPath(visitorEntity, 'exportXls')), headers: { lang: 'en-US' } });
    const sheet = JSON.stringify(await sheetRows(exported.rawPayload));
    expect(sheet).toContain(CARD.slice(-4));
    const visitsSheet = JSON.stringify(await sheetRows((await injectAs(t.app, admin, { method: 'GET', url: api(t.app, crudPath(visitEntity, 'exportXls')), headers: { lang: 'en-US' } })).rawPayload));
    // an edit writes a data log version and an operation log entry; a delete puts the row in the recycle bin
    expect((await call('PUT', crudPath(visitorEntity, 'edit'), { id: guest, cardNo: CARD })).success).toBe(true);
    // the arrivals desk: the card issued again there, the visitor looked up by his ID number, the visit's pass
    const issued = await call('POST', VisitorDeskPath.issueCard, { visitorId: guest, cardNo: CARD });
    expect(issued.success, issued.message).toBe(true);
    const { id_card: idNumber } = await t.app.db.selectFrom('sys_visitor').select('id_card').where('id', '=', guest).executeTakeFirstOrThrow();
    const visitId = (await t.app.db.selectFrom('sys_visit').select('id').where('visitor_id', '=', guest).executeTakeFirstOrThrow()).id;
    const desk = [JSON.stringify(issued), await get(`${VisitorDeskPath.find}?idCard=${idNumber}`), await get(`${VisitorDeskPath.pass}?visitId=${visitId}`)];
    expect(desk[1]).toContain(CARD.slice(-4));
    const texts = [
      ...desk,
      JSON.stringify(list),
      await get(`${crudPath(visitorEntity, 'queryById')}?id=${guest}`),
      sheet,
      visitsSheet,
      await get(`${crudPath(visitEntity, 'list')}?visitorId=${guest}`),
      await get(`${crudPath(accessEventEntity, 'list')}?pageSize=100`),
      await get(`${crudPath(dataLogEntity, 'list')}?dataId=${guest}&pageSize=100`),
      await get(`${crudPath(logEntity, 'list')}?logType=2&pageSize=1000`),
    ];
    expect((await call('DELETE', `${crudPath(visitorEntity, 'delete')}?id=${guest}`)).success).toBe(true);
    texts.push(await get(crudPath(visitorEntity, 'recycleBin')));
    texts.push(JSON.stringify(await t.app.db.selectFrom('sys_log').selectAll().execute()), JSON.stringify(await t.app.db.selectFrom('sys_data_log').selectAll().execute()));
    texts.push(JSON.stringify(await t.app.db.selectFrom('sys_announcement').selectAll().execute()));
    texts.push(logLines.join('\n'), JSON.stringify(pushed));
    expect(logLines.length).toBeGreaterThan(0);
    expect(pushed.length).toBeGreaterThan(0);
    for (const text of texts) {
      expect(text).not.toContain(CARD);
      expect(text).not.toContain(TEMPLATE);
    }
  });
});
