import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, createNamespace, testDialects, type TestNamespace } from '../../test/harness.ts';

const postgres = (await testDialects()).filter((dialect) => dialect === 'postgres');

// on SQLite alone (the quick loop) the file reports its test as skipped: a file with no suite at all fails the run
describe.skipIf(postgres.length === 0).each(postgres.length > 0 ? postgres : (['postgres'] as const))('migrations on %s', (dialect) => {
  const namespaces: TestNamespace[] = [];
  afterAll(async () => {
    await Promise.all(namespaces.map((ns) => ns.drop().catch(() => undefined)));
  });

  it('keep their own migration tables in each schema, so two consoles can share one database', async () => {
    const first = await createNamespace(dialect);
    const second = await createNamespace(dialect);
    namespaces.push(first, second);
    const one = await buildTestApp(dialect, { namespace: first });
    try {
      // the first schema's migration tables exist while the second console starts
      const two = await buildTestApp(dialect, { namespace: second });
      try {
        for (const app of [one.app, two.app]) {
          const { rows } = await sql<{ schema: string; n: string }>`
            select current_schema() as schema,
                   (select count(*) from information_schema.tables
                     where table_schema = current_schema() and table_name in ('kysely_migration', 'kysely_migration_lock')) as n`.execute(app.db);
          expect(Number(rows[0]?.n), `migration tables in ${rows[0]?.schema}`).toBe(2);
        }
        expect(await two.app.db.selectFrom('sys_user').select('username').where('username', '=', 'admin').execute()).toHaveLength(1);
      } finally {
        await two.close();
      }
    } finally {
      await one.close();
    }
  });
});
