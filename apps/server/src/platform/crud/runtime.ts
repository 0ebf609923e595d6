import { entityActions, entityDeclarations, ID_PATTERN, permissionCode, splitIds, type EntityDeclaration, type Language } from '@isps/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { searchColumns } from '../../db/search-index.ts';
import { callerOf, type CurrentUser } from '../access.ts';
import { AppError, refuse } from '../envelope.ts';
import { tenantScoped, tenantScopedAcross } from '../tenancy.ts';
import type { Query } from './query.ts';
import { detailRuntimes, rowsOf, tableOf, type DetailRuntime } from './tables.ts';
import { linkFields } from './values.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDb = Kysely<any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Row = Record<string, any>;
/** A link field of a declaration with its link table. */
export type LinkField = ReturnType<typeof linkFields>[number];

export interface CrudContext {
  app: FastifyInstance;
  caller: CurrentUser;
  lang: Language;
  request: FastifyRequest;
  /**
   * `compute()` once per distinct `value` of `name` for the whole call: every row of an import shares one result
   * (one hash of the initial password for ten thousand rows)
   */
  once<T>(name: string, value: string, compute: () => Promise<T>): Promise<T>;
}

/** Custom behaviour beside a declaration. `values` are validated field values by field name; hooks may change them. */
export interface EntityHooks {
  beforeAdd?(ctx: CrudContext, values: Row): Promise<void> | void;
  /** columns of the new row that are no declared field (server-side flags), stored with it */
  columnsOnAdd?(ctx: CrudContext, values: Row): Row | Promise<Row>;
  /** after the row (and its links) is stored */
  afterAdd?(ctx: CrudContext, id: string, values: Row): Promise<void> | void;
  beforeEdit?(ctx: CrudContext, values: Row, existing: Row): Promise<void> | void;
  /** after the edit (and its links) is stored */
  afterEdit?(ctx: CrudContext, id: string, values: Row): Promise<void> | void;
  /** `complete` when the rows leave the database (not only marked deleted) */
  beforeDelete?(ctx: CrudContext, rows: Row[], complete: boolean): Promise<void> | void;
  /** before rows leave the recycle bin (the caller's deleted rows among those asked for) */
  beforeRestore?(ctx: CrudContext, rows: Row[]): Promise<void> | void;
  /** rows of other tables that belong to the deleted rows, removed in the transaction that deletes (or marks) them */
  deleteLinked?(trx: Kysely<Database>, ids: string[], complete: boolean): Promise<void>;
  /** after any add, edit, delete, restore or import (cache refresh and the like) */
  afterChange?(ctx: CrudContext): Promise<void> | void;
  /** more of a listed, read or exported row than its fields (`row` as answered, `stored` as read) */
  shown?(lang: Language, row: Row, stored: Row): void;
  /** extra routes of the screen, registered with the generated ones */
  routes?(app: FastifyInstance, entity: RegisteredEntity): Promise<void> | void;
}

export interface RegisteredEntity {
  declaration: EntityDeclaration;
  hooks: EntityHooks;
  /** the caller's rows of this entity (tenant and soft-delete filters applied): the one place they are applied */
  scoped(caller: CurrentUser, options?: { deleted?: boolean }): SelectQueryBuilder<Row, string, Row>;
  findById(caller: CurrentUser, id: string): Promise<Row | undefined>;
  /** the rows its list reads for the caller with the query's filters: scope, then the caller's data rules on its menu */
  listed(caller: CurrentUser, query: Query): Promise<SelectQueryBuilder<Row, string, Row>>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** entities registered with the CRUD engine, by table (duplicate check, tests) */
    crudEntities: Map<string, RegisteredEntity>;
  }
}

/** One registered entity as every concern of the engine sees it: built once by `registerEntity`, passed first. */
export interface EntityRuntime {
  app: FastifyInstance;
  db: AnyDb;
  entity: EntityDeclaration;
  hooks: EntityHooks;
  table: string;
  actions: ReadonlySet<string>;
  perm(action: string): string;
  /** the OpenAPI tags of its routes */
  tags: string[];
  links: LinkField[];
  /** its details (one-to-many lines) with their tables */
  details: DetailRuntime[];
  /** the link fields of other declarations that point at this entity's rows (a device role's doors, people, ...) */
  inboundLinks: Array<LinkField['link']>;
  /** its columns a search index holds (SQLite only), for a list's contains filters */
  searched: ReadonlySet<string>;
  registered: RegisteredEntity;
}

/** The runtime of `entity`; `listed` reads its list (reading.ts), for the registered entity's `listed`. */
export function entityRuntime(app: FastifyInstance, entity: EntityDeclaration, hooks: EntityHooks, listed: RegisteredEntity['listed']): EntityRuntime {
  const db = app.db as unknown as AnyDb;
  const table = tableOf(entity);
  const registered: RegisteredEntity = {
    declaration: entity,
    hooks,
    scoped: (caller, options = {}) => applyScope(entity, caller, db.selectFrom(table).selectAll(), options.deleted),
    findById: (caller, id) => registered.scoped(caller).where('id', '=', id).executeTakeFirst(),
    listed,
  };
  return {
    app,
    db,
    entity,
    hooks,
    table,
    actions: new Set(entityActions(entity)),
    perm: (action: string) => permissionCode(entity, action),
    tags: [entity.name],
    links: linkFields(entity),
    details: detailRuntimes(entity),
    inboundLinks: entityDeclarations.flatMap((other) => linkFields(other).map(({ link }) => link)).filter((link) => link.entity === entity.name),
    searched: app.dialect === 'sqlite' ? new Set(searchColumns().get(table) ?? []) : new Set<string>(),
    registered,
  };
}

/** The schema and permission of a generated route: its summary, and the action of the entity it needs. */
export function routeOptions(rt: EntityRuntime, action: string, summary: string) {
  return { schema: { tags: rt.tags, summary }, config: { permission: rt.perm(action) } };
}

/** A fresh `once` memo: one per request, one per import job. */
function onceMemo(): CrudContext['once'] {
  const memo = new Map<string, Promise<unknown>>();
  return <T>(name: string, value: string, compute: () => Promise<T>) => {
    const key = `${name}\u0000${value}`;
    let result = memo.get(key) as Promise<T> | undefined;
    if (!result) {
      result = compute();
      memo.set(key, result);
      // a failed computation is not kept: the next row tries again
      result.catch(() => memo.delete(key));
    }
    return result;
  };
}

export function contextOf(rt: EntityRuntime, request: FastifyRequest): CrudContext {
  return { app: rt.app, caller: callerOf(request), lang: request.lang, request, once: onceMemo() };
}

/** Applies the tenant and soft-delete filters, and the entity's rows of a shared table, to any statement on its table. */
export function applyScope<Q extends { where: (...args: never[]) => unknown }>(entity: EntityDeclaration, caller: CurrentUser, query: Q, deleted = false): Q {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let scoped = query as any;
  const rows = rowsOf(entity);
  if (rows) scoped = scoped.where(rows.column, 'in', rows.values);
  if (entity.tenantScoped) scoped = entity.acrossTenantsForSystemAdmin ? tenantScopedAcross(scoped, caller) : tenantScoped(scoped, caller);
  if (entity.softDelete) scoped = scoped.where('del_flag', '=', deleted ? 1 : 0);
  return scoped as Q;
}

export function nowIso(app: FastifyInstance): string {
  return new Date(app.clock()).toISOString();
}

const MAX_BATCH = 1000;

export function requireId(value: unknown): string {
  const id = Array.isArray(value) ? value[0] : value;
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) throw new AppError('badRequest', 'error.badRequest', { detail: 'id' });
  return id;
}

export function requireIds(value: unknown): string[] {
  const text = Array.isArray(value) ? value.join(',') : value;
  if (typeof text !== 'string') refuse('crud.selectRecord');
  const ids = splitIds(text);
  if (ids.length === 0) refuse('crud.selectRecord');
  if (ids.length > MAX_BATCH || ids.some((id) => !ID_PATTERN.test(id))) throw new AppError('badRequest', 'error.badRequest', { detail: 'ids' });
  return ids;
}
