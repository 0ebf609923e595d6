import Sqlite from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  Kysely,
  MysqlDialect,
  PostgresDialect,
  SqliteDialect,
  sql,
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type DatabaseMetadataOptions,
  type Dialect,
  type Driver,
  type QueryResult,
  type SqliteDatabase,
  type TableMetadata,
  type TransactionSettings,
} from 'kysely';
import type { DatabaseDialect } from '../config.ts';
import type { Database } from './schema.ts';

/** Tables a committed statement wrote to (inserted into, updated or deleted from). */
export type WriteListener = (tables: ReadonlySet<string>) => Promise<void> | void;

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DatabaseDialect;
  destroy(): Promise<void>;
}

const writeListeners = new WeakMap<Kysely<Database>, Set<WriteListener>>();

/**
 * Calls `listener` after each committed write through `db` (a statement outside a transaction, or a transaction's
 * commit), before the writer goes on; returns the unsubscriber.
 */
export function onCommittedWrite(db: Kysely<Database>, listener: WriteListener): () => void {
  const listeners = writeListeners.get(db);
  if (!listeners) throw new Error('not a database of createDatabase');
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 parses a statement on every prepare and kysely prepares on every call; statements are kept by their
 * SQL (least recently used dropped first). A statement still being iterated (a streamed export) is busy, so a
 * second user of the same SQL gets a fresh one.
 */
export function cachingStatements(database: SqliteDatabase & { prepare(sql: string): { busy?: boolean } }): SqliteDatabase {
  const statements = new Map<string, ReturnType<SqliteDatabase['prepare']> & { busy?: boolean }>();
  return {
    close: () => {
      statements.clear();
      database.close();
    },
    prepare(text) {
      const cached = statements.get(text);
      if (cached && !cached.busy) {
        statements.delete(text);
        statements.set(text, cached);
        return cached;
      }
      const statement = database.prepare(text);
      if (!cached) {
        statements.set(text, statement);
        if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value as string);
      }
      return statement;
    },
  };
}

// the target of an insert, update or delete, quoted as any of the three engines quotes it
const WRITTEN_TABLE = /\b(?:insert\s+(?:ignore\s+)?into|replace\s+into|update|delete\s+from)\s+[`"]?([A-Za-z_][A-Za-z0-9_]*)[`"]?/gi;

/** The tables a statement writes to; none for a query that only reads. */
export function writtenTables(text: string): string[] {
  if (/^\s*select\b/i.test(text)) return [];
  return [...text.matchAll(WRITTEN_TABLE)].map((m) => (m[1] as string).toLowerCase());
}

/**
 * Reports the tables each committed write touched, whoever wrote (the CRUD engine, a module's own query, raw SQL), so
 * caches of what those tables hold are dropped in one place. Writes inside a transaction are reported at its commit,
 * never before: a reader could otherwise cache what the transaction is about to replace.
 */
function reportingWrites(dialect: Dialect, listeners: Set<WriteListener>): Dialect {
  const report = async (tables: Set<string>) => {
    if (tables.size === 0) return;
    for (const listener of listeners) await listener(tables);
  };
  const wrap = (driver: Driver): Driver => {
    // the connections kysely holds are ours; each knows the driver's own and collects its open transaction's writes
    const innerOf = new WeakMap<DatabaseConnection, DatabaseConnection>();
    const pending = new WeakMap<DatabaseConnection, Set<string>>();
    const unwrap = (connection: DatabaseConnection): DatabaseConnection => innerOf.get(connection) ?? connection;
    const reported = (inner: DatabaseConnection): DatabaseConnection => {
      const connection: DatabaseConnection = {
        async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
          const result = await inner.executeQuery<R>(query);
          const tables = writtenTables(query.sql);
          if (tables.length > 0) {
            const open = pending.get(connection);
            if (open) for (const table of tables) open.add(table);
            else await report(new Set(tables));
          }
          return result;
        },
        streamQuery: <R>(query: CompiledQuery, chunkSize?: number) => inner.streamQuery<R>(query, chunkSize),
      };
      innerOf.set(connection, inner);
      return connection;
    };
    return {
      init: () => driver.init(),
      acquireConnection: async () => reported(await driver.acquireConnection()),
      async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
        await driver.beginTransaction(unwrap(connection), settings);
        pending.set(connection, new Set());
      },
      async commitTransaction(connection: DatabaseConnection) {
        await driver.commitTransaction(unwrap(connection));
        const tables = pending.get(connection);
        pending.delete(connection);
        if (tables) await report(tables);
      },
      async rollbackTransaction(connection: DatabaseConnection) {
        pending.delete(connection);
        await driver.rollbackTransaction(unwrap(connection));
      },
      ...(driver.savepoint ? { savepoint: (c, name, compile) => driver.savepoint!(unwrap(c), name, compile) } : {}),
      ...(driver.rollbackToSavepoint ? { rollbackToSavepoint: (c, name, compile) => driver.rollbackToSavepoint!(unwrap(c), name, compile) } : {}),
      ...(driver.releaseSavepoint ? { releaseSavepoint: (c, name, compile) => driver.releaseSavepoint!(unwrap(c), name, compile) } : {}),
      releaseConnection: (connection) => driver.releaseConnection(unwrap(connection)),
      destroy: () => driver.destroy(),
    } satisfies Driver;
  };
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => wrap(dialect.createDriver()),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
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
  return new SqliteDialect({ database: cachingStatements(database) });
}

function ignoreEndedConnection(): void {}

/** `?schema=name` selects the PostgreSQL schema through search_path; pg itself does not know that parameter. */
function postgresDialect(url: string): Dialect {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema');
  parsed.searchParams.delete('schema');
  if (schema && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(schema)) throw new Error('DATABASE_URL schema must be an identifier');
  // the driver loads only when PostgreSQL is configured, at the first connection
  const pool = async () =>
    new (await import('pg')).default.Pool({
      connectionString: parsed.toString(),
      max: 10,
      // a database that is away answers a request within the 2 s it may wait, not when the kernel gives up
      connectionTimeoutMillis: 1500,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    })
      // a connection the server ends (a restart) fails its query, and the pool drops it; its 'error' event, idle in the
      // pool or checked out, must not end the process (an event without a listener throws)
      .on('error', ignoreEndedConnection)
      .on('connect', (client) => client.on('error', ignoreEndedConnection));
  const dialect = new PostgresDialect({ pool });
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => dialect.createDriver(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => ownSchemaIntrospector(dialect.createIntrospector(db), db),
  };
}

/**
 * Tables of the connection's own schema only (the one `?schema=` names). kysely's PostgreSQL introspector reads every
 * schema of the database, and the migrator asks it at every start whether its tables exist: a table another console
 * or test alters or drops in its own schema at that moment failed our start ('column … does not exist', 'schema …
 * does not exist', raised by pg_get_serial_sequence on the other schema's table).
 */
function ownSchemaIntrospector(inner: DatabaseIntrospector, db: Kysely<unknown>): DatabaseIntrospector {
  const getTables = async (options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> => {
    // pg_catalog itself, not information_schema (whose privilege checks run on every schema's rows)
    const { rows } = await sql<{ table: string; schema: string; view: boolean; column: string | null; type: string; nullable: boolean; hasDefault: boolean; serial: boolean }>`
      select c.relname as "table", n.nspname as "schema", c.relkind = 'v' as "view", a.attname as "column", t.typname as "type",
             not a.attnotnull as "nullable", a.atthasdef as "hasDefault",
             a.attidentity <> '' or coalesce(pg_get_expr(d.adbin, d.adrelid) like 'nextval(%', false) as "serial"
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      left join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      left join pg_catalog.pg_type t on t.oid = a.atttypid
      left join pg_catalog.pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
      where n.nspname = current_schema() and c.relkind in ('r', 'v', 'p')
      order by c.relname, a.attnum`.execute(db);
    const tables = new Map<string, TableMetadata>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && row.table.startsWith('kysely_migration')) continue;
      const table = tables.get(row.table) ?? { name: row.table, schema: row.schema, isView: row.view, columns: [] };
      tables.set(row.table, table);
      if (row.column === null) continue;
      table.columns.push({ name: row.column, dataType: row.type, isNullable: row.nullable, isAutoIncrementing: row.serial, hasDefaultValue: row.hasDefault || row.serial });
    }
    return [...tables.values()];
  };
  return {
    getSchemas: () => inner.getSchemas(),
    getTables,
    getMetadata: async (options) => ({ tables: await getTables(options) }),
  };
}

function mysqlDialect(url: string): Dialect {
  const parsed = new URL(url.replace(/^mariadb:/, 'mysql:'));
  // the driver loads only when MySQL or MariaDB is configured, at the first connection
  const pool = async () =>
    (await import('mysql2')).createPool({
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
  const listeners = new Set<WriteListener>();
  const db = new Kysely<Database>({ dialect: reportingWrites(dialect, listeners) });
  writeListeners.set(db, listeners);
  return { db, dialect: config.dialect, destroy: () => db.destroy() };
}

/** Node's and the drivers' codes of a database that cannot be reached or went away (restart, network). */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'PROTOCOL_CONNECTION_LOST', '57P01', '57P02', '57P03']);
const UNREACHABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|not queryable|Pool is closed|connection is in closed state/i;

/** Whether a failure means the database is away (as opposed to a query it refused): the answer is a 503, not a 500. */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    const code = String((cause as { code?: unknown }).code ?? '');
    // PostgreSQL's class 08 is "connection exception"
    if (UNREACHABLE_CODES.has(code) || code.startsWith('08') || UNREACHABLE_MESSAGES.test(cause.message)) return true;
    if (cause instanceof AggregateError && cause.errors.some((inner) => isDatabaseUnreachable(inner))) return true;
  }
  return false;
}

export async function databaseAnswers(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
