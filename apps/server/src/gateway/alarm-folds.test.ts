import { randomUUID } from 'node:crypto';
import { AlarmState } from '@isps/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, defaultTenantId, testDialects, type TestApp } from '../test/harness.ts';
import { DerivedInserts, DerivedRows } from './derived-rows.ts';

const dialects = await testDialects();

describe.each(dialects)('alarm folding on %s', (dialect) => {
  let t: TestApp;
  let device: { id: string; tenantId: string | null };

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    const tenantId = await defaultTenantId(t.app);
    const id = randomUUID();
    await t.app.db
      .insertInto('sys_device')
      .values({ id, create_by: 'test', create_time: new Date().toISOString(), update_by: null, update_time: null, device_name: 'Fold', sn: `FOLD-${id.slice(0, 8)}`, mac: null, ip: null, gateway: null, subnet_mask: null, system_type: null, device_type_id: null, device_model: null, background_image: null, location: null, area_id: null, online: 0, last_seen: null, session_id: null, firmware: null, tenant_id: tenantId })
      .execute();
    device = { id, tenantId };
  });
  afterAll(async () => {
    await t?.close();
  });

  /** One transaction writing alarm events of the device (as an event batch does), `code` per sequence number. */
  const writeBatch = (seqs: readonly number[], code = 'tamper') =>
    t.app.db.transaction().execute(async (trx) => {
      const derived = new DerivedRows(new DerivedInserts(dialect), new Date().toISOString());
      for (const seq of seqs) derived.add('sys_device_alarm', device, { event_seq: seq, code, level: 'M', state: AlarmState.open, alarm_time: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(), handled_by: null, handled_time: null });
      await derived.write(trx);
    });
  const rows = (code: string) => t.app.db.selectFrom('sys_device_alarm').selectAll().where('device_id', '=', device.id).where('code', '=', code).orderBy('alarm_time').execute();

  it('folds concurrent batches of one code into one open alarm, counting each event once however often it is delivered', async () => {
    // eight transactions at once, each overlapping the next by five events: sequence numbers 1..45, each once
    await Promise.all(Array.from({ length: 8 }, (_, i) => writeBatch(Array.from({ length: 10 }, (_, j) => i * 5 + j + 1))));
    // a repeated delivery of some of them, later
    await writeBatch([3, 17, 44]);
    const [alarm, ...others] = await rows('tamper');
    expect(others).toEqual([]);
    expect(Number(alarm!.event_seq)).toBe(1);
    expect(alarm).toMatchObject({ state: AlarmState.open, alarm_time: new Date(Date.UTC(2026, 0, 1, 0, 0, 1)).toISOString(), last_time: new Date(Date.UTC(2026, 0, 1, 0, 0, 45)).toISOString() });
    expect(Number(alarm!.alarm_count)).toBe(45);
  });

  it('keeps other codes apart, and a closed alarm folds no more: the next repeat raises a new one', async () => {
    await writeBatch([100, 101], 'forcedOpen');
    expect((await rows('forcedOpen')).map((r) => Number(r.alarm_count))).toEqual([2]);
    await t.app.db.updateTable('sys_device_alarm').set({ state: AlarmState.closed, open_key: null }).where('device_id', '=', device.id).where('code', '=', 'forcedOpen').execute();
    await writeBatch([102, 103, 104], 'forcedOpen');
    const after = await rows('forcedOpen');
    expect(after.map((r) => [Number(r.alarm_count), r.state])).toEqual([
      [2, AlarmState.closed],
      [3, AlarmState.open],
    ]);
  });
});
