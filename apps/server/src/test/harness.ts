import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import { Redis } from 'ioredis';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { ApiPath, TOKEN_HEADER, type Envelope, type LoginResult } from '@isps/contract';
import { buildApp, type BuildOptions } from '../app.ts';
import { loadConfig, type Config, type DatabaseDialect } from '../config.ts';
import { createUser } from '../modules/system/index.ts';

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const MYSQL_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const INITIAL_ADMIN_PASSWORD = 'Initial#Pass1';
export const ADMIN_PASSWORD = 'Admin#Pass22';
export const USER_PASSWORD = 'User#Pass333';

const inCi = process.env.CI === 'true';
/** `npm run test:quick`: SQLite and the in-process cache only (the whole suite runs every engine) */
const sqliteOnly = process.env.ISPS_TEST_QUICK === '1';

async function reachable(name: string, probe: () => Promise<void>): Promise<boolean> {
  try {
    await probe();
    return true;
  } catch (error) {
    // in CI a missing engine is a broken pipeline, not a reason to test less
    if (inCi) throw new Error(`${name} is not reachable and CI=true: ${(error as Error).message}`);
    return false;
  }
}

async function withPostgres<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function withMysql<T>(run: (connection: Awaited<ReturnType<typeof createConnection>>) => Promise<T>): Promise<T> {
  const connection = await createConnection({ uri: MYSQL_URL, connectTimeout: 2000 });
  try {
    return await run(connection);
  } finally {
    await connection.end();
  }
}

/** SQLite always; PostgreSQL and MariaDB when they answer (with CI=true an unreachable one fails the run). */
export async function testDialects(): Promise<DatabaseDialect[]> {
  const dialects: DatabaseDialect[] = ['sqlite'];
  if (sqliteOnly) return dialects;
  if (await reachable('PostgreSQL', () => withPostgres(async (c) => void (await c.query('select 1'))))) dialects.push('postgres');
  if (await reachable('MariaDB/MySQL', () => withMysql(async (c) => void (await c.query('select 1'))))) dialects.push('mysql');
  return dialects;
}

/** true when Redis answers; with CI=true an unreachable Redis throws. */
export async function redisReachable(): Promise<boolean> {
  if (sqliteOnly) return false;
  return reachable('Redis', async () => {
    const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      await redis.connect();
      await redis.ping();
    } finally {
      redis.disconnect();
    }
  });
}

/** An isolated database for one app: a SQLite file, a PostgreSQL schema or a MariaDB database. */
export interface TestNamespace {
  dialect: DatabaseDialect;
  dataDir: string;
  databaseUrl: string;
  drop(): Promise<void>;
}

export async function createNamespace(dialect: DatabaseDialect): Promise<TestNamespace> {
  const dataDir = mkdtempSync(join(tmpdir(), 'isps-test-'));
  const name = `t_${randomBytes(6).toString('hex')}`;
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (dialect === 'postgres') {
    await withPostgres((c) => c.query(`create schema ${name}`));
    const url = new URL(POSTGRES_URL);
    url.searchParams.set('schema', name);
    return {
      dialect,
      dataDir,
      databaseUrl: url.toString(),
      drop: async () => {
        await withPostgres((c) => c.query(`drop schema if exists ${name} cascade`));
        removeDir();
      },
    };
  }
  if (dialect === 'mysql') {
    await withMysql((c) => c.query(`create database ${name} character set utf8mb4`));
    const url = new URL(MYSQL_URL);
    url.pathname = `/${name}`;
    return {
      dialect,
      dataDir,
      databaseUrl: url.toString(),
      drop: async () => {
        await withMysql((c) => c.query(`drop database if exists ${name}`));
        removeDir();
      },
    };
  }
  return { dialect, dataDir, databaseUrl: join(dataDir, 'isps.db'), drop: async () => removeDir() };
}

/** A clock the test moves by hand. */
export class ManualClock {
  private current = Date.now();
  readonly now = (): number => this.current;
  advance(ms: number): void {
    this.current += ms;
  }
}

export interface TestAppOptions {
  env?: Record<string, string>;
  config?: Partial<Config>;
  redis?: boolean;
  extraRoutes?: BuildOptions['extraRoutes'];
  namespace?: TestNamespace;
}

export interface TestApp {
  app: FastifyInstance;
  clock: ManualClock;
  namespace: TestNamespace;
  /** closes the app and drops its database unless the namespace was handed in */
  close(): Promise<void>;
}

export function testConfig(namespace: TestNamespace, options: TestAppOptions = {}): Config {
  const config = loadConfig({
    DATA_DIR: namespace.dataDir,
    DATABASE_URL: namespace.databaseUrl,
    LOGIN_CAPTCHA: 'off',
    ADMIN_PASSWORD: INITIAL_ADMIN_PASSWORD,
    TOKEN_PEPPER: 'test-pepper-0123456789-0123456789-abcdef',
    LOG_LEVEL: 'silent',
    // no embedded MQTT broker unless a test asks for one on a port of its own
    MQTT_PORT: '0',
    // answers' times do not depend on the machine running the tests
    TIME_ZONE: 'UTC',
    ...(options.redis ? { REDIS_URL } : {}),
    ...options.env,
  });
  return {
    ...config,
    passwordHashing: { memoryCost: 1024, timeCost: 1 },
    rateLimit: { loginPerMinute: 10_000, captchaPerMinute: 10_000, apiKeyPerMinute: 10_000 },
    // a test's user uploads and imports far more than a person in a minute; the upload-limit tests set their own
    uploads: { ...config.uploads, perMinute: 10_000, mbPerMinute: 10_000 },
    cacheKeyPrefix: `isps-test:${randomBytes(6).toString('hex')}:`,
    ...options.config,
  };
}

export async function buildTestApp(dialect: DatabaseDialect, options: TestAppOptions = {}): Promise<TestApp> {
  const namespace = options.namespace ?? (await createNamespace(dialect));
  const clock = new ManualClock();
  const app = await buildApp(testConfig(namespace, options), { clock: clock.now, extraRoutes: options.extraRoutes });
  await app.ready();
  return {
    app,
    clock,
    namespace,
    close: async () => {
      await app.close();
      if (!options.namespace) await namespace.drop();
    },
  };
}

/** Two servers on one SQLite database and one Redis (cache and event bus), as behind a load balancer. */
export interface InstancePair {
  a: TestApp;
  b: TestApp;
  close(): Promise<void>;
}

export async function buildInstancePair(): Promise<InstancePair> {
  const namespace = await createNamespace('sqlite');
  const shared = { namespace, redis: true, config: { cacheKeyPrefix: `isps-pair:${namespace.dataDir.slice(-6)}:` } };
  const a = await buildTestApp('sqlite', shared);
  const b = await buildTestApp('sqlite', shared);
  return {
    a,
    b,
    close: async () => {
      await a.close();
      await b.close();
      await namespace.drop();
    },
  };
}

export function api(app: FastifyInstance, path: string): string {
  return `${app.settings.apiPrefix}${path}`;
}

export type Answer<T = unknown> = LightMyRequestResponse & { envelope: Envelope<T> };

export async function injectAs<T = unknown>(app: FastifyInstance, token: string | null, request: InjectOptions): Promise<Answer<T>> {
  const headers = { ...(request.headers ?? {}), ...(token ? { [TOKEN_HEADER]: token } : {}) };
  const response = await app.inject({ ...request, headers });
  let parsed: Envelope<T>;
  try {
    parsed = response.json<Envelope<T>>();
  } catch {
    parsed = { success: false, message: response.body, code: response.statusCode, result: null as T, timestamp: 0 };
  }
  return Object.assign(response, { envelope: parsed });
}

export async function tryLogin(app: FastifyInstance, username: string, password: string, extra: Record<string, string> = {}, lang?: string) {
  return injectAs<LoginResult>(app, null, {
    method: 'POST',
    url: api(app, ApiPath.login),
    payload: { username, password, ...extra },
    headers: lang ? { lang } : {},
  });
}

export async function login(app: FastifyInstance, username: string, password: string): Promise<string> {
  const answer = await tryLogin(app, username, password);
  if (!answer.envelope.success) throw new Error(`login of ${username} failed: ${answer.envelope.message}`);
  return answer.envelope.result.token;
}

export async function changePassword(app: FastifyInstance, token: string, username: string, oldpassword: string, password: string, lang?: string) {
  return injectAs(app, token, {
    method: 'POST',
    url: api(app, ApiPath.updatePassword),
    payload: { username, oldpassword, password, confirmpassword: password },
    headers: lang ? { lang } : {},
  });
}

/** Logs the seeded admin in, replaces the initial password once, and returns a usable token. */
export async function adminToken(app: FastifyInstance): Promise<string> {
  const first = await tryLogin(app, 'admin', INITIAL_ADMIN_PASSWORD);
  if (first.envelope.success) {
    const changed = await changePassword(app, first.envelope.result.token, 'admin', INITIAL_ADMIN_PASSWORD, ADMIN_PASSWORD);
    if (!changed.envelope.success) throw new Error(`admin password change failed: ${changed.envelope.message}`);
  }
  return login(app, 'admin', ADMIN_PASSWORD);
}

/** The seeded tenant, which the administrator and (unless told otherwise) every test user belong to. */
export async function defaultTenantId(app: FastifyInstance): Promise<string> {
  const tenant = await app.db.selectFrom('sys_tenant').select('id').where('code', '=', 'default').executeTakeFirstOrThrow();
  return tenant.id;
}

/** A user in the default tenant, or in `tenantId` (null: a user without a tenant, who sees no tenant-scoped rows). */
export async function createTestUser(app: FastifyInstance, username: string, options: { roles?: string[]; orgCodes?: string[]; mustChangePassword?: boolean; tenantId?: string | null } = {}) {
  const tenantId = options.tenantId === undefined ? await defaultTenantId(app) : options.tenantId;
  return createUser(
    app,
    { username, realname: username, password: USER_PASSWORD, roleCodes: options.roles ?? [], orgCodes: options.orgCodes ?? [], mustChangePassword: options.mustChangePassword ?? false, tenantId },
    'test',
  );
}
