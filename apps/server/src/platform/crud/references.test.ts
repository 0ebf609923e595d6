import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TENANT_HEADER,
  areaEntity,
  crudPath,
  departEntity,
  deviceEntity,
  deviceRoleEntity,
  deviceSettingEntity,
  doorEntity,
  entityDeclarations,
  entityLabel,
  entityPermissionCodes,
  importInitialFields,
  peopleEntity,
  tenantEntity,
  translate,
  type EntityDeclaration,
  type Language,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { createRoleWith, uploadFile, workbookOf } from '../../test/crud-helpers.ts';
import { samples, type Fixtures } from '../../test/entity-samples.ts';
import { USER_PASSWORD, adminToken, api, buildTestApp, createTestUser, defaultTenantId, injectAs, login, testDialects, type Answer, type TestApp } from '../../test/harness.ts';
import { referenceFields } from './references.ts';

type Row = Record<string, unknown>;

/**
 * Fields that look like references (an id, a picker of rows) but name no row a caller could point elsewhere, each
 * with its reason. A new reference field either declares `references` (or is a link or a tree parent) or is listed here.
 */
const NOT_REFERENCES: Record<string, string> = {
  'dataLog.dataId': 'names a row of whichever table `dataTable` names; written by the engine, never by a caller',
};

const looksLikeReference = (entity: EntityDeclaration, name: string) => {
  const decl = entity.fields[name];
  return /Ids?$/.test(name) || decl?.widget.kind === 'entitySelect' || decl?.widget.kind === 'treeSelect' || decl?.link !== undefined || decl?.references !== undefined;
};

describe('declared references', () => {
  const candidates = entityDeclarations.flatMap((entity) => Object.keys(entity.fields).filter((name) => looksLikeReference(entity, name)).map((name) => [`${entity.name}.${name}`, entity, name] as const));

  it.each(candidates)('%s is tenant-checked by the engine, or says why not', (key, entity, name) => {
    const decl = entity.fields[name];
    const checked = referenceFields(entity).some((f) => f.name === name);
    // a row's tenant is written only by system administrators and checked to exist (tenancy.ts), or never written
    const tenantField = name === 'tenantId' && (decl?.systemAdminOnly === true || decl?.readOnly === true);
    // a tree parent is looked up among the caller's rows of the same entity (the engine's checkParent)
    const treeParent = entity.tree?.parentField === name;
    expect(checked || tenantField || treeParent || Object.hasOwn(NOT_REFERENCES, key), `${key} names rows of another entity: declare \`references\` or list it in NOT_REFERENCES with the reason`).toBe(true);
  });

  it.each(entityDeclarations.flatMap((entity) => referenceFields(entity).map((f) => [`${entity.name}.${f.name}`, entity, f] as const)))('%s names a declared entity and field, the one its picker offers', (_key, entity, field) => {
    const target = entityDeclarations.find((e) => e.name === field.entity);
    expect(target, `${entity.name}.${field.name} names ${field.entity}`).toBeDefined();
    if (field.valueField !== 'id') expect(Object.keys(target?.fields ?? {})).toContain(field.valueField);
    const widget = entity.fields[field.name]?.widget as { entity?: string; valueField?: string };
    if (widget.entity) expect([widget.entity, widget.valueField ?? 'id']).toEqual([field.entity, field.valueField]);
  });

  it('leaves no stale exemption', () => {
    const all = new Set<string>(candidates.map(([key]) => key));
    expect(Object.keys(NOT_REFERENCES).filter((key) => !all.has(key))).toEqual([]);
  });
});

describe.each(await testDialects())('references to other rows on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  const tenants = { A: '', B: '' };
  const tokens = { A: '', B: '' };
  /** rows of each tenant, by kind */
  const rows = { A: {} as Record<string, string>, B: {} as Record<string, string> };
  let n = 0;

  const call = <T = Row>(token: string, method: 'GET' | 'POST' | 'PUT', path: string, payload?: Row, lang: Language = 'en-US', headers: Record<string, string> = {}) =>
    injectAs<T>(app, token, { method, url: api(app, path), headers: { lang, ...headers }, ...(payload === undefined ? {} : { payload }) });
  const added = async (token: string, entity: EntityDeclaration, payload: Row, headers: Record<string, string> = {}) => {
    const answer = await call<{ id: string }>(token, 'POST', crudPath(entity, 'add'), payload, 'en-US', headers);
    expect(answer.envelope.success, `${entity.name}: ${answer.envelope.message}`).toBe(true);
    return answer.envelope.result.id;
  };
  const refusal = (entity: EntityDeclaration, name: string, lang: Language = 'en-US') => translate(lang, 'validation.referenceMissing', { field: entityLabel(lang, entity.fields[name]?.label ?? name) });
  const expectRefused = (answer: Answer, entity: EntityDeclaration, name: string, lang: Language = 'en-US') =>
    expect([answer.statusCode, answer.envelope.success, answer.envelope.message], `${entity.name}.${name}`).toEqual([400, false, refusal(entity, name, lang)]);
  const stored = async (token: string, entity: EntityDeclaration, id: string) => (await call(token, 'GET', `${crudPath(entity, 'queryById')}?id=${id}`)).envelope.result;
  const sample = (entity: EntityDeclaration, fx: Partial<Fixtures> = {}) => (samples[entity.name] as (n: number, f: Fixtures) => Row)(++n + 300, { dictId: '', departId: '', permissionId: '', users: [], ...fx });

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
    tenants.A = await defaultTenantId(app);
    tenants.B = await added(admin, tenantEntity, { name: 'Tenant B', code: 'tenant_b', status: 1 });
    await createRoleWith(app, 'reference_manager', [areaEntity, deviceEntity, doorEntity, deviceSettingEntity, peopleEntity, departEntity].flatMap(entityPermissionCodes));
    for (const name of ['A', 'B'] as const) {
      await createTestUser(app, `manager_${name}`, { roles: ['reference_manager'], tenantId: tenants[name] });
      tokens[name] = await login(app, `manager_${name}`, USER_PASSWORD);
      const token = tokens[name];
      const own = rows[name];
      own.group = await added(token, departEntity, { departName: `Group of ${name}` });
      own.area = await added(token, areaEntity, sample(areaEntity));
      own.device = await added(token, deviceEntity, sample(deviceEntity));
      own.door = await added(token, doorEntity, sample(doorEntity, { deviceId: own.device }));
    }
  });
  afterAll(async () => {
    await t.close();
  });

  /**
   * Tenant B writes `name` of `entity` on add, edit and import: its own row (`own`) is taken, tenant A's (`foreign`)
   * is refused with the localised message naming the field, and nothing is stored.
   */
  async function checkField(entity: EntityDeclaration, name: string, own: string, foreign: string, fx: Partial<Fixtures> = {}) {
    const token = tokens.B;
    for (const lang of ['en-US', 'zh-CN', 'ja-JP'] as const) expectRefused(await call(token, 'POST', crudPath(entity, 'add'), { ...sample(entity, fx), [name]: foreign }, lang), entity, name, lang);
    const id = await added(token, entity, { ...sample(entity, fx), [name]: own });
    expectRefused(await call(token, 'PUT', crudPath(entity, 'edit'), { id, [name]: foreign }), entity, name);
    expect((await stored(token, entity, id))[name], `${entity.name}.${name} kept after the refused edit`).toBe(own);
    const edited = await call(token, 'PUT', crudPath(entity, 'edit'), { id, [name]: own });
    expect(edited.envelope.success, edited.envelope.message).toBe(true);

    const rowsOfSheet = [
      { ...sample(entity, fx), [name]: foreign },
      { ...sample(entity, fx), [name]: own },
    ];
    const headers = Object.keys(rowsOfSheet[0] as Row);
    const sheet = await workbookOf(headers, rowsOfSheet.map((r) => headers.map((h) => r[h])));
    const initial = Object.fromEntries(importInitialFields(entity).map((f) => [f, String((rowsOfSheet[0] as Row)[f])]));
    const imported = await uploadFile(app, token, crudPath(entity, 'importExcel'), sheet, 'en-US', initial);
    expect(imported.envelope.result, `${entity.name}.${name} import`).toMatchObject({ total: 2, added: 1, failed: 1, rows: [{ row: 2, success: false, message: refusal(entity, name) }, { row: 3, success: true }] });
  }

  it("a device's area: its own tenant's, never another's", async () => {
    await checkField(deviceEntity, 'areaId', rows.B.area as string, rows.A.area as string);
  });

  it("a door's device and area: its own tenant's, never another's", async () => {
    await checkField(doorEntity, 'deviceId', rows.B.device as string, rows.A.device as string, { deviceId: rows.B.device });
    await checkField(doorEntity, 'areaId', rows.B.area as string, rows.A.area as string, { deviceId: rows.B.device });
  });

  it("a door's groups (ids joined by commas): all of its own tenant, none of another's", async () => {
    await checkField(doorEntity, 'departIds', rows.B.group as string, `${rows.B.group},${rows.A.group}`, { deviceId: rows.B.device });
  });

  it("a person's group and a device setting's area: its own tenant's, never another's", async () => {
    await checkField(peopleEntity, 'departId', rows.B.group as string, rows.A.group as string);
    await checkField(deviceSettingEntity, 'areaId', rows.B.area as string, rows.A.area as string);
  });

  it('a system administrator working in a tenant names only that tenant’s rows, and a row moved to another tenant takes none of the old one’s along', async () => {
    const inB = { [TENANT_HEADER]: tenants.B };
    // the administrator's own tenant is A: in B, A's doors are another tenant's
    expectRefused(await call(admin, 'POST', crudPath(deviceRoleEntity, 'add'), { ...sample(deviceRoleEntity), doorIds: `${rows.B.door},${rows.A.door}` }, 'en-US', inB), deviceRoleEntity, 'doorIds');
    await added(admin, deviceRoleEntity, { ...sample(deviceRoleEntity), doorIds: rows.B.door }, inB);
    // a device of B in B's area, moved to A: the area stays behind, so the move is refused until the area is A's
    const device = await added(tokens.B, deviceEntity, { ...sample(deviceEntity), areaId: rows.B.area });
    expectRefused(await call(admin, 'PUT', crudPath(deviceEntity, 'edit'), { id: device, tenantId: tenants.A }, 'en-US', inB), deviceEntity, 'areaId');
    const moved = await call(admin, 'PUT', crudPath(deviceEntity, 'edit'), { id: device, tenantId: tenants.A, areaId: rows.A.area }, 'en-US', inB);
    expect(moved.envelope.success, moved.envelope.message).toBe(true);
  });
});
