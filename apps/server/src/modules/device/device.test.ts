import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areaEntity, crudPath, DevicePath, deviceEntity, deviceTypeEntity, doorEntity, permissionCode, translate, type CaptureDeviceList, type Page } from '@isps/contract';
import { adminToken, api, buildTestApp, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';
import { createRoleWith } from '../../test/crud-helpers.ts';

type Row = Record<string, unknown>;

describe.each((await testDialects()).filter((d) => d !== 'mysql'))('device screens on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  const call = <T = Row>(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: object, lang = 'en-US') =>
    injectAs<T>(t.app, token, { method, url: api(t.app, path), ...(payload ? { payload } : {}), headers: { lang } });
  const addDevice = (token: string, values: Row, lang = 'en-US') => call<{ id: string }>(token, 'POST', crudPath(deviceEntity, 'add'), values, lang);
  const device = (n: number, extra: Row = {}) => ({ deviceName: `Gate ${n}`, sn: `GATE-${n}`, ip: `192.168.1.${n}`, gateway: '192.168.1.1', subnetMask: '255.255.255.0', systemType: 'access', deviceKind: '1', location: 1, ...extra });

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = await adminToken(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  it('checks IP, gateway, subnet mask and MAC formats in the reader language', async () => {
    const cases: Array<[Row, string]> = [
      [{ ip: '192.168.1.300' }, 'IP address: please enter a valid IP address such as 192.168.1.10'],
      [{ gateway: '10.0.0' }, 'Gateway: please enter a valid IP address such as 192.168.1.10'],
      [{ subnetMask: '255.0.255.0' }, 'Subnet mask: please enter a valid subnet mask such as 255.255.255.0'],
      [{ mac: '00:11:22:33:44' }, 'MAC address: please enter a MAC address such as 00:1A:2B:3C:4D:5E'],
      [{ systemType: 'fridge' }, 'System is not valid'],
    ];
    for (const [bad, message] of cases) {
      const answer = await addDevice(admin, device(90, bad));
      expect([answer.statusCode, answer.envelope.message]).toEqual([400, message]);
    }
    const zh = await addDevice(admin, device(90, { ip: '1.2.3' }), 'zh-CN');
    expect(zh.envelope.message).toBe('IP地址：请输入有效的IP地址，如 192.168.1.10');
    expect((await addDevice(admin, device(90, { subnetMask: '255.255.255.255', mac: '02-00-00-00-00-90' }))).envelope.success).toBe(true);
  });

  it('refuses a duplicate device name, IP, serial number or MAC', async () => {
    expect((await addDevice(admin, device(1, { mac: '02:00:00:00:00:01' }))).envelope.success).toBe(true);
    const refusals: Array<[Row, string]> = [
      [{ deviceName: 'Gate 1' }, 'Device name already exists!'],
      [{ ip: '192.168.1.1' }, 'Device IP already exists!'],
      [{ sn: 'GATE-1' }, 'This serial number already belongs to a device!'],
      [{ mac: '02:00:00:00:00:01' }, 'This MAC address already belongs to a device!'],
    ];
    for (const [taken, message] of refusals) expect((await addDevice(admin, device(2, taken))).envelope).toMatchObject({ success: false, code: 500, message });
  });

  it('lists devices with their network status, areas as a tree at /sysArea/list and device types with their status text', async () => {
    const root = await call<{ id: string }>(admin, 'POST', crudPath(areaEntity, 'add'), { areaName: 'Building A' });
    const floor = await call<{ id: string }>(admin, 'POST', crudPath(areaEntity, 'add'), { areaName: 'Floor 1', parentArea: root.envelope.result.id });
    expect(floor.envelope.success).toBe(true);
    const areas = await call<Page<Row>>(admin, 'GET', '/sysArea/list?pageSize=50');
    expect(areas.envelope.result.records.map((r) => r.areaName)).toEqual(expect.arrayContaining(['Building A', 'Floor 1']));
    const tree = await call<Row[]>(admin, 'GET', '/sysArea/queryTreeList');
    expect(tree.envelope.result.find((n) => n.areaName === 'Building A')?.children).toMatchObject([{ areaName: 'Floor 1' }]);
    const placed = await addDevice(admin, device(3, { areaId: floor.envelope.result.id }));
    expect(placed.envelope.success).toBe(true);
    const listed = await call<Page<Row>>(admin, 'GET', `${crudPath(deviceEntity, 'list')}?deviceName=Gate 3`, undefined, 'ja-JP');
    expect(listed.envelope.result.records[0]).toMatchObject({ deviceName: 'Gate 3', online: 0, deviceKind_dictText: 'コントローラー', areaId: floor.envelope.result.id });
    // the network status is the gateway's to write
    await call(admin, 'PUT', crudPath(deviceEntity, 'edit'), { id: placed.envelope.result.id, online: 1 });
    expect((await call<Row>(admin, 'GET', `${crudPath(deviceEntity, 'queryById')}?id=${placed.envelope.result.id}`)).envelope.result.online).toBe(0);
    const type = await call<{ id: string }>(admin, 'POST', crudPath(deviceTypeEntity, 'add'), { name: 'Palm reader', deviceModel: 'PV-1', status: 2, handler: 'veinReader' });
    const types = await call<Page<Row>>(admin, 'GET', `${crudPath(deviceTypeEntity, 'list')}?name=Palm reader`, undefined, 'zh-CN');
    expect(types.envelope.result.records[0]).toMatchObject({ id: type.envelope.result.id, status: 2, status_dictText: '停用', handler: 'veinReader' });
    expect((await call(admin, 'POST', crudPath(deviceTypeEntity, 'add'), { name: 'Odd', handler: 'toaster' })).statusCode).toBe(400);
  });

  it('deleting a device clears its doors, their group allocations and its queued commands; deleting an area leaves its devices in none', async () => {
    const area = await call<{ id: string }>(admin, 'POST', crudPath(areaEntity, 'add'), { areaName: 'Annex' });
    const added = await addDevice(admin, device(4, { areaId: area.envelope.result.id }));
    const kept = await addDevice(admin, device(5, { areaId: area.envelope.result.id }));
    const audit = { create_by: 'test', create_time: new Date().toISOString(), update_by: null, update_time: null };
    for (const [deviceId, n] of [[added.envelope.result.id, 1], [kept.envelope.result.id, 1]] as const) {
      const doorId = randomUUID();
      await t.app.db.insertInto('sys_door').values({ ...audit, id: doorId, door_name: `Door ${deviceId}`, device_id: deviceId, door_no: n, area_id: null, state: 0, state_time: null, tenant_id: null }).execute();
      await t.app.db.insertInto('sys_door_depart').values({ ...audit, id: randomUUID(), door_id: doorId, depart_id: randomUUID() }).execute();
      await t.app.db.insertInto('sys_device_command').values({ ...audit, id: randomUUID(), device_id: deviceId, kind: 'openDoor', payload: '{}', status: 'pending', attempts: 0, next_try: null, sent_time: null, acked_time: null, result: null, tenant_id: null }).execute();
    }
    const removed = await call(admin, 'DELETE', `${crudPath(deviceEntity, 'delete')}?id=${added.envelope.result.id}`);
    expect(removed.envelope.success).toBe(true);
    const count = async (table: 'sys_door' | 'sys_device_command', deviceId: string) => (await t.app.db.selectFrom(table).select('id').where('device_id', '=', deviceId).execute()).length;
    expect([await count('sys_door', added.envelope.result.id), await count('sys_device_command', added.envelope.result.id)]).toEqual([0, 0]);
    expect((await t.app.db.selectFrom('sys_door_depart').select('id').execute()).length).toBe(1);
    expect([await count('sys_door', kept.envelope.result.id), await count('sys_device_command', kept.envelope.result.id)]).toEqual([1, 1]);
    expect((await call(admin, 'DELETE', `${crudPath(areaEntity, 'delete')}?id=${area.envelope.result.id}`)).envelope.success).toBe(true);
    const stays = await t.app.db.selectFrom('sys_device').select('area_id').where('id', '=', kept.envelope.result.id).executeTakeFirstOrThrow();
    expect(stays.area_id).toBeNull();
  });

  it('refuses to move a door to a device that has its number, or an area under a parent that has its name, even when only the group is sent', async () => {
    const [one, two] = [await addDevice(admin, device(21)), await addDevice(admin, device(22))].map((d) => d.envelope.result.id);
    const door = async (deviceId: string | undefined) => (await call<{ id: string }>(admin, 'POST', crudPath(doorEntity, 'add'), { doorName: `Door of ${deviceId}`, deviceId, doorNo: 1 })).envelope.result.id;
    await door(one);
    const second = await door(two);
    for (const lang of ['zh-CN', 'en-US', 'ja-JP'] as const) {
      const moved = await call(admin, 'PUT', crudPath(doorEntity, 'edit'), { id: second, deviceId: one }, lang);
      expect(moved.envelope).toMatchObject({ success: false, message: translate(lang, 'door.duplicateNo') });
    }
    expect((await t.app.db.selectFrom('sys_door').select('device_id').where('id', '=', second).executeTakeFirstOrThrow()).device_id).toBe(two);

    const parent = (await call<{ id: string }>(admin, 'POST', crudPath(areaEntity, 'add'), { areaName: 'Campus' })).envelope.result.id;
    await call(admin, 'POST', crudPath(areaEntity, 'add'), { areaName: 'Lobby', parentArea: parent });
    const root = (await call<{ id: string }>(admin, 'POST', crudPath(areaEntity, 'add'), { areaName: 'Lobby' })).envelope.result.id;
    const under = await call(admin, 'PUT', crudPath(areaEntity, 'edit'), { id: root, parentArea: parent });
    expect(under.envelope).toMatchObject({ success: false, message: translate('en-US', 'duplicate.areaName') });
    // a second top-level area of a name is refused as a top-level one: there is no area it would be a sub-area of
    for (const lang of ['zh-CN', 'en-US', 'ja-JP'] as const) {
      const twin = await call(admin, 'POST', crudPath(areaEntity, 'add'), { areaName: 'Campus' }, lang);
      expect(twin.envelope).toMatchObject({ success: false, message: translate(lang, 'duplicate.areaNameTop') });
    }
    // a move to where nothing shares the value goes through
    expect((await call(admin, 'PUT', crudPath(doorEntity, 'edit'), { id: second, deviceId: one, doorNo: 2 })).envelope.success).toBe(true);
  });

  it('lists capture devices and sets one only when it is online, with the capture permission', async () => {
    const first = await addDevice(admin, device(6));
    const second = await addDevice(admin, device(7));
    const offline = await call(admin, 'GET', `${DevicePath.setCapture}?id=${first.envelope.result.id}`);
    expect(offline.envelope).toMatchObject({ success: false, code: 500, message: 'Sync Fail, Device disconnected, please reconnect to the platform' });
    await t.app.db.updateTable('sys_device').set({ online: 1 }).where('id', 'in', [first.envelope.result.id, second.envelope.result.id]).execute();
    expect((await call(admin, 'GET', `${DevicePath.setCapture}?id=${first.envelope.result.id}`)).envelope).toMatchObject({ success: true, message: 'The capture device is set' });
    expect((await call(admin, 'GET', `${DevicePath.setCapture}?id=${second.envelope.result.id}`)).envelope.success).toBe(true);
    const list = await call<CaptureDeviceList>(admin, 'GET', DevicePath.captureList);
    expect(list.envelope.result.capDevice).toBe(second.envelope.result.id);
    expect(list.envelope.result.records).toEqual(expect.arrayContaining([{ id: first.envelope.result.id, title: 'Gate 6', sn: 'GATE-6' }]));
    expect((await call(admin, 'GET', `${DevicePath.setCapture}?id=not-an-id!`)).statusCode).toBe(400);

    await createRoleWith(t.app, 'device_lister', [permissionCode(deviceEntity, 'list')]);
    await createTestUser(t.app, 'device_lister', { roles: ['device_lister'] });
    const lister = await login(t.app, 'device_lister', USER_PASSWORD);
    expect((await call<CaptureDeviceList>(lister, 'GET', DevicePath.captureList)).envelope.result.capDevice).toBe(second.envelope.result.id);
    expect((await call(lister, 'GET', `${DevicePath.setCapture}?id=${first.envelope.result.id}`)).statusCode).toBe(403);
  });

  it('takes an uploaded background image under 1 MB, nothing else', async () => {
    const png = (size: number) => Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(size - 8)]);
    const upload = async (size: number) => {
      const boundary = `----device${randomUUID()}`;
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="floor.png"\r\nContent-Type: image/png\r\n\r\n`),
        png(size),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const answer = await injectAs<string>(t.app, admin, { method: 'POST', url: api(t.app, '/sys/common/upload'), payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, lang: 'en-US' } });
      return answer.envelope;
    };
    const small = await upload(200 * 1024);
    expect(small.success, small.message).toBe(true);
    expect((await addDevice(admin, device(10, { backgroundImage: small.result }))).envelope.success).toBe(true);
    const big = await upload(1024 * 1024);
    expect(big.success, big.message).toBe(true);
    expect((await addDevice(admin, device(11, { backgroundImage: big.result }))).envelope).toMatchObject({ success: false, message: 'The background image must be smaller than 1 MB' });
    expect((await addDevice(admin, device(11, { backgroundImage: '../../etc/passwd' }))).statusCode).toBe(400);
  });

  it('keeps devices, their capture device and areas inside their tenant', async () => {
    const otherId = randomUUID();
    await t.app.db.insertInto('sys_tenant').values({ id: otherId, create_by: 'test', create_time: null, update_by: null, update_time: null, name: `other-${dialect}`, code: `other-${dialect}`, begin_date: null, end_date: null, status: 1 }).execute();
    await createRoleWith(t.app, 'device_admin_other', [...['list', 'add', 'edit', 'delete', 'capture'].map((a) => permissionCode(deviceEntity, a)), permissionCode(areaEntity, 'list')]);
    await createTestUser(t.app, 'device_outsider', { roles: ['device_admin_other'], tenantId: otherId });
    const outsider = await login(t.app, 'device_outsider', USER_PASSWORD);
    const mine = await addDevice(admin, device(8));
    const seen = await call<Page<Row>>(outsider, 'GET', `${crudPath(deviceEntity, 'list')}?pageSize=100`);
    expect(seen.envelope.result.records).toEqual([]);
    expect((await call<CaptureDeviceList>(outsider, 'GET', DevicePath.captureList)).envelope.result).toEqual({ records: [], capDevice: null });
    expect((await call(outsider, 'GET', `${DevicePath.setCapture}?id=${mine.envelope.result.id}`)).envelope.message).toBe('The record does not exist or has been deleted');
    expect((await call(outsider, 'DELETE', `${crudPath(deviceEntity, 'delete')}?id=${mine.envelope.result.id}`)).envelope.success).toBe(false);
    // the same name and IP are free in another tenant; a serial number is one device everywhere
    expect((await addDevice(outsider, device(8, { sn: 'OTHER-8' }))).envelope.success).toBe(true);
    expect((await addDevice(outsider, device(9, { sn: 'GATE-8' }))).envelope.message).toBe('This serial number already belongs to a device!');
    expect((await call<Page<Row>>(outsider, 'GET', '/sysArea/list')).envelope.result.records).toEqual([]);
  });
});
