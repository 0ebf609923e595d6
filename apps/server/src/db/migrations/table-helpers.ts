import type { CreateTableBuilder, Kysely } from 'kysely';

// Kysely's builder types track column names; migrations run against an untyped schema on purpose
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Table = CreateTableBuilder<any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDb = Kysely<any>;

/** id plus the audit columns every table carries (DESIGN section 8); a fixed contract, so migrations may share it. */
export function audited(table: Table): Table {
  return table
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_time', 'varchar(32)')
    .addColumn('update_by', 'varchar(64)')
    .addColumn('update_time', 'varchar(32)');
}
