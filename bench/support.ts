/**
 * What the HTTP benchmarks share: a console on a fresh database (SQLite, or PostgreSQL in a schema of its own),
 * an administrator's token, bulk rows, autocannon runs and the result line every bench prints:
 * `name value baseline ratio target PASS|FAIL`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { FastifyInstance } from 'fastify';
import { sql, type Insertable } from 'kysely';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import type { Database } from '../apps/server/src/db/schema.ts';

export const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const FIRST_PASSWORD = 'Bench#Pass1';
const PASSWORD = 'Bench#Pass2';

export interface BenchConsole {
  app: FastifyInstance;
  /** base URL of the listening console, e.g. http://127.0.0.1:40123 */
  url: string;
  token: string;
  tenantId: string;
  close(): Promise<void>;
}

export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** A console listening on a free port of 127.0.0.1, with the administrator signed in. */
export async function startConsole(dialect: 'sqlite' | 'postgres'): Promise<BenchConsole> {
  const dataDir = mkdtempSync(join(tmpdir(), 'isps-bench-'));
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  let databaseUrl: string | undefined;
  if (dialect === 'postgres') {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
    const url = new URL(POSTGRES_URL);
    url.searchParams.set('schema', schema);
    databaseUrl = url.toString();
  }
  const app = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ADMIN_PASSWORD: FIRST_PASSWORD,
      LOGIN_CAPTCHA: 'off',
      LOG_LEVEL: 'silent',
      MQTT_PORT: '0',
      TIME_ZONE: 'UTC',
    }),
  );
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const login = async (password: string) =>
    ((await app.inject({ method: 'POST', url: '/api/sys/login', payload: { username: 'admin', password } })).json() as { result: { token: string } }).result.token;
  const first = await login(FIRST_PASSWORD);
  await app.inject({
    method: 'POST',
    url: '/api/sys/user/updatePassword',
    headers: { 'X-Access-Token': first },
    payload: { username: 'admin', oldpassword: FIRST_PASSWORD, password: PASSWORD, confirmpassword: PASSWORD },
  });
  const token = await login(PASSWORD);
  const tenant = await app.db.selectFrom('sys_tenant').select('id').where('code', '=', 'default').executeTakeFirstOrThrow();
  return {
    app,
    url: address,
    token,
    tenantId: tenant.id,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (dialect === 'postgres') {
        const client = new pg.Client({ connectionString: POSTGRES_URL });
        await client.connect();
        await client.query(`drop schema if exists ${schema} cascade`);
        await client.end();
      }
    },
  };
}

const GIVEN = ['Wang', 'Li', 'Zhang', 'Liu', 'Chen', 'Yang', 'Huang', 'Zhao', 'Sato', 'Suzuki', 'Smith', 'Jones'];

/** `count` users and as many positions in the console's tenant, created over the last `count` minutes. */
export async function seedRows(app: FastifyInstance, tenantId: string, count: number): Promise<void> {
  const started = Date.now() - count * 60_000;
  const batch = 500;
  for (let from = 0; from < count; from += batch) {
    const users: Insertable<Database['sys_user']>[] = [];
    const positions: Insertable<Database['sys_position']>[] = [];
    for (let i = from; i < Math.min(count, from + batch); i++) {
      const created = new Date(started + i * 60_000).toISOString();
      const audit = { create_by: 'bench', create_time: created, update_by: null, update_time: null };
      users.push({
        ...audit,
        id: randomUUID(),
        username: `user${String(i).padStart(6, '0')}`,
        realname: `${GIVEN[i % GIVEN.length]} ${i}`,
        nickname: null,
        password: 'not-a-hash',
        avatar: null,
        birthday: null,
        sex: i % 2,
        email: null,
        phone: `138${String(i).padStart(8, '0')}`,
        org_code: null,
        status: 1,
        del_flag: 0,
        work_no: `W${i}`,
        must_change_password: 0,
        tenant_id: tenantId,
      });
      positions.push({ ...audit, id: randomUUID(), code: `P${String(i).padStart(6, '0')}`, name: `${GIVEN[i % GIVEN.length]} post ${i}`, post_rank: String(1 + (i % 5)), tenant_id: tenantId });
    }
    await app.db.transaction().execute(async (trx) => {
      await trx.insertInto('sys_user').values(users).execute();
      await trx.insertInto('sys_position').values(positions).execute();
    });
  }
  if (app.dialect === 'postgres') await sql`analyze`.execute(app.db);
}

export { statementsOf } from '../apps/server/src/test/statements.ts';

export interface Load {
  requestsPerSecond: number;
  p99: number;
  failures: number;
}

/**
 * Counts the requests a server has taken and not yet answered. A load run that ends drops its connections with
 * requests still in flight; the server goes on working them, so the next run would pay for them: `idle()` waits until
 * each one has been answered (its response ended, whether or not anyone still reads it).
 */
export function inFlight(server: Server): { idle(): Promise<void> } {
  let open = 0;
  let changed = Date.now();
  server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
    open += 1;
    changed = Date.now();
    const end = response.end;
    let ended = false;
    response.end = function (this: ServerResponse, ...args: unknown[]) {
      if (!ended) {
        ended = true;
        open -= 1;
        changed = Date.now();
      }
      return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as ServerResponse['end'];
  });
  return {
    /** Resolves once nothing is in flight and no request came for 100 ms (a client still sending after its run would show). */
    async idle() {
      const started = Date.now();
      while (open > 0 || Date.now() - changed < 100) {
        if (Date.now() - started > 120_000) throw new Error(`the server is not idle after two minutes (${open} requests in flight)`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
  };
}

/**
 * 50 connections against one URL for `seconds`, after a short warm-up; with `drained`, the server has answered every
 * request of the warm-up before the measured run starts and every request of the run before this answers.
 */
export async function load(url: string, headers: Record<string, string>, seconds = 4, connections = 50, drained?: () => Promise<void>): Promise<Load> {
  await autocannon({ url, headers, connections, duration: 1 });
  await drained?.();
  const result = await autocannon({ url, headers, connections, duration: seconds });
  await drained?.();
  return { requestsPerSecond: result.requests.average, p99: result.latency.p99, failures: result.non2xx + result.errors + result.timeouts };
}

let failed = false;

/** Prints `name value baseline ratio target PASS|FAIL`; `pass` decides the verdict. */
export function report(name: string, value: string, baseline: string, ratio: number | null, target: string, pass: boolean): void {
  if (!pass) failed = true;
  console.log([name, value, baseline, ratio === null ? '-' : ratio.toFixed(2), target, pass ? 'PASS' : 'FAIL'].join('  '));
}

/** Ends the bench with a failing status when any of its targets failed. */
export function finish(): void {
  process.exitCode = failed ? 1 : 0;
}
