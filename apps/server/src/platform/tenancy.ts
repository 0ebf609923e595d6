import { ID_PATTERN, TENANT_HEADER, type EntityDeclaration } from '@isps/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { CurrentUser } from './access.ts';
import { AppError } from './envelope.ts';

/**
 * The one place rows of tenant-scoped tables are narrowed to the caller's tenant: the CRUD engine and every
 * hand-written query (announcements, messages, templates, uploads, logs, dashboard figures) go through it. A caller
 * without a tenant scope sees nothing, never every tenant.
 */
export function tenantScoped<Q>(query: Q, caller: Pick<CurrentUser, 'tenantScope'>, column = 'tenant_id'): Q {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const builder = query as any;
  return (caller.tenantScope === null ? builder.where(sql<boolean>`1 = 0`) : builder.where(column, '=', caller.tenantScope)) as Q;
}

/**
 * Rows of the caller's tenant, or of every tenant for a system administrator: for platform-wide lists (the stored
 * files), whose rows then show their tenant.
 */
export function tenantScopedAcross<Q>(query: Q, caller: Pick<CurrentUser, 'tenantScope' | 'systemAdmin'>, column = 'tenant_id'): Q {
  return caller.systemAdmin ? query : tenantScoped(query, caller, column);
}

/**
 * Rows of the tenant another row belongs to (a visitor's hosts, a device's people): that row's own tenant, where a
 * row of no tenant matches only rows of no tenant.
 */
export function sameTenantAs<Q>(query: Q, tenantId: string | null, column = 'tenant_id'): Q {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const builder = query as any;
  return (tenantId === null ? builder.where(column, 'is', null) : builder.where(column, '=', tenantId)) as Q;
}

/** The tenant a new row of a tenant-scoped table belongs to: the one the caller works in. */
export function writeTenant(caller: Pick<CurrentUser, 'tenantScope'>): string | null {
  return caller.tenantScope;
}

function headerValue(request: FastifyRequest, name: string): string {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? '';
}

/**
 * The tenant a caller works in: a system administrator's is the one named in the `tenant-id` header (any existing
 * tenant; `0`, none or a tenant since deleted means his own, so a stale choice never locks the console), anyone
 * else's is their own tenant whatever the header says. A user without a tenant has none, and so sees no
 * tenant-scoped rows.
 */
export async function tenantScopeOf(app: FastifyInstance, request: FastifyRequest, user: { tenantId: string | null; systemAdmin: boolean }): Promise<string | null> {
  if (!user.systemAdmin) return user.tenantId;
  const chosen = headerValue(request, TENANT_HEADER);
  if (chosen === '' || chosen === '0' || !ID_PATTERN.test(chosen)) return user.tenantId;
  const tenant = await app.db.selectFrom('sys_tenant').select('id').where('id', '=', chosen).executeTakeFirst();
  return tenant?.id ?? user.tenantId;
}

/**
 * Fields only a system administrator writes (a row's tenant) are dropped from anyone else's values; a tenant a
 * system administrator names must exist.
 */
export async function checkAdminOnlyFields(app: FastifyInstance, entity: EntityDeclaration, caller: CurrentUser, values: Record<string, unknown>): Promise<void> {
  for (const [name, declared] of Object.entries(entity.fields)) {
    if (!declared.systemAdminOnly || !Object.hasOwn(values, name)) continue;
    if (!caller.systemAdmin) {
      delete values[name];
      continue;
    }
    if (name !== 'tenantId') continue;
    // an empty choice leaves the row where it is: no row is ever put outside every tenant
    if (values[name] === null || values[name] === '') {
      delete values[name];
      continue;
    }
    const tenant = await app.db.selectFrom('sys_tenant').select('id').where('id', '=', String(values[name])).executeTakeFirst();
    if (!tenant) throw new AppError('badRequest', 'tenant.unknown');
  }
}
