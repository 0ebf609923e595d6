import { randomUUID } from 'node:crypto';
import { CabinetStatus, cabinetNoData, cabinetOpenData, DEVICE_CREATOR, DeviceEventKind, maskCardNo, type DeviceEvent } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { personOfEvent } from '../../gateway/event-people.ts';
import { EMPTY_CABINET } from './cabinet-sync.ts';

const CABINET_KINDS = new Set<string>([DeviceEventKind.cabinetOpen, DeviceEventKind.cabinetClose, DeviceEventKind.cabinetCleared]);

/** Whether a batch holds events of cabinets (most batches are door events and hold none). */
export const hasCabinetEvents = (events: readonly DeviceEvent[]) => events.some((e) => CABINET_KINDS.has(e.kind));

type Device = { id: string; tenantId: string | null };

/**
 * What a cabinet device's events mean, written in the transaction that stores them (`db`): an opening becomes an opening
 * record (once per event: a repeated delivery finds its record), a closing ends the cabinet's open record, and a
 * clearing frees the cabinet for someone else when it names the allocation the console last sent (a late clearing of
 * an earlier allocation changes nothing). Answers the ids of the records written or closed.
 */
export async function recordCabinetEvents(db: Kysely<Database>, device: Device, events: readonly DeviceEvent[]): Promise<string[]> {
  const touched: string[] = [];
  const relevant = events.filter((e) => CABINET_KINDS.has(e.kind));
  if (relevant.length === 0) return touched;
  const cabinets = new Map((await db.selectFrom('sys_cabinet').select(['id', 'cabinet_no', 'status', 'sent_version']).where('device_id', '=', device.id).execute()).map((c) => [c.cabinet_no, c]));
  const now = new Date().toISOString();
  for (const e of relevant) {
    const at = new Date(e.time).toISOString();
    if (e.kind === DeviceEventKind.cabinetOpen) {
      const data = cabinetOpenData.safeParse(e.data);
      if (!data.success) continue;
      const stored = await db.selectFrom('sys_cabinet_record').select('id').where('device_id', '=', device.id).where('seq', '=', e.seq).executeTakeFirst();
      if (stored) continue;
      const peopleId = await personOfEvent(db, device, data.data);
      const id = randomUUID();
      await db
        .insertInto('sys_cabinet_record')
        .values({
          id,
          create_by: DEVICE_CREATOR,
          create_time: now,
          update_by: null,
          update_time: null,
          device_id: device.id,
          seq: e.seq,
          cabinet_id: cabinets.get(data.data.cabinet)?.id ?? null,
          cabinet_no: data.data.cabinet,
          open_time: at,
          close_time: null,
          // which card was shown, never the whole number
          id_card: data.data.cardNo ? maskCardNo(data.data.cardNo.slice(0, 32)) : null,
          people_id: peopleId,
          method: data.data.method ?? null,
          tenant_id: device.tenantId,
        })
        .execute();
      touched.push(id);
      continue;
    }
    const data = cabinetNoData.safeParse(e.data);
    if (!data.success) continue;
    if (e.kind === DeviceEventKind.cabinetClose) {
      const open = await db
        .selectFrom('sys_cabinet_record')
        .select('id')
        .where('device_id', '=', device.id)
        .where('cabinet_no', '=', data.data.cabinet)
        .where('close_time', 'is', null)
        .where('open_time', '<=', at)
        .orderBy('open_time', 'desc')
        .executeTakeFirst();
      if (!open) continue;
      await db.updateTable('sys_cabinet_record').set({ close_time: at }).where('id', '=', open.id).execute();
      touched.push(open.id);
      continue;
    }
    // cleared: the cabinet the device emptied is free again, its holders gone (the device holds nothing for it)
    const cabinet = cabinets.get(data.data.cabinet);
    const version = typeof e.data.version === 'string' ? e.data.version : null;
    if (!cabinet || cabinet.status !== CabinetStatus.assigned || (version !== null && version !== cabinet.sent_version)) continue;
    await db.deleteFrom('sys_cabinet_people').where('cabinet_id', '=', cabinet.id).execute();
    await db
      .updateTable('sys_cabinet')
      .set({ status: CabinetStatus.assignable, version: randomUUID(), sent_version: EMPTY_CABINET, expire_time: null, update_by: DEVICE_CREATOR, update_time: now })
      .where('id', '=', cabinet.id)
      .execute();
    cabinet.status = CabinetStatus.assignable;
  }
  return touched;
}
