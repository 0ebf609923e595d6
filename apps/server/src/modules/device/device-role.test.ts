import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, areaEntity, crudPath, DeviceRolePath, deviceEntity, deviceRoleEntity, doorEntity, peopleEntity, userEntity, translate, type DeviceRoleOption } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { createRoleWith } from '../../test/crud-helpers.ts';
import { adminToken, api, buildTestApp, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');
const MANAGER_CODES = ['device:deviceRole:list', 'device:deviceRole:add', 'device:deviceRole:edit', 'device:deviceRole:delete', 'device:deviceRole:import'];

/* Device roles through the HTTP layer: the declared CRUD on /deviceRole/add, /deviceRole/edit, /deviceRole/delete,
 * /deviceRole/deleteBatch and /deviceRole/importExcel, the origin pickers, and the grant rule of platform/grants.ts. */
describe.each(dialects)('device roles on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  const ids: Record<string, string> = {};

  const call = <T = unknown>(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: Record<string, unknown>, lang = 'en-US') =>
    injectAs<T>(app, token, { method, url: api(app, path), ...(payload ? { payload } : {}), headers: { lang } });
  const added = async (token: string, path: string, payload: Record<string, unknown>) => {
    const answer = await call<{ id: string }>(token, 'POST', path, payload);
    expect(answer.envelope.success, answer.envelope.message).toBe(true);
    return answer.envelope.result.id ?? (await app.db.selectFrom('sys_device_role').select('id').where('role_name', '=', String(payload.roleName)).executeTakeFirstOrThrow()).id;
  };
  const linksOf = async (roleId: string, table: 'sys_device_role_area' | 'sys_device_role_door' | 'sys_device_role_user' | 'sys_device_role_people') =>
    (await app.db.selectFrom(table).selectAll().where('role_id', '=', roleId).execute()).length;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
    // two areas, a device in the first, a door of that device, and a device and door in the second
    for (const name of ['North', 'South']) {
      await call(admin, 'POST', crudPath(areaEntity, 'add'), { areaName: name });
      ids[name] = (await app.db.selectFrom('sys_area').select('id').where('area_name', '=', name).executeTakeFirstOrThrow()).id;
    }
    for (const [name, area] of [['N-1', 'North'], ['S-1', 'South']] as const) {
      const answer = await call(admin, 'POST', crudPath(deviceEntity, 'add'), { deviceName: name, sn: `SN${randomUUID().slice(0, 8).toUpperCase()}`, areaId: ids[area] });
      expect(answer.envelope.success, answer.envelope.message).toBe(true);
      ids[name] = (await app.db.selectFrom('sys_device').select('id').where('device_name', '=', name).executeTakeFirstOrThrow()).id;
      await call(admin, 'POST', crudPath(doorEntity, 'add'), { doorName: `${name} door`, deviceId: ids[name], doorNo: 1 });
      ids[`${name} door`] = (await app.db.selectFrom('sys_door').select('id').where('door_name', '=', `${name} door`).executeTakeFirstOrThrow()).id;
    }
    await createRoleWith(app, 'device_role_manager', MANAGER_CODES);
    ids.manager = await createTestUser(app, 'drole-manager', { roles: ['device_role_manager'] });
    ids.holder = await createTestUser(app, 'drole-holder', {});
    ids.otherTenant = randomUUID();
    await app.db.insertInto('sys_tenant').values({ id: ids.otherTenant, name: 'Other', code: 'other-drole', begin_date: null, end_date: null, status: 1, create_by: 'test', create_time: null, update_by: null, update_time: null }).execute();
    ids.foreignManager = await createTestUser(app, 'drole-foreign', { roles: ['device_role_manager'], tenantId: ids.otherTenant });
    for (const [name, tenant] of [['Pat Person', null], ['Foreign Person', ids.otherTenant]] as const) {
      const id = randomUUID();
      await app.db.insertInto('sys_people').values({ id, name, id_card: null, card_no: null, card_no_masked: null, user_no: null, sex: null, depart_id: null, picture: null, palm_left: 0, palm_right: 0, password: null, status: 1, del_flag: 0, tenant_id: tenant ?? (await app.db.selectFrom('sys_tenant').select('id').where('code', '=', 'default').executeTakeFirstOrThrow()).id, create_by: 'test', create_time: null, update_by: null, update_time: null }).execute();
      ids[name] = id;
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('adds, lists with link labels and type text, edits and deletes a device role with its time setting', async () => {
    const timeSetting = JSON.stringify({ mode: 'custom', startDate: '2025-01-01', endDate: '2025-12-31', periods: [{ start: '22:00', end: '06:00' }], days: ['workday'] });
    const id = await added(admin, '/deviceRole/add', { roleName: 'Night guards', roleType: '4', areaIds: ids.North, doorIds: ids['S-1 door'], userIds: ids.holder, peopleIds: ids['Pat Person'], timeSetting });
    const list = await call<{ records: Array<Record<string, unknown>> }>(admin, 'GET', `${crudPath(deviceRoleEntity, 'list')}?roleName=*Night*`, undefined, 'zh-CN');
    expect(list.envelope.result.records).toHaveLength(1);
    expect(list.envelope.result.records[0]).toMatchObject({ id, roleName: 'Night guards', roleType: '4', roleType_dictText: '巡更', areaIds: ids.North, areaIds_dictText: 'North', doorIds_dictText: 'S-1 door', userIds_dictText: 'drole-holder', peopleIds_dictText: 'Pat Person', timeSetting });
    // a person of another tenant is no one to pick
    expect((await call(admin, 'PUT', '/deviceRole/edit', { id, peopleIds: ids['Foreign Person'] })).envelope.success).toBe(false);

    const edited = await call(admin, 'PUT', '/deviceRole/edit', { id, roleName: 'Night patrol', timeSetting: '{"mode":"permanent"}', doorIds: '' });
    expect(edited.envelope.success, edited.envelope.message).toBe(true);
    const row = await app.db.selectFrom('sys_device_role').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect([row.role_name, row.time_setting, await linksOf(id, 'sys_device_role_door'), await linksOf(id, 'sys_device_role_area')]).toEqual(['Night patrol', '{"mode":"permanent"}', 0, 1]);

    const deleted = await call(admin, 'DELETE', `/deviceRole/delete?id=${id}`);
    expect(deleted.envelope.success).toBe(true);
    expect([await linksOf(id, 'sys_device_role_area'), await linksOf(id, 'sys_device_role_user'), await linksOf(id, 'sys_device_role_people')]).toEqual([0, 0, 0]);
  });

  it('refuses invalid time settings, names and types with localised messages, and a duplicate name', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ roleName: 'Bad period', timeSetting: JSON.stringify({ mode: 'custom', periods: [{ start: '8:00', end: '18:00' }] }) }, 'en-US', 'Time setting: enter a time as HH:mm, such as 08:30'],
      [{ roleName: 'Same times', timeSetting: JSON.stringify({ mode: 'custom', periods: [{ start: '08:00', end: '08:00' }] }) }, 'zh-CN', '时间设置：时间段的开始与结束时间不能相同（结束早于开始表示次日）'],
      [{ roleName: 'Dates', timeSetting: JSON.stringify({ mode: 'custom', startDate: '2025-03-10', endDate: '2025-03-01' }) }, 'ja-JP', '時間設定：終了日は開始日より前にできません'],
      [{ roleName: 'X' }, 'en-US', ''],
      [{ roleName: 'Bad type', roleType: '9' }, 'en-US', 'Role type is not valid'],
    ];
    for (const [payload, lang, message] of cases) {
      const answer = await call(admin, 'POST', '/deviceRole/add', payload, lang);
      expect(answer.statusCode).toBe(400);
      expect(answer.envelope.success).toBe(false);
      if (message) expect(answer.envelope.message).toBe(message);
    }
    await added(admin, '/deviceRole/add', { roleName: 'Unique one' });
    const again = await call(admin, 'POST', '/deviceRole/add', { roleName: 'Unique one' });
    expect(again.envelope).toMatchObject({ success: false, message: 'Device role name already exists!' });
    // a role without a time setting is permanent
    expect((await app.db.selectFrom('sys_device_role').select('time_setting').where('role_name', '=', 'Unique one').executeTakeFirstOrThrow()).time_setting).toBe('{"mode":"permanent"}');
  });

  it('answers the origin pickers: /deviceRole/queryall by type and /deviceRole/queryUserRole by user, in the caller’s tenant', async () => {
    const door = await added(admin, '/deviceRole/add', { roleName: 'Door staff', roleType: '1', userIds: ids.holder });
    const patrol = await added(admin, '/deviceRole/add', { roleName: 'Patrol staff', roleType: '4', userIds: `${ids.holder},${ids.manager}` });
    const all = await call<DeviceRoleOption[]>(admin, 'GET', DeviceRolePath.queryall, undefined, 'ja-JP');
    expect(all.envelope.result.find((r) => r.id === door)).toEqual({ id: door, roleName: 'Door staff', roleType: '1', roleType_dictText: '入退室' });
    const patrols = await call<DeviceRoleOption[]>(admin, 'GET', `${DeviceRolePath.queryall}?roleType=4`);
    expect(patrols.envelope.result.map((r) => r.id)).toContain(patrol);
    expect(patrols.envelope.result.map((r) => r.id)).not.toContain(door);

    const held = await call<string[]>(admin, 'GET', `${DeviceRolePath.queryUserRole}?userid=${ids.holder}`);
    expect([...held.envelope.result].sort()).toEqual([door, patrol].sort());

    // another tenant sees none of these roles and not the user
    const foreign = await login(app, 'drole-foreign', USER_PASSWORD);
    expect((await call<DeviceRoleOption[]>(foreign, 'GET', DeviceRolePath.queryall)).envelope.result).toEqual([]);
    expect((await call(foreign, 'GET', `${DeviceRolePath.queryUserRole}?userid=${ids.holder}`)).envelope.success).toBe(false);
    // without device:deviceRole:list, no picker
    const holder = await login(app, 'drole-holder', USER_PASSWORD);
    expect((await call(holder, 'GET', DeviceRolePath.queryall)).envelope.code).toBe(510);
  });

  it('nobody binds an area, device or door he does not hold through a device role, nor one of another tenant', async () => {
    const manager = await login(app, 'drole-manager', USER_PASSWORD);
    // holding nothing, a manager creates only roles that bind nothing
    expect((await call(manager, 'POST', '/deviceRole/add', { roleName: 'Grab north', areaIds: ids.North, userIds: ids.manager })).envelope).toMatchObject({
      success: false,
      message: 'You can only bind areas, devices and doors that a device role you hold covers.',
    });
    // in the reader's language
    for (const lang of LANGUAGES) {
      expect((await call(manager, 'POST', '/deviceRole/add', { roleName: 'Grab north', areaIds: ids.North }, lang)).envelope.message).toBe(translate(lang, 'grant.deviceTargetNotHeld'));
    }
    await added(manager, '/deviceRole/add', { roleName: 'Empty by manager' });

    // the manager holds a role on the north area: its area, its device and that device's door are his to bind
    await added(admin, '/deviceRole/add', { roleName: 'North managers', roleType: '2', areaIds: ids.North, userIds: ids.manager });
    const mine = await added(manager, '/deviceRole/add', { roleName: 'North door users', areaIds: ids.North, deviceIds: ids['N-1'], doorIds: ids['N-1 door'], userIds: ids.holder });
    // the pickers offer him just those; a system administrator, anything
    const bindable = async (token: string, target: string) => (await call<string[] | null>(token, 'GET', `${DeviceRolePath.bindable}?target=${target}`)).envelope.result;
    expect(await bindable(manager, 'area')).toEqual([ids.North]);
    expect(await bindable(manager, 'device')).toEqual([ids['N-1']]);
    expect(await bindable(manager, 'door')).toEqual([ids['N-1 door']]);
    expect(await bindable(admin, 'door')).toBeNull();
    expect((await call(manager, 'GET', `${DeviceRolePath.bindable}?target=key`)).envelope).toMatchObject({ success: false, code: 400 });
    for (const [field, target] of [['areaIds', ids.South], ['deviceIds', ids['S-1']], ['doorIds', ids['S-1 door']]] as const) {
      const answer = await call(manager, 'PUT', '/deviceRole/edit', { id: mine, [field]: target });
      expect(answer.envelope.success, `${field}`).toBe(false);
    }
    expect(await linksOf(mine, 'sys_device_role_door')).toBe(1);

    // a role binding the south area is not his to change, widen to more users, or delete
    const south = await added(admin, '/deviceRole/add', { roleName: 'South staff', areaIds: ids.South });
    expect((await call(manager, 'PUT', '/deviceRole/edit', { id: south, userIds: ids.manager })).envelope.success).toBe(false);
    expect(await linksOf(south, 'sys_device_role_user')).toBe(0);
    expect((await call(manager, 'DELETE', `/deviceRole/deleteBatch?ids=${south}`)).envelope.success).toBe(false);
    expect(await app.db.selectFrom('sys_device_role').select('id').where('id', '=', south).executeTakeFirst()).toBeDefined();

    // no longer listed, he holds nothing: his own role is not his to change any more
    const northManagers = (await app.db.selectFrom('sys_device_role').select('id').where('role_name', '=', 'North managers').executeTakeFirstOrThrow()).id;
    await call(admin, 'PUT', '/deviceRole/edit', { id: northManagers, userIds: '' });
    expect((await call(manager, 'PUT', '/deviceRole/edit', { id: mine, remark: 'still mine?' })).envelope.success).toBe(false);
    // through a group: a member of a group the role lists holds it again
    await call(admin, 'POST', '/sys/sysDepart/add', { departName: 'North team' });
    const group = (await app.db.selectFrom('sys_depart').select('id').where('depart_name', '=', 'North team').executeTakeFirstOrThrow()).id;
    await app.db.insertInto('sys_user_depart').values({ id: randomUUID(), user_id: ids.manager!, dep_id: group, create_by: 'test', create_time: null, update_by: null, update_time: null }).execute();
    expect((await call(admin, 'PUT', '/deviceRole/edit', { id: northManagers, departIds: group })).envelope.success).toBe(true);
    const viaGroup = await call(manager, 'PUT', '/deviceRole/edit', { id: mine, remark: 'mine through my group' });
    expect(viaGroup.envelope.success, viaGroup.envelope.message).toBe(true);

    // another tenant's manager cannot bind this tenant's area even by id
    const foreign = await login(app, 'drole-foreign', USER_PASSWORD);
    const answer = await call(foreign, 'POST', '/deviceRole/add', { roleName: 'Foreign grab', areaIds: ids.North });
    expect(answer.envelope.success).toBe(false);
    expect(await app.db.selectFrom('sys_device_role').select('id').where('role_name', '=', 'Foreign grab').executeTakeFirst()).toBeUndefined();
  });

  it('imports device roles through the same grant rule', async () => {
    const manager = await login(app, 'drole-manager', USER_PASSWORD);
    const { uploadFile, workbookOf } = await import('../../test/crud-helpers.ts');
    const sheet = await workbookOf(['Role name', 'Areas'], [['Imported south', 'South']]);
    const answer = await uploadFile(app, manager, '/deviceRole/importExcel', sheet);
    expect(JSON.stringify(answer.envelope)).toContain('You can only bind areas, devices and doors that a device role you hold covers.');
    expect(await app.db.selectFrom('sys_device_role').select('id').where('role_name', '=', 'Imported south').executeTakeFirst()).toBeUndefined();
  });

  it('a role keeps no link to an area, device, door, user or person that has left the database', async () => {
    await call(admin, 'POST', crudPath(areaEntity, 'add'), { areaName: 'Gone area' });
    const area = (await app.db.selectFrom('sys_area').select('id').where('area_name', '=', 'Gone area').executeTakeFirstOrThrow()).id;
    await call(admin, 'POST', crudPath(deviceEntity, 'add'), { deviceName: 'Gone device', sn: `SN${randomUUID().slice(0, 8).toUpperCase()}` });
    const device = (await app.db.selectFrom('sys_device').select('id').where('device_name', '=', 'Gone device').executeTakeFirstOrThrow()).id;
    await call(admin, 'POST', crudPath(doorEntity, 'add'), { doorName: 'Gone door', deviceId: ids['N-1'], doorNo: 2 });
    const door = (await app.db.selectFrom('sys_door').select('id').where('door_name', '=', 'Gone door').executeTakeFirstOrThrow()).id;
    // a door that leaves with its device
    await call(admin, 'POST', crudPath(doorEntity, 'add'), { doorName: 'Door of gone device', deviceId: device, doorNo: 1 });
    const deviceDoor = (await app.db.selectFrom('sys_door').select('id').where('door_name', '=', 'Door of gone device').executeTakeFirstOrThrow()).id;
    const user = await createTestUser(app, 'drole-leaver', {});
    const person = randomUUID();
    const tenant = (await app.db.selectFrom('sys_tenant').select('id').where('code', '=', 'default').executeTakeFirstOrThrow()).id;
    await app.db.insertInto('sys_people').values({ id: person, name: 'Leaving Person', id_card: null, card_no: null, card_no_masked: null, user_no: null, sex: null, depart_id: null, picture: null, palm_left: 0, palm_right: 0, password: null, status: 1, del_flag: 0, tenant_id: tenant, create_by: 'test', create_time: null, update_by: null, update_time: null }).execute();
    const role = await added(admin, '/deviceRole/add', { roleName: 'Leavers', areaIds: `${area},${ids.North}`, deviceIds: device, doorIds: `${door},${deviceDoor}`, userIds: `${user},${ids.holder}`, peopleIds: `${person},${ids['Pat Person']}` });

    for (const [entity, id] of [[areaEntity, area], [deviceEntity, device], [doorEntity, door]] as const) {
      const gone = await call(admin, 'DELETE', `${crudPath(entity, 'delete')}?id=${id}`);
      expect(gone.envelope.success, gone.envelope.message).toBe(true);
    }
    // users and people go to the recycle bin first: their links stay for a restore, and leave with the complete deletion
    for (const [entity, id] of [[userEntity, user], [peopleEntity, person]] as const) {
      expect((await call(admin, 'DELETE', `${crudPath(entity, 'delete')}?id=${id}`)).envelope.success).toBe(true);
    }
    expect([await linksOf(role, 'sys_device_role_user'), await linksOf(role, 'sys_device_role_people')]).toEqual([2, 2]);
    for (const [entity, id] of [[userEntity, user], [peopleEntity, person]] as const) {
      const gone = await call(admin, 'DELETE', `${crudPath(entity, 'deleteRecycleBin')}?ids=${id}`);
      expect(gone.envelope.success, gone.envelope.message).toBe(true);
    }

    const row = (await call<{ records: Array<Record<string, unknown>> }>(admin, 'GET', `${crudPath(deviceRoleEntity, 'list')}?roleName=Leavers`)).envelope.result.records[0];
    expect(row).toMatchObject({ areaIds: ids.North, deviceIds: '', doorIds: '', userIds: ids.holder, peopleIds: ids['Pat Person'] });
    const left = await app.db.selectFrom('sys_device_role_device').select('id').where('device_id', '=', device).execute();
    expect(left).toHaveLength(0);
    expect(await linksOf(role, 'sys_device_role_door')).toBe(0);
  });
});
