import { createHash } from 'node:crypto';
import { columnOf, entityDeclarations, type EntityDeclaration } from '@isps/contract';
import { sql, type Kysely } from 'kysely';
import type { DatabaseDialect } from '../config.ts';
import { linkOf, tableOf } from '../platform/crud/tables.ts';
import type { Database } from './schema.ts';

/** An index a declaration asks for: its table and columns, in order. */
export interface WantedIndex {
  table: string;
  columns: string[];
}

/**
 * The indexes the declared screens need (DESIGN section 8): each list's default sort and each sort it offers (after its
 * tenant and deletion scope, with the id that breaks ties, so a page is read in order instead of sorting the table), each search field
 * and each unique field, and the link tables a search by a linked id reads. Derived from the declarations, so a new
 * screen gets its indexes without anyone writing them.
 */
export function wantedIndexes(declarations: readonly EntityDeclaration[] = entityDeclarations): WantedIndex[] {
  const wanted: WantedIndex[] = [];
  for (const entity of declarations) {
    const scope = [...(entity.tenantScoped ? ['tenant_id'] : []), ...(entity.softDelete ? ['del_flag'] : [])];
    const column = (field: string) => (field === 'id' ? 'id' : columnOf(entity, field));
    const plain = (field: string) => entity.fields[field]?.link === undefined && entity.fields[field]?.writeOnly !== true;
    const table = tableOf(entity);
    wanted.push({ table, columns: [...scope, column(entity.defaultSort.field), ...(entity.defaultSort.field === 'id' ? [] : ['id'])] });
    // a sort the list offers reads its page in order too, ties broken by id as the engine breaks them
    for (const field of entity.sortable) {
      if (field !== entity.defaultSort.field && field !== 'id' && plain(field)) wanted.push({ table, columns: [...scope, column(field), 'id'] });
    }
    for (const field of Object.keys(entity.search)) {
      if (entity.fields[field]?.link) {
        const link = linkOf(entity, field);
        wanted.push({ table: link.table, columns: [link.targetColumn, link.ownerColumn] });
      } else if (plain(field)) wanted.push({ table, columns: [...scope, column(field)] });
    }
    for (const unique of entity.unique ?? []) {
      if (!plain(unique.field)) continue;
      const tenant = entity.tenantScoped && !unique.global ? ['tenant_id'] : [];
      wanted.push({ table, columns: [...tenant, ...(unique.within ?? []).map(column), column(unique.field)] });
    }
  }
  return wanted;
}

/** Every index of the database's tables (of the connection's schema), by table, as column lists in order. */
export async function existingIndexes(db: Kysely<Database>, dialect: DatabaseDialect): Promise<Map<string, string[][]>> {
  const byIndex = new Map<string, { table: string; columns: string[] }>();
  const add = (table: string, index: string, column: string) => {
    const key = `${table}\n${index}`;
    const entry = byIndex.get(key) ?? { table: table.toLowerCase(), columns: [] };
    entry.columns.push(column.toLowerCase());
    byIndex.set(key, entry);
  };
  if (dialect === 'sqlite') {
    // two statements for the whole schema (this runs at every start; one query per table and index was some 500)
    const columns = await sql<{ table_name: string; index_name: string; column_name: string | null }>`
      select m.name as table_name, il.name as index_name, ii.name as column_name
      from sqlite_master m join pragma_index_list(m.name) il join pragma_index_info(il.name) ii
      where m.type = 'table' and m.name not like 'sqlite_%'
      order by m.name, il.name, ii.seqno`.execute(db);
    for (const c of columns.rows) add(c.table_name, c.index_name, c.column_name ?? '');
    // a table's primary key is an index too (a rowid table's integer key has no pragma entry)
    const keys = await sql<{ table_name: string; column_name: string }>`
      select m.name as table_name, p.name as column_name
      from sqlite_master m join pragma_table_info(m.name) p
      where m.type = 'table' and m.name not like 'sqlite_%' and p.pk > 0
      order by m.name, p.pk`.execute(db);
    for (const k of keys.rows) add(k.table_name, '(primary key)', k.column_name);
  } else if (dialect === 'postgres') {
    const rows = await sql<{ table_name: string; index_name: string; column_name: string }>`
      select t.relname as table_name, i.relname as index_name, a.attname as column_name
      from pg_index x
      join pg_class i on i.oid = x.indexrelid
      join pg_class t on t.oid = x.indrelid
      join pg_namespace ns on ns.oid = t.relnamespace
      cross join lateral unnest(x.indkey) with ordinality as k(attnum, position)
      join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum
      where ns.nspname = current_schema()
      order by t.relname, i.relname, k.position`.execute(db);
    for (const r of rows.rows) add(r.table_name, r.index_name, r.column_name);
  } else {
    const rows = await sql<{ table_name: string; index_name: string; column_name: string }>`
      select table_name as table_name, index_name as index_name, column_name as column_name
      from information_schema.statistics
      where table_schema = database()
      order by table_name, index_name, seq_in_index`.execute(db);
    for (const r of rows.rows) add(r.table_name, r.index_name, r.column_name);
  }
  const byTable = new Map<string, string[][]>();
  for (const { table, columns } of byIndex.values()) byTable.set(table, [...(byTable.get(table) ?? []), columns]);
  return byTable;
}

/** True when an index starting with these columns exists: it serves the same lookups and order. */
export function covered(indexes: readonly string[][] | undefined, columns: readonly string[]): boolean {
  return (indexes ?? []).some((index) => columns.every((column, i) => index[i] === column));
}

/** The columns of each table (of the connection's schema) with their types, as `table.column`. */
async function columnTypes(db: Kysely<Database>, dialect: DatabaseDialect): Promise<Map<string, string>> {
  type Column = { table_name: string; column_name: string; data_type: string };
  const rows =
    dialect === 'sqlite'
      ? await sql<Column>`select m.name as table_name, c.name as column_name, c.type as data_type
          from sqlite_master m join pragma_table_info(m.name) c where m.type = 'table'`.execute(db)
      : dialect === 'postgres'
        ? await sql<Column>`select table_name, column_name, data_type from information_schema.columns where table_schema = current_schema()`.execute(db)
        : await sql<Column>`select table_name as table_name, column_name as column_name,
              concat(data_type, ':', coalesce(character_maximum_length, 0)) as data_type
            from information_schema.columns where table_schema = database()`.execute(db);
  return new Map(rows.rows.map((r) => [`${r.table_name.toLowerCase()}.${r.column_name.toLowerCase()}`, r.data_type.toLowerCase()]));
}

function indexName(index: WantedIndex): string {
  // engines cap names at 63 (PostgreSQL) or 64 characters; the hash keeps each column list's name apart
  const hash = createHash('sha1').update(`${index.table}(${index.columns.join(',')})`).digest('hex').slice(0, 10);
  return `ix_${index.table.slice(0, 40)}_${hash}`;
}

/**
 * Creates the declared indexes a database lacks; run at every start after the migrations, on all three engines.
 * Answers what it created.
 */
export async function ensureDeclaredIndexes(
  db: Kysely<Database>,
  dialect: DatabaseDialect,
  declarations: readonly EntityDeclaration[] = entityDeclarations,
): Promise<WantedIndex[]> {
  const existing = await existingIndexes(db, dialect);
  const types = await columnTypes(db, dialect);
  const created: WantedIndex[] = [];
  // the longest first, so a shorter list it begins with is already covered
  const wanted = wantedIndexes(declarations).sort((a, b) => b.columns.length - a.columns.length);
  for (const index of wanted) {
    const indexes = existing.get(index.table) ?? [];
    // a table or column the database does not hold (yet) is left alone; the declaration tests name it
    if (!index.columns.every((column) => types.has(`${index.table}.${column}`)) || covered(indexes, index.columns)) continue;
    const columns = index.columns.map((column) => {
      // MariaDB/MySQL index a text column by a prefix only, and a long one within the key's 3,072 bytes
      const [type = '', length = '0'] = (types.get(`${index.table}.${column}`) ?? '').split(':');
      return dialect === 'mysql' && (/text|blob/.test(type) || Number(length) > 191) ? sql`${sql.ref(column)}(191)` : sql.ref(column);
    });
    try {
      await sql`create index ${sql.id(indexName(index))} on ${sql.table(index.table)} (${sql.join(columns)})`.execute(db);
    } catch (error) {
      // another instance starting beside this one may have created it meanwhile
      if (!covered((await existingIndexes(db, dialect)).get(index.table), index.columns)) throw error;
      continue;
    }
    existing.set(index.table, [...indexes, index.columns]);
    created.push(index);
  }
  return created;
}
