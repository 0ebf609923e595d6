import { randomUUID } from 'node:crypto';
import { CompiledQuery, type Insertable, type Kysely } from 'kysely';
import type { DatabaseDialect } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { AlarmFolds } from './alarm-folds.ts';

/**
 * Rows per INSERT (at most 18 bound values each, far below every dialect's limit): a full chunk is always the same
 * statement, so it is compiled once and its prepared statement reused.
 */
const ROWS_PER_INSERT = 500;

/**
 * A multi-row insert that skips a row whose key is stored already (a repeated delivery is dropped by the database
 * itself), written as SQL text of a fixed shape: the rows of an event batch are many and all alike, and building
 * each through the query builder cost more than storing it. Rows are given as one flat list of values, row after row
 * in the order of `columns` (no object per row to make and take apart).
 */
export class InsertOnce {
  private readonly texts = new Map<number, string>();

  constructor(
    private readonly dialect: DatabaseDialect,
    private readonly table: string,
    private readonly columns: readonly string[],
    private readonly key: readonly string[],
  ) {}

  async run(db: Kysely<Database>, values: readonly unknown[]): Promise<void> {
    const rows = values.length / this.columns.length;
    for (let start = 0; start < rows; start += ROWS_PER_INSERT) {
      const end = Math.min(rows, start + ROWS_PER_INSERT);
      await db.executeQuery(CompiledQuery.raw(this.text(end - start), values.slice(start * this.columns.length, end * this.columns.length)));
    }
  }

  private text(rows: number): string {
    let text = this.texts.get(rows);
    if (text) return text;
    const width = this.columns.length;
    const tuple = (row: number) =>
      this.dialect === 'postgres' ? `(${this.columns.map((_, i) => `$${row * width + i + 1}`).join(', ')})` : `(${this.columns.map(() => '?').join(', ')})`;
    const tuples = Array.from({ length: rows }, (_, row) => tuple(row)).join(', ');
    const columns = this.columns.join(', ');
    text =
      this.dialect === 'mysql'
        ? `insert ignore into ${this.table} (${columns}) values ${tuples}`
        : `insert into ${this.table} (${columns}) values ${tuples} on conflict (${this.key.join(', ')}) do nothing`;
    // the full chunk and the few remainders seen lately
    if (this.texts.size > 8) this.texts.clear();
    this.texts.set(rows, text);
    return text;
  }
}

/** The tables that hold what device events mean, one row per event at most. */
export type DerivedTable = 'sys_access_event' | 'sys_door_event' | 'sys_device_alarm' | 'sys_device_run_log';

/** The columns every such row has alike: filled by `DerivedRows.add`. */
type SharedColumn = 'id' | 'create_by' | 'create_time' | 'update_by' | 'update_time' | 'device_id' | 'tenant_id';
const SHARED = ['id', 'create_by', 'create_time', 'update_by', 'update_time', 'device_id', 'tenant_id'] as const;

/** What a reader of device events gives of a row: the columns of its own. */
export type DerivedRow<T extends DerivedTable> = Omit<Insertable<Database[T]>, SharedColumn>;

/** Each table's own columns, in the order of the insert's values, and the key of the event it comes from. */
const TABLES: { [T in DerivedTable]: { own: ReadonlyArray<keyof DerivedRow<T> & string>; key: ReadonlyArray<keyof Database[T] & string> } } = {
  sys_access_event: {
    own: ['seq', 'event_time', 'kind', 'result', 'people_id', 'door_id', 'door_no', 'method', 'detail', 'server_verdict', 'flagged', 'card_no_masked'],
    key: ['device_id', 'seq'],
  },
  sys_door_event: { own: ['seq', 'event_time', 'door_id', 'door_no', 'state'], key: ['device_id', 'seq'] },
  sys_device_alarm: { own: ['event_seq', 'code', 'level', 'state', 'alarm_time', 'handled_by', 'handled_time'], key: ['device_id', 'event_seq'] },
  sys_device_run_log: { own: ['event_seq', 'error_type', 'content', 'code', 'report_ip', 'state', 'error_time'], key: ['device_id', 'event_seq'] },
};

/** A derived row's columns in the order `DerivedRows` gathers them: the shared ones, then the table's own. */
export function derivedColumns(table: DerivedTable): string[] {
  return [...SHARED, ...TABLES[table].own];
}

/**
 * The rows a batch of device events causes in other tables (access events, alarms, run logs), gathered from every
 * reader and device of the batch and written at the end of its transaction as a few multi-row inserts per table,
 * each (device, event) once. Every row is made by the device (`create_by`), at the batch's time, in the device's tenant.
 */
export class DerivedRows {
  /** each table's values, row after row in the order of its insert's columns */
  private readonly values = new Map<DerivedTable, unknown[]>();

  constructor(
    private readonly inserts: DerivedInserts,
    /** when the batch was received (ISO text) */
    readonly createTime: string,
  ) {}

  add<T extends DerivedTable>(table: T, device: { id: string; tenantId: string | null }, own: DerivedRow<T>): void {
    let list = this.values.get(table);
    if (!list) this.values.set(table, (list = []));
    // the order of SHARED
    list.push(randomUUID(), 'device', this.createTime, null, null, device.id, device.tenantId);
    for (const column of TABLES[table].own) list.push(own[column] ?? null);
  }

  /** Writes what was added (on the handle of the events' transaction); the rows are kept no more. */
  async write(db: Kysely<Database>): Promise<void> {
    // alarms fold into the one of their device and code not yet closed
    for (const [table, values] of this.values) await (table === 'sys_device_alarm' ? this.inserts.alarms : this.inserts.of(table)).run(db, values);
    this.values.clear();
  }
}

/** The fixed-shape inserts of the derived tables for one database (made once, so their SQL text is made once). */
export class DerivedInserts {
  private readonly inserts: { [T in DerivedTable]: InsertOnce };

  readonly alarms: AlarmFolds;

  constructor(dialect: DatabaseDialect) {
    this.alarms = new AlarmFolds(dialect);
    const insert = (table: DerivedTable) => new InsertOnce(dialect, table, [...SHARED, ...TABLES[table].own], TABLES[table].key);
    this.inserts = { sys_access_event: insert('sys_access_event'), sys_door_event: insert('sys_door_event'), sys_device_alarm: insert('sys_device_alarm'), sys_device_run_log: insert('sys_device_run_log') };
  }

  of(table: DerivedTable): InsertOnce {
    return this.inserts[table];
  }
}
