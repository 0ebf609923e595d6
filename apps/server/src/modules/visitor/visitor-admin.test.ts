import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, VisitorAdminPath, maskCardNo, entityLabel, VisitorPath, crudPath, translate, visitorEntity, withIdCheck, type Page, type VisitorLoginResult } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { createRoleWith } from '../../test/crud-helpers.ts';
import { adminToken, api, buildTestApp, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

/** A legal resident ID card number of a sequence number. */
const idCard = (sequence: number): string => withIdCheck(`11010519850214${String(sequence).padStart(3, '0')}`);

type Row = Record<string, unknown> & { id: string };

describe.each(await testDialects())('visitor screen on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  const call = <T = unknown>(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: Record<string, unknown>, lang = 'en-US') =>
    injectAs<T>(app, token, { method, url: api(app, path), payload, headers: { lang } });
  const visitor = { name: 'Li Na', idCard: idCard(11), phone: '13700000011', category: 'contractor', password: '135790' };

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('adds visitors with the spec rules: legal ID card, 6-8 digit password, unique phone and ID card', async () => {
    for (const lang of LANGUAGES) {
      const bad = await call(admin, 'POST', crudPath(visitorEntity, 'add'), { ...visitor, idCard: '110105198502140000' }, lang);
      expect(bad.statusCode).toBe(400);
      expect(bad.envelope.message).toBe(translate(lang, 'validation.idCard', { field: entityLabel(lang, 'visitor.field.idCard') }));
      const weak = await call(admin, 'POST', crudPath(visitorEntity, 'add'), { ...visitor, password: 'abc123' }, lang);
      expect(weak.statusCode).toBe(400);
      expect(weak.envelope.message).toBe(translate(lang, 'validation.visitorPassword', { field: entityLabel(lang, 'visitor.field.password') }));
    }
    const added = await call<{ id: string }>(admin, 'POST', crudPath(visitorEntity, 'add'), { ...visitor, idCard: visitor.idCard.toLowerCase() });
    expect(added.envelope.success).toBe(true);
    for (const lang of LANGUAGES) {
      expect((await call(admin, 'POST', crudPath(visitorEntity, 'add'), { ...visitor, idCard: idCard(12) }, lang)).envelope.message).toBe(translate(lang, 'duplicate.phone'));
      expect((await call(admin, 'POST', crudPath(visitorEntity, 'add'), { ...visitor, phone: '13700000012' }, lang)).envelope.message).toBe(translate(lang, 'duplicate.idCard'));
    }
    const listed = await call<Page<Row>>(admin, 'GET', `${crudPath(visitorEntity, 'list')}?phone=*0011*`);
    expect(listed.envelope.result.records).toHaveLength(1);
    const row = listed.envelope.result.records[0]!;
    // lists show the ID number as card numbers are shown (id-types.test.ts)
    expect(row).toMatchObject({ name: 'Li Na', idCard: maskCardNo(visitor.idCard.toUpperCase()), idType: '1', status: 1, category: 'contractor' });
    expect(row).not.toHaveProperty('password');
    // the record the staff added is the one the visitor signs in with
    const signedIn = await injectAs<VisitorLoginResult>(app, null, { method: 'POST', url: api(app, VisitorPath.login), payload: { account: visitor.phone, password: visitor.password } });
    expect(signedIn.envelope.success).toBe(true);
  });

  it('freezes (ending the visitor sessions) and thaws, and asks for a selection', async () => {
    const row = (await call<Page<Row>>(admin, 'GET', `${crudPath(visitorEntity, 'list')}?name=Li*`)).envelope.result.records[0]!;
    const session = await injectAs<VisitorLoginResult>(app, null, { method: 'POST', url: api(app, VisitorPath.login), payload: { account: visitor.phone, password: visitor.password } });
    const visitorToken = session.envelope.result.token;
    expect((await injectAs(app, visitorToken, { method: 'GET', url: api(app, VisitorPath.info) })).envelope.success).toBe(true);

    const none = await call(admin, 'PUT', VisitorAdminPath.frozenBatch, { ids: '', status: 2 }, 'zh-CN');
    expect(none.envelope.message).toBe(translate('zh-CN', 'crud.selectRecord'));
    const frozen = await call(admin, 'PUT', VisitorAdminPath.frozenBatch, { ids: row.id, status: 2 }, 'ja-JP');
    expect(frozen.envelope).toMatchObject({ success: true, message: translate('ja-JP', 'visitor.frozenBatch', { count: 1 }) });
    expect((await injectAs(app, visitorToken, { method: 'GET', url: api(app, VisitorPath.info) })).statusCode).toBe(401);
    const refused = await injectAs(app, null, { method: 'POST', url: api(app, VisitorPath.login), payload: { account: visitor.phone, password: visitor.password }, headers: { lang: 'en-US' } });
    expect(refused.envelope.message).toBe(translate('en-US', 'visitor.frozen'));

    expect((await call(admin, 'PUT', VisitorAdminPath.frozenBatch, { ids: row.id, status: '1' })).envelope.success).toBe(true);
    expect((await call<Row>(admin, 'GET', `${crudPath(visitorEntity, 'queryById')}?id=${row.id}`)).envelope.result.status).toBe(1);
    expect((await call(admin, 'PUT', VisitorAdminPath.frozenBatch, { ids: "x' or 1=1 --", status: 2 })).statusCode).toBe(400);
  });

  it('keeps the stored password on an edit without one and replaces it with a new one', async () => {
    const row = (await call<Page<Row>>(admin, 'GET', `${crudPath(visitorEntity, 'list')}?name=Li*`)).envelope.result.records[0]!;
    expect((await call(admin, 'PUT', crudPath(visitorEntity, 'edit'), { id: row.id, name: 'Li Na 2', password: '' })).envelope.success).toBe(true);
    const loginWith = (password: string) => injectAs(app, null, { method: 'POST', url: api(app, VisitorPath.login), payload: { account: visitor.phone, password } });
    expect((await loginWith(visitor.password)).envelope.success).toBe(true);
    expect((await call(admin, 'PUT', crudPath(visitorEntity, 'edit'), { id: row.id, password: '24681357' })).envelope.success).toBe(true);
    expect((await loginWith(visitor.password)).envelope.success).toBe(false);
    expect((await loginWith('24681357')).envelope.success).toBe(true);
  });

  it('sends deleted visitors to the recycle bin, where they cannot sign in until restored', async () => {
    const row = (await call<Page<Row>>(admin, 'GET', `${crudPath(visitorEntity, 'list')}?name=Li*`)).envelope.result.records[0]!;
    expect((await call(admin, 'DELETE', `${crudPath(visitorEntity, 'delete')}?id=${row.id}`)).envelope.success).toBe(true);
    const loginNow = () => injectAs(app, null, { method: 'POST', url: api(app, VisitorPath.login), payload: { account: visitor.phone, password: '24681357' } });
    expect((await loginNow()).envelope.success).toBe(false);
    const bin = await call<Page<Row> | Row[]>(admin, 'GET', crudPath(visitorEntity, 'recycleBin'));
    expect(JSON.stringify(bin.envelope.result)).toContain(row.id);
    expect((await call(admin, 'PUT', crudPath(visitorEntity, 'putRecycleBin'), { ids: row.id })).envelope.success).toBe(true);
    expect((await loginNow()).envelope.success).toBe(true);
  });

  it('links a visitor to a user the staff can see, and refuses an unknown or another tenant\'s user', async () => {
    await createTestUser(app, 'visitor-host');
    const host = await app.db.selectFrom('sys_user').select('id').where('username', '=', 'visitor-host').executeTakeFirstOrThrow();
    const row = (await call<Page<Row>>(admin, 'GET', `${crudPath(visitorEntity, 'list')}?name=Li*`)).envelope.result.records[0]!;
    expect((await call(admin, 'PUT', crudPath(visitorEntity, 'edit'), { id: row.id, userId: host.id })).envelope.success).toBe(true);
    const linked = await call<Page<Row>>(admin, 'GET', `${crudPath(visitorEntity, 'list')}?userId=${host.id}`);
    expect(linked.envelope.result.records.map((r) => [r.id, r.userId])).toEqual([[row.id, host.id]]);
    // the list names the host as the user picker does, by real name
    await app.db.updateTable('sys_user').set({ realname: 'Kim Host' }).where('id', '=', host.id).execute();
    const named = await call<Page<Row>>(admin, 'GET', `${crudPath(visitorEntity, 'list')}?userId=${host.id}`);
    expect(named.envelope.result.records[0]?.userId_dictText).toBe('Kim Host');
    const session = await injectAs<VisitorLoginResult>(app, null, { method: 'POST', url: api(app, VisitorPath.login), payload: { account: visitor.phone, password: '24681357' } });
    expect(session.envelope.result.visitor.linkedUsername).toBe('visitor-host');
    const tenant = await call<{ id: string }>(admin, 'POST', '/sys/tenant/add', { name: 'Other tenant', code: 'visitor_other', status: 1 });
    await createTestUser(app, 'visitor-foreign-host', { tenantId: tenant.envelope.result.id });
    const foreign = await app.db.selectFrom('sys_user').select('id').where('username', '=', 'visitor-foreign-host').executeTakeFirstOrThrow();
    for (const lang of LANGUAGES) {
      for (const userId of [foreign.id, 'no-such-user-1']) {
        const refused = await call(admin, 'PUT', crudPath(visitorEntity, 'edit'), { id: row.id, userId }, lang);
        expect([refused.statusCode, refused.envelope.message]).toEqual([400, translate(lang, 'validation.referenceMissing', { field: entityLabel(lang, 'visitor.field.userId') })]);
      }
    }
    expect((await call<Row>(admin, 'GET', `${crudPath(visitorEntity, 'queryById')}?id=${row.id}`)).envelope.result.userId).toBe(host.id);
  });

  it('gives a user holding only the list permission 510 on every write', async () => {
    await createRoleWith(app, 'visitor_reader', ['vistor:list:list']);
    await createTestUser(app, 'visitor-reader', { roles: ['visitor_reader'] });
    const reader = await login(app, 'visitor-reader', USER_PASSWORD);
    const row = (await call<Page<Row>>(reader, 'GET', crudPath(visitorEntity, 'list'))).envelope.result.records[0]!;
    const attempts = [
      call(reader, 'POST', crudPath(visitorEntity, 'add'), { ...visitor, phone: '13700000099', idCard: idCard(99) }),
      call(reader, 'PUT', crudPath(visitorEntity, 'edit'), { id: row.id, name: 'x' }),
      call(reader, 'DELETE', `${crudPath(visitorEntity, 'delete')}?id=${row.id}`),
      call(reader, 'PUT', VisitorAdminPath.frozenBatch, { ids: row.id, status: 2 }),
      call(reader, 'GET', crudPath(visitorEntity, 'recycleBin')),
    ];
    for (const answer of await Promise.all(attempts)) expect(answer.envelope.code).toBe(510);
  });
});
