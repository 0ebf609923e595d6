import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessEventEntity, crudPath, DeviceEventKind, doorEntity, doorEventEntity, peopleEntity, ServerVerdict } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, uniqueSn, until } from '../../gateway/test-support.ts';
import { adminToken, api, injectAs, testDialects, type TestApp } from '../../test/harness.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');
const AUDIT = { create_by: 'test', create_time: new Date().toISOString(), update_by: null, update_time: null };

type Row = Record<string, unknown> & { id: string };

/** Issue #26 item 4: access records a person can read. */
describe.each(dialects)('access records on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  let sim: SimDevice;
  let sn: string;
  let deviceId: string;
  let doorId: string;
  let personId: string;

  const list = async (path: string, query: string, lang = 'en-US') => {
    const answer = await injectAs<{ records: Row[]; total: number }>(t.app, admin, { method: 'GET', url: `${api(t.app, path)}?deviceId=${deviceId}&pageSize=100&${query}`, headers: { lang } });
    expect(answer.envelope.success, answer.envelope.message).toBe(true);
    return answer.envelope.result;
  };
  const storedAccess = (seq: number) => t.app.db.selectFrom('sys_access_event').selectAll().where('device_id', '=', deviceId).where('seq', '=', seq).executeTakeFirst();

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 60_000, offlineSweepMs: 3_600_000 } });
    admin = await adminToken(t.app);
    sn = uniqueSn('AR');
    const key = await approvedKey(t.app, sn, admin);
    sim = new SimDevice({ url: t.mqttUrl, sn, key, kind: 'door', doorOpenMs: 0 });
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, 'hello');
    deviceId = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
    await t.app.db.updateTable('sys_device').set({ device_name: 'Lobby controller' }).where('id', '=', deviceId).execute();
    const door = await t.app.db.selectFrom('sys_door').select('id').where('device_id', '=', deviceId).where('door_no', '=', 1).executeTakeFirst();
    if (door) {
      doorId = door.id;
      await injectAs(t.app, admin, { method: 'PUT', url: api(t.app, crudPath(doorEntity, 'edit')), payload: { id: doorId, doorName: 'Lobby door' } });
    } else {
      const added = await injectAs<{ id: string }>(t.app, admin, { method: 'POST', url: api(t.app, crudPath(doorEntity, 'add')), payload: { doorName: 'Lobby door', deviceId, doorNo: 1 } });
      doorId = added.envelope.result?.id ?? (await t.app.db.selectFrom('sys_door').select('id').where('device_id', '=', deviceId).where('door_no', '=', 1).executeTakeFirstOrThrow()).id;
    }
    const person = await injectAs<{ id: string }>(t.app, admin, { method: 'POST', url: api(t.app, crudPath(peopleEntity, 'add')), payload: { name: 'Ada Reader', cardNo: 'ARCARD0001' } });
    expect(person.envelope.success, person.envelope.message).toBe(true);
    personId = person.envelope.result.id ?? (await t.app.db.selectFrom('sys_people').select('id').where('name', '=', 'Ada Reader').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await sim?.stop().catch(() => undefined);
    await t.close();
  });

  it('lists and details name the person, door and device instead of their ids, and localise method, reason and verdict', async () => {
    const passed = await sim.emit(DeviceEventKind.opening, { door: 1, method: 'card', peopleId: personId });
    const refused = await sim.emit(DeviceEventKind.denial, { door: 1, method: 'card', reason: 'outsideTime', peopleId: personId });
    await until(async () => !!(await storedAccess(refused.seq)) && !!(await storedAccess(passed.seq)), 15_000, 'events stored');

    const rows = (await list(crudPath(accessEventEntity, 'list'), '')).records;
    const opening = rows.find((r) => r.kind === 'opening' && r.peopleId === personId)!;
    expect(opening).toMatchObject({ peopleId_dictText: 'Ada Reader', doorId: doorId, doorId_dictText: 'Lobby door', deviceId_dictText: 'Lobby controller', method: 'card' });
    const detail = await injectAs<Row>(t.app, admin, { method: 'GET', url: `${api(t.app, crudPath(accessEventEntity, 'queryById'))}?id=${opening.id}`, headers: { lang: 'zh-CN' } });
    expect(detail.envelope.result).toMatchObject({ peopleId_dictText: 'Ada Reader', doorId_dictText: 'Lobby door', deviceId_dictText: 'Lobby controller' });
    expect(rows.find((r) => r.kind === 'denial')).toMatchObject({ detail: 'outsideTime', peopleId_dictText: 'Ada Reader' });

    // every value a device sends of method, reason and verdict has a text in the three languages
    const { entityLabels } = await import('@isps/contract');
    const options = (name: string) => {
      const widget = accessEventEntity.fields[name]!.widget;
      return widget.kind === 'options' ? widget.options : [];
    };
    for (const name of ['method', 'detail', 'serverVerdict', 'kind', 'result', 'flagged']) {
      for (const option of options(name)) for (const lang of ['en-US', 'zh-CN', 'ja-JP'] as const) expect(entityLabels[lang][option.label], `${lang} ${option.label}`).toBeTruthy();
    }
    expect(options('method').map((o) => o.value)).toEqual(expect.arrayContaining(['card', 'vein', 'palm', 'remote']));
    expect([entityLabels['en-US']['accessEvent.method.card'], entityLabels['zh-CN']['accessEvent.method.card'], entityLabels['ja-JP']['accessEvent.method.card']]).toEqual(['Card', '刷卡', 'カード']);
    expect(options('detail').map((o) => o.value)).toEqual(expect.arrayContaining(['unknown', 'outsideTime']));
  });

  it('never names a row of another tenant, even when a device names its id', async () => {
    const tenantB = randomUUID();
    await t.app.db.insertInto('sys_tenant').values({ id: tenantB, name: 'Tenant AR', code: `ar-${tenantB.slice(0, 8)}`, begin_date: null, end_date: null, status: 1, ...AUDIT }).execute();
    const stranger = randomUUID();
    await t.app.db.insertInto('sys_people').values({ id: stranger, ...AUDIT, name: 'Secret stranger', id_card: null, card_no: null, card_no_masked: null, user_no: null, sex: null, depart_id: null, picture: null, palm_left: 0, palm_right: 0, password: null, status: 1, del_flag: 0, tenant_id: tenantB }).execute();
    const forged = await sim.emit(DeviceEventKind.opening, { door: 1, method: 'card', peopleId: stranger });
    await until(async () => !!(await storedAccess(forged.seq)), 15_000, 'event stored');
    const row = (await list(crudPath(accessEventEntity, 'list'), `peopleId=${stranger}`)).records[0]!;
    expect(row.peopleId).toBe(stranger);
    expect(row.peopleId_dictText).toBeUndefined();
    expect(JSON.stringify(row)).not.toContain('Secret stranger');
  });

  it('an unknown card that opened a door is flagged, not a plain passage', async () => {
    const opened = await sim.emit(DeviceEventKind.opening, { door: 1, method: 'card', cardNo: 'UNKNOWN0001' });
    await until(async () => !!(await storedAccess(opened.seq)), 15_000, 'event stored');
    expect(await storedAccess(opened.seq)).toMatchObject({ people_id: null, server_verdict: ServerVerdict.unknown, flagged: 1, result: 1 });
    const flagged = (await list(crudPath(accessEventEntity, 'list'), 'flagged=1')).records;
    expect(flagged.some((r) => r.serverVerdict === 'unknown' && r.cardNoMasked === '*******0001')).toBe(true);
  });

  it('door states are door events with their own list, never among the access records', async () => {
    const opened = await sim.emit(DeviceEventKind.doorState, { door: 1, state: 'open' });
    const closed = await sim.emit(DeviceEventKind.doorState, { door: 1, state: 'closed' });
    const stored = () => t.app.db.selectFrom('sys_door_event').selectAll().where('device_id', '=', deviceId).where('seq', 'in', [opened.seq, closed.seq]).execute();
    await until(async () => (await stored()).length === 2, 15_000, 'door events stored');
    expect(await storedAccess(opened.seq)).toBeUndefined();

    const access = (await list(crudPath(accessEventEntity, 'list'), '')).records;
    expect(access.every((r) => r.kind === 'opening' || r.kind === 'denial')).toBe(true);
    const doors = (await list(crudPath(doorEventEntity, 'list'), '', 'ja-JP')).records;
    expect(doors.map((r) => r.state).slice(0, 2).sort()).toEqual(['closed', 'open']);
    expect(doors[0]).toMatchObject({ doorId: doorId, doorId_dictText: 'Lobby door', deviceId_dictText: 'Lobby controller', doorNo: 1 });
    // filterable by state
    expect((await list(crudPath(doorEventEntity, 'list'), 'state=open')).records.every((r) => r.state === 'open')).toBe(true);
  });
});
