import { CompiledQuery, type Kysely } from 'kysely';
import type { DatabaseDialect } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { derivedColumns, InsertOnce } from './derived-rows.ts';

/** The key of the one alarm of a device and code not yet closed (`open_key`, unique): repeats fold into it. */
export function alarmOpenKey(deviceId: string, code: string): string {
  return `${deviceId}|${code}`;
}

const OCCURRENCE_COLUMNS = ['id', 'create_by', 'create_time', 'update_by', 'update_time', 'device_id', 'event_seq', 'tenant_id'] as const;
const FOLD_EXTRA = ['alarm_count', 'last_time', 'open_key', 'area_id'] as const;

/**
 * Alarm events fold: each is kept once by device and sequence number (`sys_device_alarm_event`), and the new ones of a
 * device and code join that code's alarm not yet closed, counted, with the last one's time; the first makes it. The
 * join is one upsert on the unique `open_key`, so repeats written at once by several transactions (servers) join one
 * row on every database, which keeps the earliest event's time and the latest one's; keys are taken in one order, so two batches never wait on each other crosswise.
 */
export class AlarmFolds {
  private readonly occurrences: InsertOnce;
  private readonly upsert: string;
  /** the alarm row's columns as `DerivedRows` gathers them */
  private readonly columns: readonly string[];

  constructor(dialect: DatabaseDialect) {
    // MariaDB assigns in order, each reading the values set before it: the first event is taken before its time
    this.columns = derivedColumns('sys_device_alarm');
    this.occurrences = new InsertOnce(dialect, 'sys_device_alarm_event', OCCURRENCE_COLUMNS, ['device_id', 'event_seq']);
    const all = [...this.columns, ...FOLD_EXTRA];
    const names = all.join(', ');
    const marks = dialect === 'postgres' ? all.map((_, i) => `$${i + 1}`).join(', ') : all.map(() => '?').join(', ');
    this.upsert =
      dialect === 'mysql'
        ? `insert into sys_device_alarm (${names}) values (${marks}) on duplicate key update alarm_count = alarm_count + values(alarm_count), last_time = greatest(coalesce(last_time, values(last_time)), values(last_time)), event_seq = if(values(alarm_time) < alarm_time, values(event_seq), event_seq), alarm_time = least(alarm_time, values(alarm_time))`
        : `insert into sys_device_alarm (${names}) values (${marks}) on conflict (open_key) do update set alarm_count = sys_device_alarm.alarm_count + excluded.alarm_count, last_time = case when sys_device_alarm.last_time is null or excluded.last_time > sys_device_alarm.last_time then excluded.last_time else sys_device_alarm.last_time end, event_seq = case when excluded.alarm_time < sys_device_alarm.alarm_time then excluded.event_seq else sys_device_alarm.event_seq end, alarm_time = case when excluded.alarm_time < sys_device_alarm.alarm_time then excluded.alarm_time else sys_device_alarm.alarm_time end`;
  }

  /** `values`: alarm rows as `DerivedRows` gathers them, row after row. */
  async run(db: Kysely<Database>, values: readonly unknown[]): Promise<void> {
    const width = this.columns.length;
    const rows: unknown[][] = [];
    for (let at = 0; at < values.length; at += width) rows.push(values.slice(at, at + width));
    const at = (name: string) => this.columns.indexOf(name);
    const [ID, CREATE_BY, CREATE_TIME, DEVICE, TENANT, SEQ, CODE, TIME] = ['id', 'create_by', 'create_time', 'device_id', 'tenant_id', 'event_seq', 'code', 'alarm_time'].map(at) as [number, number, number, number, number, number, number, number];
    // each event once: those whose occurrence row (of the alarm row's id) this insert made are new
    await this.occurrences.run(
      db,
      rows.flatMap((row) => [row[ID], row[CREATE_BY], row[CREATE_TIME], null, null, row[DEVICE], row[SEQ], row[TENANT]]),
    );
    const fresh = new Set<string>();
    for (let from = 0; from < rows.length; from += 500) {
      const ids = rows.slice(from, from + 500).map((row) => String(row[ID]));
      for (const found of await db.selectFrom('sys_device_alarm_event').select('id').where('id', 'in', ids).execute()) fresh.add(found.id);
    }
    const folds = new Map<string, { row: unknown[]; count: number; last: string }>();
    for (const row of rows) {
      if (!fresh.has(String(row[ID]))) continue;
      const key = alarmOpenKey(String(row[DEVICE]), String(row[CODE]));
      const time = String(row[TIME]);
      const fold = folds.get(key);
      if (!fold) {
        folds.set(key, { row, count: 1, last: time });
        continue;
      }
      fold.count += 1;
      if (time > fold.last) fold.last = time;
      // the earliest event is the alarm's own
      if (time < String(fold.row[TIME])) fold.row = row;
    }
    if (folds.size === 0) return;
    const deviceIds = [...new Set([...folds.values()].map((f) => String(f.row[DEVICE])))];
    const areas = new Map((await db.selectFrom('sys_device').select(['id', 'area_id']).where('id', 'in', deviceIds).execute()).map((d) => [d.id, d.area_id]));
    for (const key of [...folds.keys()].sort()) {
      const { row, count, last } = folds.get(key)!;
      await db.executeQuery(CompiledQuery.raw(this.upsert, [...row, count, last, key, areas.get(String(row[DEVICE])) ?? null]));
    }
  }
}
