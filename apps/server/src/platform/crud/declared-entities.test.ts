import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TENANT_HEADER,
  crudPath,
  maskCardNo,
  dataLogEntity,
  DataLogPath,
  entityActions,
  entityDeclarations,
  entityLabel,
  entityPermissionCodes,
  importInitialFields,
  logEntity,
  permissionCode,
  tenantEntity,
  translate,
  type EntityDeclaration,
  type Language,
  type Page,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { linkedFieldsOf } from './link-options.ts';
import { tableOf } from './tables.ts';
import { createRoleWith, sheetRows, uploadFile, workbookOf } from '../../test/crud-helpers.ts';
import { samples, storedSamples, type Fixtures } from '../../test/entity-samples.ts';
import { USER_PASSWORD, adminToken, api, buildTestApp, createTestUser, injectAs, login, testDialects, type TestApp } from '../../test/harness.ts';

/**
 * The engine's promises, checked for every declared screen rather than one example: localised validation, the
 * spec's duplicate messages, 510 for a list-only user, injection payloads never executed, tenants kept apart.
 * A new declaration that can be added needs a sample row here, so it is covered from its first day.
 */
const dialects = await testDialects();
type Row = Record<string, unknown>;

const addable = entityDeclarations.filter((e) => entityActions(e).includes('add'));
const PAYLOADS = ["' or '1'='1", "x' --", '1; drop table sys_user', "') or 1=1 --", 'id desc, (select 1)', '*\' or 1=1 --*'];

describe.each(dialects)('every declared screen on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  let fx: Fixtures;
  const call = <T = Row>(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown, lang: Language = 'en-US') =>
    injectAs<T>(app, token, { method, url: api(app, path), ...(payload === undefined ? {} : { payload: payload as Row }), headers: { lang } });
  const add = (entity: EntityDeclaration, payload: Row, token = admin, lang: Language = 'en-US') => call<{ id: string }>(token, 'POST', crudPath(entity, 'add'), payload, lang);
  const list = (entity: EntityDeclaration, token = admin, query = '') => call<Page<Row>>(token, 'GET', `${crudPath(entity, 'list')}?pageSize=1000&${query}`);
  const count = async (entity: EntityDeclaration) => Number((await app.db.selectFrom(tableOf(entity) as 'sys_user').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const added = async (entity: EntityDeclaration, payload: Row, token = admin) => {
    const answer = await add(entity, payload, token);
    expect(answer.envelope.success, `${entity.name}: ${answer.envelope.message}`).toBe(true);
    return answer.envelope.result.id;
  };

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
    for (const name of ['owner_a', 'owner_b', 'owner_c']) await createTestUser(app, name);
    const permission = await app.db.selectFrom('sys_permission').select('id').where('perms', 'is', null).where('menu_type', '=', 1).executeTakeFirstOrThrow();
    fx = { dictId: '', departId: '', permissionId: permission.id, users: ['owner_a', 'owner_b', 'owner_c'] };
    fx.departId = await added(entityDeclarations.find((e) => e.name === 'depart') as EntityDeclaration, { departName: 'Fixture group' });
    fx.dictId = await added(entityDeclarations.find((e) => e.name === 'dict') as EntityDeclaration, { dictName: 'Fixture dictionary', dictCode: 'fixture_dict' });
    fx.deviceId = await fixtureDevice((await app.db.selectFrom('sys_depart').select('tenant_id').where('id', '=', fx.departId).executeTakeFirstOrThrow()).tenant_id, 'FIXTURE-0');
    fx.pluginCode = await fixturePlugin(0);
    fx.peopleIds = await fixturePeople(0);
    Object.assign(fx, await fixturePatrol(0));
    Object.assign(fx, await fixtureVisit(0, 'owner_a'));
  });
  /** a visitor and a host of the caller's tenant (visits name them) */
  const fixtureVisit = async (n: number, host: string, token = admin, departId = fx.departId) => ({
    visitorId: await added(entityDeclarations.find((e) => e.name === 'visitor') as EntityDeclaration, (samples.visitor as (n: number, f: Fixtures) => Row)(950 + n, { ...fx, departId }), token),
    hostId: (await app.db.selectFrom('sys_user').select('id').where('username', '=', host).executeTakeFirstOrThrow()).id,
  });
  /** a patrol route and a patrol group of the caller's tenant (patrol points and missions name them) */
  const fixturePatrol = async (n: number, token = admin) => ({
    patrolRouteId: await added(entityDeclarations.find((e) => e.name === 'patrolRoute') as EntityDeclaration, { routeName: `Fixture route ${n}`, status: 1, weekDay: '1', tolerance: 10 }, token),
    patrolGroupId: await added(entityDeclarations.find((e) => e.name === 'depart') as EntityDeclaration, { departName: `Fixture patrol group ${n}`, departOrder: 0, patrolGroup: 1 }, token),
  });
  /** a device plugin of the caller's tenant (plugin data names one by its code) */
  const fixturePlugin = async (n: number, token = admin) => {
    const plugin = (samples.devicePlugin as (n: number, f: Fixtures) => Row)(n, fx);
    await added(entityDeclarations.find((e) => e.name === 'devicePlugin') as EntityDeclaration, plugin, token);
    return String(plugin.code);
  };
  /** people of the caller's tenant (key people name one each) */
  const fixturePeople = async (from: number, token = admin) => {
    const people = entityDeclarations.find((e) => e.name === 'people') as EntityDeclaration;
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await added(people, (samples.people as (n: number, f: Fixtures) => Row)(900 + from + i, fx), token));
    return ids;
  };
  /** a device row in a tenant (devices come from the device link; doors name one) */
  const fixtureDevice = async (tenantId: string | null, sn: string) => {
    const id = randomUUID();
    await app.db.insertInto('sys_device').values({ id, create_by: 'test', create_time: null, update_by: null, update_time: null, device_name: sn, sn, mac: null, ip: null, gateway: null, subnet_mask: null, system_type: null, device_type_id: null, device_model: null, background_image: null, location: null, area_id: null, online: 0, last_seen: null, session_id: null, firmware: null, tenant_id: tenantId }).execute();
    return id;
  };
  afterAll(async () => {
    await t.close();
  });

  it('answers the choices of every picker of every form that can add or edit', async () => {
    const forms = entityDeclarations.filter((e) => entityActions(e).some((a) => a === 'add' || a === 'edit'));
    const pickers = forms.flatMap((e) => [...linkedFieldsOf(e).keys()].map((field) => [e, field] as const));
    expect(pickers.length).toBeGreaterThan(5);
    for (const [entity, field] of pickers) {
      const answer = await call<Page<{ value: string; label: string }>>(admin, 'GET', `${crudPath(entity, 'linkOptions')}?field=${field}`);
      expect(answer.statusCode, `${entity.name}.${field}: ${answer.envelope.message}`).toBe(200);
      for (const record of answer.envelope.result.records) expect(Object.keys(record).sort()).toEqual(['label', 'value']);
    }
  });

  it('has a sample row for every screen that can add', () => {
    expect(addable.map((e) => e.name).filter((name) => !samples[name])).toEqual([]);
  });

  it.each(addable.map((e) => [e.name, e] as const))('%s: refuses missing fields with a localised 400 and adds a valid row', async (_name, entity) => {
    const required = Object.entries(entity.fields).filter(([, f]) => f.required && f.defaultValue === undefined && !f.readOnly);
    expect(required.length, `${entity.name} declares no required field`).toBeGreaterThan(0);
    const before = await count(entity);
    for (const lang of ['en-US', 'zh-CN', 'ja-JP'] as const) {
      const answer = await add(entity, {}, admin, lang);
      expect(answer.statusCode).toBe(400);
      const expected = required.map(([, f]) => translate(lang, 'validation.required', { field: entityLabel(lang, f.label) }));
      expect(expected).toContain(answer.envelope.message);
    }
    expect(await count(entity)).toBe(before);
    await added(entity, samples[entity.name]?.(1, fx) as Row);
    expect(await count(entity)).toBe(before + 1);
  });

  const withUnique = addable.filter((e) => (e.unique ?? []).length > 0);
  it.each(withUnique.map((e) => [e.name, e] as const))('%s: refuses a duplicate of every unique field with the spec message, on add and on edit', async (_name, entity) => {
    const sample = samples[entity.name] as (n: number, f: Fixtures) => Row;
    const first = sample(2, fx);
    const firstId = await added(entity, first);
    const second = sample(6, fx);
    const secondId = await added(entity, second);
    const before = await count(entity);
    for (const unique of entity.unique ?? []) {
      const copy = { ...sample(3, fx) };
      const taken: Row = { ...second, id: secondId };
      for (const name of [unique.field, ...(unique.within ?? [])]) copy[name] = taken[name] = first[name];
      // a name unique within its parent is refused as a top-level one when the row has no parent
      const top = (unique.within ?? []).length > 0 && (unique.within ?? []).every((other) => first[other] === null || first[other] === undefined || first[other] === '');
      const message = top && unique.topMessage ? unique.topMessage : unique.message;
      for (const lang of ['en-US', 'ja-JP'] as const) {
        const answer = await add(entity, copy, admin, lang);
        expect(answer.envelope, `${entity.name}.${unique.field}`).toMatchObject({ success: false, message: translate(lang, message) });
        const edited = await call(admin, 'PUT', crudPath(entity, 'edit'), taken, lang);
        expect(edited.envelope, `${entity.name}.${unique.field} on edit`).toMatchObject({ success: false, message: translate(lang, message) });
      }
      const stored = (await call(admin, 'GET', `${crudPath(entity, 'queryById')}?id=${secondId}`)).envelope.result;
      expect(stored[unique.field], `${entity.name}.${unique.field} kept after the refused edit`).toBe(second[unique.field]);
    }
    // a row keeps its own values: saving it unchanged is no duplicate of itself
    const kept = await call(admin, 'PUT', crudPath(entity, 'edit'), { ...first, id: firstId });
    expect(kept.envelope.success, `${entity.name} saved with its own values: ${kept.envelope.message}`).toBe(true);
    expect(await count(entity)).toBe(before);
    // the second row leaves its value free for the later tests (three job handlers only)
    expect((await call(admin, 'DELETE', `${crudPath(entity, 'delete')}?id=${secondId}`)).envelope.success).toBe(true);
  });

  it.each(entityDeclarations.map((e) => [e.name, e] as const))('%s: a user holding only the list permission gets 510 for every change', async (_name, entity) => {
    const actions = entityActions(entity);
    const roleCode = `${entity.name}_list_only`;
    await createRoleWith(app, roleCode, [permissionCode(entity, 'list')]);
    await createTestUser(app, `${entity.name}_reader`, { roles: [roleCode] });
    const reader = await login(app, `${entity.name}_reader`, USER_PASSWORD);
    expect((await list(entity, reader)).envelope.code).not.toBe(510);
    const someId = 'a1b2c3';
    const attempts = [
      actions.includes('add') ? add(entity, samples[entity.name]?.(4, fx) ?? {}, reader) : null,
      actions.includes('edit') ? call(reader, 'PUT', crudPath(entity, 'edit'), { id: someId }) : null,
      actions.includes('delete') ? call(reader, 'DELETE', `${crudPath(entity, 'delete')}?id=${someId}`) : null,
      actions.includes('delete') ? call(reader, 'DELETE', `${crudPath(entity, 'deleteBatch')}?ids=${someId}`) : null,
      actions.includes('export') ? call(reader, 'GET', crudPath(entity, 'exportXls')) : null,
      actions.includes('import') ? uploadFile(app, reader, crudPath(entity, 'importExcel'), await workbookOf(['x'], [['y']])) : null,
      actions.includes('recycleBin') ? call(reader, 'PUT', crudPath(entity, 'putRecycleBin'), { ids: someId }) : null,
    ].filter((a) => a !== null);
    expect(attempts.length).toBeGreaterThan(0);
    for (const answer of await Promise.all(attempts)) expect([answer.statusCode, answer.envelope.code]).toEqual([403, 510]);
  });

  it.each(entityDeclarations.map((e) => [e.name, e] as const))('%s: never executes SQL fragments in sort, filter, super query or ids', async (_name, entity) => {
    const before = await count(entity);
    const fields = [...Object.keys(entity.search), ...entity.sortable];
    for (const payload of PAYLOADS) {
      const value = encodeURIComponent(payload);
      const filters = Object.keys(entity.search).map((f) => `${f}=${value}&${f}_begin=${value}&${f}_end=${value}`).join('&');
      for (const query of [`column=${value}&order=${value}`, filters, `superQueryParams=${encodeURIComponent(JSON.stringify([{ field: payload, rule: 'eq', val: 'x' }, ...fields.map((f) => ({ field: f, rule: 'in', val: payload }))]))}&superQueryMatchType=${value}`]) {
        const answer = await list(entity, admin, query);
        expect(answer.statusCode, `${entity.name} ${query}`).toBeLessThan(500);
        if (answer.statusCode === 200 && query.startsWith('superQuery')) expect(answer.envelope.result.total).toBe(0);
      }
      expect((await call(admin, 'GET', `${crudPath(entity, 'queryById')}?id=${value}`)).statusCode).toBe(400);
    }
    expect(await count(entity)).toBe(before);
  });

  const exportable = addable.filter((e) => entityActions(e).includes('export') && entityActions(e).includes('import'));
  it.each(exportable.map((e) => [e.name, e] as const))('%s: exports a row to xlsx that imports back', async (_name, entity) => {
    const row = (samples[entity.name] as (n: number, f: Fixtures) => Row)(3, fx);
    const id = await added(entity, row);
    const only = `superQueryParams=${encodeURIComponent(JSON.stringify([{ field: entity.labelField, rule: 'eq', val: row[entity.labelField] }]))}`;
    const file = await injectAs(app, admin, { method: 'GET', url: `${api(app, crudPath(entity, 'exportXls'))}?${only}`, headers: { lang: 'ja-JP' } });
    expect(file.statusCode).toBe(200);
    const sheet = await sheetRows(file.rawPayload);
    expect(sheet.length, `${entity.name} export`).toBe(2);
    expect(sheet[0]).toContain(entityLabel('ja-JP', entity.fields[entity.labelField]?.label ?? ''));
    const removed = await call(admin, 'DELETE', `${crudPath(entity, entityActions(entity).includes('recycleBin') ? 'deleteBatch' : 'delete')}?id=${id}&ids=${id}`);
    expect(removed.envelope.success, removed.envelope.message).toBe(true);
    if (entityActions(entity).includes('recycleBin')) await call(admin, 'DELETE', `${crudPath(entity, 'deleteRecycleBin')}?ids=${id}`);
    // exports carry no passwords: the import takes an initial one for such rows, checked like the form
    const initial = Object.fromEntries(importInitialFields(entity).map((name) => [name, String(row[name])]));
    if (Object.keys(initial).length > 0) {
      const weak = await uploadFile(app, admin, crudPath(entity, 'importExcel'), file.rawPayload, 'ja-JP', Object.fromEntries(Object.keys(initial).map((name) => [name, 'x'])));
      expect(weak.statusCode).toBe(400);
      expect(weak.envelope.message).toContain(entityLabel('ja-JP', entity.fields[Object.keys(initial)[0] as string]?.label ?? ''));
      const without = await uploadFile(app, admin, crudPath(entity, 'importExcel'), file.rawPayload, 'ja-JP');
      expect(without.envelope.result).toMatchObject({ total: 1, added: 0, failed: 1 });
    }
    const imported = await uploadFile(app, admin, crudPath(entity, 'importExcel'), file.rawPayload, 'ja-JP', initial);
    expect(imported.envelope.result, `${entity.name} import`).toMatchObject({ total: 1, added: 1, failed: 0 });
    const back = (await list(entity, admin, only)).envelope.result.records;
    expect(back.length).toBe(1);
    // lists show an ID number masked (its last four characters), as card numbers
    const shown = (name: string, value: unknown) => (entity.fields[name]?.maskedInLists ? maskCardNo(String(value)) : String(value));
    for (const [name, value] of Object.entries(row)) if (!entity.fields[name]?.writeOnly && typeof value !== 'object') expect(String(back[0]?.[name]), `${entity.name}.${name}`).toBe(shown(name, value));
  });

  it('keeps each tenant to its own rows in every tenant-scoped screen and in the logs: lists, exports, queryById, edit and delete', async () => {
    // the login, operation and data logs copy tenants' rows and sign-ins: they are checked whatever their declaration says
    const logs = [logEntity, dataLogEntity];
    const scoped = [...new Set([...entityDeclarations.filter((e) => e.tenantScoped), ...logs])];
    const tenants = { A: await added(tenantEntity, { name: 'Tenant A', code: 'tenant_a', status: 1 }), B: await added(tenantEntity, { name: 'Tenant B', code: 'tenant_b', status: 1 }) };
    await createRoleWith(app, 'tenant_manager', scoped.flatMap(entityPermissionCodes));
    const tokens: Record<string, string> = {};
    const fixtures: Record<string, Fixtures> = {};
    for (const [name, tenantId] of Object.entries(tenants)) {
      const users = [1, 2, 3].map((i) => `${name.toLowerCase()}_member${i}`);
      for (const user of users) await createTestUser(app, user, { tenantId });
      await createTestUser(app, `${name.toLowerCase()}_manager`, { roles: ['tenant_manager'], tenantId });
      tokens[name] = await login(app, `${name.toLowerCase()}_manager`, USER_PASSWORD);
      const departId = await added(entityDeclarations.find((e) => e.name === 'depart') as EntityDeclaration, { departName: `Group of ${name}` }, tokens[name]);
      // the tenant's visitor belongs to the tenant's own group
      fixtures[name] = { ...fx, users, departId, deviceId: await fixtureDevice(tenantId, `FIXTURE-${name}`), pluginCode: await fixturePlugin(name === 'A' ? 100 : 200, tokens[name]), peopleIds: await fixturePeople(name === 'A' ? 20 : 40, tokens[name]), ...(await fixturePatrol(name === 'A' ? 1 : 2, tokens[name])), ...(await fixtureVisit(name === 'A' ? 1 : 2, users[0]!, tokens[name], departId)) };
    }
    for (const [name, token] of Object.entries(tokens)) {
      const n = name === 'A' ? 101 : 201;
      for (const entity of scoped) if (samples[entity.name] && entityActions(entity).includes('add')) await added(entity, (samples[entity.name] as (n: number, f: Fixtures) => Row)(n, fixtures[name] as Fixtures), token);
      for (const entity of scoped) {
        const stored = storedSamples[entity.name]?.(n, fixtures[name] as Fixtures, tenants[name as 'A' | 'B']);
        if (stored) await app.db.insertInto(tableOf(entity) as never).values({ create_by: 'test', create_time: '2026-01-01T00:00:00.000Z', update_by: null, update_time: null, ...stored } as never).execute();
      }
    }
    for (const [name, token] of Object.entries(tokens)) {
      const otherToken = tokens[name === 'A' ? 'B' : 'A'] as string;
      for (const entity of scoped) {
        const own = (await list(entity, token)).envelope.result;
        const foreign = (await list(entity, otherToken)).envelope.result.records;
        expect(own.total, `${entity.name} of ${name}`).toBeGreaterThan(0);
        const ownIds = new Set(own.records.map((r) => r.id));
        expect(foreign.filter((r) => ownIds.has(r.id)), `${entity.name} shared between tenants`).toEqual([]);
        const stranger = foreign[0] as Row;
        expect((await call(token, 'GET', `${crudPath(entity, 'queryById')}?id=${String(stranger.id)}`)).statusCode, `${entity.name} queryById across tenants`).toBe(404);
        if (entityActions(entity).includes('export')) {
          const exported = await injectAs(app, token, { method: 'GET', url: api(app, crudPath(entity, 'exportXls')), headers: { lang: 'en-US' } });
          expect((await sheetRows(exported.rawPayload)).length - 1, `${entity.name} export of ${name}`).toBe(own.total);
        }
        if (entityActions(entity).includes('edit')) expect((await call(token, 'PUT', crudPath(entity, 'edit'), { id: stranger.id, [entity.labelField]: 'stolen' })).statusCode).toBe(404);
        if (entityActions(entity).includes('delete')) expect((await call(token, 'DELETE', `${crudPath(entity, 'delete')}?id=${String(stranger.id)}`)).statusCode).toBe(404);
        expect((await list(entity, otherToken)).envelope.result.records.length, `${entity.name} untouched`).toBe(foreign.length);
      }
      // the system administrator's own sign-ins belong to his own tenant, not to A or B
      expect((await list(logEntity, token)).envelope.result.records.filter((r) => r.username === 'admin'), `admin's entries in ${name}'s log`).toEqual([]);
      const stranger = (await list(dataLogEntity, otherToken)).envelope.result.records[0] as Row;
      expect((await call(token, 'GET', `${DataLogPath.compare}?dataId1=${String(stranger.id)}&dataId2=${String(stranger.id)}`)).envelope.success, `${name} compares another tenant's versions`).toBe(false);
    }
    // the system administrator reads a tenant's entries when he names that tenant, and only then
    const asAdminIn = (tenantId: string | null, path: string, method: 'GET' | 'PUT' = 'GET', payload?: Record<string, unknown>) =>
      injectAs<Page<Row>>(app, admin, { method, url: api(app, path), headers: { lang: 'en-US', ...(tenantId ? { [TENANT_HEADER]: tenantId } : {}) }, ...(payload ? { payload } : {}) });
    for (const [name, token] of Object.entries(tokens)) {
      for (const [entity, by] of [[logEntity, 'username'], [dataLogEntity, 'createBy']] as const) {
        const query = `${crudPath(entity, 'list')}?pageSize=1000&${by}=${name.toLowerCase()}_manager`;
        const own = (await list(entity, token, `${by}=${name.toLowerCase()}_manager`)).envelope.result.records;
        const seen = (await asAdminIn(tenants[name as 'A' | 'B'], query)).envelope.result.records;
        expect(own.length, `${entity.name} of ${name}`).toBeGreaterThan(0);
        expect(seen.map((r) => r.id).sort(), `${entity.name} of ${name} seen by the administrator`).toEqual(own.map((r) => r.id).sort());
        expect((await asAdminIn(null, query)).envelope.result.records, `${entity.name} of ${name} in the administrator's own tenant`).toEqual([]);
      }
    }
    // a version written when the administrator changes a tenant's row belongs to that tenant, not to the administrator
    const position = entityDeclarations.find((e) => e.name === 'position') as EntityDeclaration;
    const ofB = (await list(position, tokens.B)).envelope.result.records[0] as Row;
    expect((await asAdminIn(null, crudPath(position, 'edit'), 'PUT', { id: ofB.id, name: 'Renamed by the administrator' })).statusCode).toBe(404);
    expect((await asAdminIn(tenants.B, crudPath(position, 'edit'), 'PUT', { id: ofB.id, name: 'Renamed by the administrator' })).envelope.success).toBe(true);
    const versions = async (token: string) => (await list(dataLogEntity, token, `dataId=${String(ofB.id)}`)).envelope.result.records.filter((r) => r.createBy === 'admin');
    expect(await versions(tokens.B as string)).toHaveLength(1);
    expect(await versions(tokens.A as string)).toHaveLength(0);
  });
});
