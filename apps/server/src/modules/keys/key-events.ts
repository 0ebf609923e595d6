import { randomUUID } from 'node:crypto';
import { DEVICE_CREATOR, DeviceEventKind, keyReturnedData, keyTakenData, KeyStatus, maskCardNo, type DeviceEvent } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { personOfEvent } from '../../gateway/event-people.ts';

const KEY_KINDS = new Set<string>([DeviceEventKind.keyTaken, DeviceEventKind.keyReturned]);

/** Whether a batch holds events of keys (most batches hold none). */
export const hasKeyEvents = (events: readonly DeviceEvent[]) => events.some((e) => KEY_KINDS.has(e.kind));

type Device = { id: string; tenantId: string | null };

/**
 * What a key cabinet's events mean, written in the transaction that stores them (`db`): a take becomes a take of the
 * key's history (once per event: a repeated delivery finds it) and the key is out with that person; a return ends the
 * slot's latest open take, and the key is back once no take of it is open.
 */
export async function recordKeyEvents(db: Kysely<Database>, device: Device, events: readonly DeviceEvent[]): Promise<void> {
  const relevant = events.filter((e) => KEY_KINDS.has(e.kind));
  if (relevant.length === 0) return;
  const keys = new Map((await db.selectFrom('sys_key').select(['id', 'slot_no']).where('device_id', '=', device.id).execute()).map((k) => [k.slot_no, k.id]));
  const now = new Date().toISOString();
  for (const e of relevant) {
    const at = new Date(e.time).toISOString();
    if (e.kind === DeviceEventKind.keyTaken) {
      const data = keyTakenData.safeParse(e.data);
      if (!data.success) continue;
      if (await db.selectFrom('sys_key_record').select('id').where('device_id', '=', device.id).where('seq', '=', e.seq).executeTakeFirst()) continue;
      const peopleId = await personOfEvent(db, device, data.data);
      const keyId = keys.get(data.data.slot) ?? null;
      await db
        .insertInto('sys_key_record')
        .values({
          id: randomUUID(),
          create_by: DEVICE_CREATOR,
          create_time: now,
          update_by: null,
          update_time: null,
          key_id: keyId,
          device_id: device.id,
          seq: e.seq,
          slot_no: data.data.slot,
          take_time: at,
          return_time: null,
          people_id: peopleId,
          // which card was shown, never the whole number
          id_card: data.data.cardNo ? maskCardNo(data.data.cardNo.slice(0, 32)) : null,
          method: data.data.method ?? null,
          overdue_time: null,
          alarm_id: null,
          tenant_id: device.tenantId,
        })
        .execute();
      if (keyId) await db.updateTable('sys_key').set({ status: KeyStatus.taken, holder_id: peopleId, taken_time: at, overdue: 0 }).where('id', '=', keyId).execute();
      continue;
    }
    const data = keyReturnedData.safeParse(e.data);
    if (!data.success) continue;
    const open = await db
      .selectFrom('sys_key_record')
      .select('id')
      .where('device_id', '=', device.id)
      .where('slot_no', '=', data.data.slot)
      .where('return_time', 'is', null)
      .where('take_time', '<=', at)
      .orderBy('take_time', 'desc')
      .executeTakeFirst();
    if (open) await db.updateTable('sys_key_record').set({ return_time: at }).where('id', '=', open.id).execute();
    const keyId = keys.get(data.data.slot);
    if (!keyId) continue;
    const stillOut = await db.selectFrom('sys_key_record').select('id').where('device_id', '=', device.id).where('slot_no', '=', data.data.slot).where('return_time', 'is', null).executeTakeFirst();
    if (!stillOut) await db.updateTable('sys_key').set({ status: KeyStatus.inCabinet, holder_id: null, taken_time: null, overdue: 0 }).where('id', '=', keyId).execute();
  }
}
