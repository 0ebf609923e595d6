// Backup and restore of the console's database (`npm run backup`, `npm run restore`): SQLite through its online backup
// API, PostgreSQL through pg_dump and pg_restore, MariaDB/MySQL through mariadb-dump (or mysqldump) and its client.
import { spawn } from 'node:child_process';
import { closeSync, createReadStream, existsSync, mkdirSync, openSync, rmSync, statSync, chmodSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import Sqlite from 'better-sqlite3';
import { sql } from 'kysely';
import type { Config, DatabaseDialect } from '../config.ts';
import { createDatabase } from './database.ts';

/** What backup and restore read of the configuration: the same DATABASE_URL and DATA_DIR as the server. */
export type BackupConfig = Pick<Config, 'dialect' | 'databaseUrl' | 'dataDir'>;

/** A refusal or failure told to the operator as it is (no stack). */
export class BackupError extends Error {}

const EXTENSION: Record<DatabaseDialect, string> = { sqlite: 'db', postgres: 'dump', mysql: 'sql' };

/** DATA_DIR/backups/isps-20261128-004512.<db|dump|sql> (the time in UTC). */
export function defaultBackupFile(config: BackupConfig, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return join(config.dataDir, 'backups', `isps-${stamp}.${EXTENSION[config.dialect]}`);
}

/** Where the backup went and how large it is. */
export interface BackupOutcome {
  file: string;
  bytes: number;
}

/**
 * Writes a backup of the configured database to `file` (which must not exist yet), readable by this user only. The
 * server may keep running: SQLite copies a consistent snapshot page by page, pg_dump and mariadb-dump read in one
 * transaction.
 */
export async function backupDatabase(config: BackupConfig, file: string): Promise<BackupOutcome> {
  const target = resolve(file);
  if (existsSync(target)) throw new BackupError(`${target} exists already: give another file`);
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  // created empty and private first: the backup holds password hashes and keys
  closeSync(openSync(target, 'wx', 0o600));
  try {
    if (config.dialect === 'sqlite') await backupSqlite(config.databaseUrl, target);
    else if (config.dialect === 'postgres') await backupPostgres(config.databaseUrl, target);
    else await backupMysql(config.databaseUrl, target);
  } catch (error) {
    rmSync(target, { force: true });
    throw error;
  }
  return { file: target, bytes: statSync(target).size };
}

/**
 * Replaces the configured database's contents with the backup in `file`. A database that holds tables is replaced
 * only with `force`. Stop the server first: a running one keeps what it has cached.
 */
export async function restoreDatabase(config: BackupConfig, file: string, options: { force?: boolean } = {}): Promise<void> {
  const source = resolve(file);
  if (!existsSync(source) || !statSync(source).isFile()) throw new BackupError(`no backup file at ${source}`);
  if (config.dialect === 'sqlite') await checkSqliteBackup(source);
  if (config.dialect === 'postgres') await checkPostgresBackup(config.databaseUrl, source);
  const tables = await tableCount(config);
  if (tables > 0 && !options.force) {
    throw new BackupError(`the database (${shownUrl(config)}) holds ${tables} tables: give --force to replace all of its contents with the backup`);
  }
  if (config.dialect === 'sqlite') await restoreSqlite(source, config.databaseUrl);
  else if (config.dialect === 'postgres') await restorePostgres(config.databaseUrl, source);
  else await restoreMysql(config.databaseUrl, source);
}

/** The database named for the operator, without its password. */
function shownUrl(config: BackupConfig): string {
  if (config.dialect === 'sqlite') return config.databaseUrl;
  const url = new URL(config.databaseUrl);
  url.password = '';
  return url.toString();
}

/** How many tables the configured database (its schema, on PostgreSQL) holds; 0 when it does not exist yet. */
async function tableCount(config: BackupConfig): Promise<number> {
  if (config.dialect === 'sqlite') {
    if (!existsSync(config.databaseUrl)) return 0;
    const db = new Sqlite(config.databaseUrl, { readonly: true, fileMustExist: true });
    try {
      return (db.prepare("select count(*) as n from sqlite_master where type = 'table' and name not like 'sqlite_%'").get() as { n: number }).n;
    } finally {
      db.close();
    }
  }
  const database = createDatabase(config);
  try {
    const query =
      config.dialect === 'postgres'
        ? sql<{ n: string | number }>`select count(*) as n from pg_tables where schemaname = ${await postgresSchema(config.databaseUrl)}`
        : sql<{ n: string | number }>`select count(*) as n from information_schema.tables where table_schema = database()`;
    return Number((await query.execute(database.db)).rows[0]?.n ?? 0);
  } finally {
    await database.destroy();
  }
}

// ---- SQLite: the online backup API, both ways ----

async function backupSqlite(databaseFile: string, target: string): Promise<void> {
  if (!existsSync(databaseFile)) throw new BackupError(`no SQLite database at ${databaseFile} (check DATA_DIR and DATABASE_URL)`);
  const db = new Sqlite(databaseFile, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    await db.backup(target);
  } finally {
    db.close();
  }
}

/** A SQLite file that passes its own quick check. */
async function checkSqliteBackup(file: string): Promise<void> {
  let db: Sqlite.Database | null = null;
  try {
    db = new Sqlite(file, { readonly: true, fileMustExist: true });
    const result = db.pragma('quick_check', { simple: true });
    if (result !== 'ok') throw new BackupError(`${file} is damaged: ${String(result)}`);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${file} is not a SQLite backup: ${(error as Error).message}`);
  } finally {
    db?.close();
  }
}

/** The backup is copied into the database file page by page under SQLite's locks (its -wal and -shm stay consistent). */
async function restoreSqlite(file: string, databaseFile: string): Promise<void> {
  mkdirSync(dirname(databaseFile), { recursive: true, mode: 0o700 });
  closeSync(openSync(databaseFile, 'a', 0o600));
  const source = new Sqlite(file, { readonly: true, fileMustExist: true });
  try {
    await source.backup(databaseFile);
  } finally {
    source.close();
  }
  for (const written of [databaseFile, `${databaseFile}-wal`, `${databaseFile}-shm`]) if (existsSync(written)) chmodSync(written, 0o600);
}

// ---- PostgreSQL: pg_dump and pg_restore of the console's schema ----

/** The schema the console's tables live in: `?schema=` of DATABASE_URL, else the connection's current schema. */
async function postgresSchema(databaseUrl: string): Promise<string> {
  const named = new URL(databaseUrl).searchParams.get('schema');
  if (named) return named;
  const database = createDatabase({ dialect: 'postgres', databaseUrl });
  try {
    const row = (await sql<{ schema: string | null }>`select current_schema() as schema`.execute(database.db)).rows[0];
    return row?.schema ?? 'public';
  } finally {
    await database.destroy();
  }
}

/** libpq's connection: DATABASE_URL without `schema` (ours, not libpq's) and with the password in the environment, not the command line. */
function libpq(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  url.searchParams.delete('schema');
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

async function backupPostgres(databaseUrl: string, target: string): Promise<void> {
  const pgDump = requireTool(['pg_dump'], "PostgreSQL backups need pg_dump of the server's major version or newer (Debian: postgresql-client)");
  const { url, env } = libpq(databaseUrl);
  const schema = await postgresSchema(databaseUrl);
  await run(pgDump, ['--format=custom', `--schema=${schema}`, `--file=${target}`, `--dbname=${url}`], { env });
}

/** The one schema a pg_dump archive holds (it must be the target's: the archive names it in every statement). */
async function checkPostgresBackup(databaseUrl: string, file: string): Promise<void> {
  const pgRestore = requireTool(['pg_restore'], "PostgreSQL restores need pg_restore of the server's major version or newer (Debian: postgresql-client)");
  const listing = await run(pgRestore, ['--list', file], { env: process.env });
  const schemas = [...listing.matchAll(/^\d+; \d+ \d+ SCHEMA - (\S+) /gm)].map((m) => m[1]!);
  const target = await postgresSchema(databaseUrl);
  if (schemas.length !== 1 || schemas[0] !== target) {
    throw new BackupError(`the backup holds the schema ${schemas.join(', ') || '(none)'}, DATABASE_URL names ${target}: restore it into the schema it was made from`);
  }
}

async function restorePostgres(databaseUrl: string, file: string): Promise<void> {
  const pgRestore = requireTool(['pg_restore'], 'PostgreSQL restores need pg_restore (Debian: postgresql-client)');
  const { url, env } = libpq(databaseUrl);
  // the schema is dropped and made again from the archive, all in one transaction: on any error nothing changes
  await run(pgRestore, ['--clean', '--if-exists', '--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', `--dbname=${url}`, file], { env });
}

// ---- MariaDB/MySQL: mariadb-dump (or mysqldump) and the mariadb (or mysql) client ----

/** The client tools' connection options, with the password in the environment (MYSQL_PWD), not the command line. */
function mysqlClient(databaseUrl: string): { args: string[]; database: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!database) throw new BackupError('DATABASE_URL names no database');
  const password = decodeURIComponent(url.password);
  const args = [`--host=${url.hostname}`, `--port=${url.port || '3306'}`, ...(url.username ? [`--user=${decodeURIComponent(url.username)}`] : [])];
  return { args, database, env: { ...process.env, ...(password ? { MYSQL_PWD: password } : {}) } };
}

async function backupMysql(databaseUrl: string, target: string): Promise<void> {
  const dump = requireTool(['mariadb-dump', 'mysqldump'], 'MariaDB/MySQL backups need mariadb-dump or mysqldump (Debian: mariadb-client); neither is installed, so this engine cannot be backed up here');
  const { args, database, env } = mysqlClient(databaseUrl);
  await run(dump, [...args, '--single-transaction', '--routines', '--triggers', '--hex-blob', '--no-tablespaces', `--result-file=${target}`, database], { env });
}

async function restoreMysql(databaseUrl: string, file: string): Promise<void> {
  const client = requireTool(['mariadb', 'mysql'], 'MariaDB/MySQL restores need the mariadb or mysql client (Debian: mariadb-client); neither is installed, so this engine cannot be restored here');
  const { args, database, env } = mysqlClient(databaseUrl);
  // the dump drops and creates each of its tables again; tables it does not hold are left as they are
  await run(client, [...args, database], { env, input: file });
}

// ---- tools ----

/** The first of `names` found on PATH, or a refusal that says what to install. */
function requireTool(names: readonly string[], missing: string): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of names) {
      const path = join(dir, name);
      if (dir && existsSync(path)) return path;
    }
  }
  throw new BackupError(missing);
}

/** Runs a tool; answers its standard output, or fails with its standard error. */
function run(tool: string, args: readonly string[], options: { env: NodeJS.ProcessEnv; input?: string }): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(tool, args, { env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // a client that ends early closes its input: its exit code and message say why
    child.stdin.on('error', () => undefined);
    if (options.input) createReadStream(options.input).on('error', reject).pipe(child.stdin);
    else child.stdin.end();
    child.on('error', (error) => reject(new BackupError(`${tool}: ${error.message}`)));
    child.on('close', (code) => {
      if (code === 0) return resolvePromise(stdout);
      const said = stderr.trim().split('\n').slice(-5).join('\n');
      const hint = /server version mismatch|unsupported version/i.test(said) ? '\n(install the client tools matching the major version of the server)' : '';
      reject(new BackupError(`${tool.split('/').pop()} failed (exit ${code}): ${said}${hint}`));
    });
  });
}
