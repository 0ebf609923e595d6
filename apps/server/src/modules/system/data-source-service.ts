import { createConnection } from 'mysql2/promise';
import pg from 'pg';

export interface ConnectionSettings {
  dbType: string;
  /** `jdbc:postgresql://host:port/db`, `postgres://host:port/db`, `mysql://…`, `host:port` or `host` */
  dbUrl: string;
  dbName: string | null;
  user: string;
  password: string;
}

const TIMEOUT_MS = 5000;

function endpointOf(url: string, defaultPort: number): { host: string; port: number; database: string | null } | null {
  const text = url.trim().replace(/^jdbc:/, '');
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `db://${text}`;
  try {
    const parsed = new URL(withScheme);
    if (!parsed.hostname) return null;
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || null;
    return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port: parsed.port ? Number(parsed.port) : defaultPort, database };
  } catch {
    return null;
  }
}

function reasonOf(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return (e.code && !/^\d+$/.test(e.code) ? e.code : (e.message ?? 'unknown')).slice(0, 200);
}

/** Really connects (and runs `select 1`) with the given settings: 'ok', 'unsupported' or the failure reason. */
export async function testDataSourceConnection(settings: ConnectionSettings): Promise<'ok' | 'unsupported' | string> {
  const type = settings.dbType.toLowerCase();
  if (type === 'postgresql' || type === 'postgres') {
    const endpoint = endpointOf(settings.dbUrl, 5432);
    if (!endpoint) return 'invalid address';
    const client = new pg.Client({
      host: endpoint.host,
      port: endpoint.port,
      user: settings.user,
      password: settings.password,
      database: settings.dbName || endpoint.database || undefined,
      connectionTimeoutMillis: TIMEOUT_MS,
      query_timeout: TIMEOUT_MS,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('select 1');
      return 'ok';
    } catch (error) {
      return reasonOf(error);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  if (type === 'mysql' || type === 'mariadb') {
    const endpoint = endpointOf(settings.dbUrl, 3306);
    if (!endpoint) return 'invalid address';
    try {
      const connection = await createConnection({
        host: endpoint.host,
        port: endpoint.port,
        user: settings.user,
        password: settings.password,
        database: settings.dbName || endpoint.database || undefined,
        connectTimeout: TIMEOUT_MS,
      });
      try {
        await connection.query('select 1');
      } finally {
        await connection.end().catch(() => undefined);
      }
      return 'ok';
    } catch (error) {
      return reasonOf(error);
    }
  }
  return 'unsupported';
}
