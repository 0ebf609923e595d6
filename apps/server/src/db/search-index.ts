import { columnOf, entityDeclarations, type EntityDeclaration } from '@isps/contract';
import { sql, type Kysely } from 'kysely';
import type { DatabaseDialect } from '../config.ts';
import { tableOf } from '../platform/crud/tables.ts';
import type { Database } from './schema.ts';

/**
 * Contains filters on SQLite (DESIGN section 5: `*x*`, `x*`, `*x`, a plain value of a contains field) read a trigram
 * index of the declared contains fields instead of every row: for each table, an FTS5 table `fts_<table>` holding those
 * columns under the table's rowid, kept by triggers on the table, so every writer (the engine, a module's own query,
 * raw SQL) keeps it. The index only narrows: the rows it names are still checked with the filter's own LIKE, so
 * the answer is the very one of a full scan (its case rules and its escaping of % and _ included).
 * PostgreSQL and MariaDB read their B-tree indexes as before.
 */

/** The name of a table's search index. */
export function searchTableOf(table: string): string {
  return `fts_${table}`;
}

/** The table a search index belongs to, or undefined for any other name. */
export function searchedTableOf(name: string): string | undefined {
  return name.startsWith('fts_') ? name.slice(4) : undefined;
}

/** The columns of each table that a declared contains search reads (text fields only, not links nor write-only ones). */
export function searchColumns(declarations: readonly EntityDeclaration[] = entityDeclarations): Map<string, string[]> {
  const byTable = new Map<string, Set<string>>();
  for (const entity of declarations) {
    for (const [field, kind] of Object.entries(entity.search)) {
      const declared = entity.fields[field];
      if (kind !== 'contains' || !declared || declared.link || declared.writeOnly || declared.kind !== 'string') continue;
      const columns = byTable.get(tableOf(entity)) ?? new Set<string>();
      columns.add(columnOf(entity, field).toLowerCase());
      byTable.set(tableOf(entity), columns);
    }
  }
  return new Map([...byTable].map(([table, columns]) => [table, [...columns].sort()]));
}

/**
 * Fewest characters a contains text needs for the index to narrow it: a trigram index knows no shorter text (a one
 * or two character filter reads the table as before).
 */
export const SEARCH_MIN_CHARS = 3;

/** The FTS5 query of rows whose column contains `text` (any case), quoted as one phrase: no character of it is syntax. */
export function searchPhrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

const RESERVED = new Set(['rowid', 'rank']);

/**
 * Creates (or, when the declared columns changed, rebuilds) each table's search index and its triggers, filled from the
 * rows already there; run at every start after the migrations. SQLite only. Answers the tables it (re)built.
 */
export async function ensureSearchIndexes(
  db: Kysely<Database>,
  dialect: DatabaseDialect,
  declarations: readonly EntityDeclaration[] = entityDeclarations,
): Promise<string[]> {
  if (dialect !== 'sqlite') return [];
  const existing = await sql<{ name: string; type: string; tbl_name: string }>`select name, type, tbl_name from sqlite_master`.execute(db);
  const tables = new Set(existing.rows.filter((r) => r.type === 'table').map((r) => r.name.toLowerCase()));
  const triggers = new Set(existing.rows.filter((r) => r.type === 'trigger').map((r) => r.name.toLowerCase()));
  const built: string[] = [];
  for (const [table, wanted] of searchColumns(declarations)) {
    if (!tables.has(table)) continue;
    const present = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
    const names = new Set(present.rows.map((r) => r.name.toLowerCase()));
    // a column the table does not hold (yet) is left out; the declaration tests name it
    const columns = wanted.filter((column) => names.has(column) && !RESERVED.has(column));
    const index = searchTableOf(table);
    const [inserted, deleted, updated] = ['ai', 'ad', 'au'].map((suffix) => `${index}_${suffix}`) as [string, string, string];
    let current: string[] = [];
    if (tables.has(index)) current = (await sql<{ name: string }>`select name from pragma_table_info(${index})`.execute(db)).rows.map((r) => r.name.toLowerCase());
    const same = current.length === columns.length && current.every((column, i) => column === columns[i]);
    if (same && [inserted, deleted, updated].every((name) => triggers.has(name))) continue;
    await db.transaction().execute(async (trx) => {
      for (const trigger of [inserted, deleted, updated]) await sql`drop trigger if exists ${sql.id(trigger)}`.execute(trx);
      await sql`drop table if exists ${sql.id(index)}`.execute(trx);
      if (columns.length === 0) return;
      const ids = sql.join(columns.map((column) => sql.id(column)));
      const fromNew = sql.join(columns.map((column) => sql`new.${sql.id(column)}`));
      await sql`create virtual table ${sql.id(index)} using fts5(${ids}, tokenize = 'trigram')`.execute(trx);
      await sql`insert into ${sql.id(index)} (rowid, ${ids}) select rowid, ${ids} from ${sql.table(table)}`.execute(trx);
      // a row replaced by an insert or replace leaves its old entry behind (no delete trigger runs then): the new row
      // takes the rowid over, and a stale entry only names a row the filter's own LIKE then checks
      await sql`create trigger ${sql.id(inserted)} after insert on ${sql.table(table)} begin
          insert or replace into ${sql.id(index)} (rowid, ${ids}) values (new.rowid, ${fromNew});
        end`.execute(trx);
      await sql`create trigger ${sql.id(deleted)} after delete on ${sql.table(table)} begin
          delete from ${sql.id(index)} where rowid = old.rowid;
        end`.execute(trx);
      await sql`create trigger ${sql.id(updated)} after update of ${ids} on ${sql.table(table)} begin
          delete from ${sql.id(index)} where rowid = old.rowid;
          insert or replace into ${sql.id(index)} (rowid, ${ids}) values (new.rowid, ${fromNew});
        end`.execute(trx);
    });
    built.push(table);
  }
  return built;
}
