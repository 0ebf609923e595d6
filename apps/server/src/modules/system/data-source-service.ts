import { withDeadline } from '../../platform/outbound.ts';

export interface ConnectionSettings {
  dbType: string;
  /** `jdbc:postgresql://host:port/db`, `postgres://host:port/db`, `mysql://…`, `host:port` or `host` */
  dbUrl: string;
  dbName: string | null;
  user: string;
  password: string;
}

/** The database kinds the server connects to (dbType), with the driver it uses for each. */
export const dataSourceKinds = [
  { value: 'postgresql', driver: 'pg' },
  { value: 'mysql', driver: 'mysql2' },
  { value: 'mariadb', driver: 'mysql2' },
] as const;

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

/**
 * Really connects (and runs `select 1`) with the given settings within `timeoutMs`: 'ok', 'unsupported' or 'failed'.
 * Why it failed is logged, never answered: a driver's error tells which hosts and ports answer.
 */
export async function testDataSourceConnection(settings: ConnectionSettings, timeoutMs: number, log?: (error: unknown) => void): Promise<'ok' | 'unsupported' | 'failed'> {
  const type = settings.dbType.toLowerCase();
  const postgres = type === 'postgresql' || type === 'postgres';
  if (!postgres && type !== 'mysql' && type !== 'mariadb') return 'unsupported';
  const endpoint = endpointOf(settings.dbUrl, postgres ? 5432 : 3306);
  if (!endpoint) return 'failed';
  const target = { host: endpoint.host, port: endpoint.port, user: settings.user, password: settings.password, database: settings.dbName || endpoint.database || undefined };
  let close: () => Promise<void> = async () => undefined;
  try {
    await withDeadline(timeoutMs, async () => {
      if (postgres) {
        // the drivers load at the first test of a data source of their kind
        const pg = (await import('pg')).default;
        const client = new pg.Client({ ...target, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
        client.on('error', () => undefined);
        close = () => client.end().catch(() => undefined);
        await client.connect();
        await client.query('select 1');
      } else {
        const { createConnection } = await import('mysql2/promise');
        const pending = createConnection({ ...target, connectTimeout: timeoutMs });
        close = async () => {
          const connection = await pending.catch(() => null);
          connection?.destroy();
        };
        const connection = await pending;
        await connection.query('select 1');
      }
    });
    return 'ok';
  } catch (error) {
    log?.(error);
    return 'failed';
  } finally {
    void close();
  }
}
