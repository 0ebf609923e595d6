import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessEventEntity, crudPath, DeviceEventKind, doorEntity } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { adminToken, api, injectAs, testDialects, type TestApp } from '../test/harness.ts';
import { approvedKey, buildLinkedApp, uniqueSn, until } from './test-support.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');

describe.each(dialects)('card numbers at rest on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  let sim: SimDevice;

  beforeAll(async () => {
    t = await buildLinkedApp(dialect);
    admin = await adminToken(t.app);
  });
  afterAll(async () => {
    await sim?.stop().catch(() => undefined);
    await t.close();
  });

  it('stores the events of an unknown and of a refused card without their numbers, and lists them masked', async () => {
    const sn = uniqueSn('CARD');
    sim = new SimDevice({ url: t.mqttUrl, sn, key: await approvedKey(t.app, sn, admin), kind: 'door', doorOpenMs: 0 });
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, 'hello');
    const deviceId = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
    expect((await injectAs(t.app, admin, { method: 'POST', url: api(t.app, crudPath(doorEntity, 'add')), payload: { doorName: 'Card door', deviceId, doorNo: 1 } })).envelope.success).toBe(true);
    const holder = await injectAs(t.app, admin, { method: 'POST', url: api(t.app, '/sysPeople/add'), payload: { name: 'Card Holder', cardNo: 'HELD00112233', status: 1 } });
    expect(holder.envelope.success, holder.envelope.message).toBe(true);

    // a device that names the card it read: an unknown card, a holder's card refused, a holder's card let through
    await sim.emit(DeviceEventKind.denial, { door: 1, method: 'card', cardNo: 'UNKNOWN98765', reason: 'unknown' });
    await sim.emit(DeviceEventKind.denial, { door: 1, method: 'card', cardNo: 'HELD00112233', reason: 'outsideTime' });
    await sim.emit(DeviceEventKind.opening, { door: 1, method: 'card', cardNo: 'HELD00112233' });
    await until(async () => (await t.app.db.selectFrom('sys_access_event').select('id').where('device_id', '=', deviceId).execute()).length === 3 || (await t.app.deviceGateway.flush(), false), 15_000, 'events stored');

    // the tables as they are kept: no whole card number anywhere
    const events = await t.app.db.selectFrom('sys_device_event').selectAll().where('device_id', '=', deviceId).execute();
    const accessEvents = await t.app.db.selectFrom('sys_access_event').selectAll().where('device_id', '=', deviceId).execute();
    for (const stored of [JSON.stringify(events), JSON.stringify(accessEvents)]) {
      expect(stored).not.toContain('UNKNOWN98765');
      expect(stored).not.toContain('HELD00112233');
    }
    expect(events.map((e) => (JSON.parse(e.payload ?? '{}') as { cardNo?: string }).cardNo).sort()).toEqual(['********2233', '********2233', '********8765']);

    const list = await injectAs<{ records: Array<{ kind: string; detail: string | null; cardNoMasked: string | null; peopleId: string | null }> }>(t.app, admin, {
      method: 'GET',
      url: `${api(t.app, crudPath(accessEventEntity, 'list'))}?deviceId=${deviceId}`,
    });
    expect(list.envelope.result.records.map((r) => [r.kind, r.detail, r.cardNoMasked, r.peopleId !== null]).sort()).toEqual(
      [
        ['denial', 'unknown', '********8765', false],
        ['denial', 'outsideTime', '********2233', true],
        ['opening', null, '********2233', true],
      ].sort(),
    );
    expect(JSON.stringify(list.envelope)).not.toMatch(/UNKNOWN98765|HELD00112233/);
  });
});
