import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crudPath, positionEntity as position, type Page } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { statementsOf } from '../../test/statements.ts';
import { adminToken, api, buildTestApp, defaultTenantId, injectAs, testDialects, type TestApp } from '../../test/harness.ts';

const dialects = await testDialects();
type Row = Record<string, unknown>;

// names that try the contains filter's rules: ASCII case, LIKE wildcards and its escape character as literal text,
// quotes (FTS5 syntax), letters outside ASCII, and short texts
const NAMES = [
  'Alice desk',
  'ALICE DESK east',
  'alice',
  'Grace 50%_off',
  'Grace 50xyoff',
  'Grace 50%xoff',
  'say "hi" there',
  'a!b!c wing',
  'École Straße',
  'école strasse',
  '中文名字测试',
  'AND OR NOT NEAR',
  'col:umn * star',
  'smile 😀😀 twice',
  '',
];
// rows most of which hold the same text: more than a search index narrows to, so the page's own order is read
const COMMON = 2_100;

describe.each(dialects)('contains filters on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  let tenantId: string;
  const listPath = () => `${api(app, crudPath(position, 'list'))}`;
  const list = async (query: string) => {
    const answer = await injectAs<Page<Row>>(app, admin, { method: 'GET', url: `${listPath()}?${query}&pageSize=1000&column=code&order=asc`, headers: { lang: 'en-US' } });
    expect(answer.envelope.success, answer.envelope.message).toBe(true);
    return answer.envelope.result;
  };
  /** What the filter answered before any index: a plain LIKE over every row of the tenant, as the engine writes it. */
  const scanned = async (column: string, pattern: string) =>
    (
      await sql<{ code: string }>`select code from sys_position where tenant_id = ${tenantId} and lower(${sql.ref(column)}) like ${pattern.toLowerCase()} escape '!' order by code`.execute(app.db)
    ).rows.map((r) => r.code);
  const escaped = (text: string) => text.replace(/[!%_]/g, (c) => `!${c}`);

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
    tenantId = await defaultTenantId(app);
    const rows = [
      ...NAMES.map((name, i) => ({ code: `N${String(i).padStart(4, '0')}`, name })),
      ...Array.from({ length: COMMON }, (_, i) => ({ code: `C${String(i).padStart(5, '0')}`, name: `bulk common ${i}` })),
    ];
    for (let from = 0; from < rows.length; from += 200) {
      await app.db
        .insertInto('sys_position')
        .values(
          rows.slice(from, from + 200).map(({ code, name }, i) => ({
            id: randomUUID(),
            code,
            name: name as string,
            post_rank: '1',
            tenant_id: tenantId,
            create_by: 'admin',
            create_time: new Date(Date.UTC(2026, 0, 1) + (from + i) * 1000).toISOString(),
            update_by: null,
            update_time: null,
          })),
        )
        .execute();
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const TEXTS = ['alice', 'ALICE', 'Alice desk', 'desk', 'ce d', '50%', '50%_', '%_o', '_', '%', '!', 'a!b', 'b!c', '"hi"', '"', 'say "', 'école', 'ÉCOLE', 'straße', 'STRASSE', '文名字', '名字', 'and or', 'NEAR', 'col:', 'n * st', '😀😀', 'e 😀', 'common 20', 'common', 'bulk common 1', 'zzz', 'ab'];

  it('answers every contains text exactly as a LIKE over all the rows does', async () => {
    for (const text of TEXTS) {
      const expected = await scanned('name', `%${escaped(text)}%`);
      const answer = await list(`name=${encodeURIComponent(text)}`);
      expect(answer.records.map((r) => r.code), text).toEqual(expected.slice(0, 1000));
      expect(answer.total, text).toBe(expected.length);
      expect((await list(`name=${encodeURIComponent(`*${text}*`)}`)).total, `*${text}*`).toBe(expected.length);
    }
  });

  it('answers starts-with and ends-with texts as a LIKE does', async () => {
    for (const text of ['alice', 'ALICE D', 'Grace 50%', 'bulk common 20', 'écol', 'say "']) {
      expect((await list(`name=${encodeURIComponent(`${text}*`)}`)).records.map((r) => r.code), `${text}*`).toEqual((await scanned('name', `${escaped(text)}%`)).slice(0, 1000));
    }
    for (const text of ['desk', 'DESK EAST', '_off', 'strasse', '0 1', 'there']) {
      expect((await list(`name=${encodeURIComponent(`*${text}`)}`)).records.map((r) => r.code), `*${text}`).toEqual((await scanned('name', `%${escaped(text)}`)).slice(0, 1000));
    }
  });

  it('refuses or answers a text with a NUL character as any other filter does, never with a server error', async () => {
    const answer = await injectAs<Page<Row>>(app, admin, { method: 'GET', url: `${listPath()}?name=${encodeURIComponent('com\u0000mon')}` });
    expect(answer.statusCode).toBeLessThan(500);
  });

  it('combines two contains filters and pages a narrowed list in its order', async () => {
    const answer = await list('name=*common 20*&code=*C0*');
    expect(answer.records.map((r) => r.code)).toEqual((await scanned('name', '%common 20%')).filter((code) => code.startsWith('C0')));
    const paged = await injectAs<Page<Row>>(app, admin, { method: 'GET', url: `${listPath()}?name=common%2020&pageNo=2&pageSize=5` });
    const all = await injectAs<Page<Row>>(app, admin, { method: 'GET', url: `${listPath()}?name=common%2020&pageSize=100` });
    expect(paged.envelope.result.records.map((r) => r.code)).toEqual(all.envelope.result.records.slice(5, 10).map((r) => r.code));
    expect(paged.envelope.result.total).toBe(all.envelope.result.total);
  });

  it('finds rows as they are added, renamed and deleted, through the engine or not', async () => {
    const added = await injectAs<{ id: string }>(app, admin, { method: 'POST', url: api(app, crudPath(position, 'add')), payload: { code: 'Z0001', name: 'Quokka keeper', postRank: '1' } });
    expect(added.envelope.success, added.envelope.message).toBe(true);
    expect((await list('name=okka')).records.map((r) => r.code)).toEqual(['Z0001']);
    const edited = await injectAs(app, admin, { method: 'PUT', url: api(app, crudPath(position, 'edit')), payload: { id: added.envelope.result.id, code: 'Z0001', name: 'Wombat keeper', postRank: '1' } });
    expect(edited.envelope.success, edited.envelope.message).toBe(true);
    expect((await list('name=okka')).total).toBe(0);
    expect((await list('name=mbat')).records.map((r) => r.code)).toEqual(['Z0001']);
    await sql`update sys_position set name = ${'Platypus keeper'} where code = ${'Z0001'}`.execute(app.db);
    expect((await list('name=mbat')).total).toBe(0);
    expect((await list('name=typus')).records.map((r) => r.code)).toEqual(['Z0001']);
    await sql`delete from sys_position where code = ${'Z0001'}`.execute(app.db);
    expect((await list('name=typus')).total).toBe(0);
  });

  it.runIf(dialect === 'sqlite')('reads the rows a search index names when it names few, and the page order when most rows match', async () => {
    const rare = await statementsOf(app, () => injectAs(app, admin, { method: 'GET', url: `${listPath()}?name=${encodeURIComponent('*common 20*')}&pageNo=3` }));
    expect(rare.some((s) => /fts_sys_position/.test(s.sql) && /not indexed/i.test(s.sql) && /count\(/i.test(s.sql))).toBe(true);
    const common = await statementsOf(app, () => injectAs(app, admin, { method: 'GET', url: `${listPath()}?name=common&pageNo=3` }));
    expect(common.filter((s) => /sys_position/.test(s.sql) && /limit/i.test(s.sql) && !/fts_/.test(s.sql))).not.toEqual([]);
    expect(common.some((s) => /not indexed/i.test(s.sql))).toBe(false);
  });
});
