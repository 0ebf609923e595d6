import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { isTimeZone, machineTimeZone } from './platform/wire-time.ts';

export type DatabaseDialect = 'sqlite' | 'postgres' | 'mysql';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  apiPrefix: string;
  dataDir: string;
  databaseUrl: string;
  dialect: DatabaseDialect;
  redisUrl: string | null;
  mqttUrl: string | null;
  mqttPort: number;
  /** the largest MQTT packet a signed-in device may send to the embedded broker, in KiB (before sign-in: 4 kB) */
  mqttMaxPacketKb: number;
  adminPassword: string | null;
  loginCaptcha: boolean;
  logLevel: LogLevel;
  /** from TOKEN_PEPPER; when null the pepper is read from (or generated into) DATA_DIR/secrets.json */
  tokenPepper: string | null;
  /** argon2id cost; tests lower it, production keeps the OWASP baseline */
  passwordHashing: { memoryCost: number; timeCost: number };
  /** apiKeyPerMinute: calls each API key may make a minute (API_KEY_RATE_PER_MINUTE) */
  rateLimit: { loginPerMinute: number; captchaPerMinute: number; apiKeyPerMinute: number };
  /** namespace of every cache key, so several consoles (or test runs) can share one Redis */
  cacheKeyPrefix: string;
  webDistDir: string;
  /** outgoing e-mail of the message center: SMTP_URL (smtp://user:pass@host:port or smtps://…), null disables e-mail */
  smtp: { url: string | null; from: string };
  /** where SMS verification codes go: the server log (single-box installs) or an HTTP webhook */
  sms: { provider: 'log' | 'webhook'; webhookUrl: string | null };
  /** CAS server base URL (…/cas) whose serviceValidate checks single sign-on tickets; null disables CAS */
  casServerUrl: string | null;
  /** the console's own CAS service URL (CAS_SERVICE_URL): tickets are validated for it only, never for a URL a caller names */
  casServiceUrl: string | null;
  /** IANA zone of the `yyyy-MM-dd HH:mm:ss` times on the wire (TIME_ZONE, default the machine's); storage is UTC */
  timeZone: string;
  /** connect-and-answer limit of connections a user can aim (data-source test, SMS webhook, CAS server) */
  outboundTimeoutMs: number;
  /** PUBLIC_URL without a trailing slash: the address devices and links reach this server at; never a request's Host header */
  publicUrl: string | null;
  /** upload limits: files and MiB each user may send a minute (UPLOADS_PER_MINUTE, UPLOAD_MB_PER_MINUTE), MiB each tenant may keep (TENANT_UPLOAD_QUOTA_MB) */
  uploads: { perMinute: number; mbPerMinute: number; tenantQuotaMb: number };
  /** METRICS_TOKEN: a scraper sends it as `Authorization: Bearer …` to read /metrics without a session; null: sessions only */
  metricsToken: string | null;
  /**
   * webhook deliveries: how often the queue is looked at (WEBHOOK_POLL_MS), the first retry wait (WEBHOOK_RETRY_BASE_MS;
   * later ones grow from it, at most an hour apart), how long a delivery is retried, and each attempt's deadline
   */
  webhooks: { pollMs: number; retryBaseMs: number; retryWindowMs: number; timeoutMs: number };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const port = z.coerce.number().int().min(0).max(65535);

interface Rule<T> {
  schema: z.ZodType<T>;
  allowed: string;
}

const rules = {
  PORT: { schema: port, allowed: 'an integer from 0 to 65535' } as Rule<number>,
  HOST: { schema: z.string().min(1).regex(/^[A-Za-z0-9.:_-]+$/), allowed: 'a host name or IP address' } as Rule<string>,
  API_PREFIX: {
    schema: z.string().regex(/^\/[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/),
    allowed: 'a path such as /api (leading slash, no trailing slash)',
  } as Rule<string>,
  DATA_DIR: { schema: z.string().min(1), allowed: 'a directory path' } as Rule<string>,
  DATABASE_URL: {
    schema: z.string().min(1).refine((v) => !v.includes('://') || /^(postgres|postgresql|mysql|mariadb):\/\//.test(v)),
    allowed: 'postgres://…, mysql://… or a SQLite file path',
  } as Rule<string>,
  REDIS_URL: { schema: z.string().regex(/^rediss?:\/\/.+/), allowed: 'redis://host:port or rediss://…' } as Rule<string>,
  MQTT_URL: { schema: z.string().regex(/^(mqtts?|wss?|tcp):\/\/.+/), allowed: 'mqtt://host:port (or mqtts://, ws://, wss://)' } as Rule<string>,
  MQTT_PORT: { schema: port, allowed: 'an integer from 0 to 65535 (0 disables the embedded broker)' } as Rule<number>,
  MQTT_MAX_PACKET_KB: { schema: z.coerce.number().int().min(4).max(65_536), allowed: 'an integer from 4 to 65536 (KiB)' } as Rule<number>,
  ADMIN_PASSWORD: { schema: z.string().min(8).max(200), allowed: 'a password of at least 8 characters' } as Rule<string>,
  LOGIN_CAPTCHA: { schema: z.enum(['on', 'off']), allowed: 'on or off' } as Rule<'on' | 'off'>,
  LOG_LEVEL: { schema: z.enum(LOG_LEVELS), allowed: LOG_LEVELS.join(', ') } as Rule<LogLevel>,
  TOKEN_PEPPER: { schema: z.string().min(32), allowed: 'a random string of at least 32 characters' } as Rule<string>,
  SMTP_URL: { schema: z.string().regex(/^smtps?:\/\/[^\s/?#]+(:\d+)?\/?(\?\S*)?$/), allowed: 'smtp://[user:password@]host[:port] or smtps://…' } as Rule<string>,
  SMTP_FROM: { schema: z.string().min(3).max(200).regex(/@/), allowed: 'a sender address such as "ISPS Console <console@example.com>"' } as Rule<string>,
  SMS_PROVIDER: { schema: z.enum(['log', 'webhook']), allowed: 'log or webhook' } as Rule<'log' | 'webhook'>,
  SMS_WEBHOOK_URL: { schema: z.string().regex(/^https?:\/\/.+/), allowed: 'an http(s):// URL' } as Rule<string>,
  CAS_SERVER_URL: { schema: z.string().regex(/^https?:\/\/[^?#]+$/), allowed: 'the http(s):// base URL of the CAS server, without query' } as Rule<string>,
  TIME_ZONE: { schema: z.string().refine(isTimeZone), allowed: 'an IANA time zone name such as Asia/Shanghai, Europe/Berlin or UTC' } as Rule<string>,
  CAS_SERVICE_URL: { schema: z.string().regex(/^https?:\/\/[^#\s]+$/), allowed: "the http(s):// URL of the console's CAS login page" } as Rule<string>,
  API_KEY_RATE_PER_MINUTE: { schema: z.coerce.number().int().min(1).max(1_000_000), allowed: 'an integer from 1 to 1000000' } as Rule<number>,
  UPLOADS_PER_MINUTE: { schema: z.coerce.number().int().min(1).max(100_000), allowed: 'an integer from 1 to 100000' } as Rule<number>,
  UPLOAD_MB_PER_MINUTE: { schema: z.coerce.number().int().min(1).max(1_000_000), allowed: 'an integer from 1 to 1000000 (MiB)' } as Rule<number>,
  TENANT_UPLOAD_QUOTA_MB: { schema: z.coerce.number().int().min(1).max(100_000_000), allowed: 'an integer from 1 to 100000000 (MiB)' } as Rule<number>,
  METRICS_TOKEN: { schema: z.string().min(16).max(200).regex(/^[\x21-\x7e]+$/), allowed: 'a random string of 16 to 200 printable characters without spaces' } as Rule<string>,
  WEBHOOK_POLL_MS: { schema: z.coerce.number().int().min(10).max(60_000), allowed: 'an integer from 10 to 60000 (ms)' } as Rule<number>,
  WEBHOOK_RETRY_BASE_MS: { schema: z.coerce.number().int().min(10).max(3_600_000), allowed: 'an integer from 10 to 3600000 (ms)' } as Rule<number>,
  PUBLIC_URL: { schema: z.string().refine(isPublicUrl), allowed: 'an absolute http(s):// URL such as https://console.example.com, without user, password, query or fragment' } as Rule<string>,
};

/** An absolute http(s) URL that carries no credentials, query or fragment (devices send their key to it). */
function isPublicUrl(value: string): boolean {
  if (!URL.canParse(value) || /\s/.test(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && url.username === '' && url.password === '' && url.search === '' && url.hash === '' && !/[?#]/.test(value);
}

type RuleName = keyof typeof rules;

export function dialectOf(databaseUrl: string): DatabaseDialect {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return 'postgres';
  if (/^(mysql|mariadb):\/\//.test(databaseUrl)) return 'mysql';
  return 'sqlite';
}

const serverSrcDir = dirname(fileURLToPath(import.meta.url));

/** Reads and validates the environment contract (DESIGN section 4); throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const problems: string[] = [];
  function read<N extends RuleName>(name: N, fallback?: string): z.infer<(typeof rules)[N]['schema']> | undefined {
    const raw = env[name];
    const value = raw === undefined || raw === '' ? fallback : raw;
    if (value === undefined) return undefined;
    const parsed = rules[name].schema.safeParse(value);
    if (!parsed.success) {
      const shown = name === 'ADMIN_PASSWORD' || name === 'TOKEN_PEPPER' || name === 'SMTP_URL' || name === 'METRICS_TOKEN' || (name === 'PUBLIC_URL' && value.includes('@')) ? '(hidden)' : JSON.stringify(value);
      problems.push(`${name} must be ${rules[name].allowed}; got ${shown}`);
      return undefined;
    }
    return parsed.data as z.infer<(typeof rules)[N]['schema']>;
  }

  const dataDir = resolve(read('DATA_DIR', './data') ?? './data');
  const databaseUrlRaw = read('DATABASE_URL', join(dataDir, 'isps.db'));
  const config = {
    port: read('PORT', '8080'),
    host: read('HOST', '0.0.0.0'),
    apiPrefix: read('API_PREFIX', '/api'),
    dataDir,
    databaseUrl: databaseUrlRaw,
    redisUrl: read('REDIS_URL') ?? null,
    mqttUrl: read('MQTT_URL') ?? null,
    mqttPort: read('MQTT_PORT', '1884'),
    mqttMaxPacketKb: read('MQTT_MAX_PACKET_KB', '256'),
    adminPassword: read('ADMIN_PASSWORD') ?? null,
    loginCaptcha: read('LOGIN_CAPTCHA', 'on'),
    logLevel: read('LOG_LEVEL', 'info'),
    tokenPepper: read('TOKEN_PEPPER') ?? null,
    smtpUrl: read('SMTP_URL') ?? null,
    smtpFrom: read('SMTP_FROM', 'ISPS Console <no-reply@localhost>'),
    smsProvider: read('SMS_PROVIDER', 'log'),
    smsWebhookUrl: read('SMS_WEBHOOK_URL') ?? null,
    casServerUrl: read('CAS_SERVER_URL') ?? null,
    casServiceUrl: read('CAS_SERVICE_URL') ?? null,
    timeZone: read('TIME_ZONE') ?? machineTimeZone(),
    apiKeyPerMinute: read('API_KEY_RATE_PER_MINUTE', '600'),
    uploadsPerMinute: read('UPLOADS_PER_MINUTE', '30'),
    uploadMbPerMinute: read('UPLOAD_MB_PER_MINUTE', '50'),
    tenantUploadQuotaMb: read('TENANT_UPLOAD_QUOTA_MB', '1024'),
    publicUrl: read('PUBLIC_URL') ?? null,
    metricsToken: read('METRICS_TOKEN') ?? null,
    webhookPollMs: read('WEBHOOK_POLL_MS', '1000'),
    webhookRetryBaseMs: read('WEBHOOK_RETRY_BASE_MS', '5000'),
  };
  if (config.smsProvider === 'webhook' && !config.smsWebhookUrl) problems.push('SMS_WEBHOOK_URL must be set when SMS_PROVIDER is webhook');
  if (problems.length > 0) throw new ConfigError(problems);
  const databaseUrl = config.databaseUrl as string;
  const dialect = dialectOf(databaseUrl);
  return {
    port: config.port as number,
    host: config.host as string,
    apiPrefix: config.apiPrefix as string,
    dataDir,
    databaseUrl: dialect === 'sqlite' ? resolve(databaseUrl.replace(/^(sqlite|file):/, '')) : databaseUrl,
    dialect,
    redisUrl: config.redisUrl,
    mqttUrl: config.mqttUrl,
    mqttPort: config.mqttPort as number,
    mqttMaxPacketKb: config.mqttMaxPacketKb as number,
    adminPassword: config.adminPassword,
    loginCaptcha: config.loginCaptcha === 'on',
    logLevel: config.logLevel as LogLevel,
    tokenPepper: config.tokenPepper,
    passwordHashing: { memoryCost: 19_456, timeCost: 2 },
    rateLimit: { loginPerMinute: 20, captchaPerMinute: 30, apiKeyPerMinute: config.apiKeyPerMinute as number },
    cacheKeyPrefix: 'isps:',
    webDistDir: resolve(serverSrcDir, '../../web/dist'),
    smtp: { url: config.smtpUrl, from: config.smtpFrom as string },
    sms: { provider: config.smsProvider as 'log' | 'webhook', webhookUrl: config.smsWebhookUrl },
    casServerUrl: config.casServerUrl ? config.casServerUrl.replace(/\/+$/, '') : null,
    casServiceUrl: config.casServiceUrl,
    timeZone: config.timeZone,
    outboundTimeoutMs: 5000,
    uploads: { perMinute: config.uploadsPerMinute as number, mbPerMinute: config.uploadMbPerMinute as number, tenantQuotaMb: config.tenantUploadQuotaMb as number },
    publicUrl: config.publicUrl ? config.publicUrl.replace(/\/+$/, '') : null,
    metricsToken: config.metricsToken,
    webhooks: { pollMs: config.webhookPollMs as number, retryBaseMs: config.webhookRetryBaseMs as number, retryWindowMs: 24 * 3_600_000, timeoutMs: 10_000 },
  };
}

/** DATA_DIR holds the database, the secrets and the uploads: only the server's user may enter it (0700). */
export function privateDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    chmodSync(dir, 0o700);
  } catch {
    // a folder the server does not own (a mounted volume) keeps the mode its owner gave it
  }
}

interface Secrets {
  tokenPepper: string;
}

/** The data-source encryption key: DATA_SOURCE_KEY when given, else DATA_DIR/data-source.key, created (0600) at first start. */
export function resolveDataSourceKey(config: Config, env: Record<string, string | undefined> = process.env): string {
  // called at every start: a DATA_DIR made by hand (or by an older version) is closed to other users too
  privateDataDir(config.dataDir);
  const given = env.DATA_SOURCE_KEY;
  if (given) {
    if (given.length < 32) throw new ConfigError(['DATA_SOURCE_KEY must be a random string of at least 32 characters']);
    return given;
  }
  const file = join(config.dataDir, 'data-source.key');
  if (existsSync(file)) {
    const key = readFileSync(file, 'utf8').trim();
    if (key.length >= 32) return key;
    throw new ConfigError([`${file} holds no valid key; restore it or set DATA_SOURCE_KEY`]);
  }
  privateDataDir(config.dataDir);
  const key = randomBytes(32).toString('base64url');
  writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return key;
}

/** The token pepper: TOKEN_PEPPER when given, else DATA_DIR/secrets.json, created (mode 0600) at first start. */
export function resolveTokenPepper(config: Config): string {
  if (config.tokenPepper) return config.tokenPepper;
  const file = join(config.dataDir, 'secrets.json');
  if (existsSync(file)) {
    const secrets = JSON.parse(readFileSync(file, 'utf8')) as Partial<Secrets>;
    if (typeof secrets.tokenPepper === 'string' && secrets.tokenPepper.length >= 32) return secrets.tokenPepper;
    throw new ConfigError([`${file} holds no valid tokenPepper; restore it or set TOKEN_PEPPER`]);
  }
  privateDataDir(config.dataDir);
  const secrets: Secrets = { tokenPepper: randomBytes(32).toString('base64url') };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: 'wx' });
  // the mode passed to writeFileSync is filtered by umask; make sure nobody else can read it
  chmodSync(file, 0o600);
  return secrets.tokenPepper;
}
