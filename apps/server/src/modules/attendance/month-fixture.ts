import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { monthDays } from './local-time.ts';

/** One punch as the fixture stored it. */
export interface FixturePunch {
  peopleId: string;
  dayIndex: number;
  minute: number;
  duplicate: boolean;
}

export interface FixtureOptions {
  tenantId: string;
  month: string;
  people: number;
  /** every person punches this many times each day (the benchmark); otherwise a random mix of 0 to 4 with repeats */
  punchesPerDay?: number;
  /** half of the people work a night shift (22:00–06:00) */
  nightShift?: boolean;
  seed?: number;
}

/** A small deterministic generator (mulberry32), so a failing case repeats. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FESTIVALS = { fest_new_year: '2026-03-02', fest_spring: '2026-03-03', fest_ching_ming: '2026-03-04', fest_may_day: '2026-03-05', fest_dragon_boat: '2026-03-06', fest_mid_autumn: '2026-03-09', fest_national_day: '2026-03-10' };

/**
 * Groups, rules, people and a month of punches inserted straight into the tables (no device), for the month's
 * comparison with a reference calculation and for the benchmark. Answers the punches as stored.
 */
export async function seedAttendanceMonth(db: Kysely<Database>, options: FixtureOptions): Promise<{ punches: FixturePunch[]; peopleIds: string[] }> {
  const next = random(options.seed ?? 7);
  const now = new Date().toISOString();
  const audit = { create_by: 'fixture', create_time: now, update_by: null, update_time: null };
  const { first, last } = monthDays(options.month);
  const shifts = options.nightShift ? (['day', 'night'] as const) : (['day'] as const);
  const groups: Record<string, string> = {};
  for (const shift of shifts) {
    const departId = randomUUID();
    groups[shift] = departId;
    await db
      .insertInto('sys_depart')
      .values({ ...audit, id: departId, parent_id: null, depart_name: `Fixture ${shift} ${departId.slice(0, 6)}`, org_code: `F${departId.slice(0, 8)}`, org_type: '1', depart_order: 0, mobile: null, address: null, memo: null, del_flag: 0, tenant_id: options.tenantId })
      .execute();
    const ruleId = randomUUID();
    await db
      .insertInto('sys_attendance_rule')
      .values({
        ...audit,
        id: ruleId,
        rule_name: `Fixture ${shift} ${ruleId.slice(0, 6)}`,
        work_time: shift === 'day' ? '09:00' : '22:00',
        off_work_time: shift === 'day' ? '18:00' : '06:00',
        absent_minutes: 120,
        rest_weekdays: '6,7',
        duplicate_seconds: 60,
        ...FESTIVALS,
        holidays: '2026-03-20',
        workdays: '2026-03-14',
        remark: null,
        tenant_id: options.tenantId,
      })
      .execute();
    await db.insertInto('sys_attendance_rule_depart').values({ ...audit, id: randomUUID(), rule_id: ruleId, depart_id: departId }).execute();
  }
  const peopleIds: string[] = [];
  const peopleRows = Array.from({ length: options.people }, (_, i) => {
    const id = randomUUID();
    peopleIds.push(id);
    const shift = shifts[i % shifts.length]!;
    return { ...audit, id, name: `Fixture person ${i}`, id_card: null, card_no: null, card_no_masked: null, user_no: `FX${i}-${id.slice(0, 6)}`, sex: null, depart_id: groups[shift]!, picture: null, palm_left: 0, palm_right: 0, password: null, status: 1, del_flag: 0, tenant_id: options.tenantId, shift };
  });
  for (let i = 0; i < peopleRows.length; i += 500) await db.insertInto('sys_people').values(peopleRows.slice(i, i + 500).map(({ shift: _s, ...row }) => row)).execute();

  const punches: FixturePunch[] = [];
  const deviceId = randomUUID();
  let seq = 0;
  let batch: Array<Record<string, unknown>> = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await db.insertInto('sys_attendance_punch').values(batch as never).execute();
    batch = [];
  };
  const add = async (peopleId: string, absoluteMinute: number, duplicate: boolean) => {
    const dayIndex = Math.floor(absoluteMinute / 1440);
    const minute = absoluteMinute - dayIndex * 1440;
    const time = new Date(absoluteMinute * 60_000).toISOString();
    punches.push({ peopleId, dayIndex, minute, duplicate });
    batch.push({ ...audit, id: randomUUID(), device_id: deviceId, seq: seq++, people_id: peopleId, punch_time: time, raw_time: time, day_index: dayIndex, minute, source: 'punch', duplicate: duplicate ? 1 : 0, tenant_id: options.tenantId });
    if (batch.length >= 500) await flush();
  };
  for (const person of peopleRows) {
    const start = person.shift === 'day' ? 540 : 1320;
    const end = person.shift === 'day' ? 1080 : 1800;
    for (let day = first; day <= last; day++) {
      const base = day * 1440;
      if (options.punchesPerDay) {
        // in, out for lunch, back, out
        const times = [start - 10 + Math.floor(next() * 20), start + 180, start + 240, end - 10 + Math.floor(next() * 20)];
        for (const m of times.slice(0, options.punchesPerDay)) await add(person.id, base + m, false);
        continue;
      }
      const r = next();
      if (r < 0.08) continue;
      const inAt = start - 30 + Math.floor(next() * (r < 0.2 ? 200 : 40));
      await add(person.id, base + inAt, false);
      // a repeat within the window: kept, not counted
      if (next() < 0.1) await add(person.id, base + inAt, true);
      if (r < 0.15) continue;
      const outAt = end - (next() < 0.15 ? 1 + Math.floor(next() * 90) : -Math.floor(next() * 30));
      await add(person.id, base + outAt, false);
      if (next() < 0.2) await add(person.id, base + start + 200, false);
    }
  }
  await flush();
  return { punches, peopleIds };
}
