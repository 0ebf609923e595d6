import Sqlite from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect, sql, type Dialect } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import type { DatabaseDialect } from '../config.ts';
import type { Database } from './schema.ts';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DatabaseDialect;
  destroy(): Promise<void>;
}

function sqliteDialect(file: string): Dialect {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  // SQLite gives the -wal and -shm files the mode of the database file: create it readable by the server's user only
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
  const database = new Sqlite(file);
  database.pragma('journal_mode = WAL');
  for (const companion of [`${file}-wal`, `${file}-shm`]) if (existsSync(companion)) chmodSync(companion, 0o600);
  database.pragma('foreign_keys = ON');
  // FULL: an acknowledged write survives a power loss, not only a process crash
  database.pragma('synchronous = FULL');
  database.pragma('busy_timeout = 5000');
  return new SqliteDialect({ database });
}

/** `?schema=name` selects the PostgreSQL schema through search_path; pg itself does not know that parameter. */
function postgresDialect(url: string): Dialect {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema');
  parsed.searchParams.delete('schema');
  if (schema && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(schema)) throw new Error('DATABASE_URL schema must be an identifier');
  const pool = new pg.Pool({
    connectionString: parsed.toString(),
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  return new PostgresDialect({ pool });
}

function mysqlDialect(url: string): Dialect {
  const parsed = new URL(url.replace(/^mariadb:/, 'mysql:'));
  const pool = createPool({
    uri: parsed.toString(),
    connectionLimit: 10,
    charset: 'utf8mb4',
    timezone: 'Z',
  });
  return new MysqlDialect({ pool });
}

export function createDatabase(config: { dialect: DatabaseDialect; databaseUrl: string }): DatabaseHandle {
  const dialect =
    config.dialect === 'postgres'
      ? postgresDialect(config.databaseUrl)
      : config.dialect === 'mysql'
        ? mysqlDialect(config.databaseUrl)
        : sqliteDialect(config.databaseUrl);
  const db = new Kysely<Database>({ dialect });
  return { db, dialect: config.dialect, destroy: () => db.destroy() };
}

export async function databaseAnswers(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
