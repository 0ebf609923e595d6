import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { adminToken, buildTestApp, createNamespace, testConfig, testDialects, type TestNamespace } from '../test/harness.ts';
import { backupDatabase, defaultBackupFile, restoreDatabase } from './backup.ts';
import { createDatabase } from './database.ts';
import type { Database } from './schema.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');
const repo = join(import.meta.dirname, '../../../..');

/** Every table of the database (its own schema) with its rows, each row as JSON, sorted: what a restore must bring back. */
async function everyTable(db: Kysely<Database>): Promise<Record<string, string[]>> {
  const tables = (await db.introspection.getTables()).map((t) => t.name).sort();
  const all: Record<string, string[]> = {};
  for (const table of tables) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db);
    all[table] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return all;
}

/** Rows changed, deleted and added after the backup, through the running server's connection. */
async function changeEverything(db: Kysely<Database>): Promise<void> {
  await db.updateTable('sys_user').set({ realname: 'changed after the backup' }).execute();
  await db.deleteFrom('sys_log').execute();
  await db.deleteFrom('sys_dict_item').execute();
}

describe.each(dialects)('backup and restore on %s', (dialect) => {
  let namespace: TestNamespace | null = null;
  afterEach(async () => {
    await namespace?.drop();
    namespace = null;
  });

  it('a backup taken while the server runs restores every table as it was, after rows were changed and deleted; a database with tables is replaced only with force', async () => {
    namespace = await createNamespace(dialect);
    const t = await buildTestApp(dialect, { namespace });
    await adminToken(t.app); // a login and a password change: tokens and log rows beside the seed
    const config = testConfig(namespace);
    const before = await everyTable(t.app.db);
    expect(Object.keys(before).length).toBeGreaterThan(20);
    expect(before.sys_log!.length).toBeGreaterThan(0);

    const { file, bytes } = await backupDatabase(config, defaultBackupFile(config));
    expect(file.startsWith(join(config.dataDir, 'backups'))).toBe(true);
    expect(bytes).toBeGreaterThan(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await expect(backupDatabase(config, file)).rejects.toThrow(/exists already/);

    await changeEverything(t.app.db);
    expect(await everyTable(t.app.db)).not.toEqual(before);
    await t.app.close();

    await expect(restoreDatabase(config, join(config.dataDir, 'no-such-backup'), { force: true })).rejects.toThrow(/no backup file/);
    await expect(restoreDatabase(config, file)).rejects.toThrow(/holds \d+ tables: give --force/);
    if (dialect === 'postgres') {
      // the archive names its schema in every statement: it goes back where it came from, nowhere else
      const elsewhere = new URL(config.databaseUrl);
      elsewhere.searchParams.set('schema', 'another_console');
      await expect(restoreDatabase({ ...config, databaseUrl: elsewhere.toString() }, file, { force: true })).rejects.toThrow(/holds the schema t_\w+, DATABASE_URL names another_console/);
    }
    await restoreDatabase(config, file, { force: true });
    const database = createDatabase(config);
    try {
      expect(await everyTable(database.db)).toEqual(before);
    } finally {
      await database.destroy();
    }
  });
});

/** Runs `node scripts/<name>.mjs` with the server's environment; answers its exit code and output. */
function script(name: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(repo, 'scripts', `${name}.mjs`), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('npm run backup and npm run restore', () => {
  it('back up under DATA_DIR/backups by default, and restore only a file named (with --force over a database with tables)', async () => {
    const namespace = await createNamespace('sqlite');
    try {
      // DATABASE_URL unset: the SQLite file under DATA_DIR, as the server reads it (any tables will do here)
      const env = { DATA_DIR: namespace.dataDir, DATABASE_URL: '' };
      const rows = (db: Sqlite.Database) => db.prepare('select id, name from site order by id').all();
      const db = new Sqlite(join(namespace.dataDir, 'isps.db'));
      db.exec("create table site (id integer primary key, name text); insert into site (name) values ('north'), ('south')");
      const before = rows(db);
      const backup = await script('backup', [], env);
      expect(backup).toMatchObject({ code: 0, out: expect.stringMatching(/^Backup of the sqlite database written to .*isps-\d{8}-\d{6}\.db \(\d+ bytes\)\.\n$/) });
      const [file] = readdirSync(join(namespace.dataDir, 'backups')).map((name) => join(namespace.dataDir, 'backups', name));
      expect(file && existsSync(file)).toBe(true);

      db.exec("delete from site where name = 'north'; update site set name = 'moved'");
      db.close();
      expect(await script('restore', [], env)).toMatchObject({ code: 2, out: expect.stringContaining('name the backup file to restore') });
      expect(await script('restore', [file!, '--force'], env)).toMatchObject({ code: 0, out: expect.stringContaining('restored from') });
      const restored = new Sqlite(join(namespace.dataDir, 'isps.db'), { readonly: true });
      expect(rows(restored)).toEqual(before);
      restored.close();
    } finally {
      await namespace.drop();
    }
  });
});
