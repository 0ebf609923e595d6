import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TENANT_HEADER,
  ApiPath,
  addressBookEntity,
  categoryEntity,
  checkRuleEntity,
  crudPath,
  dataSourceEntity,
  departEntity,
  dictEntity,
  dictItemEntity,
  dictItemsPath,
  entityLabel,
  entityPermissionCodes,
  fillRuleEntity,
  positionEntity,
  tenantEntity,
  translate,
  userEntity,
  vendorEntity,
  type DictOption,
  type EntityDeclaration,
  type Page,
  type TreeRow,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { createRoleWith, sheetRows } from '../../test/crud-helpers.ts';
import { MYSQL_URL, POSTGRES_URL, USER_PASSWORD, adminToken, api, buildTestApp, createTestUser, injectAs, login, testDialects, type TestApp } from '../../test/harness.ts';

const dialects = await testDialects();
type Row = Record<string, unknown>;

describe.each(dialects)('system entities on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  const call = <T = Row>(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown, lang = 'en-US') =>
    injectAs<T>(app, token, { method, url: api(app, path), ...(payload === undefined ? {} : { payload: payload as Row }), headers: { lang } });
  const add = (entity: EntityDeclaration, payload: Row, token = admin, lang = 'en-US') => call<{ id: string }>(token, 'POST', crudPath(entity, 'add'), payload, lang);
  const list = (entity: EntityDeclaration, token = admin, query = '') => call<Page<Row>>(token, 'GET', `${crudPath(entity, 'list')}?pageSize=100&${query}`);

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await t.close();
  });

  it('keeps each tenant to its own rows in every tenant-scoped entity', async () => {
    const tenantA = (await add(tenantEntity, { name: 'Tenant A', code: 'ta', status: 1 })).envelope.result.id;
    const tenantB = (await add(tenantEntity, { name: 'Tenant B', code: 'tb', status: 1 })).envelope.result.id;
    const scoped = [positionEntity, vendorEntity, categoryEntity, addressBookEntity];
    await createRoleWith(app, 'tenant_admin', scoped.flatMap(entityPermissionCodes));
    await createTestUser(app, 'alice', { roles: ['tenant_admin'], tenantId: tenantA });
    await createTestUser(app, 'bob', { roles: ['tenant_admin'], tenantId: tenantB });
    const tokens = { A: await login(app, 'alice', USER_PASSWORD), B: await login(app, 'bob', USER_PASSWORD) };
    for (const [name, token] of Object.entries(tokens)) {
      expect((await add(positionEntity, { code: `POS-${name}`, name: `Position ${name}`, postRank: '1' }, token)).envelope.success).toBe(true);
      expect((await add(vendorEntity, { tradeName: `Vendor ${name}`, gatherOffset: 5 }, token)).envelope.success).toBe(true);
      expect((await add(categoryEntity, { name: `Category ${name}`, code: `C-${name}` }, token)).envelope.success).toBe(true);
      // the same code in another tenant is not a duplicate
      expect((await add(positionEntity, { code: 'SHARED', name: 'Shared', postRank: '1' }, token)).envelope.success).toBe(true);
    }
    for (const [name, token] of Object.entries(tokens)) {
      const other = name === 'A' ? 'B' : 'A';
      const otherToken = name === 'A' ? tokens.B : tokens.A;
      for (const entity of scoped) {
        const own = (await list(entity, token)).envelope.result.records;
        expect(own.length, `${entity.name} of ${name}`).toBeGreaterThan(0);
        const labelField = entity.labelField;
        expect(own.every((r) => !String(r[labelField]).endsWith(` ${other}`) && r.username !== (other === 'A' ? 'alice' : 'bob'))).toBe(true);
        const foreign = (await list(entity, otherToken)).envelope.result.records[0] as Row;
        const byId = await call(token, 'GET', `${crudPath(entity, 'queryById')}?id=${String(foreign.id)}`);
        expect(byId.statusCode, `${entity.name} queryById across tenants`).toBe(404);
        const exported = await injectAs(app, token, { method: 'GET', url: api(app, crudPath(entity, 'exportXls')), headers: { lang: 'en-US' } });
        expect((await sheetRows(exported.rawPayload)).length - 1).toBe(own.length);
        if (entity.actions?.includes('edit') === false) continue;
        expect((await call(token, 'PUT', crudPath(entity, 'edit'), { id: foreign.id, [labelField]: 'stolen' })).statusCode).toBe(404);
        expect((await call(token, 'DELETE', `${crudPath(entity, 'delete')}?id=${String(foreign.id)}`)).statusCode).toBe(404);
      }
    }
    // the system administrator sees his own tenant's rows, and another's only when he names it
    const codesIn = async (tenantId?: string) =>
      (await injectAs<Page<Row>>(app, admin, { method: 'GET', url: api(app, `${crudPath(positionEntity, 'list')}?pageSize=100`), headers: tenantId ? { [TENANT_HEADER]: tenantId } : {} })).envelope.result.records.map((r) => r.code);
    expect(await codesIn()).not.toEqual(expect.arrayContaining(['POS-A']));
    expect(await codesIn(tenantA)).toEqual(expect.arrayContaining(['POS-A']));
    expect(await codesIn(tenantA)).not.toContain('POS-B');
    expect(await codesIn(tenantB)).toEqual(expect.arrayContaining(['POS-B']));
  });

  it('lists the address book with group names and finds a group\'s people by the group', async () => {
    const group = (await add(departEntity, { departName: 'Harbour office', departOrder: 0 })).envelope.result.id;
    const other = (await add(departEntity, { departName: 'Depot', departOrder: 1 })).envelope.result.id;
    for (const [username, departs] of [['harbour1', group], ['harbour2', `${group},${other}`], ['depot1', other]] as const) {
      const added = await add(userEntity, { username, realname: username, password: USER_PASSWORD, selecteddeparts: departs });
      expect(added.envelope.success, added.envelope.message).toBe(true);
    }
    const rows = (await list(addressBookEntity, admin, `departs=${group}`)).envelope.result.records;
    expect(rows.map((r) => r.username).sort()).toEqual(['harbour1', 'harbour2']);
    expect(rows.find((r) => r.username === 'harbour2')?.departs_dictText).toBe('Depot, Harbour office');
  });

  it('keeps tenant times in order and codes unique', async () => {
    const wrong = await add(tenantEntity, { name: 'T', code: 'tc', status: 1, beginDate: '2025-02-01 00:00:00', endDate: '2025-01-01 00:00:00' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.envelope.message).toBe(translate('en-US', 'validation.endBeforeStart'));
    const dup = await add(tenantEntity, { name: 'T', code: 'default', status: 1 }, admin, 'ja-JP');
    expect(dup.envelope).toMatchObject({ success: false, code: 500, message: 'テナントコードは既に存在します！' });
  });

  it("keeps a group's fax number and refuses one that is not a number, in the reader's language", async () => {
    const group = (await add(departEntity, { departName: 'Fax office', departOrder: 0, fax: '+86 (10) 6552-9988' })).envelope.result.id;
    const rows = (await list(departEntity, admin, 'departName=Fax office')).envelope.result.records;
    expect(rows.find((r) => r.id === group)?.fax).toBe('+86 (10) 6552-9988');
    for (const lang of ['en-US', 'zh-CN', 'ja-JP'] as const) {
      const wrong = await add(departEntity, { departName: 'No fax', departOrder: 0, fax: 'fax me' }, admin, lang);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.envelope.message).toBe(translate(lang, 'validation.fax', { field: entityLabel(lang, 'depart.field.fax') }));
    }
  });

  it('builds the category tree and refuses deleting a parent', async () => {
    const root = (await add(categoryEntity, { name: 'Root', code: 'R' })).envelope.result.id;
    const child = (await add(categoryEntity, { name: 'Child', code: 'R01', pid: root })).envelope.result.id;
    expect((await add(categoryEntity, { name: 'Orphan', code: 'R02', pid: 'missing' })).statusCode).toBe(400);
    expect((await call(admin, 'PUT', crudPath(categoryEntity, 'edit'), { id: root, pid: child })).statusCode).toBe(400);
    const tree = (await call<TreeRow[]>(admin, 'GET', crudPath(categoryEntity, 'queryTreeList'))).envelope.result;
    const node = tree.find((n) => n.id === root);
    expect(node?.children?.map((c) => c.title)).toEqual(['Child']);
    expect((await call(admin, 'DELETE', `${crudPath(categoryEntity, 'delete')}?id=${root}`)).envelope).toMatchObject({ success: false, message: translate('en-US', 'crud.hasChildren') });
  });

  it('refreshes the dictionary cache on every change and keeps deleted dictionaries in the recycle bin', async () => {
    const dictId = (await add(dictEntity, { dictName: 'Colours', dictCode: 'colour' })).envelope.result.id;
    expect((await call<DictOption[]>(admin, 'GET', dictItemsPath('colour'))).envelope.result).toEqual([]);
    const itemId = (await add(dictItemEntity, { dictId, itemText: 'Red', itemValue: 'r', sortOrder: 1 })).envelope.result.id;
    expect((await call<DictOption[]>(admin, 'GET', dictItemsPath('colour'))).envelope.result.map((o) => o.text)).toEqual(['Red']);
    expect((await add(dictItemEntity, { dictId, itemText: 'Rose', itemValue: 'r' })).envelope.message).toBe(translate('en-US', 'duplicate.dictItemValue'));
    await call(admin, 'PUT', crudPath(dictItemEntity, 'edit'), { id: itemId, itemText: 'Crimson' });
    expect((await call<DictOption[]>(admin, 'GET', dictItemsPath('colour'))).envelope.result.map((o) => o.text)).toEqual(['Crimson']);
    expect((await add(dictEntity, { dictName: 'Again', dictCode: 'colour' })).envelope.message).toBe(translate('en-US', 'duplicate.dictCode'));
    expect((await call(admin, 'DELETE', `${crudPath(dictEntity, 'delete')}?id=${dictId}`)).envelope.success).toBe(true);
    expect((await call<DictOption[]>(admin, 'GET', dictItemsPath('colour'))).envelope.result).toEqual([]);
    const bin = (await call<Page<Row>>(admin, 'GET', crudPath(dictEntity, 'recycleBin'))).envelope.result.records;
    expect(bin.map((r) => r.dictCode)).toEqual(['colour']);
    // the deleted dictionary still holds its code: adding it again says where it is, and the duplicate check agrees
    for (const lang of ['en-US', 'zh-CN', 'ja-JP'] as const) {
      const again = await add(dictEntity, { dictName: 'Colours 2', dictCode: 'colour' }, admin, lang);
      expect(again.envelope.message).toBe(translate(lang, 'crud.duplicateInRecycleBin', { message: translate(lang, 'duplicate.dictCode') }));
    }
    const checked = await call(admin, 'GET', `${ApiPath.duplicateCheck}?tableName=sys_dict&fieldName=dict_code&fieldVal=colour`);
    expect(checked.envelope.message).toBe(translate('en-US', 'crud.duplicateInRecycleBin', { message: translate('en-US', 'duplicate.dictCode') }));
    expect((await call(admin, 'PUT', crudPath(dictEntity, 'putRecycleBin'), { ids: dictId })).envelope.success).toBe(true);
    expect((await call<DictOption[]>(admin, 'GET', dictItemsPath('colour'))).envelope.result.map((o) => o.text)).toEqual(['Crimson']);
    expect((await call(admin, 'GET', ApiPath.dictRefreshCache)).envelope.success).toBe(true);
  });

  it('validates and runs check rules', async () => {
    const rules = {
      localRules: [
        { digits: 2, pattern: '[A-Z]+', message: 'Start with two capitals', priority: 2 },
        { digits: 3, pattern: '\\d+', message: 'Then three digits', priority: 3 },
      ],
      globalRules: [{ pattern: '.{5,8}', message: '5 to 8 characters', priority: 1 }],
    };
    expect((await add(checkRuleEntity, { ruleName: 'Badge', ruleCode: 'badge', ruleJson: JSON.stringify(rules) })).envelope.success).toBe(true);
    const check = (value: string, code = 'badge') => call(admin, 'GET', `${ApiPath.checkRuleByCode}?ruleCode=${code}&value=${encodeURIComponent(value)}`);
    expect((await check('AB123')).envelope.success).toBe(true);
    expect((await check('AB123x')).envelope.success).toBe(true);
    expect((await check('ab123')).envelope).toMatchObject({ success: false, message: 'Start with two capitals' });
    expect((await check('ABX23')).envelope).toMatchObject({ success: false, message: 'Then three digits' });
    // the global rule has the higher priority (1) and is checked first
    expect((await check('ab1')).envelope).toMatchObject({ success: false, message: '5 to 8 characters' });
    expect((await check('')).envelope.success).toBe(true);
    expect((await call(admin, 'GET', `${ApiPath.checkRuleByCode}?value=x`)).envelope.success).toBe(true);
    expect((await check('AB123', 'nope')).envelope).toMatchObject({ success: false, code: 500 });
    const bad = async (ruleJson: string) => (await add(checkRuleEntity, { ruleName: 'Bad', ruleCode: `bad${Math.random()}`, ruleJson })).envelope;
    expect(await bad('[1]')).toMatchObject({ code: 400, message: translate('en-US', 'validation.jsonNotObject', { field: 'Rules' }) });
    expect(await bad('{oops')).toMatchObject({ code: 400, message: translate('en-US', 'validation.illegalJson', { field: 'Rules' }) });
    expect(await bad('{}')).toMatchObject({ code: 400, message: translate('en-US', 'validation.checkRuleEmpty', { field: 'Rules' }) });
    expect(await bad(JSON.stringify({ localRules: [{ digits: 0, pattern: 'a', message: 'm', priority: 1 }] }))).toMatchObject({ code: 400, message: translate('en-US', 'validation.positiveInteger', { field: 'Rules' }) });
    expect(await bad(JSON.stringify({ globalRules: [{ pattern: '([', message: 'm', priority: 1 }] }))).toMatchObject({ code: 400, message: translate('en-US', 'validation.regex', { field: 'Rules' }) });
    expect((await add(checkRuleEntity, { ruleName: 'B', ruleCode: 'badge', ruleJson: JSON.stringify(rules) })).envelope.message).toBe(translate('en-US', 'duplicate.ruleCode'));
  });

  it('generates codes with fill rules whose params are a JSON object', async () => {
    const arrayParams = await add(fillRuleEntity, { ruleName: 'Orders', ruleCode: 'order', ruleClass: 'datedSerial', ruleParams: '[1,2]' }, admin, 'zh-CN');
    expect(arrayParams.envelope).toMatchObject({ code: 400, message: translate('zh-CN', 'validation.jsonNotObject', { field: '规则参数' }) });
    expect((await add(fillRuleEntity, { ruleName: 'Orders', ruleCode: 'order', ruleClass: 'datedSerial', ruleParams: 'nope' })).envelope.message).toBe(translate('en-US', 'validation.illegalJson', { field: 'Parameters' }));
    expect((await add(fillRuleEntity, { ruleName: 'Orders', ruleCode: 'order', ruleClass: 'java.lang.Runtime' })).statusCode).toBe(400);
    expect((await add(fillRuleEntity, { ruleName: 'Orders', ruleCode: 'order', ruleClass: 'datedSerial', ruleParams: '{"digits": 99}' })).statusCode).toBe(400);
    expect((await add(fillRuleEntity, { ruleName: 'Orders', ruleCode: 'order', ruleClass: 'datedSerial', ruleParams: '{"prefix": "SO", "digits": 3}' })).envelope.success).toBe(true);
    const value = (await call<string>(admin, 'GET', ApiPath.fillRuleExecute.replace(':code', 'order'))).envelope.result;
    expect(value).toMatch(/^SO\d{8}\d{3}$/);
    expect((await call(admin, 'GET', ApiPath.fillRuleExecute.replace(':code', 'none'))).envelope.success).toBe(false);
  });

  it('stores data-source passwords encrypted, never returns them, and really tests connections', async () => {
    expect((await add(dataSourceEntity, { name: 'x', code: '1abc', dbType: 'postgresql', dbUrl: 'h', dbUsername: 'u' })).envelope.message).toBe(
      translate('en-US', 'validation.dataSourceCode', { field: 'Data source code' }),
    );
    const pgUrl = new URL(POSTGRES_URL);
    const created = await add(dataSourceEntity, { name: 'Reports', code: 'reports_1', dbType: 'postgresql', dbUrl: `jdbc:postgresql://${pgUrl.hostname}:${pgUrl.port || 5432}/test`, dbUsername: decodeURIComponent(pgUrl.username), dbPassword: 'S3cret!pw' });
    expect(created.envelope.success).toBe(true);
    const id = created.envelope.result.id;
    const stored = await app.db.selectFrom('sys_data_source').select('db_password').where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.db_password).not.toContain('S3cret');
    expect(app.secretBox.decrypt(String(stored.db_password))).toBe('S3cret!pw');
    const shown = [(await list(dataSourceEntity)).body, (await call(admin, 'GET', `${crudPath(dataSourceEntity, 'queryById')}?id=${id}`)).body];
    for (const body of shown) {
      expect(body).not.toContain('S3cret');
      expect(body).not.toContain('dbPassword');
    }
    await call(admin, 'PUT', crudPath(dataSourceEntity, 'edit'), { id, name: 'Reports 2', dbPassword: '' });
    const kept = await app.db.selectFrom('sys_data_source').select('db_password').where('id', '=', id).executeTakeFirstOrThrow();
    expect(kept.db_password).toBe(stored.db_password);

    if (dialect !== 'sqlite') return;
    const test = (body: Row) => call(admin, 'POST', ApiPath.dataSourceTest, body);
    const my = new URL(MYSQL_URL);
    expect((await test({ dbType: 'postgresql', dbUrl: `${pgUrl.hostname}:${pgUrl.port || 5432}`, dbName: 'test', dbUsername: decodeURIComponent(pgUrl.username) })).envelope).toMatchObject({ success: true, message: translate('en-US', 'dataSource.connectionSuccess') });
    expect((await test({ dbType: 'mariadb', dbUrl: `jdbc:mysql://${my.hostname}:${my.port || 3306}`, dbUsername: decodeURIComponent(my.username) })).envelope).toMatchObject({ success: true });
    const closed = await test({ dbType: 'postgresql', dbUrl: '127.0.0.1:1', dbUsername: 'postgres' });
    expect(closed.envelope).toMatchObject({ success: false, code: 500 });
    expect(closed.envelope.message).toContain(translate('en-US', 'dataSource.connectionFailed', { reason: '' }).trim());
    expect((await test({ dbType: 'mysql', dbUrl: '127.0.0.1:1', dbUsername: 'root' })).envelope.success).toBe(false);
    expect((await test({ dbType: 'oracle', dbUrl: '127.0.0.1:1', dbUsername: 'root' })).envelope.success).toBe(false);
  });
});
