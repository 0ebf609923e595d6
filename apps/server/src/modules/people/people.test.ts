import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LANGUAGES,
  PeoplePath,
  crudPath,
  dataLogEntity,
  entityLabel,
  logEntity,
  peopleEntity,
  tenantEntity,
  translate,
  type Page,
  withIdCheck,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { createRoleWith, sheetRows, uploadFile, workbookOf } from '../../test/crud-helpers.ts';
import { USER_PASSWORD, adminToken, api, buildTestApp, createTestUser, injectAs, login, testDialects, type TestApp } from '../../test/harness.ts';
import { storePalmTemplate } from './palm-templates.ts';

/** A legal resident ID card number of a sequence number. */
const idCard = (sequence: number): string => withIdCheck(`32010619800312${String(sequence).padStart(3, '0')}`);

type Row = Record<string, unknown> & { id: string };
const CARD = '8800123456';
const TEMPLATE = 'PALMTEMPLATE-LEFT-0f9e8d7c6b5a';

describe.each((await testDialects()).filter((d) => d !== 'mysql'))('people on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  const call = <T = unknown>(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: Record<string, unknown>, lang = 'en-US') =>
    injectAs<T>(app, token, { method, url: api(app, path), payload, headers: { lang } });
  const person = { name: 'Zhang Wei', idCard: idCard(21), cardNo: CARD, userNo: 'P0001', sex: 1, password: '24681357' };
  let personId = '';

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('checks the ID card, card number and 6 to 8 digit password with localised messages', async () => {
    for (const lang of LANGUAGES) {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ idCard: '320106198003120000' }, translate(lang, 'validation.idCard', { field: entityLabel(lang, 'people.field.idCard') })],
        // the old 15-digit form is no longer issued: people need the 18-character number
        [{ idCard: '320106800312001' }, translate(lang, 'validation.idCard', { field: entityLabel(lang, 'people.field.idCard') })],
        [{ password: '12345' }, translate(lang, 'validation.visitorPassword', { field: entityLabel(lang, 'people.field.password') })],
        [{ password: '123456789' }, translate(lang, 'validation.visitorPassword', { field: entityLabel(lang, 'people.field.password') })],
        [{ password: 'abcdef' }, translate(lang, 'validation.visitorPassword', { field: entityLabel(lang, 'people.field.password') })],
        [{ cardNo: '12-34-56' }, translate(lang, 'validation.cardNo', { field: entityLabel(lang, 'people.field.cardNo') })],
      ];
      for (const [change, message] of cases) {
        const answer = await call(admin, 'POST', crudPath(peopleEntity, 'add'), { ...person, ...change }, lang);
        expect([answer.statusCode, answer.envelope.message], JSON.stringify(change)).toEqual([400, message]);
      }
    }
    const added = await call<{ id: string }>(admin, 'POST', crudPath(peopleEntity, 'add'), { ...person, idCard: person.idCard.toLowerCase() });
    expect(added.envelope.success, added.envelope.message).toBe(true);
    personId = added.envelope.result.id;
    const stored = await app.db.selectFrom('sys_people').selectAll().where('id', '=', personId).executeTakeFirstOrThrow();
    expect(stored.id_card).toBe(person.idCard.toUpperCase());
    expect(stored.card_no).toBe(CARD);
    expect(stored.password).not.toContain(person.password);
    expect(await app.hasher.verify(stored.password as string, person.password)).toBe(true);
  });

  it('refuses a duplicate ID card, user number or card number on add and edit', async () => {
    const other = await call<{ id: string }>(admin, 'POST', crudPath(peopleEntity, 'add'), { name: 'Li Lei', idCard: idCard(22), cardNo: '8800999999', userNo: 'P0002' });
    expect(other.envelope.success).toBe(true);
    for (const lang of LANGUAGES) {
      const fresh = { name: 'Han Mei', idCard: idCard(23), cardNo: '8800777777', userNo: 'P0003' };
      for (const [change, key] of [[{ idCard: person.idCard }, 'duplicate.idCard'], [{ userNo: person.userNo }, 'duplicate.userNo'], [{ cardNo: CARD }, 'duplicate.cardNo']] as const) {
        expect((await call(admin, 'POST', crudPath(peopleEntity, 'add'), { ...fresh, ...change }, lang)).envelope).toMatchObject({ success: false, message: translate(lang, key) });
        expect((await call(admin, 'PUT', crudPath(peopleEntity, 'edit'), { id: other.envelope.result.id, ...change }, lang)).envelope).toMatchObject({ success: false, message: translate(lang, key) });
      }
    }
    // a person keeps his own card number: saving it again is no duplicate
    expect((await call(admin, 'PUT', crudPath(peopleEntity, 'edit'), { id: personId, cardNo: CARD, name: person.name })).envelope.success).toBe(true);
  });

  it('never shows the card number or a palm-vein template in lists, details, exports, the recycle bin or logs', async () => {
    await storePalmTemplate(app, personId, 'left', TEMPLATE, 'device');
    const list = await call<Page<Row>>(admin, 'GET', `${crudPath(peopleEntity, 'list')}?name=*Zhang*`);
    const row = list.envelope.result.records[0]!;
    expect(row).toMatchObject({ cardNoMasked: '******3456', palmLeft: 1, palmRight: 0 });
    expect(row).not.toHaveProperty('cardNo');
    expect(row).not.toHaveProperty('password');
    const detail = await call<Row>(admin, 'GET', `${crudPath(peopleEntity, 'queryById')}?id=${personId}`);
    const exported = await injectAs(app, admin, { method: 'GET', url: api(app, crudPath(peopleEntity, 'exportXls')), headers: { lang: 'en-US' } });
    const sheet = JSON.stringify(await sheetRows(exported.rawPayload));
    expect(sheet).toContain('******3456');
    // an edit writes a data log version and an operation log entry; a delete puts the row in the recycle bin
    expect((await call(admin, 'PUT', crudPath(peopleEntity, 'edit'), { id: personId, cardNo: CARD, userNo: 'P0001' })).envelope.success).toBe(true);
    const versions = await call<Page<Row>>(admin, 'GET', `${crudPath(dataLogEntity, 'list')}?dataId=${personId}&pageSize=100`);
    expect(versions.envelope.result.total).toBeGreaterThan(0);
    const log = await call<Page<Row>>(admin, 'GET', `${crudPath(logEntity, 'list')}?logType=2&pageSize=1000`);
    expect((await call(admin, 'DELETE', `${crudPath(peopleEntity, 'delete')}?id=${personId}`)).envelope.success).toBe(true);
    const bin = await call<Page<Row>>(admin, 'GET', crudPath(peopleEntity, 'recycleBin'));
    expect(bin.envelope.result.records.map((r) => r.id)).toContain(personId);
    const storedLogs = JSON.stringify(await app.db.selectFrom('sys_log').selectAll().execute()) + JSON.stringify(await app.db.selectFrom('sys_data_log').selectAll().execute());
    for (const text of [JSON.stringify(list.envelope), JSON.stringify(detail.envelope), sheet, JSON.stringify(versions.envelope), JSON.stringify(log.envelope), JSON.stringify(bin.envelope), storedLogs]) {
      expect(text).not.toContain(CARD);
      expect(text).not.toContain(TEMPLATE);
    }
    // restored from the recycle bin, the person keeps his templates; deleted completely, they go with him
    expect((await call(admin, 'PUT', crudPath(peopleEntity, 'putRecycleBin'), { ids: personId })).envelope.success).toBe(true);
    expect((await call<Row>(admin, 'GET', `${crudPath(peopleEntity, 'queryById')}?id=${personId}`)).envelope.result.palmLeft).toBe(1);
    expect((await call(admin, 'DELETE', `${crudPath(peopleEntity, 'delete')}?id=${personId}`)).envelope.success).toBe(true);
    expect((await call(admin, 'DELETE', `${crudPath(peopleEntity, 'deleteRecycleBin')}?ids=${personId}`)).envelope.success).toBe(true);
    expect(await app.db.selectFrom('sys_people_palm').select('id').where('people_id', '=', personId).execute()).toEqual([]);
    expect(await app.db.selectFrom('sys_people').select('id').where('id', '=', personId).execute()).toEqual([]);
  });

  it('freezes and thaws people through PUT /sysPeople/frozenPeople, asking for a selection', async () => {
    const added = await call<{ id: string }>(admin, 'POST', crudPath(peopleEntity, 'add'), { name: 'Wang Fang', idCard: idCard(31), userNo: 'P0031' });
    const id = added.envelope.result.id;
    expect((await call(admin, 'PUT', PeoplePath.frozenPeople, { ids: '', status: 2 }, 'zh-CN')).envelope.message).toBe(translate('zh-CN', 'crud.selectRecord'));
    const frozen = await call(admin, 'PUT', PeoplePath.frozenPeople, { ids: id, status: 2 }, 'ja-JP');
    expect(frozen.envelope).toMatchObject({ success: true, message: translate('ja-JP', 'people.frozenBatch', { count: 1 }) });
    expect((await call<Row>(admin, 'GET', `${crudPath(peopleEntity, 'queryById')}?id=${id}`)).envelope.result.status).toBe(2);
    expect((await call<Page<Row>>(admin, 'GET', `${crudPath(peopleEntity, 'list')}?status=2`)).envelope.result.records.map((r) => r.id)).toEqual([id]);
    const thawed = await call(admin, 'PUT', PeoplePath.frozenPeople, { id, status: '1' }, 'en-US');
    expect(thawed.envelope).toMatchObject({ success: true, message: translate('en-US', 'people.thawedBatch', { count: 1 }) });
    expect((await call<Row>(admin, 'GET', `${crudPath(peopleEntity, 'queryById')}?id=${id}`)).envelope.result.status).toBe(1);
    // each reader is told in their language
    for (const lang of LANGUAGES) {
      expect((await call(admin, 'PUT', PeoplePath.frozenPeople, { ids: id, status: 2 }, lang)).envelope.message).toBe(translate(lang, 'people.frozenBatch', { count: 1 }));
      expect((await call(admin, 'PUT', PeoplePath.frozenPeople, { ids: id, status: 1 }, lang)).envelope.message).toBe(translate(lang, 'people.thawedBatch', { count: 1 }));
    }
    expect((await call(admin, 'PUT', PeoplePath.frozenPeople, { ids: "x' or 1=1 --", status: 2 })).statusCode).toBe(400);
    expect((await call(admin, 'PUT', PeoplePath.frozenPeople, { ids: id, status: 3 })).statusCode).toBe(400);
  });

  it('refuses a picture that is not a stored image', async () => {
    const answer = await call(admin, 'POST', crudPath(peopleEntity, 'add'), { name: 'No Picture', picture: 'temp/missing.png' }, 'zh-CN');
    expect(answer.statusCode).toBe(400);
    expect(answer.envelope.message).toBe(translate('zh-CN', 'upload.badPath'));
  });

  it('shows and changes the device roles of a person from the person’s form (/sysPeople/add, /sysPeople/edit, /sysPeople/importExcel), handing out only roles the caller may give', async () => {
    const added = async (token: string, path: string, payload: Record<string, unknown>) => {
      const answer = await call<{ id: string }>(token, 'POST', path, payload);
      expect(answer.envelope.success, answer.envelope.message).toBe(true);
      return answer.envelope.result.id;
    };
    await added(admin, '/sysArea/add', { areaName: 'Roles north' });
    const area = (await app.db.selectFrom('sys_area').select('id').where('area_name', '=', 'Roles north').executeTakeFirstOrThrow()).id;
    const gate = await added(admin, '/deviceRole/add', { roleName: 'North gate', roleType: '1', areaIds: area });
    const canteen = await added(admin, '/deviceRole/add', { roleName: 'Canteen', roleType: '1' });
    const roleIdsOf = async (id: string) => (await call<Row>(admin, 'GET', `${crudPath(peopleEntity, 'queryById')}?id=${id}`)).envelope.result;

    // the administrator hands both out on the person's form; the list names them
    const li = await added(admin, crudPath(peopleEntity, 'add'), { name: 'Li Na', idCard: idCard(61), userNo: 'R0001', roleIds: `${gate},${canteen}` });
    expect(String((await roleIdsOf(li)).roleIds).split(',').sort()).toEqual([gate, canteen].sort());
    const listed = (await call<Page<Row>>(admin, 'GET', `${crudPath(peopleEntity, 'list')}?pageSize=100`)).envelope.result.records.find((r) => r.id === li);
    expect(String(listed?.roleIds_dictText).split(/,\s*/).sort(), JSON.stringify(listed)).toEqual(['Canteen', 'North gate']);
    // the role sees the person too: one link table
    const role = (await call<Row>(admin, 'GET', `/deviceRole/queryById?id=${gate}`)).envelope.result;
    expect(role.peopleIds).toBe(li);

    // a key role's link of the person is not a device role: the form neither shows nor drops it
    const keyRole = crypto.randomUUID();
    const tenant = (await app.db.selectFrom('sys_people').select('tenant_id').where('id', '=', li).executeTakeFirstOrThrow()).tenant_id;
    await app.db.insertInto('sys_device_role').values({ id: keyRole, role_name: 'Key takers', role_type: '5', time_setting: '{"mode":"permanent"}', remark: null, tenant_id: tenant, create_by: 'test', create_time: null, update_by: null, update_time: null }).execute();
    await app.db.insertInto('sys_device_role_people').values({ id: crypto.randomUUID(), role_id: keyRole, people_id: li, create_by: 'test', create_time: null, update_by: null, update_time: null }).execute();
    expect(String((await roleIdsOf(li)).roleIds).split(',')).not.toContain(keyRole);
    expect((await call(admin, 'PUT', crudPath(peopleEntity, 'edit'), { id: li, roleIds: canteen })).envelope.success).toBe(true);
    expect((await roleIdsOf(li)).roleIds).toBe(canteen);
    expect(await app.db.selectFrom('sys_device_role_people').select('id').where('role_id', '=', keyRole).where('people_id', '=', li).execute()).toHaveLength(1);

    // a people manager who holds no device role gives and takes only roles that bind nothing
    await createRoleWith(app, 'people_roles_manager', ['device:people:list', 'device:people:add', 'device:people:edit', 'device:people:import']);
    await createTestUser(app, 'people_roles_mgr', { roles: ['people_roles_manager'] });
    const manager = await login(app, 'people_roles_mgr', USER_PASSWORD);
    for (const lang of LANGUAGES) {
      const refused = await call(manager, 'PUT', crudPath(peopleEntity, 'edit'), { id: li, roleIds: `${canteen},${gate}` }, lang);
      expect(refused.envelope).toMatchObject({ success: false, message: translate(lang, 'grant.deviceTargetNotHeld') });
    }
    expect((await call(manager, 'POST', crudPath(peopleEntity, 'add'), { name: 'Grabber', idCard: idCard(62), userNo: 'R0002', roleIds: gate })).envelope.message).toBe(translate('en-US', 'grant.deviceTargetNotHeld'));
    const sheet = await workbookOf(['name', 'idCard', 'userNo', 'roleIds'], [['Importer', idCard(63), 'R0003', 'North gate']]);
    await uploadFile(app, manager, '/sysPeople/importExcel', sheet);
    expect(await app.db.selectFrom('sys_people').select('id').where('name', '=', 'Importer').execute()).toEqual([]);
    expect((await roleIdsOf(li)).roleIds).toBe(canteen);
    // taking a role it does not cover is refused as well; one that binds nothing goes and comes back
    await call(admin, 'PUT', crudPath(peopleEntity, 'edit'), { id: li, roleIds: `${canteen},${gate}` });
    expect((await call(manager, 'PUT', crudPath(peopleEntity, 'edit'), { id: li, roleIds: canteen })).envelope.message).toBe(translate('en-US', 'grant.deviceTargetNotHeld'));
    expect((await call(manager, 'PUT', crudPath(peopleEntity, 'edit'), { id: li, roleIds: gate })).envelope.success).toBe(true);
    expect((await call(manager, 'PUT', crudPath(peopleEntity, 'edit'), { id: li, roleIds: `${gate},${canteen}` })).envelope.success).toBe(true);
    // and editing other fields leaves the roles alone
    expect((await call(manager, 'PUT', crudPath(peopleEntity, 'edit'), { id: li, name: 'Li Na 2' })).envelope.success).toBe(true);
    expect(String((await roleIdsOf(li)).roleIds).split(',').sort()).toEqual([gate, canteen].sort());
  });

  it('keeps tenants apart, card numbers included, and needs device:people:frozen to freeze', async () => {
    const tenants: string[] = [];
    for (const code of ['people_a', 'people_b']) {
      const added = await call<{ id: string }>(admin, 'POST', crudPath(tenantEntity, 'add'), { name: code, code, status: 1 });
      tenants.push(added.envelope.result.id);
    }
    await createRoleWith(app, 'people_manager', ['device:people:list', 'device:people:add', 'device:people:edit', 'device:people:frozen']);
    await createRoleWith(app, 'people_reader', ['device:people:list']);
    await createTestUser(app, 'people_mgr_a', { roles: ['people_manager'], tenantId: tenants[0] });
    await createTestUser(app, 'people_mgr_b', { roles: ['people_manager'], tenantId: tenants[1] });
    await createTestUser(app, 'people_reader_a', { roles: ['people_reader'], tenantId: tenants[0] });
    const a = await login(app, 'people_mgr_a', USER_PASSWORD);
    const b = await login(app, 'people_mgr_b', USER_PASSWORD);
    const reader = await login(app, 'people_reader_a', USER_PASSWORD);
    const same = { name: 'Same Person', idCard: idCard(41), cardNo: '9900112233', userNo: 'T0001' };
    const ofA = await call<{ id: string }>(a, 'POST', crudPath(peopleEntity, 'add'), same);
    expect(ofA.envelope.success, ofA.envelope.message).toBe(true);
    // each tenant numbers its own people and cards
    const ofB = await call<{ id: string }>(b, 'POST', crudPath(peopleEntity, 'add'), same);
    expect(ofB.envelope.success, ofB.envelope.message).toBe(true);
    expect((await call(a, 'POST', crudPath(peopleEntity, 'add'), { ...same, idCard: idCard(42), userNo: 'T0002' })).envelope.message).toBe(translate('en-US', 'duplicate.cardNo'));
    const listA = await call<Page<Row>>(a, 'GET', crudPath(peopleEntity, 'list'));
    expect(listA.envelope.result.records.map((r) => r.id)).toEqual([ofA.envelope.result.id]);
    expect((await call(a, 'PUT', PeoplePath.frozenPeople, { ids: ofB.envelope.result.id, status: 2 })).statusCode).toBe(404);
    expect((await call(a, 'GET', `${crudPath(peopleEntity, 'queryById')}?id=${ofB.envelope.result.id}`)).statusCode).toBe(404);
    const denied = await call(reader, 'PUT', PeoplePath.frozenPeople, { ids: ofA.envelope.result.id, status: 2 });
    expect([denied.statusCode, denied.envelope.code]).toEqual([403, 510]);
    const stored = await app.db.selectFrom('sys_people').select('status').where('id', '=', ofB.envelope.result.id).executeTakeFirstOrThrow();
    expect(Number(stored.status)).toBe(1);
  });
});
