import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crudPath, deviceTypeEntity, DeviceUpKind, deviceUpTopic, DoorPath, doorEntity, type DeviceHello, type DoorStatusRow } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { adminToken, api, injectAs, testDialects, type TestApp } from '../test/harness.ts';
import { approvedKey, buildLinkedApp, uniqueSn, until } from './test-support.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');
const AUDIT = { create_by: 'test', create_time: new Date().toISOString(), update_by: null, update_time: null };

type Row = Record<string, unknown> & { id: string };

/** Issue #26 item 10: doors, device types and the device kind come from the devices' hellos. */
describe.each(dialects)('what a device tells of itself in its hello on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  const sims: SimDevice[] = [];

  const call = async <T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: Record<string, unknown>, lang = 'en-US') => {
    const answer = await injectAs<T>(t.app, admin, { method, url: api(t.app, path), payload, headers: { lang } });
    expect(answer.envelope.success, answer.envelope.message).toBe(true);
    return answer.envelope.result;
  };

  /** A device online, then a hello of its own saying `extra` (as a door controller's firmware would). */
  async function device(extra: Partial<DeviceHello>): Promise<{ sim: SimDevice; sn: string; id: string; hello: (more?: Partial<DeviceHello>) => Promise<void> }> {
    const sn = uniqueSn('INV');
    const key = await approvedKey(t.app, sn, admin);
    const sim = new SimDevice({ url: t.mqttUrl, sn, key, kind: 'door' });
    sims.push(sim);
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, 'online');
    const id = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
    let round = 0;
    const hello = async (more: Partial<DeviceHello> = {}) => {
      round += 1;
      const marker = `fw-${round}`;
      await sim.publishRaw(deviceUpTopic(sn, DeviceUpKind.hello), JSON.stringify({ id: randomUUID(), sessionId: randomUUID(), time: Date.now(), firmware: marker, ...extra, ...more }));
      await until(async () => (await t.app.db.selectFrom('sys_device').select('firmware').where('id', '=', id).executeTakeFirstOrThrow()).firmware === marker, 15_000, 'hello handled');
          };
    await hello();
    return { sim, sn, id, hello };
  }
  const doorsOf = (deviceId: string) => t.app.db.selectFrom('sys_door').selectAll().where('device_id', '=', deviceId).orderBy('door_no').execute();
  const typesOf = (model: string) => t.app.db.selectFrom('sys_device_type').selectAll().where('device_model', '=', model).execute();

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 60_000, offlineSweepMs: 3_600_000 } });
    admin = await adminToken(t.app);
  });
  afterAll(async () => {
    for (const sim of sims) await sim.stop().catch(() => undefined);
    await t.close();
  });

  it('a door controller’s doors are created once, named after the device in the reader’s language, and keep an operator’s rename', async () => {
    const { sn, id, hello } = await device({ doors: 2, kind: 'controller', system: 'access', model: 'INV-CTL-2' });
    let doors = await doorsOf(id);
    expect(doors.map((d) => [Number(d.door_no), d.door_name])).toEqual([
      [1, `${sn} door 1`],
      [2, `${sn} door 2`],
    ]);
    const stored = await t.app.db.selectFrom('sys_device').select(['tenant_id', 'device_kind', 'system_type', 'device_type_id']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ device_kind: '1', system_type: 'access' });
    expect(doors.every((d) => d.tenant_id === stored.tenant_id && d.state === 0)).toBe(true);

    // every reader reads the generated names in his language
    const listed = (lang: string) => call<{ records: Row[] }>('GET', `${crudPath(doorEntity, 'list')}?deviceId=${id}&column=doorNo&order=asc`, undefined, lang);
    expect((await listed('zh-CN')).records.map((r) => r.doorName)).toEqual([`${sn} 1号门`, `${sn} 2号门`]);
    expect((await listed('ja-JP')).records.map((r) => r.doorName)).toEqual([`${sn} ドア1`, `${sn} ドア2`]);
    const status = await call<DoorStatusRow[]>('GET', DoorPath.status, undefined, 'zh-CN');
    expect(status.find((d) => d.id === doors[0]!.id)?.doorName).toBe(`${sn} 1号门`);

    // the operator renames door 1; every later hello keeps it and adds nothing twice
    await call('PUT', crudPath(doorEntity, 'edit'), { id: doors[0]!.id, doorName: 'Main entrance' });
    // saving the shown (translated) name back keeps the generated form, read in every language
    await call('PUT', crudPath(doorEntity, 'edit'), { id: doors[1]!.id, doorName: `${sn} 2号门` }, 'zh-CN');
    await hello();
    await hello();
    doors = await doorsOf(id);
    expect(doors.map((d) => [Number(d.door_no), d.door_name])).toEqual([
      [1, 'Main entrance'],
      [2, `${sn} door 2`],
    ]);
    // a door the operator deletes (a lock not wired) stays deleted at later hellos
    await call('DELETE', `${crudPath(doorEntity, 'delete')}?id=${doors[1]!.id}`);
    await hello();
    expect((await doorsOf(id)).map((d) => Number(d.door_no))).toEqual([1]);
    // a controller that later reports more doors gets the new ones only
    await hello({ doors: 3 });
    doors = await doorsOf(id);
    expect(doors.map((d) => [Number(d.door_no), d.door_name])).toEqual([
      [1, 'Main entrance'],
      [3, `${sn} door 3`],
    ]);
  });

  it('the device kind and system come from the hello, and its model joins the device types once, in its own tenant', async () => {
    const model = `INV-${randomUUID().slice(0, 6)}`;
    // another tenant already knows the model: its type is never used nor touched
    const other = randomUUID();
    await t.app.db.insertInto('sys_tenant').values({ id: other, name: 'Inventory other', code: `inv-${other.slice(0, 8)}`, begin_date: null, end_date: null, status: 1, ...AUDIT }).execute();
    await t.app.db.insertInto('sys_device_type').values({ id: randomUUID(), ...AUDIT, type_name: model, manufacturer_id: null, device_model: model, status: 1, handler: null, tenant_id: other }).execute();

    const first = await device({ model, kind: 'vein', system: 'access' });
    const second = await device({ model, kind: 'vein', system: 'access' });
    await first.hello();
    const types = (await typesOf(model)).filter((ty) => ty.tenant_id !== other);
    expect(types).toHaveLength(1);
    expect(types[0]).toMatchObject({ type_name: model, status: 1, handler: 'veinReader' });
    const rows = await t.app.db.selectFrom('sys_device').select(['id', 'device_kind', 'system_type', 'device_type_id', 'tenant_id']).where('id', 'in', [first.id, second.id]).execute();
    expect(rows.every((r) => r.device_kind === '3' && r.system_type === 'access' && r.device_type_id === types[0]!.id && r.tenant_id === types[0]!.tenant_id)).toBe(true);
    // the device type list shows it
    const listed = await call<{ records: Row[] }>('GET', `${crudPath(deviceTypeEntity, 'list')}?deviceModel=${model}`);
    expect(listed.records.map((r) => r.deviceModel)).toEqual([model]);

    // a camera says what it is: the kind follows the device, not a form
    const camera = await device({ kind: 'camera', system: 'access' });
    expect((await t.app.db.selectFrom('sys_device').select('device_kind').where('id', '=', camera.id).executeTakeFirstOrThrow()).device_kind).toBe('2');
  });

  it('a hello with a door count out of range is ignored as a whole (no door, no change)', async () => {
    const { sim, sn, id } = await device({ kind: 'controller' });
    await sim.publishRaw(deviceUpTopic(sn, DeviceUpKind.hello), JSON.stringify({ id: randomUUID(), sessionId: randomUUID(), time: Date.now(), doors: 500, kind: 'camera' }));
    // a valid hello after it is handled: the invalid one, before it, was dropped
    await sim.publishRaw(deviceUpTopic(sn, DeviceUpKind.hello), JSON.stringify({ id: randomUUID(), sessionId: randomUUID(), time: Date.now(), firmware: 'after' }));
    await until(async () => (await t.app.db.selectFrom('sys_device').select('firmware').where('id', '=', id).executeTakeFirstOrThrow()).firmware === 'after', 15_000, 'later hello');
    expect(await doorsOf(id)).toHaveLength(0);
    expect((await t.app.db.selectFrom('sys_device').select('device_kind').where('id', '=', id).executeTakeFirstOrThrow()).device_kind).toBe('1');
  });
});
