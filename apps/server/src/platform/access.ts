import fp from 'fastify-plugin';
import { TENANT_HEADER, TOKEN_HEADER, type PermCode } from '@isps/contract';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import type { ExpressionBuilder, Kysely } from 'kysely';
import { onCommittedWrite } from '../db/database.ts';
import type { Database, SysPermission } from '../db/schema.ts';
import { ApiKeyUses, apiKeyPrefix, apiKeyUsable, findApiKey, headerApiKey, type ApiKeyRecord } from './api-keys.ts';
import { InvalidatedMemo } from './cache.ts';
import { AppError } from './envelope.ts';
import { tenantScopeOf } from './tenancy.ts';

/**
 * What a route needs: nothing, any valid token, a permission code held through the caller's roles, or any one of
 * several codes (the choices of a form are for those who may add or edit its rows).
 */
export type RouteAccess = 'public' | 'authenticated' | PermCode | readonly PermCode[];

/** The permission codes a route's access names (none for public and authenticated routes). */
export function accessCodes(access: RouteAccess | undefined): readonly PermCode[] {
  if (access === undefined || access === 'public' || access === 'authenticated') return [];
  return typeof access === 'string' ? [access] : access;
}

export interface CurrentUser {
  id: string;
  username: string;
  mustChangePassword: boolean;
  permissions: ReadonlySet<string>;
  /** the user's own tenant (their sign-in log entries, #{sys_tenant_id} of data rules) */
  tenantId: string | null;
  /** the tenant whose rows the user sees, changes and writes (platform/tenancy.ts): their own, or for a system
   * administrator the one chosen with the `tenant-id` header; null for none (a user without a tenant sees nothing) */
  tenantScope: string | null;
  /** the current group's org code (data rules name it as #{sys_org_code}) */
  orgCode: string | null;
  /** holds the system administrator role: may choose the tenant he works in, no data rules */
  systemAdmin: boolean;
  /**
   * set when the caller is an API key (issue 32), not a signed-in user: `id` is then the key's, `username`
   * `api-key:<name>`; `creator` is whose data rules narrow the rows it reads (a key never sees more than he does)
   */
  apiKey?: { id: string; name: string; creator: { id: string; username: string; orgCode: string | null; systemAdmin: boolean } };
}

/** Holders of this role work across tenants. */
export const SYSTEM_ADMIN_ROLE = 'admin';

/**
 * A further condition of every non-public route, checked in the access hook once the caller is admitted (so an
 * unknown caller still hears 401 first): calls `done` with the error to answer, or none; in the same turn when it can.
 */
export type AdmissionGate = (request: FastifyRequest, done: (error?: Error) => void) => void;

export interface RouteEntry {
  method: string;
  url: string;
  permission: RouteAccess | undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    permission?: RouteAccess;
    /** reachable while the caller still has to replace an initial password */
    allowWhilePasswordChangeDue?: boolean;
    /** for signed-in users only, never an API key (every 'authenticated' route is, as it serves the caller's own identity) */
    userOnly?: boolean;
  }
  interface FastifyRequest {
    currentUser: CurrentUser | null;
    accessToken: string | null;
  }
  interface FastifyInstance {
    /** every registered route with its declared access, for the route walker test and docs */
    routeCatalogue: RouteEntry[];
    /** the sessions and permission sets this instance keeps (see AccessCache) */
    accessCache: AccessCache;
    /** adds a condition every non-public route checks after its caller is admitted (the activation check) */
    addAdmissionGate(gate: AdmissionGate): void;
  }
}

/**
 * The permissions a user holds (SPEC section 6), as a condition on `sys_permission as p`: those of their roles, and
 * those of their group roles in their current group (org code) while they belong to it and the group holds them.
 * Read from the tables when the access cache has no copy; a saved change to them empties that cache everywhere.
 */
export function heldBy(db: Kysely<Database>, user: { id: string; orgCode: string | null }) {
  return (eb: ExpressionBuilder<Database & { p: SysPermission }, 'p'>) => {
    const byRoles = db.selectFrom('sys_role_permission as rp').innerJoin('sys_user_role as ur', 'ur.role_id', 'rp.role_id').select('rp.permission_id').where('ur.user_id', '=', user.id);
    if (!user.orgCode) return eb('p.id', 'in', byRoles);
    const byGroupRoles = db
      .selectFrom('sys_depart_role_permission as drp')
      .innerJoin('sys_depart_role as dr', (join) => join.onRef('dr.id', '=', 'drp.role_id').onRef('dr.depart_id', '=', 'drp.depart_id'))
      .innerJoin('sys_depart_role_user as dru', 'dru.drole_id', 'dr.id')
      .innerJoin('sys_depart as d', 'd.id', 'dr.depart_id')
      .innerJoin('sys_user_depart as ud', (join) => join.onRef('ud.dep_id', '=', 'd.id').onRef('ud.user_id', '=', 'dru.user_id'))
      .innerJoin('sys_depart_permission as dp', (join) => join.onRef('dp.depart_id', '=', 'd.id').onRef('dp.permission_id', '=', 'drp.permission_id'))
      .select('drp.permission_id')
      .where('dru.user_id', '=', user.id)
      .where('d.org_code', '=', user.orgCode)
      .where('d.del_flag', '=', 0);
    return eb.or([eb('p.id', 'in', byRoles), eb('p.id', 'in', byGroupRoles)]);
  };
}

/** Who a user is for authorisation, apart from the tenant a request chooses. */
interface AccessProfile {
  id: string;
  username: string;
  mustChangePassword: boolean;
  permissions: ReadonlySet<string>;
  tenantId: string | null;
  orgCode: string | null;
  systemAdmin: boolean;
}

/** Tables whose rows decide who may do what: a committed write to any of them empties every instance's profiles. */
const ACCESS_TABLES = new Set([
  'sys_user',
  'sys_user_role',
  'sys_role',
  'sys_role_permission',
  'sys_permission',
  'sys_depart',
  'sys_user_depart',
  'sys_depart_role',
  'sys_depart_role_user',
  'sys_depart_role_permission',
  'sys_depart_permission',
  'sys_tenant',
]);
const SESSION_TABLES = new Set(['sys_user_token']);
const API_KEY_TABLES = new Set(['sys_api_key']);
const ACCESS_CHANGED = 'access:changed';
// bounds how long a write made outside every server (a script on the database) goes unseen
const KEEP_MS = 5_000;

/**
 * Sessions (token → user) and access profiles (user → permission codes, roles, tenant) kept per instance, so a warm
 * request costs no query (DESIGN section 5). Every committed write to the tables they come from, by any code path,
 * empties them here at once and on every other instance through the event bus before the writer answers, so a
 * revoked token or a changed role holds on the very next call anywhere.
 */
export class AccessCache {
  /** by the token as sent: kept in this process's memory only, for seconds, emptied on every session write; the
   * database keeps only its fingerprint, and a warm request hashes nothing */
  readonly sessions: InvalidatedMemo<{ userId: string; expiresAt: number } | null>;
  readonly profiles: InvalidatedMemo<AccessProfile | null>;
  /** a system administrator's chosen tenant, by user and `tenant-id` header */
  readonly scopes: InvalidatedMemo<{ scope: string | null }>;
  /** API keys by the key as sent, like sessions: emptied on every write to the keys or to access */
  readonly apiKeys: InvalidatedMemo<ApiKeyRecord | null>;
  readonly apiKeyUses: ApiKeyUses;
  /** set once the bus subscription is live; writes before it (start-up) are only forgotten here */
  broadcasting = false;

  constructor(private readonly app: FastifyInstance) {
    this.sessions = new InvalidatedMemo(app.clock, KEEP_MS);
    this.profiles = new InvalidatedMemo(app.clock, KEEP_MS);
    this.scopes = new InvalidatedMemo(app.clock, KEEP_MS);
    this.apiKeys = new InvalidatedMemo(app.clock, KEEP_MS);
    this.apiKeyUses = new ApiKeyUses(app);
  }

  forget(what: { sessions?: boolean; profiles?: boolean; apiKeys?: boolean }): void {
    if (what.sessions) this.sessions.clear();
    if (what.profiles) {
      this.profiles.clear();
      this.scopes.clear();
    }
    // a key's tenant and creator are read with it
    if (what.apiKeys || what.profiles) this.apiKeys.clear();
  }

  /** Called after each committed write: forgets here, then tells every instance and waits until the bus delivered it. */
  async written(tables: ReadonlySet<string>): Promise<void> {
    const what = {
      sessions: [...tables].some((t) => SESSION_TABLES.has(t)),
      profiles: [...tables].some((t) => ACCESS_TABLES.has(t)),
      apiKeys: [...tables].some((t) => API_KEY_TABLES.has(t)),
    };
    if (!what.sessions && !what.profiles && !what.apiKeys) return;
    this.forget(what);
    if (!this.broadcasting) return;
    try {
      await this.app.eventBus.publishAndWait(ACCESS_CHANGED, what);
    } catch (error) {
      // the write is done; other instances catch up when their copies expire
      this.app.log.warn({ err: error }, 'access change not broadcast');
    }
  }

  async caller(request: FastifyRequest, token: string): Promise<CurrentUser | null> {
    const kept = this.keptCaller(request, token);
    if (kept !== undefined) return kept;
    const session = token.length < 20 || token.length > 100 ? null : await this.sessions.get(token, () => this.app.tokens.session(token));
    if (!session || session.expiresAt <= this.app.clock()) return null;
    const profile = await this.profiles.get(session.userId, () => loadProfile(this.app.db, session.userId));
    if (!profile) return null;
    return sharedCaller(profile, await this.scopeOf(request, profile));
  }

  /**
   * The caller from what this instance keeps, without waiting: undefined when anything has to be read first (the
   * caller answers then). Same rules as `caller`, so a warm request costs neither a query nor a turn of the event loop.
   */
  keptCaller(request: FastifyRequest, token: string): CurrentUser | null | undefined {
    if (token.length < 20 || token.length > 100) return null;
    const session = this.sessions.peek(token);
    if (session === undefined) return undefined;
    if (session === null || session.expiresAt <= this.app.clock()) return null;
    const profile = this.profiles.peek(session.userId);
    if (profile === undefined) return undefined;
    if (profile === null) return null;
    if (!profile.systemAdmin) return sharedCaller(profile, profile.tenantId);
    const scope = this.scopes.peek(scopeKey(request, profile));
    return scope === undefined ? undefined : sharedCaller(profile, scope.scope);
  }

  /** The caller an API key is, or null for an unknown, expired, revoked or superseded key or a creator who lost his seat. */
  async keyCaller(key: string): Promise<CurrentUser | null> {
    const kept = this.keptKeyCaller(key);
    if (kept !== undefined) return kept;
    if (!apiKeyPrefix(key)) return null;
    const record = await this.apiKeys.get(key, () => findApiKey(this.app, key));
    if (!record || !apiKeyUsable(record, this.app.clock())) return null;
    const creator = await this.profiles.get(record.createdById, () => loadProfile(this.app.db, record.createdById));
    return creator ? keyCallerOf(record, creator) : null;
  }

  /** As keyCaller from what this instance keeps, without waiting; undefined when something has to be read. */
  keptKeyCaller(key: string): CurrentUser | null | undefined {
    if (!apiKeyPrefix(key)) return null;
    const record = this.apiKeys.peek(key);
    if (record === undefined) return undefined;
    if (record === null || !apiKeyUsable(record, this.app.clock())) return null;
    const creator = this.profiles.peek(record.createdById);
    if (creator === undefined) return undefined;
    return creator ? keyCallerOf(record, creator) : null;
  }

  private async scopeOf(request: FastifyRequest, profile: AccessProfile): Promise<string | null> {
    if (!profile.systemAdmin) return profile.tenantId;
    return (await this.scopes.get(scopeKey(request, profile), async () => ({ scope: await tenantScopeOf(this.app, request, profile) }))).scope;
  }
}

/** The caller a profile is in each tenant scope, made once: a kept profile is replaced, never changed, on every change. */
const callersByScope = new WeakMap<AccessProfile, Map<string | null, CurrentUser>>();

/** The caller of a profile working in a tenant scope; shared by the requests of that caller, so frozen. */
function sharedCaller(profile: AccessProfile, tenantScope: string | null): CurrentUser {
  let byScope = callersByScope.get(profile);
  if (!byScope) {
    byScope = new Map();
    callersByScope.set(profile, byScope);
  }
  let caller = byScope.get(tenantScope);
  if (!caller) {
    caller = Object.freeze({ ...profile, tenantScope });
    byScope.set(tenantScope, caller);
  }
  return caller;
}

/** The caller of a key with a creator's profile, made once per pair (both are replaced, never changed). */
const keyCallers = new WeakMap<ApiKeyRecord, { creator: AccessProfile; caller: CurrentUser | null }>();

/**
 * An API key acts with its codes as far as its creator still holds them, in its own tenant, which must still be one
 * its creator could give (his own, unless he is a system administrator). It is never a system administrator itself:
 * it does not choose a tenant, and grants it could reach are refused by the rules of platform/grants.ts.
 */
function keyCallerOf(record: ApiKeyRecord, creator: AccessProfile): CurrentUser | null {
  const kept = keyCallers.get(record);
  if (kept && kept.creator === creator) return kept.caller;
  const caller =
    !creator.systemAdmin && creator.tenantId !== record.tenantId
      ? null
      : Object.freeze({
          id: record.id,
          username: `api-key:${record.name}`,
          mustChangePassword: false,
          permissions: new Set(record.codes.filter((code) => creator.permissions.has(code))),
          tenantId: record.tenantId,
          tenantScope: record.tenantId,
          orgCode: null,
          systemAdmin: false,
          apiKey: { id: record.id, name: record.name, creator: { id: creator.id, username: creator.username, orgCode: creator.orgCode, systemAdmin: creator.systemAdmin } },
        });
  keyCallers.set(record, { creator, caller });
  return caller;
}

const TENANT_HEADER_NAME = TENANT_HEADER.toLowerCase();

/** A system administrator's chosen tenant is kept per user and `tenant-id` header. */
function scopeKey(request: FastifyRequest, profile: AccessProfile): string {
  const header = request.headers[TENANT_HEADER_NAME];
  return `${profile.id}\n${Array.isArray(header) ? header[0] : (header ?? '')}`;
}

async function loadProfile(db: Kysely<Database>, userId: string): Promise<AccessProfile | null> {
  const user = await db
    .selectFrom('sys_user')
    .select(['id', 'username', 'must_change_password', 'status', 'del_flag', 'tenant_id', 'org_code'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user || user.del_flag !== 0 || user.status !== 1) return null;
  const rows = await db
    .selectFrom('sys_permission as p')
    .select('p.perms')
    .distinct()
    .where(heldBy(db, { id: user.id, orgCode: user.org_code }))
    .where('p.menu_type', '=', 2)
    .where('p.del_flag', '=', 0)
    .where('p.perms', 'is not', null)
    .execute();
  const systemAdmin = await db
    .selectFrom('sys_user_role as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select('r.id')
    .where('ur.user_id', '=', userId)
    .where('r.role_code', '=', SYSTEM_ADMIN_ROLE)
    .executeTakeFirst();
  return {
    id: user.id,
    tenantId: user.tenant_id,
    username: user.username,
    orgCode: user.org_code,
    systemAdmin: Boolean(systemAdmin),
    mustChangePassword: Number(user.must_change_password) === 1,
    permissions: new Set(rows.map((r) => r.perms as string)),
  };
}

const TOKEN_HEADER_NAME = TOKEN_HEADER.toLowerCase();

function headerToken(request: FastifyRequest): string | null {
  const value = request.headers[TOKEN_HEADER_NAME];
  const token = Array.isArray(value) ? value[0] : value;
  return token && token.trim() ? token.trim() : null;
}

/** The one place that authenticates (401) and authorises (403/510) every route, from its declared access. */
export const accessPlugin = fp(
  async (app) => {
    app.decorate('routeCatalogue', []);
    app.decorateRequest('currentUser', null);
    app.decorateRequest('accessToken', null);
    const cache = new AccessCache(app);
    app.decorate('accessCache', cache);
    const gates: AdmissionGate[] = [];
    app.decorate('addAdmissionGate', (gate: AdmissionGate) => void gates.push(gate));
    const stopListening = onCommittedWrite(app.db, (tables) => cache.written(tables));
    // the bus is registered after this plugin; until its subscription is live a change could be missed, so start empty
    app.addHook('onReady', async () => {
      await app.eventBus.subscribe(ACCESS_CHANGED, (payload) => cache.forget((payload ?? {}) as { sessions?: boolean; profiles?: boolean; apiKeys?: boolean }));
      cache.forget({ sessions: true, profiles: true, apiKeys: true });
      cache.broadcasting = true;
    });
    app.addHook('onClose', async () => stopListening());

    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      route.config ??= {};
      const config = route.config;
      for (const method of methods) {
        // read late: onRoute hooks of plugins registered afterwards (the docs) may still declare the access
        app.routeCatalogue.push({ method, url: route.url, get permission() { return config.permission; } });
      }
    });

    /** The verdict on a known caller (or none) for a route's declared access: the error to answer, or null to go on. */
    function admit(request: FastifyRequest, config: FastifyContextConfig, token: string | null, user: CurrentUser | null): AppError | null {
      if (!token || !user) return new AppError('unauthorized', 'error.unauthorized');
      request.currentUser = user;
      request.accessToken = token;
      if (user.mustChangePassword && !config.allowWhilePasswordChangeDue) return new AppError('forbidden', 'login.mustChangePassword');
      const access = config.permission as RouteAccess;
      if (access === 'authenticated') return null;
      const codes = accessCodes(access);
      if (!codes.some((code) => user.permissions.has(code))) return new AppError('forbidden', 'error.forbidden', { code: codes.join(' | ') });
      return null;
    }

    /** The verdict on an API key's caller (or none): keys reach only routes that name a permission code they hold. */
    function admitKey(request: FastifyRequest, config: FastifyContextConfig, user: CurrentUser | null): AppError | null {
      // never which part was wrong: unknown, expired, revoked, superseded and disowned keys sound alike
      if (!user?.apiKey) return new AppError('unauthorized', 'apiKey.invalid');
      request.currentUser = user;
      cache.apiKeyUses.note(user.apiKey.id, request.ip);
      const access = config.permission as RouteAccess;
      if (access === 'authenticated' || config.userOnly) return new AppError('forbidden', 'apiKey.userOnly');
      const codes = accessCodes(access);
      if (!codes.some((code) => user.permissions.has(code))) return new AppError('forbidden', 'error.forbidden', { code: codes.join(' | ') });
      return null;
    }

    /** The gates from the `from`th on, in order; the first error ends it. */
    function passGates(request: FastifyRequest, from: number, done: (error?: Error) => void): void {
      const gate = gates[from];
      if (!gate) return done();
      gate(request, (error) => (error ? done(error) : passGates(request, from + 1, done)));
    }

    /** The verdict on the caller, then the gates of an admitted one. */
    function decide(request: FastifyRequest, config: FastifyContextConfig, token: string | null, user: CurrentUser | null, done: (error?: Error) => void): void {
      const refused = admit(request, config, token, user);
      if (refused) return done(refused);
      passGates(request, 0, done);
    }

    function decideKey(request: FastifyRequest, config: FastifyContextConfig, user: CurrentUser | null, done: (error?: Error) => void): void {
      const refused = admitKey(request, config, user);
      if (refused) return done(refused);
      passGates(request, 0, done);
    }

    // callback style: a warm caller is admitted in the same turn, only a cold one waits for the database
    app.addHook('onRequest', (request, _reply, done) => {
      const config = request.routeOptions.config;
      // a request no route answers (404) has no declaration to check
      if (config?.url === undefined) return done();
      const access = config.permission;
      if (access === 'public') return done();
      if (access === undefined) {
        // fail closed: a route that forgot its declaration is unreachable, and the route walker test names it
        return done(new AppError('forbidden', 'error.forbidden', { code: 'undeclared' }));
      }
      const token = headerToken(request);
      // a session token wins; an API key is the caller only of a request without one
      const apiKey = token ? null : headerApiKey(request);
      if (apiKey) {
        const keptKey = app.accessCache.keptKeyCaller(apiKey);
        if (keptKey !== undefined) return decideKey(request, config, keptKey, done);
        app.accessCache.keyCaller(apiKey).then(
          (user) => decideKey(request, config, user, done),
          (error: Error) => done(error),
        );
        return;
      }
      const kept = token ? app.accessCache.keptCaller(request, token) : null;
      if (kept !== undefined) return decide(request, config, token, kept, done);
      app.accessCache.caller(request, token as string).then(
        (user) => decide(request, config, token, user, done),
        (error: Error) => done(error),
      );
    });
  },
  { name: 'access', dependencies: ['services', 'errors'] },
);

/** The caller of a public route when the request carries a valid token, else null (the uploads it may read back). */
export async function optionalCaller(app: FastifyInstance, request: FastifyRequest): Promise<CurrentUser | null> {
  const token = headerToken(request);
  return token ? app.accessCache.caller(request, token) : null;
}

/** The caller of an authenticated route; the access hook guarantees it is set. */
export function callerOf(request: FastifyRequest): CurrentUser {
  if (!request.currentUser) throw new AppError('unauthorized', 'error.unauthorized');
  return request.currentUser;
}
