import { randomUUID } from 'node:crypto';
import { ATTENDANCE_ROLE_TYPE, DEFAULT_DUPLICATE_WINDOW_SECONDS, DEVICE_CREATOR, DeviceEventKind, openingPersonData, punchData, type DeviceEvent } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { personOfEvent } from '../../gateway/event-people.ts';
import { localDayMinute } from './local-time.ts';

const PUNCH_KINDS = new Set<string>([DeviceEventKind.punch, DeviceEventKind.opening]);

type Device = { id: string; tenantId: string | null };

/** Whether the person holds an attendance role naming the device (directly or through their group). */
async function attendsAt(db: Kysely<Database>, device: Device, peopleId: string): Promise<boolean> {
  const person = await db.selectFrom('sys_people').select('depart_id').where('id', '=', peopleId).executeTakeFirst();
  const role = await db
    .selectFrom('sys_device_role as r')
    .innerJoin('sys_device_role_device as rd', 'rd.role_id', 'r.id')
    .select('r.id')
    .where('r.role_type', '=', ATTENDANCE_ROLE_TYPE)
    .where('rd.device_id', '=', device.id)
    .where((eb) =>
      eb.or([
        eb.exists(eb.selectFrom('sys_device_role_people as rp').select('rp.id').whereRef('rp.role_id', '=', 'r.id').where('rp.people_id', '=', peopleId)),
        ...(person?.depart_id ? [eb.exists(eb.selectFrom('sys_device_role_depart as rdp').select('rdp.id').whereRef('rdp.role_id', '=', 'r.id').where('rdp.depart_id', '=', person.depart_id))] : []),
      ]),
    )
    .executeTakeFirst();
  return role !== undefined;
}

/** The duplicate window of the person's rule (through their group), or the default. */
async function duplicateWindowMs(db: Kysely<Database>, peopleId: string): Promise<number> {
  const rule = await db
    .selectFrom('sys_people as p')
    .innerJoin('sys_attendance_rule_depart as rd', 'rd.depart_id', 'p.depart_id')
    .innerJoin('sys_attendance_rule as r', 'r.id', 'rd.rule_id')
    .select('r.duplicate_seconds')
    .where('p.id', '=', peopleId)
    .executeTakeFirst();
  return (rule?.duplicate_seconds ?? DEFAULT_DUPLICATE_WINDOW_SECONDS) * 1000;
}

/**
 * The punches among a device's events, written in the transaction that stores them: a `punch` of a known person, or
 * an `opening` of a person whose attendance role names the device. Each is placed at the device's time corrected by
 * its clock offset (the raw time kept), on the site-local day and minute; one within the duplicate window of the
 * person's previous counted punch is kept flagged and not counted. A repeated delivery finds its row.
 */
export async function recordPunches(db: Kysely<Database>, device: Device, events: readonly DeviceEvent[], timeZone: string, now: string): Promise<void> {
  const relevant = events.filter((e) => PUNCH_KINDS.has(e.kind));
  if (relevant.length === 0) return;
  const row = await db.selectFrom('sys_device').select('clock_offset_ms').where('id', '=', device.id).executeTakeFirst();
  const offset = Number(row?.clock_offset_ms ?? 0);
  for (const e of relevant) {
    const parsed = e.kind === DeviceEventKind.punch ? punchData.safeParse(e.data) : openingPersonData.safeParse(e.data);
    if (!parsed.success) continue;
    const peopleId = await personOfEvent(db, device, parsed.data);
    if (!peopleId) continue;
    if (e.kind === DeviceEventKind.opening && !(await attendsAt(db, device, peopleId))) continue;
    if (await db.selectFrom('sys_attendance_punch').select('id').where('device_id', '=', device.id).where('seq', '=', e.seq).executeTakeFirst()) continue;
    const at = e.time - offset;
    const punchTime = new Date(at).toISOString();
    const window = await duplicateWindowMs(db, peopleId);
    const previous =
      window > 0
        ? await db
            .selectFrom('sys_attendance_punch')
            .select('id')
            .where('people_id', '=', peopleId)
            .where('duplicate', '=', 0)
            .where('punch_time', '<=', punchTime)
            .where('punch_time', '>=', new Date(at - window).toISOString())
            .executeTakeFirst()
        : undefined;
    const { dayIndex, minute } = localDayMinute(at, timeZone);
    await db
      .insertInto('sys_attendance_punch')
      .values({
        id: randomUUID(),
        create_by: DEVICE_CREATOR,
        create_time: now,
        update_by: null,
        update_time: null,
        device_id: device.id,
        seq: e.seq,
        people_id: peopleId,
        punch_time: punchTime,
        raw_time: new Date(e.time).toISOString(),
        day_index: dayIndex,
        minute,
        source: e.kind === DeviceEventKind.punch ? 'punch' : 'opening',
        duplicate: previous ? 1 : 0,
        tenant_id: device.tenantId,
      })
      .execute();
  }
}
