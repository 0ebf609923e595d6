import { performance } from 'node:perf_hooks';
import { entityDeclarations } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { CompiledQuery } from 'kysely';
import { onCommittedWrite } from '../../db/database.ts';
import { searchedTableOf } from '../../db/search-index.ts';
import type { Clock } from '../clock.ts';
import { tableOf } from './tables.ts';
import { linkFields } from './values.ts';

// the tables a statement reads, quoted as any of the three engines quotes them
const READ_TABLE = /\b(?:from|join)\s+[`"]?([A-Za-z_][A-Za-z0-9_]*)[`"]?/gi;

/**
 * The tables a statement reads from (its FROM and JOIN clauses, subqueries included); a table's search index counts as
 * the table (triggers write it with the table, and writes are reported by the table written).
 */
export function readTables(text: string): string[] {
  const tables = [...text.matchAll(READ_TABLE)].map((m) => (m[1] as string).toLowerCase());
  return [...new Set(tables.map((table) => searchedTableOf(table) ?? table))];
}

interface Entry {
  value: unknown;
  tables: string[];
  versions: number[];
  expiresAt: number;
}

/** Copies larger than this many rows are not kept: a list page is small, an unpaged read is not what this is for. */
const MAX_ROWS = 200;

/**
 * What list pages read (their totals and their rows), kept per instance by the very SQL and parameters that read it,
 * so fifty people paging the same list, or one person paging a table of 100,000 rows, cost one count and one scan
 * until the data changes. The SQL carries the caller's tenant, data rules and filters, so a copy is only ever shown
 * to a read that would have read the same. A committed write to a table, whoever made it (the engine, a module's
 * own query, raw SQL), drops every copy read from that table here before the writer answers; other instances hear it
 * through the event bus; `ttlMs` bounds how long a write made outside every server goes unseen.
 */
export class ListReadCache {
  private readonly versions = new Map<string, number>();
  private readonly entries = new Map<string, Entry>();
  /** reads under way, by the same key as the copies */
  private readonly running = new Map<string, { tables: string[]; versions: number[]; answer: Promise<unknown> }>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly maxEntries = 2_000,
  ) {}

  /**
   * `run()`'s answer to `query`, or the kept copy when no table it reads was written since. Copies are shared: never
   * change them. Reads of the same query while one is running wait for its answer instead of running it again (fifty
   * callers whose copy just expired cost one read, not fifty queued on the connection), unless a table it reads was
   * written since it began.
   */
  async read<T>(query: CompiledQuery, run: () => Promise<T>): Promise<T> {
    const key = `${query.sql}\u0000${JSON.stringify(query.parameters)}`;
    const now = this.clock();
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > now && this.unchanged(entry)) {
      // most recently used last: the oldest copy leaves first
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry.value as T;
    }
    const running = this.running.get(key);
    if (running && this.unchanged(running)) return running.answer as Promise<T>;
    const tables = readTables(query.sql);
    // taken before the read: a write committed while it runs leaves this copy stale at once
    const versions = this.versionsOf(tables);
    const answer = run();
    const read = { tables, versions, answer };
    this.running.set(key, read);
    try {
      const value = await answer;
      if (Array.isArray(value) && value.length > MAX_ROWS) return value;
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, { value, tables, versions, expiresAt: now + this.ttlMs });
      return value;
    } finally {
      if (this.running.get(key) === read) this.running.delete(key);
    }
  }

  /**
   * How often each table has been written as this instance knows it: taken before reading, what was read from them is
   * current while `unchanged` says so (the dictionaries keep their options this way).
   */
  versionsOf(tables: readonly string[]): number[] {
    return tables.map((table) => this.versions.get(table) ?? 0);
  }

  /** No table the copy (or running read) was read from has been written since. */
  unchanged(read: { tables: readonly string[]; versions: readonly number[] }): boolean {
    return read.tables.every((table, i) => (this.versions.get(table) ?? 0) === read.versions[i]);
  }

  /** Called after each committed write: every copy read from these tables is stale. */
  written(tables: Iterable<string>): void {
    for (const table of tables) this.versions.set(table, (this.versions.get(table) ?? 0) + 1);
  }

  clear(): void {
    this.entries.clear();
    this.running.clear();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    listCache: ListReadCache;
    /**
     * Makes what was read from these tables stale here and on every instance, as a committed write to them does: for a
     * change the database does not report (a reload asked for after the tables were edited outside the console).
     */
    tablesChanged(tables: readonly string[]): Promise<void>;
  }
}

const LIST_WRITTEN = 'list:written';
// bounds how long a write made outside every server (a script on the database), or by a server that shares no Redis
// with this one, goes unseen
const KEEP_MS = 5_000;
/** The tables declared lists read: writes to others (device events, logs of no list) are not worth telling others. */
const LISTED_TABLES = new Set(entityDeclarations.flatMap((entity) => [tableOf(entity), ...linkFields(entity).map(({ link }) => link.table)]));

/** The list read cache of an instance, dropped on every committed write here and, with Redis, on every instance. */
export const listCachePlugin = fp(
  async (app: FastifyInstance) => {
    // the bound on unseen writes is wall time, whatever clock the app's business runs on (tests move theirs by hand)
    const cache = new ListReadCache(() => performance.now(), KEEP_MS);
    app.decorate('listCache', cache);
    let broadcasting = false;
    async function tablesChanged(tables: Iterable<string>): Promise<void> {
      const changed = [...tables];
      cache.written(changed);
      const listed = changed.filter((table) => LISTED_TABLES.has(table));
      if (!broadcasting || listed.length === 0) return;
      try {
        await app.eventBus.publishAndWait(LIST_WRITTEN, { tables: listed });
      } catch (error) {
        // the write is done; other instances catch up when their copies expire
        app.log.warn({ err: error }, 'list change not broadcast');
      }
    }
    app.decorate('tablesChanged', tablesChanged);
    const stopListening = onCommittedWrite(app.db, tablesChanged);
    app.addHook('onReady', async () => {
      // one instance's in-process bus reaches no other instance: nothing to tell
      if (app.eventBus.kind !== 'redis') return;
      await app.eventBus.subscribe(LIST_WRITTEN, (payload) => {
        const tables = (payload as { tables?: unknown } | null)?.tables;
        if (Array.isArray(tables)) cache.written(tables.filter((t): t is string => typeof t === 'string'));
      });
      // copies read before the subscription was live may have missed a write
      cache.clear();
      broadcasting = true;
    });
    app.addHook('onClose', async () => stopListening());
  },
  { name: 'list-cache', dependencies: ['services', 'event-bus'] },
);
