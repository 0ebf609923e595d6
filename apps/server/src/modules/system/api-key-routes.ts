import { randomUUID } from 'node:crypto';
import {
  API_KEY_DEFAULT_OVERLAP_HOURS,
  API_KEY_MAX_LIFETIME_DAYS,
  ApiKeyPath,
  ApiKeyPerm,
  apiKeyAddBody,
  apiKeyIdBody,
  apiKeyListQuery,
  apiKeyRotateBody,
  type ApiKeyCreated,
  type ApiKeyRow,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import type { SysApiKey } from '../../db/schema.ts';
import { callerOf, type CurrentUser } from '../../platform/access.ts';
import { apiKeyStatus, apiKeyTimes, newApiKey, storedCodes } from '../../platform/api-keys.ts';
import { OperationType, writeCallerLog } from '../../platform/audit-log.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { assertMayGiveApiKey } from '../../platform/grants.ts';
import { tenantScopedAcross } from '../../platform/tenancy.ts';
import { parseWireInstant } from '../../platform/wire-time.ts';
import { escapeLike, likeEscaped } from './like-pattern.ts';

const tags = ['system'];
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

type KeyRow = SysApiKey & { tenant_name: string | null; last_used_at: string | null; last_used_ip: string | null };

function keysOf(app: FastifyInstance, caller: CurrentUser) {
  const query = app.db
    .selectFrom('sys_api_key as k')
    .leftJoin('sys_tenant as t', 't.id', 'k.tenant_id')
    .leftJoin('sys_api_key_use as u', 'u.id', 'k.id')
    .selectAll('k')
    .select(['t.name as tenant_name', 'u.last_used_at', 'u.last_used_ip']);
  // a system administrator manages every tenant's keys, and the list shows each key's tenant
  return tenantScopedAcross(query, caller, 'k.tenant_id');
}

function toRow(row: KeyRow, now: number): ApiKeyRow {
  const codes = storedCodes(row.perm_codes);
  return {
    id: row.id,
    name: row.name,
    prefix: `isps_${row.key_prefix}`,
    tenantId: row.tenant_id,
    tenantName: row.tenant_name,
    permCodes: codes,
    permCount: codes.length,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    validUntil: row.valid_until,
    rotatedFrom: row.rotated_from,
    status: apiKeyStatus(apiKeyTimes(row), now),
    lastUsedAt: row.last_used_at,
    lastUsedIp: row.last_used_ip,
    createBy: row.create_by,
    createTime: row.create_time,
  };
}

async function keyInScope(app: FastifyInstance, caller: CurrentUser, id: string): Promise<KeyRow> {
  const row = await keysOf(app, caller).where('k.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('notFound', 'apiKey.notFound');
  return row as KeyRow;
}

/** Stores a new key and answers it with its secret, the one time it is shown. */
async function storeKey(app: FastifyInstance, caller: CurrentUser, values: { name: string; tenantId: string; codes: readonly string[]; expiresAt: string; rotatedFrom: string | null }): Promise<ApiKeyCreated> {
  const { prefix, key } = newApiKey();
  const now = new Date(app.clock()).toISOString();
  const id = randomUUID();
  const row: SysApiKey = {
    id,
    name: values.name,
    key_prefix: prefix,
    key_hash: app.tokens.fingerprint(key),
    tenant_id: values.tenantId,
    perm_codes: JSON.stringify(values.codes),
    expires_at: values.expiresAt,
    revoked_at: null,
    valid_until: null,
    rotated_from: values.rotatedFrom,
    created_by_id: caller.id,
    create_by: caller.username,
    create_time: now,
    update_by: null,
    update_time: null,
  };
  await app.db.insertInto('sys_api_key').values(row).execute();
  return { ...(toRow({ ...(await keyInScope(app, { ...caller, systemAdmin: true }, id)) }, app.clock())), secret: key };
}

/** API keys for integrations (issue 32): made, listed, revoked, rotated and deleted by signed-in administrators only. */
export const apiKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    ApiKeyPath.list,
    { schema: { tags, summary: 'API keys of the caller’s tenant (every tenant’s for a system administrator), with their last use; never a secret', querystring: apiKeyListQuery }, config: { permission: ApiKeyPerm.list, userOnly: true } },
    async (request, reply) => {
      const { pageNo, pageSize, name } = request.query;
      const caller = callerOf(request);
      let base = keysOf(app, caller);
      if (name?.trim()) base = base.where(likeEscaped('k.name', `%${escapeLike(name.trim())}%`));
      const counted = await base.clearSelect().select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
      const total = Number(counted?.n ?? 0);
      const rows = await base.orderBy('k.create_time', 'desc').orderBy('k.id').limit(pageSize).offset((pageNo - 1) * pageSize).execute();
      const now = app.clock();
      const records = rows.map((r) => toRow(r as KeyRow, now));
      return reply.ok({ records, total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) });
    },
  );

  app.post(
    ApiKeyPath.add,
    {
      schema: { tags, summary: 'Create an API key: codes the caller holds, a tenant he may give, an expiry; answers the key once', body: apiKeyAddBody },
      config: { permission: ApiKeyPerm.add, userOnly: true },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const body = request.body;
      const expires = parseWireInstant(body.expiresAt, app.settings.timeZone);
      if (expires === null) throw new AppError('badRequest', 'validation.dateTime', { field: 'expiresAt' });
      const now = app.clock();
      if (expires <= now) refuse('apiKey.expiryPast');
      if (expires > now + API_KEY_MAX_LIFETIME_DAYS * DAY_MS) refuse('apiKey.expiryTooFar', { days: API_KEY_MAX_LIFETIME_DAYS });
      const codes = [...new Set(body.permCodes.map((c) => c.trim()).filter(Boolean))];
      await assertMayGiveApiKey(app, caller, { permCodes: codes, tenantId: body.tenantId });
      const created = await storeKey(app, caller, { name: body.name, tenantId: body.tenantId, codes, expiresAt: new Date(expires).toISOString(), rotatedFrom: null });
      await writeCallerLog(reply, caller, { key: 'apiKey.createdLog', params: { name: created.name, prefix: created.prefix } }, OperationType.add);
      return reply.ok(created, 'apiKey.created');
    },
  );

  app.put(
    ApiKeyPath.revoke,
    { schema: { tags, summary: 'Revoke an API key: it is refused from now on', body: apiKeyIdBody }, config: { permission: ApiKeyPerm.revoke, userOnly: true } },
    async (request, reply) => {
      const caller = callerOf(request);
      const row = await keyInScope(app, caller, request.body.id);
      if (row.revoked_at === null) {
        const now = new Date(app.clock()).toISOString();
        await app.db.updateTable('sys_api_key').set({ revoked_at: now, update_by: caller.username, update_time: now }).where('id', '=', row.id).execute();
        await writeCallerLog(reply, caller, { key: 'apiKey.revokedLog', params: { name: row.name, prefix: `isps_${row.key_prefix}` } }, OperationType.edit);
      }
      return reply.ok(null, 'apiKey.revoked');
    },
  );

  app.post(
    ApiKeyPath.rotate,
    {
      schema: { tags, summary: 'Rotate an API key: a successor with the same codes, tenant and expiry (its key answered once); the old key stays valid until the overlap ends', body: apiKeyRotateBody },
      config: { permission: ApiKeyPerm.rotate, userOnly: true },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const row = await keyInScope(app, caller, request.body.id);
      const now = app.clock();
      if (apiKeyStatus(apiKeyTimes(row), now) !== 'active') refuse('apiKey.notRotatable');
      const codes = storedCodes(row.perm_codes);
      // the successor is the rotator's key: he must be able to give it, as if he made it
      await assertMayGiveApiKey(app, caller, { permCodes: codes, tenantId: row.tenant_id });
      const overlapHours = request.body.overlapHours ?? API_KEY_DEFAULT_OVERLAP_HOURS;
      const validUntil = new Date(Math.min(now + overlapHours * HOUR_MS, Date.parse(row.expires_at))).toISOString();
      const created = await storeKey(app, caller, { name: row.name, tenantId: row.tenant_id, codes, expiresAt: row.expires_at, rotatedFrom: row.id });
      const stamp = new Date(now).toISOString();
      await app.db.updateTable('sys_api_key').set({ valid_until: validUntil, update_by: caller.username, update_time: stamp }).where('id', '=', row.id).execute();
      await writeCallerLog(reply, caller, { key: 'apiKey.rotatedLog', params: { name: row.name, prefix: `isps_${row.key_prefix}`, successor: created.prefix } }, OperationType.add);
      return reply.ok(created, 'apiKey.rotated');
    },
  );

  app.delete(
    ApiKeyPath.delete,
    { schema: { tags, summary: 'Delete an API key: it is refused from now on and leaves the list', querystring: z.object({ id: apiKeyIdBody.shape.id }) }, config: { permission: ApiKeyPerm.delete, userOnly: true } },
    async (request, reply) => {
      const caller = callerOf(request);
      const row = await keyInScope(app, caller, request.query.id);
      await app.db.deleteFrom('sys_api_key_use').where('id', '=', row.id).execute();
      await app.db.deleteFrom('sys_api_key').where('id', '=', row.id).execute();
      await writeCallerLog(reply, caller, { key: 'apiKey.deletedLog', params: { name: row.name, prefix: `isps_${row.key_prefix}` } }, OperationType.delete);
      return reply.ok(null, 'apiKey.deleted');
    },
  );
};
