import Sqlite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { alarmFolding } from './1510-alarm-folding.ts';
import { softUpdateTables } from './1360-soft-update.ts';
import type { AnyDb } from './table-helpers.ts';

describe('migration 1510: alarm folding', () => {
  it('folds the open alarms stored before per device and code, keeps closed ones, and knows every stored alarm event', async () => {
    const db: AnyDb = new Kysely({ dialect: new SqliteDialect({ database: new Sqlite(':memory:') }) });
    // the tables as release 1497 left them (the device row: only what the migration reads)
    await db.schema.createTable('sys_device').addColumn('id', 'varchar(36)', (c) => c.primaryKey()).addColumn('area_id', 'varchar(36)').execute();
    await softUpdateTables.up(db);
    await db.insertInto('sys_device').values([{ id: 'd1', area_id: 'floor2' }, { id: 'd2', area_id: null }]).execute();
    const alarm = (id: string, device: string, seq: number, code: string, state: number, minute: number) => ({ id, create_by: 'device', create_time: null, update_by: null, update_time: null, device_id: device, event_seq: seq, code, level: 'M', state, alarm_time: `2026-11-01T08:${String(minute).padStart(2, '0')}:00.000Z`, handled_by: null, handled_time: null, tenant_id: 't1' });
    await db
      .insertInto('sys_device_alarm')
      .values([alarm('a1', 'd1', 1, 'tamper', 0, 1), alarm('a2', 'd1', 2, 'tamper', 1, 2), alarm('a3', 'd1', 3, 'tamper', 0, 3), alarm('a4', 'd1', 4, 'tamper', 2, 0), alarm('a5', 'd1', 5, 'heldOpen', 0, 5), alarm('a6', 'd2', 6, 'tamper', 0, 6)])
      .execute();

    await alarmFolding.up(db);

    const rows = await db.selectFrom('sys_device_alarm').select(['id', 'device_id', 'code', 'state', 'alarm_count', 'alarm_time', 'last_time', 'open_key', 'area_id']).orderBy('id').execute();
    expect(rows).toEqual([
      // the first of three open or acknowledged tampers holds them all, open while any was
      { id: 'a1', device_id: 'd1', code: 'tamper', state: 0, alarm_count: 3, alarm_time: '2026-11-01T08:01:00.000Z', last_time: '2026-11-01T08:03:00.000Z', open_key: 'd1|tamper', area_id: 'floor2' },
      // a closed alarm stays as it was, folding nothing
      { id: 'a4', device_id: 'd1', code: 'tamper', state: 2, alarm_count: 1, alarm_time: '2026-11-01T08:00:00.000Z', last_time: '2026-11-01T08:00:00.000Z', open_key: null, area_id: 'floor2' },
      { id: 'a5', device_id: 'd1', code: 'heldOpen', state: 0, alarm_count: 1, alarm_time: '2026-11-01T08:05:00.000Z', last_time: '2026-11-01T08:05:00.000Z', open_key: 'd1|heldOpen', area_id: 'floor2' },
      { id: 'a6', device_id: 'd2', code: 'tamper', state: 0, alarm_count: 1, alarm_time: '2026-11-01T08:06:00.000Z', last_time: '2026-11-01T08:06:00.000Z', open_key: 'd2|tamper', area_id: null },
    ]);
    // each stored alarm event is known, so a late repeat of one is not counted again
    expect((await db.selectFrom('sys_device_alarm_event').select('event_seq').orderBy('event_seq').execute()).map((r) => Number(r.event_seq))).toEqual([1, 2, 3, 4, 5, 6]);
    // one alarm not closed per device and code
    await expect(db.insertInto('sys_device_alarm').values({ ...alarm('a7', 'd1', 7, 'tamper', 0, 9), open_key: 'd1|tamper' }).execute()).rejects.toThrow(/UNIQUE/);
    await db.destroy();
  });
});
