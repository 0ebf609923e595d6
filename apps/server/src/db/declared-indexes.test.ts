import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnOf, entityDeclarations, positionEntity } from '@isps/contract';
import { sql } from 'kysely';
import type { EntityWithTable } from '../platform/crud/tables.ts';
import { buildTestApp, testDialects, type TestApp } from '../test/harness.ts';
import { covered, ensureDeclaredIndexes, existingIndexes, wantedIndexes } from './declared-indexes.ts';

describe('indexes wanted by the declarations', () => {
  it('cover each list default sort and offered sort after its scope, each search and unique field, and the link tables searched', () => {
    const wanted = wantedIndexes([positionEntity]);
    const scope = [...(positionEntity.tenantScoped ? ['tenant_id'] : []), ...(positionEntity.softDelete ? ['del_flag'] : [])];
    expect(wanted).toContainEqual({ table: 'sys_position', columns: [...scope, columnOf(positionEntity, positionEntity.defaultSort.field), 'id'] });
    for (const field of positionEntity.sortable) expect(wanted).toContainEqual({ table: 'sys_position', columns: [...scope, columnOf(positionEntity, field), 'id'] });
    for (const field of Object.keys(positionEntity.search)) expect(wanted.some((w) => w.columns.at(-1) === columnOf(positionEntity, field))).toBe(true);
  });
});

describe.each(await testDialects())('declared indexes on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every declared list sort, search and unique field has an index from the start, and a second run creates none', async () => {
    const indexes = await existingIndexes(t.app.db, dialect);
    const missing = wantedIndexes(entityDeclarations).filter((w) => !covered(indexes.get(w.table), w.columns));
    expect(missing).toEqual([]);
    expect(await ensureDeclaredIndexes(t.app.db, dialect)).toEqual([]);
  });

  it('a newly declared screen gets its indexes at the next start', async () => {
    await sql`create table probe_screen (id varchar(36) primary key, tenant_id varchar(36), del_flag integer, code varchar(64), title text, create_time varchar(32))`.execute(t.app.db);
    const probe: EntityWithTable = {
      ...positionEntity,
      name: 'probeScreen',
      table: 'probe_screen',
      tenantScoped: true,
      softDelete: { recycleBin: false },
      fields: { code: positionEntity.fields[Object.keys(positionEntity.fields)[0]!]!, title: { ...positionEntity.fields[Object.keys(positionEntity.fields)[0]!]!, kind: 'string' } },
      search: { code: 'exact', title: 'contains' },
      sortable: ['createTime'],
      defaultSort: { field: 'createTime', order: 'desc' },
      unique: [],
    };
    const created = await ensureDeclaredIndexes(t.app.db, dialect, [probe]);
    expect(created).toEqual(
      expect.arrayContaining([
        { table: 'probe_screen', columns: ['tenant_id', 'del_flag', 'create_time', 'id'] },
        { table: 'probe_screen', columns: ['tenant_id', 'del_flag', 'code'] },
        { table: 'probe_screen', columns: ['tenant_id', 'del_flag', 'title'] },
      ]),
    );
    expect(await ensureDeclaredIndexes(t.app.db, dialect, [probe])).toEqual([]);
  });
});
