import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createNamespace, testConfig, testDialects, type TestNamespace } from '../test/harness.ts';
import { cachingStatements, createDatabase, onCommittedWrite, writtenTables, type DatabaseHandle } from './database.ts';
import { migrateToLatest } from './migrations/index.ts';

describe('the tables a statement writes', () => {
  it('names the target of inserts, updates and deletes in any engine quoting, and nothing for a read', () => {
    expect(writtenTables('insert into "sys_user_role" ("id") values (?)')).toEqual(['sys_user_role']);
    expect(writtenTables('update `sys_user` set `status` = ? where `id` = ?')).toEqual(['sys_user']);
    expect(writtenTables('delete from sys_user_token where user_id = ?')).toEqual(['sys_user_token']);
    expect(writtenTables('select "update_time", "create_by" from "sys_user" where "id" in (select "user_id" from "sys_user_role")')).toEqual([]);
  });
});

describe('SQLite statements', () => {
  it('are prepared once per SQL text, a busy one (being iterated) is not shared, and the least recently used go first', () => {
    const database = new Sqlite(':memory:');
    const cached = cachingStatements(database);
    const first = cached.prepare('select 1 as n');
    expect(cached.prepare('select 1 as n')).toBe(first);
    const iterating = cached.prepare('select 2 as n union all select 3');
    const rows = iterating.iterate([]);
    rows.next();
    const second = cached.prepare('select 2 as n union all select 3');
    expect(second).not.toBe(iterating);
    expect(second.all([])).toEqual([{ n: 2 }, { n: 3 }]);
    rows.return?.();
    for (let i = 0; i < 600; i++) cached.prepare(`select ${i} as n`);
    expect(cached.prepare('select 1 as n')).not.toBe(first);
    cached.close();
  });
});

describe.each(await testDialects())('committed writes on %s', (dialect) => {
  let namespace: TestNamespace;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    namespace = await createNamespace(dialect);
    handle = createDatabase(testConfig(namespace));
    await sql`create table probe (id varchar(36) primary key)`.execute(handle.db);
  });
  afterAll(async () => {
    await handle?.destroy();
    await namespace?.drop();
  });

  it('are reported after the statement, or at the commit of their transaction, and never for a rolled back one', async () => {
    const seen: string[][] = [];
    const stop = onCommittedWrite(handle.db, (tables) => void seen.push([...tables]));
    await sql`insert into probe (id) values ('a')`.execute(handle.db);
    expect(seen).toEqual([['probe']]);

    await handle.db.transaction().execute(async (trx) => {
      await sql`insert into probe (id) values ('b')`.execute(trx);
      await sql`delete from probe where id = 'a'`.execute(trx);
      expect(seen).toHaveLength(1);
    });
    expect(seen).toEqual([['probe'], ['probe']]);

    await expect(
      handle.db.transaction().execute(async (trx) => {
        await sql`insert into probe (id) values ('c')`.execute(trx);
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    await sql`select id from probe`.execute(handle.db);
    expect(seen).toHaveLength(2);
    stop();
  });
});

describe.runIf((await testDialects()).includes('postgres'))('PostgreSQL introspection', () => {
  it("lists the tables of the connection's own schema only, so another schema's changes cannot fail our migrations", async () => {
    const ours = await createNamespace('postgres');
    const other = await createNamespace('postgres');
    const mine = createDatabase(testConfig(ours));
    const theirs = createDatabase(testConfig(other));
    try {
      await sql`create table probe (id varchar(36) primary key, n serial, label text default 'x', note text)`.execute(mine.db);
      await sql`create table elsewhere (id varchar(36) primary key)`.execute(theirs.db);
      const tables = await mine.db.introspection.getTables();
      expect(tables.map((t) => t.name)).toEqual(['probe']);
      expect(tables[0]?.columns).toEqual([
        { name: 'id', dataType: 'varchar', isNullable: false, isAutoIncrementing: false, hasDefaultValue: false },
        { name: 'n', dataType: 'int4', isNullable: false, isAutoIncrementing: true, hasDefaultValue: true },
        { name: 'label', dataType: 'text', isNullable: true, isAutoIncrementing: false, hasDefaultValue: true },
        { name: 'note', dataType: 'text', isNullable: true, isAutoIncrementing: false, hasDefaultValue: false },
      ]);
      // the migrator's own tables are named only when asked for
      await migrateToLatest(mine.db, 'postgres');
      expect((await mine.db.introspection.getTables()).some((t) => t.name.startsWith('kysely_migration'))).toBe(false);
      expect((await mine.db.introspection.getTables({ withInternalKyselyTables: true })).some((t) => t.name === 'kysely_migration')).toBe(true);
    } finally {
      await mine.destroy();
      await theirs.destroy();
      await ours.drop();
      await other.drop();
    }
  });
});

describe.each(await testDialects())('a start of an installed console on %s', (dialect) => {
  it('migrates without the migrator when it has taken every migration; on SQLite the index pass runs again only for other declarations', async () => {
    const namespace = await createNamespace(dialect);
    const handle = createDatabase(testConfig(namespace));
    try {
      await migrateToLatest(handle.db, dialect);
      let statements: string[] = [];
      const counted = handle.db.withPlugin({
        transformQuery: (args) => {
          statements.push(args.node.kind);
          return args.node;
        },
        transformResult: async (args) => args.result,
      });
      await migrateToLatest(counted, dialect);
      // the applied migrations, then (SQLite) the fingerprint; the migrator alone reads every table's shape
      if (dialect === 'sqlite') expect(statements).toHaveLength(2);
      else expect(statements.length).toBeLessThan(60);
      expect(statements.filter((kind) => kind === 'CreateTableNode')).toEqual([]);

      if (dialect !== 'sqlite') return;
      // a release whose declarations want other indexes (here: an older one left no fingerprint) makes them
      const declared = async () => (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and name like 'ix_%' order by name`.execute(handle.db)).rows.map((r) => r.name);
      const made = await declared();
      expect(made.length).toBeGreaterThan(0);
      await sql`drop index ${sql.id(made[0]!)}`.execute(handle.db);
      // the same release does not look (an index dropped by hand comes back with the next release's pass)
      await migrateToLatest(counted, dialect);
      expect(await declared()).toEqual(made.slice(1));
      await sql`pragma user_version = 0`.execute(handle.db);
      statements = [];
      await migrateToLatest(counted, dialect);
      expect(statements.length).toBeGreaterThan(10);
      expect(await declared()).toEqual(made);
      expect((await sql<{ user_version: number }>`pragma user_version`.execute(handle.db)).rows[0]?.user_version).not.toBe(0);
    } finally {
      await handle.destroy();
      await namespace.drop();
    }
  });
});
