import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, crudPath, entityLabel, positionEntity as position, translate, type ImportReport, type Page } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { createRoleWith, sheetRows, uploadFile, workbookOf } from '../../test/crud-helpers.ts';
import { USER_PASSWORD, adminToken, api, buildTestApp, createTestUser, injectAs, login, testDialects, type TestApp } from '../../test/harness.ts';

const dialects = await testDialects();
type Row = Record<string, unknown>;

describe.each(dialects)('CRUD engine on %s (positions)', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  const list = async (query: string, token = admin) => injectAs<Page<Row>>(app, token, { method: 'GET', url: `${api(app, crudPath(position, 'list'))}?${query}`, headers: { lang: 'en-US' } });
  const codes = async (query: string) => (await list(query)).envelope.result.records.map((r) => r.code);
  const count = async () => Number((await app.db.selectFrom('sys_position').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const add = (payload: Row, lang = 'en-US', token = admin) => injectAs(app, token, { method: 'POST', url: api(app, crudPath(position, 'add')), payload, headers: { lang } });

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
    const names = ['Alice desk', 'Bob desk', 'Carol office', 'Dan office', 'Eve lab', 'Frank lab', 'Grace 50%_off', 'Heidi', 'Ivan', 'Judy', 'Mallory', 'Oscar'];
    for (const [i, name] of names.entries()) {
      const answer = await add({ code: `P${String(i + 1).padStart(2, '0')}`, name, postRank: String((i % 3) + 1) });
      expect(answer.envelope.success, answer.envelope.message).toBe(true);
      t.clock.advance(1000);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('pages with totals and dictionary texts', async () => {
    const answer = await list('pageNo=2&pageSize=5&column=code&order=asc');
    expect(answer.envelope.result).toMatchObject({ total: 12, size: 5, current: 2, pages: 3 });
    expect(answer.envelope.result.records.map((r) => r.code)).toEqual(['P06', 'P07', 'P08', 'P09', 'P10']);
    expect(answer.envelope.result.records[0]).toMatchObject({ postRank: '3', postRank_dictText: 'Manager', createBy: 'admin' });
    expect((await list('pageSize=100000')).envelope.result.size).toBe(1000);
    expect((await list('pageNo=-1&pageSize=abc')).envelope.result).toMatchObject({ current: 1, size: 10 });
  });

  it('filters with every syntax', async () => {
    expect(await codes('name=*office*&column=code&order=asc')).toEqual(['P03', 'P04']);
    expect(await codes('name=office&column=code&order=asc')).toEqual(['P03', 'P04']);
    expect(await codes('code=P1*&column=code&order=asc')).toEqual(['P10', 'P11', 'P12']);
    expect(await codes('code=P01,P03,zz&column=code&order=asc')).toEqual(['P01', 'P03']);
    expect((await list('code=!P01')).envelope.result.total).toBe(11);
    expect(await codes('postRank=2&column=code&order=asc')).toEqual(['P02', 'P05', 'P08', 'P11']);
    // LIKE wildcards in a value are literal characters
    expect(await codes('name=*50%_*')).toEqual(['P07']);
    expect((await list('name=*%*')).envelope.result.total).toBe(1);
    const all = (await list('column=createTime&order=asc&pageSize=20')).envelope.result.records;
    const from = String(all[2]?.createTime);
    const to = String(all[4]?.createTime);
    expect(await codes(`createTime_begin=${encodeURIComponent(from)}&createTime_end=${encodeURIComponent(to)}&column=code&order=asc`)).toEqual(['P03', 'P04', 'P05']);
  });

  it('runs the super query with and / or', async () => {
    const q = (conditions: unknown[], type: string) => `superQueryParams=${encodeURIComponent(JSON.stringify(conditions))}&superQueryMatchType=${type}&column=code&order=asc&pageSize=50`;
    expect(await codes(q([{ field: 'postRank', rule: 'eq', val: '2' }, { field: 'name', rule: 'like', val: 'LAB' }], 'and'))).toEqual(['P05']);
    expect(await codes(q([{ field: 'code', rule: 'eq', val: 'P01' }, { field: 'code', rule: 'eq', val: 'P02' }], 'or'))).toEqual(['P01', 'P02']);
    expect(await codes(q([{ field: 'code', rule: 'eq', val: 'P01' }, { field: 'code', rule: 'eq', val: 'P02' }], 'and'))).toEqual([]);
    expect(await codes(q([{ field: 'code', rule: 'in', val: 'P01,P05' }], 'and'))).toEqual(['P01', 'P05']);
    expect(await codes(q([{ field: 'code', rule: 'not_in', val: 'P01,P05' }, { field: 'code', rule: 'le', val: 'P04' }], 'and'))).toEqual(['P02', 'P03', 'P04']);
    expect(await codes(q([{ field: 'code', rule: 'gt', val: 'P10' }], 'and'))).toEqual(['P11', 'P12']);
    expect((await list(q([{ field: 'name', rule: 'not_empty' }], 'and'))).envelope.result.total).toBe(12);
    expect((await list(q([{ field: 'name', rule: 'empty' }], 'and'))).envelope.result.total).toBe(0);
    expect((await list('superQueryParams=not-json')).statusCode).toBe(400);
  });

  it('sorts only by whitelisted fields', async () => {
    expect(await codes('column=code&order=desc&pageSize=3')).toEqual(['P12', 'P11', 'P10']);
    const fallback = await codes('pageSize=3');
    for (const column of ['password', 'tenant_id', 'code desc, (select 1)', 'code;drop table sys_position', '1']) {
      const answer = await list(`column=${encodeURIComponent(column)}&order=asc&pageSize=3`);
      expect(answer.statusCode).toBe(200);
      expect(answer.envelope.result.records.map((r) => r.code)).toEqual(fallback);
    }
    expect((await list(`column=code&order=${encodeURIComponent('asc; drop table sys_position')}`)).statusCode).toBe(200);
  });

  it('never executes injection payloads', async () => {
    const payloads = ["' or '1'='1", "P01' --", '1; drop table sys_position', "') or 1=1 --", '*\' or 1=1 --*'];
    for (const payload of payloads) {
      const value = encodeURIComponent(payload);
      expect((await list(`code=${value}`)).envelope.result.total).toBe(0);
      expect((await list(`name=${value}&postRank=${value}`)).statusCode).toBe(200);
      expect((await list(`createTime_begin=${value}`)).statusCode).toBe(400);
      const sq = encodeURIComponent(JSON.stringify([{ field: payload, rule: 'eq', val: 'x' }, { field: 'code', rule: 'eq', val: payload }, { field: 'code', rule: 'in', val: payload }]));
      expect((await list(`superQueryParams=${sq}&superQueryMatchType=${value}`)).envelope.result.total).toBe(0);
      const byId = await injectAs(app, admin, { method: 'GET', url: `${api(app, crudPath(position, 'queryById'))}?id=${value}` });
      expect(byId.statusCode).toBe(400);
      const batch = await injectAs(app, admin, { method: 'DELETE', url: `${api(app, crudPath(position, 'deleteBatch'))}?ids=${value}` });
      expect(batch.statusCode).toBe(400);
      const dup = await injectAs(app, admin, { method: 'GET', url: `${api(app, '/sys/duplicate/check')}?tableName=${value}&fieldName=${value}&fieldVal=x` });
      expect(dup.envelope).toMatchObject({ success: false, code: 500 });
    }
    // an unregistered table or a non-unique field is refused, not looked up
    for (const [table, fieldName] of [['sys_user', 'password'], ['sys_position', 'name'], ['sys_user_token', 'token_hash']]) {
      const dup = await injectAs(app, admin, { method: 'GET', url: `${api(app, '/sys/duplicate/check')}?tableName=${table}&fieldName=${fieldName}&fieldVal=x`, headers: { lang: 'en-US' } });
      expect(dup.envelope).toMatchObject({ success: false, code: 500, message: translate('en-US', 'duplicate.unsupported') });
    }
    expect(await count()).toBe(12);
  });

  it('answers the duplicate check for registered unique fields', async () => {
    const check = (val: string, dataId = '') => injectAs(app, admin, { method: 'GET', url: `${api(app, '/sys/duplicate/check')}?tableName=sys_position&fieldName=code&fieldVal=${val}&dataId=${dataId}`, headers: { lang: 'en-US' } });
    expect((await check('P01')).envelope).toMatchObject({ success: false, message: translate('en-US', 'duplicate.positionCode') });
    expect((await check('NEW')).envelope.success).toBe(true);
    expect((await check('')).envelope.success).toBe(true);
    const p01 = (await list('code=P01')).envelope.result.records[0];
    expect((await check('P01', String(p01?.id))).envelope.success).toBe(true);
  });

  it('refuses duplicates with the spec message in three languages', async () => {
    for (const lang of LANGUAGES) {
      const answer = await add({ code: 'P01', name: 'Again', postRank: '1' }, lang);
      expect(answer.statusCode).toBe(200);
      expect(answer.envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'duplicate.positionCode') });
    }
    const other = (await list('code=P02')).envelope.result.records[0];
    const edit = await injectAs(app, admin, { method: 'PUT', url: api(app, crudPath(position, 'edit')), payload: { id: other?.id, code: 'P01' }, headers: { lang: 'zh-CN' } });
    expect(edit.envelope).toMatchObject({ success: false, message: '职务编码已存在！' });
    expect(await count()).toBe(12);
  });

  it('answers invalid input with a localised 400', async () => {
    for (const lang of LANGUAGES) {
      const missing = await add({ code: 'X1', postRank: '1' }, lang);
      expect(missing.statusCode).toBe(400);
      expect(missing.envelope).toMatchObject({ success: false, code: 400, message: translate(lang, 'validation.required', { field: entityLabel(lang, 'position.field.name') }) });
    }
    const long = await add({ code: 'X'.repeat(65), name: 'n', postRank: '1' });
    expect(long.envelope.message).toBe(translate('en-US', 'validation.tooLong', { field: 'Position code', max: 64 }));
    const chinese = await add({ code: '编码', name: 'n', postRank: '1' });
    expect(chinese.envelope.message).toBe(translate('en-US', 'validation.noChinese', { field: 'Position code' }));
    const emptied = await injectAs(app, admin, { method: 'PUT', url: api(app, crudPath(position, 'edit')), payload: { id: (await list('code=P03')).envelope.result.records[0]?.id, name: '' }, headers: { lang: 'en-US' } });
    expect(emptied.statusCode).toBe(400);
    expect(await count()).toBe(12);
  });

  it('edits, writes the audit columns and the operation log', async () => {
    const row = (await list('code=P03')).envelope.result.records[0] as Row;
    const answer = await injectAs(app, admin, { method: 'PUT', url: api(app, crudPath(position, 'edit')), payload: { id: row.id, name: 'Carol suite', tenantId: 'hijack', createBy: 'x' } });
    expect(answer.envelope.success).toBe(true);
    const again = await injectAs<Row>(app, admin, { method: 'GET', url: `${api(app, crudPath(position, 'queryById'))}?id=${String(row.id)}` });
    expect(again.envelope.result).toMatchObject({ name: 'Carol suite', code: 'P03', createBy: 'admin', updateBy: 'admin' });
    const logs = await app.db.selectFrom('sys_log').selectAll().where('log_type', '=', 2).execute();
    // an entry keeps its message key and parameters, and the English text for clients that do not render it
    const keyOf = (l: { log_params: string | null }) => (JSON.parse(l.log_params ?? '{}') as { key?: string }).key;
    expect(logs.some((l) => keyOf(l) === 'log.edited' && l.content === `Positions: edited ${String(row.id)}` && Number(l.cost_time) >= 0 && l.username === 'admin')).toBe(true);
    expect(logs.filter((l) => keyOf(l) === 'log.added').length).toBe(12);
  });

  it('gives a user with list permission only 403/510 for every change', async () => {
    await createRoleWith(app, 'position_reader', ['system:position:list']);
    await createTestUser(app, 'reader', { roles: ['position_reader'] });
    const reader = await login(app, 'reader', USER_PASSWORD);
    expect((await list('', reader)).envelope.result.total).toBe(12);
    const id = (await list('code=P01')).envelope.result.records[0]?.id as string;
    const attempts = [
      injectAs(app, reader, { method: 'POST', url: api(app, crudPath(position, 'add')), payload: { code: 'R1', name: 'r', postRank: '1' } }),
      injectAs(app, reader, { method: 'PUT', url: api(app, crudPath(position, 'edit')), payload: { id, name: 'r' } }),
      injectAs(app, reader, { method: 'DELETE', url: `${api(app, crudPath(position, 'delete'))}?id=${id}` }),
      injectAs(app, reader, { method: 'DELETE', url: `${api(app, crudPath(position, 'deleteBatch'))}?ids=${id}` }),
      injectAs(app, reader, { method: 'GET', url: api(app, crudPath(position, 'exportXls')) }),
      uploadFile(app, reader, crudPath(position, 'importExcel'), await workbookOf(['Position code'], [['R2']])),
    ];
    for (const answer of await Promise.all(attempts)) {
      expect(answer.statusCode).toBe(403);
      expect(answer.envelope.code).toBe(510);
    }
    expect(await count()).toBe(12);
  });

  it('exports a real xlsx that imports back', async () => {
    const exported = await injectAs(app, admin, { method: 'GET', url: `${api(app, crudPath(position, 'exportXls'))}?code=P0*`, headers: { lang: 'ja-JP' } });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('spreadsheetml');
    const rows = await sheetRows(exported.rawPayload);
    expect(rows[0]?.slice(0, 3)).toEqual(['役職コード', '役職名', '職級']);
    expect(rows.length).toBe(10);
    const ids = (await list('code=P0*&pageSize=50')).envelope.result.records.map((r) => r.id);
    const removed = await injectAs(app, admin, { method: 'DELETE', url: `${api(app, crudPath(position, 'deleteBatch'))}?ids=${ids.join(',')}` });
    expect(removed.envelope.success).toBe(true);
    expect(await count()).toBe(3);
    const imported = await uploadFile(app, admin, crudPath(position, 'importExcel'), exported.rawPayload);
    const report = imported.envelope.result as ImportReport;
    expect(report).toMatchObject({ total: 9, added: 9, failed: 0 });
    expect(await count()).toBe(12);
    expect((await list('code=P02')).envelope.result.records[0]).toMatchObject({ name: 'Bob desk', postRank: '2' });
  });

  it('imports good rows and reports bad ones row by row', async () => {
    const file = await workbookOf(
      ['Position code', '职务名称', 'Rank'],
      [
        ['N01', 'New one', 'Staff'],
        ['N02', '', '1'],
        ['P01', 'Duplicate', '1'],
        ['N03', 'x'.repeat(101), '1'],
        ['N04', 'New four', '2'],
        ['N04', 'Duplicate in file', '2'],
      ],
    );
    const answer = await uploadFile(app, admin, crudPath(position, 'importExcel'), file, 'en-US');
    const report = answer.envelope.result as ImportReport;
    expect(answer.envelope.message).toBe(translate('en-US', 'crud.importDone', { added: 2, failed: 4 }));
    expect(report.rows).toEqual([
      { row: 2, success: true, id: expect.any(String) },
      { row: 3, success: false, message: translate('en-US', 'validation.required', { field: 'Position name' }) },
      { row: 4, success: false, message: translate('en-US', 'duplicate.positionCode') },
      { row: 5, success: false, message: translate('en-US', 'validation.tooLong', { field: 'Position name', max: 100 }) },
      { row: 6, success: true, id: expect.any(String) },
      { row: 7, success: false, message: translate('en-US', 'duplicate.positionCode') },
    ]);
    expect((await list('code=N01')).envelope.result.records[0]).toMatchObject({ postRank: '1' });
    expect(await count()).toBe(14);
    const garbage = await uploadFile(app, admin, crudPath(position, 'importExcel'), Buffer.from('not a workbook'));
    expect(garbage.envelope).toMatchObject({ success: false, code: 500 });
    expect(await count()).toBe(14);
  });

  it('deletes one and refuses unknown ids', async () => {
    const id = (await list('code=N01')).envelope.result.records[0]?.id as string;
    expect((await injectAs(app, admin, { method: 'DELETE', url: `${api(app, crudPath(position, 'delete'))}?id=${id}` })).envelope.success).toBe(true);
    expect((await injectAs(app, admin, { method: 'DELETE', url: `${api(app, crudPath(position, 'delete'))}?id=${id}` })).statusCode).toBe(404);
    expect((await injectAs(app, admin, { method: 'DELETE', url: `${api(app, crudPath(position, 'deleteBatch'))}?ids=` })).envelope).toMatchObject({ success: false, code: 500 });
    expect(await count()).toBe(13);
  });
});
