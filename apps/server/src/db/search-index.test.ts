import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { positionEntity, userEntity } from '@isps/contract';
import { sql } from 'kysely';
import { readTables } from '../platform/crud/list-cache.ts';
import type { EntityWithTable } from '../platform/crud/tables.ts';
import { buildTestApp, type TestApp } from '../test/harness.ts';
import { ensureSearchIndexes, searchColumns, searchPhrase } from './search-index.ts';

describe('search indexes wanted by the declarations', () => {
  it('hold the text columns of contains searches, not exact ones, links nor numbers', () => {
    expect(searchColumns([positionEntity]).get('sys_position')).toEqual(['code', 'name']);
    const users = searchColumns([userEntity]).get('sys_user') ?? [];
    expect(users).toEqual(expect.arrayContaining(['username', 'realname', 'phone']));
    expect(users).not.toContain('sex');
    expect(users).not.toContain('status');
  });

  it('quote a text as one phrase', () => {
    expect(searchPhrase('say "hi" OR x*')).toBe('"say ""hi"" OR x*"');
  });

  it('count a read of a search index as a read of its table', () => {
    expect(readTables('select count(*) from (select rowid from "fts_sys_user" where "realname" match ?)')).toEqual(['sys_user']);
  });
});

describe('search indexes on SQLite', () => {
  let t: TestApp;
  const probe: EntityWithTable = { ...positionEntity, name: 'probeSearch', table: 'probe_search', search: { code: 'exact', name: 'contains' } };
  const matching = async (text: string) =>
    (await sql<{ code: string }>`select code from probe_search where rowid in (select rowid from fts_probe_search where name match ${searchPhrase(text)}) order by code`.execute(t.app.db)).rows.map(
      (r) => r.code,
    );

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    await sql`create table probe_search (id varchar(36) primary key, code varchar(64), name text, remark text)`.execute(t.app.db);
    await sql`insert into probe_search (id, code, name) values ('1', 'A', 'Alice desk'), ('2', 'B', 'Bob office')`.execute(t.app.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('are created at start for every declared table, and a second run builds none', async () => {
    const tables = (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name like 'fts!_%' escape '!'`.execute(t.app.db)).rows.map((r) => r.name);
    expect(tables).toEqual(expect.arrayContaining(['fts_sys_user', 'fts_sys_position']));
    expect(await ensureSearchIndexes(t.app.db, 'sqlite')).toEqual([]);
  });

  it('hold the rows already there and follow inserts, updates, replaces and deletes', async () => {
    expect(await ensureSearchIndexes(t.app.db, 'sqlite', [probe])).toEqual(['probe_search']);
    expect(await matching('ALICE')).toEqual(['A']);
    await sql`insert into probe_search (id, code, name) values ('3', 'C', 'Carol desk')`.execute(t.app.db);
    expect(await matching('desk')).toEqual(['A', 'C']);
    await sql`update probe_search set name = 'Carol lab' where id = '3'`.execute(t.app.db);
    expect(await matching('desk')).toEqual(['A']);
    expect(await matching('lab')).toEqual(['C']);
    await sql`update probe_search set remark = 'x' where id = '3'`.execute(t.app.db);
    expect(await matching('lab')).toEqual(['C']);
    await sql`insert or replace into probe_search (id, code, name) values ('3', 'C', 'Carol kitchen')`.execute(t.app.db);
    expect(await matching('lab')).toEqual([]);
    expect(await matching('kitchen')).toEqual(['C']);
    await sql`delete from probe_search where id = '1'`.execute(t.app.db);
    expect(await matching('desk')).toEqual([]);
    expect(await ensureSearchIndexes(t.app.db, 'sqlite', [probe])).toEqual([]);
  });

  it('are built again when the declared columns change', async () => {
    const wider: EntityWithTable = { ...probe, fields: { ...probe.fields, remark: { ...probe.fields.name! } }, search: { ...probe.search, remark: 'contains' } };
    expect(await ensureSearchIndexes(t.app.db, 'sqlite', [wider])).toEqual(['probe_search']);
    const columns = (await sql<{ name: string }>`select name from pragma_table_info('fts_probe_search')`.execute(t.app.db)).rows.map((r) => r.name);
    expect(columns).toEqual(['name', 'remark']);
    expect(await matching('kitchen')).toEqual(['C']);
  });
});
