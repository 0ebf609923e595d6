import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crudPath, positionEntity } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { sql, type CompiledQuery } from 'kysely';
import {
  adminToken,
  api,
  buildTestApp,
  buildInstancePair,
  createTestUser,
  injectAs,
  login,
  redisReachable,
  testDialects,
  USER_PASSWORD,
  type TestApp,
  type InstancePair,
} from '../../test/harness.ts';
import { createRoleWith } from '../../test/crud-helpers.ts';
import { statementsOf } from '../../test/statements.ts';
import { ListReadCache, readTables } from './list-cache.ts';

const listPath = (app: FastifyInstance, query = '') => api(app, `${crudPath(positionEntity, 'list')}?pageNo=1&pageSize=10${query}`);
const positions = async (app: FastifyInstance, token: string, query = '') =>
  (await injectAs<{ total: number; records: Array<{ name: string }> }>(app, token, { method: 'GET', url: listPath(app, query) })).envelope.result;

describe('readTables', () => {
  it('names the tables of FROM and JOIN clauses, subqueries included, as the three engines quote them', () => {
    expect(readTables('select count(*) as "n" from "sys_user" where "id" in (select "user_id" from "sys_user_depart" inner join "sys_depart" on 1=1)')).toEqual(['sys_user', 'sys_user_depart', 'sys_depart']);
    expect(readTables('select * from `sys_position` left join `sys_tenant` as t on t.id = tenant_id')).toEqual(['sys_position', 'sys_tenant']);
    expect(readTables('SELECT 1 FROM sys_door')).toEqual(['sys_door']);
  });
});

describe('ListReadCache', () => {
  const query = (sql: string) => ({ sql, parameters: [], query: {} }) as unknown as CompiledQuery;

  it('lets reads of a query that is being read wait for that read, unless a table it reads was written since it began', async () => {
    const cache = new ListReadCache(() => 0, 5_000);
    let runs = 0;
    let finish = (_value: number) => {};
    const run = () => {
      runs += 1;
      return new Promise<number>((resolve) => (finish = resolve));
    };
    const first = cache.read(query('select count(*) from "sys_position"'), run);
    const joined = cache.read(query('select count(*) from "sys_position"'), run);
    expect(runs).toBe(1);
    finish(7);
    expect(await Promise.all([first, joined])).toEqual([7, 7]);

    cache.clear();
    const before = cache.read(query('select count(*) from "sys_position"'), run);
    const finishBefore = finish;
    cache.written(['sys_position']);
    const after = cache.read(query('select count(*) from "sys_position"'), run);
    expect(runs).toBe(3);
    finish(8);
    finishBefore(7);
    expect(await Promise.all([before, after])).toEqual([7, 8]);
  });
});

/* List pages read once until a table they read is written: through the engine, a module's own query or raw SQL. */
describe.each(await testDialects())('list read cache on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers a repeated page without reading the database, and the next page after any committed write at once', async () => {
    const added = await injectAs(app, admin, { method: 'POST', url: api(app, crudPath(positionEntity, 'add')), payload: { code: 'CACHE-1', name: 'Cached post one', postRank: '1' } });
    expect(added.envelope.success, added.envelope.message).toBe(true);
    const first = await positions(app, admin, '&name=*Cached*');
    expect(first.total).toBe(1);
    // warm: neither the count nor the page is read again
    const repeated = await statementsOf(app, () => positions(app, admin, '&name=*Cached*'));
    expect(repeated.filter((s) => /sys_position/.test(s.sql))).toEqual([]);

    // a write through the engine
    await injectAs(app, admin, { method: 'POST', url: api(app, crudPath(positionEntity, 'add')), payload: { code: 'CACHE-2', name: 'Cached post two', postRank: '1' } });
    expect((await positions(app, admin, '&name=*Cached*')).total).toBe(2);
    // a write of raw SQL through the same database, outside the engine
    await sql`update sys_position set name = ${'Renamed post'} where code = ${'CACHE-1'}`.execute(app.db);
    const renamed = await positions(app, admin, '&name=*Cached*');
    expect([renamed.total, renamed.records.map((r) => r.name)]).toEqual([1, ['Cached post two']]);
    // a transaction that rolls back changes nothing, and one that commits is seen
    await app.db
      .transaction()
      .execute(async (trx) => {
        await trx.deleteFrom('sys_position').where('code', '=', 'CACHE-2').execute();
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect((await positions(app, admin, '&name=*Cached*')).total).toBe(1);
    await app.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sys_position').where('code', '=', 'CACHE-2').execute();
    });
    expect((await positions(app, admin, '&name=*Cached*')).total).toBe(0);
  });

  it('reads a cold page once for callers asking it at the same time', async () => {
    await positions(app, admin);
    app.listCache.clear();
    const statements = await statementsOf(app, () => Promise.all(Array.from({ length: 8 }, () => positions(app, admin))));
    expect(statements.filter((s) => /from "?`?sys_position/.test(s.sql))).toHaveLength(2);
  });

  it('never shows one reader’s copy to a reader whose tenant or rights read other rows', async () => {
    const tenant = crypto.randomUUID();
    await app.db.insertInto('sys_tenant').values({ id: tenant, name: 'Cache tenant', code: `cache-${tenant.slice(0, 6)}`, begin_date: null, end_date: null, status: 1, create_by: 'test', create_time: null, update_by: null, update_time: null }).execute();
    await createRoleWith(app, 'cache_reader', ['system:position:list']);
    await createTestUser(app, 'cache-reader', { roles: ['cache_reader'], tenantId: tenant });
    const reader = await login(app, 'cache-reader', USER_PASSWORD);
    await injectAs(app, admin, { method: 'POST', url: api(app, crudPath(positionEntity, 'add')), payload: { code: 'CACHE-3', name: 'Default tenant post', postRank: '1' } });
    expect((await positions(app, admin, '&name=*tenant post*')).total).toBe(1);
    expect((await positions(app, reader, '&name=*tenant post*')).total).toBe(0);
  });
});

describe.skipIf(!(await redisReachable()))('list read cache on two instances sharing Redis', () => {
  let pair: InstancePair;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    pair = await buildInstancePair();
    ({ a, b } = pair);
  });
  afterAll(async () => {
    await pair?.close();
  });

  it('a row added on one instance is in the other’s next page, whose copy was warm', async () => {
    const admin = await adminToken(a.app);
    expect((await positions(b.app, admin, '&name=*Shared*')).total).toBe(0);
    expect((await positions(b.app, admin, '&name=*Shared*')).total).toBe(0);
    const added = await injectAs(a.app, admin, { method: 'POST', url: api(a.app, crudPath(positionEntity, 'add')), payload: { code: 'SHARED-1', name: 'Shared post', postRank: '1' } });
    expect(added.envelope.success, added.envelope.message).toBe(true);
    expect((await positions(b.app, admin, '&name=*Shared*')).total).toBe(1);
  });
});
