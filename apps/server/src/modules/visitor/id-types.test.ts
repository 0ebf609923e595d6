import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdType, LANGUAGES, VisitorPath, crudPath, entityLabel, maskCardNo, peopleEntity, translate, visitorEntity, withIdCheck, type EntityDeclaration, type Page } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { adminToken, api, buildTestApp, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

/** A resident ID card number with a valid check character. */
const residentId = (sequence: number): string => withIdCheck(`11010519900307${String(sequence).padStart(3, '0')}`);

type Row = Record<string, unknown> & { id: string };

describe.each(await testDialects())('ID types of visitors and people on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  const call = <T = unknown>(token: string, method: 'GET' | 'POST' | 'PUT', path: string, payload?: Record<string, unknown>, lang = 'en-US') =>
    injectAs<T>(app, token, { method, url: api(app, path), payload, headers: { lang } });

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
  });
  afterAll(async () => t?.close());

  const cases: { entity: EntityDeclaration; sample: (n: number) => Record<string, unknown>; table: 'sys_visitor' | 'sys_people' }[] = [
    { entity: visitorEntity, table: 'sys_visitor', sample: (n) => ({ name: `Guest ${n}`, phone: `1370000${String(n).padStart(4, '0')}`, category: 'general', password: '135790' }) },
    { entity: peopleEntity, table: 'sys_people', sample: (n) => ({ name: `Person ${n}` }) },
  ];

  it.each(cases)('$entity.name: takes a passport or another document with the check that fits, and refuses what does not fit, in every language', async ({ entity, sample, table }) => {
    // a passport number, refused today as a resident ID card
    const passport = await call<{ id: string }>(admin, 'POST', crudPath(entity, 'add'), { ...sample(1), idType: IdType.passport, idCard: 'E12345678' });
    expect(passport.envelope).toMatchObject({ success: true });
    const other = await call(admin, 'POST', crudPath(entity, 'add'), { ...sample(2), idType: IdType.other, idCard: 'HK-Permit 0042' });
    expect(other.envelope.success).toBe(true);
    expect((await call(admin, 'POST', crudPath(entity, 'add'), { ...sample(3), idType: IdType.resident, idCard: residentId(3) })).envelope.success).toBe(true);

    const label = (lang: (typeof LANGUAGES)[number]) => entityLabel(lang, entity.fields.idCard!.label);
    for (const lang of LANGUAGES) {
      const wrongResident = await call(admin, 'POST', crudPath(entity, 'add'), { ...sample(4), idType: IdType.resident, idCard: 'E87654321' }, lang);
      expect(wrongResident.statusCode).toBe(400);
      expect(wrongResident.envelope).toMatchObject({ success: false, message: translate(lang, 'validation.idCard', { field: label(lang) }) });
      const wrongPassport = await call(admin, 'POST', crudPath(entity, 'add'), { ...sample(4), idType: IdType.passport, idCard: 'E1-2' }, lang);
      expect(wrongPassport.envelope).toMatchObject({ success: false, message: translate(lang, 'validation.passport', { field: label(lang) }) });
      const tooLong = await call(admin, 'POST', crudPath(entity, 'add'), { ...sample(4), idType: IdType.other, idCard: 'x'.repeat(40) }, lang);
      expect(tooLong.statusCode).toBe(400);
    }
    const unknownType = await call(admin, 'POST', crudPath(entity, 'add'), { ...sample(4), idType: '9', idCard: 'E87654321' });
    expect(unknownType.statusCode).toBe(400);

    // changing the type alone is checked against the stored number
    const stored = await app.db.selectFrom(table).select(['id_type', 'id_card']).where('id', '=', passport.envelope.result.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ id_type: IdType.passport, id_card: 'E12345678' });
    const retype = await call(admin, 'PUT', crudPath(entity, 'edit'), { id: passport.envelope.result.id, idType: IdType.resident });
    expect(retype.statusCode).toBe(400);
    expect((await app.db.selectFrom(table).select('id_type').where('id', '=', passport.envelope.result.id).executeTakeFirstOrThrow()).id_type).toBe(IdType.passport);
  });

  it.each(cases)('$entity.name: lists show the ID number masked as card numbers are; the detail shows it whole to those who may edit', async ({ entity, sample }) => {
    const number = residentId(21);
    const added = await call<{ id: string }>(admin, 'POST', crudPath(entity, 'add'), { ...sample(21), idType: IdType.resident, idCard: number });
    expect(added.envelope.success).toBe(true);
    const id = added.envelope.result.id;
    const listed = (await call<Page<Row>>(admin, 'GET', `${crudPath(entity, 'list')}?pageSize=100`)).envelope.result.records.find((r) => r.id === id)!;
    expect(listed.idCard).toBe(maskCardNo(number));
    expect(listed.idType_dictText).toBe('Resident ID card');
    expect(JSON.stringify(listed)).not.toContain(number);
    // still found by the whole number
    expect((await call<Page<Row>>(admin, 'GET', `${crudPath(entity, 'list')}?idCard=${number}`)).envelope.result.records.map((r) => r.id)).toEqual([id]);
    // the detail, for the administrator who may edit: whole
    expect((await call<Row>(admin, 'GET', `${crudPath(entity, 'queryById')}?id=${id}`)).envelope.result.idCard).toBe(number);
    // an edit that sends back the masked number keeps the stored one
    expect((await call(admin, 'PUT', crudPath(entity, 'edit'), { id, idCard: maskCardNo(number), name: `Renamed ${entity.name}` })).envelope.success).toBe(true);
    expect((await call<Row>(admin, 'GET', `${crudPath(entity, 'queryById')}?id=${id}`)).envelope.result.idCard).toBe(number);
  });

  it('shows a reader who may only list the masked number in the detail too', async () => {
    const listCode = `${visitorEntity.permissionPrefix}:list`;
    const role = await call<{ id: string }>(admin, 'POST', '/sys/role/add', { roleName: 'Visitor readers', roleCode: 'visitor_reader' });
    expect(role.envelope.success).toBe(true);
    const permission = await app.db.selectFrom('sys_permission').select('id').where('perms', '=', listCode).executeTakeFirstOrThrow();
    const menu = await app.db.selectFrom('sys_permission').select('parent_id').where('id', '=', permission.id).executeTakeFirstOrThrow();
    expect((await call(admin, 'POST', '/sys/permission/saveRolePermission', { roleId: role.envelope.result.id, permissionIds: [menu.parent_id, permission.id].filter(Boolean).join(','), lastpermissionIds: '' })).envelope.success).toBe(true);
    await createTestUser(app, 'visitorreader', { roles: ['visitor_reader'] });
    const reader = await login(app, 'visitorreader', USER_PASSWORD);
    const number = residentId(31);
    const added = await call<{ id: string }>(admin, 'POST', crudPath(visitorEntity, 'add'), { ...cases[0]!.sample(31), idType: IdType.resident, idCard: number });
    const detail = await call<Row>(reader, 'GET', `${crudPath(visitorEntity, 'queryById')}?id=${added.envelope.result.id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.envelope.result.idCard).toBe(maskCardNo(number));
  });

  it('lets a visitor register with a passport, checked as a passport, in every language', async () => {
    const body = { name: 'Traveller', phone: '13712340000', password: '246810', confirmPassword: '246810', category: 'general' };
    for (const lang of LANGUAGES) {
      const refused = await injectAs(app, null, { method: 'POST', url: api(app, VisitorPath.register), payload: { ...body, idType: IdType.passport, idCard: 'P-1' }, headers: { lang } });
      expect(refused.envelope).toMatchObject({ success: false, message: translate(lang, 'visitor.passportInvalid') });
      // a passport number is no resident ID card
      const resident = await injectAs(app, null, { method: 'POST', url: api(app, VisitorPath.register), payload: { ...body, idCard: 'P12345678' }, headers: { lang } });
      expect(resident.envelope).toMatchObject({ success: false, message: translate(lang, 'visitor.idCardInvalid') });
    }
    const done = await injectAs(app, null, { method: 'POST', url: api(app, VisitorPath.register), payload: { ...body, idType: IdType.passport, idCard: 'p12345678' } });
    expect(done.envelope.success).toBe(true);
    const row = await app.db.selectFrom('sys_visitor').select(['id_type', 'id_card']).where('phone', '=', body.phone).executeTakeFirstOrThrow();
    expect(row).toEqual({ id_type: IdType.passport, id_card: 'P12345678' });
  });
});
