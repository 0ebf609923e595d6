import { randomBytes, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import { API_KEY_HEADER, LogOperateType, type ApiKeyStatus } from '@isps/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SysApiKey } from '../db/schema.ts';
import { writeOperationLog } from './audit-log.ts';

// API keys (issue 32): `isps_<prefix>.<secret>`, 8 random bytes of prefix (the lookup, kept plain and unique) and 32 of
// secret. Only the peppered SHA-256 of the whole key is stored: the secret is high-entropy, so a slow hash adds nothing.

const KEY_FORMAT = /^isps_([0-9a-f]{16})\.([A-Za-z0-9_-]{43})$/;
/** When a key was used is written at most this often per key and instance. */
const USE_WRITE_EVERY_MS = 60_000;

/** A stored key as authorisation needs it (never its hash). */
export interface ApiKeyRecord {
  id: string;
  name: string;
  tenantId: string;
  codes: readonly string[];
  createdById: string;
  expiresAt: number;
  revokedAt: number | null;
  validUntil: number | null;
}

/** A new key: its lookup prefix and the whole key, which its creator sees once. */
export function newApiKey(): { prefix: string; key: string } {
  const prefix = randomBytes(8).toString('hex');
  return { prefix, key: `isps_${prefix}.${randomBytes(32).toString('base64url')}` };
}

/** The lookup prefix of a well-formed key, else null (nothing is read for a malformed one). */
export function apiKeyPrefix(key: string): string | null {
  return KEY_FORMAT.exec(key)?.[1] ?? null;
}

const API_KEY_HEADER_NAME = API_KEY_HEADER.toLowerCase();

/** The key a request sends in `X-Api-Key`, or null. */
export function headerApiKey(request: FastifyRequest): string | null {
  const value = request.headers[API_KEY_HEADER_NAME];
  const key = Array.isArray(value) ? value[0] : value;
  return key && key.trim() ? key.trim() : null;
}

const instant = (text: string | null) => (text === null ? null : Date.parse(text));

/** The JSON list of codes a row keeps, as a list (an unreadable one holds nothing). */
export function storedCodes(text: string): string[] {
  try {
    const codes = JSON.parse(text) as unknown;
    return Array.isArray(codes) ? codes.filter((c): c is string => typeof c === 'string') : [];
  } catch {
    return [];
  }
}

/** The key a caller sent, when it is stored, matches its hash and its tenant still exists; null otherwise. */
export async function findApiKey(app: FastifyInstance, key: string): Promise<ApiKeyRecord | null> {
  const prefix = apiKeyPrefix(key);
  if (!prefix) return null;
  const row = await app.db
    .selectFrom('sys_api_key as k')
    .innerJoin('sys_tenant as t', 't.id', 'k.tenant_id')
    .select(['k.id', 'k.name', 'k.key_hash', 'k.tenant_id', 'k.perm_codes', 'k.created_by_id', 'k.expires_at', 'k.revoked_at', 'k.valid_until'])
    .where('k.key_prefix', '=', prefix)
    .executeTakeFirst();
  if (!row) return null;
  const [given, stored] = [Buffer.from(app.tokens.fingerprint(key)), Buffer.from(row.key_hash)];
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) return null;
  return {
    id: row.id,
    name: row.name,
    tenantId: row.tenant_id,
    codes: storedCodes(row.perm_codes),
    createdById: row.created_by_id,
    expiresAt: Date.parse(row.expires_at),
    revokedAt: instant(row.revoked_at),
    validUntil: instant(row.valid_until),
  };
}

/** What state a key is in at `now`. */
export function apiKeyStatus(key: Pick<ApiKeyRecord, 'expiresAt' | 'revokedAt' | 'validUntil'>, now: number): ApiKeyStatus {
  if (key.revokedAt !== null) return 'revoked';
  if (!(key.expiresAt > now)) return 'expired';
  if (key.validUntil !== null) return key.validUntil > now ? 'overlap' : 'superseded';
  return 'active';
}

/** A key admits its caller while active, or rotated and still in its overlap. */
export function apiKeyUsable(key: ApiKeyRecord, now: number): boolean {
  const status = apiKeyStatus(key, now);
  return status === 'active' || status === 'overlap';
}

/** The record form of a stored row (lists compute the status from it). */
export function apiKeyTimes(row: Pick<SysApiKey, 'expires_at' | 'revoked_at' | 'valid_until'>): Pick<ApiKeyRecord, 'expiresAt' | 'revokedAt' | 'validUntil'> {
  return { expiresAt: Date.parse(row.expires_at), revokedAt: instant(row.revoked_at), validUntil: instant(row.valid_until) };
}

/**
 * Keeps when and from where keys were used, without a write per request: at most once a minute per key on each
 * instance, after the answer (a failed write is only logged).
 */
export class ApiKeyUses {
  private readonly written = new Map<string, number>();

  constructor(private readonly app: FastifyInstance) {}

  note(keyId: string, ip: string): void {
    const now = this.app.clock();
    const last = this.written.get(keyId);
    if (last !== undefined && now - last < USE_WRITE_EVERY_MS) return;
    if (this.written.size >= 10_000) this.written.clear();
    this.written.set(keyId, now);
    this.write(keyId, ip, new Date(now).toISOString()).catch((error: unknown) => this.app.log.warn({ err: error }, 'api key use not recorded'));
  }

  private async write(keyId: string, ip: string, at: string): Promise<void> {
    const values = { last_used_at: at, last_used_ip: ip.slice(0, 64), update_by: 'api-key', update_time: at };
    const updated = await this.app.db.updateTable('sys_api_key_use').set(values).where('id', '=', keyId).executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) return;
    await this.app.db.insertInto('sys_api_key_use').values({ id: keyId, ...values, create_by: 'api-key', create_time: at }).execute();
  }
}

const OPERATE_TYPES: Record<string, number> = { GET: LogOperateType.query, POST: LogOperateType.add, PUT: LogOperateType.edit, DELETE: LogOperateType.delete };

/**
 * What every call made with a key goes through after the access hook admitted it: the per-key rate limit
 * (API_KEY_RATE_PER_MINUTE, in Redis when configured, like every other limit) and an operation log entry naming the key.
 */
export const apiKeyCallsPlugin = fp(
  async (app) => {
    const limit = app.rateLimit({
      max: app.settings.rateLimit.apiKeyPerMinute,
      timeWindow: 60_000,
      keyGenerator: (request) => `api-key:${request.currentUser?.apiKey?.id ?? ''}`,
    });
    // only for keys: the limiter marks a request as counted, which would skip a public route's own limit
    app.addHook('onRequest', async (request, reply) => {
      if (request.currentUser?.apiKey) await limit.call(app, request, reply);
    });
    app.addHook('onResponse', async (request, reply) => {
      const caller = request.currentUser;
      if (!caller?.apiKey) return;
      try {
        await writeOperationLog(app, {
          operateType: OPERATE_TYPES[request.method] ?? LogOperateType.query,
          userId: caller.apiKey.id,
          username: caller.username,
          tenantId: caller.tenantScope,
          ip: request.ip,
          content: { key: 'apiKey.callLog', params: { method: request.method, path: request.url.split('?')[0]!.slice(0, 300), status: reply.statusCode } },
          costMs: reply.elapsedTime,
        });
      } catch (error) {
        request.log.warn({ err: error }, 'api key call not logged');
      }
    });
  },
  { name: 'api-key-calls', dependencies: ['access', '@fastify/rate-limit'] },
);
