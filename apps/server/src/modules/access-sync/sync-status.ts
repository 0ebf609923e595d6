import { AccessCommandKind, DeviceCommandStatus, SyncPeopleOp, SyncStatus, type SyncPeoplePayload } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

const SYNC_KINDS = [AccessCommandKind.syncPeople, AccessCommandKind.accessReport];
const WAITING: string[] = [DeviceCommandStatus.pending, DeviceCommandStatus.sent];
const ENDED_BADLY: string[] = [DeviceCommandStatus.failed, DeviceCommandStatus.expired];
/** devices whose status is worked out per statement */
const CHUNK = 200;

/** People changes a queued command carries (a clear or a report counts none). */
function peopleIn(payload: string | null): number {
  if (!payload) return 0;
  try {
    const parsed = JSON.parse(payload) as SyncPeoplePayload;
    if (parsed.op === SyncPeopleOp.upsert) return parsed.people.length;
    if (parsed.op === SyncPeopleOp.remove) return parsed.ids.length;
  } catch {
    // an unreadable payload counts none
  }
  return 0;
}

/** Why a batch failed: the reason the device answered, or how it ended (expired, failed). */
function reasonOf(status: string, result: string | null): string {
  if (result) {
    try {
      const parsed = JSON.parse(result) as { reason?: unknown } | string;
      if (typeof parsed === 'string' && parsed !== '') return parsed.slice(0, 255);
      if (parsed && typeof parsed === 'object' && typeof parsed.reason === 'string' && parsed.reason !== '') return parsed.reason.slice(0, 255);
    } catch {
      return result.slice(0, 255);
    }
  }
  return status;
}

/**
 * Works out where each device's access list stands from its queue of sync commands and keeps it on the device row:
 * pending while any batch waits (with the people changes in them), failed when the last batch that ended did not
 * succeed (with its reason), else in sync; the time it last held its whole list is the last batch it confirmed while
 * nothing waited. Read from the queue itself, so a restart or another server never leaves a status behind.
 */
export async function refreshSyncStatus(db: Kysely<Database>, deviceIds: readonly string[]): Promise<void> {
  for (let i = 0; i < deviceIds.length; i += CHUNK) {
    const ids = [...new Set(deviceIds.slice(i, i + CHUNK))];
    if (ids.length === 0) continue;
    const groups = await db
      .selectFrom('sys_device_command')
      .select((eb) => ['device_id', 'status', eb.fn.countAll<number>().as('n'), eb.fn.max('create_time').as('last_created'), eb.fn.max('acked_time').as('last_acked')])
      .where('device_id', 'in', ids)
      .where('kind', 'in', SYNC_KINDS)
      .groupBy(['device_id', 'status'])
      .execute();
    const waiting = await db
      .selectFrom('sys_device_command')
      .select(['device_id', 'payload'])
      .where('device_id', 'in', ids)
      .where('kind', '=', AccessCommandKind.syncPeople)
      .where('status', 'in', WAITING)
      .execute();
    const pendingPeople = new Map<string, number>();
    for (const row of waiting) pendingPeople.set(row.device_id, (pendingPeople.get(row.device_id) ?? 0) + peopleIn(row.payload));

    for (const id of ids) {
      const mine = groups.filter((g) => g.device_id === id);
      const waits = mine.filter((g) => WAITING.includes(g.status)).reduce((sum, g) => sum + Number(g.n), 0);
      const lastAcked = mine.find((g) => g.status === DeviceCommandStatus.acked);
      const lastBad = mine.filter((g) => ENDED_BADLY.includes(g.status)).sort((a, b) => String(b.last_created).localeCompare(String(a.last_created)))[0];
      const failed = lastBad !== undefined && (!lastAcked || String(lastBad.last_created) > String(lastAcked.last_created));
      let changes: Partial<Pick<Database['sys_device'], 'sync_state' | 'sync_pending' | 'sync_reason' | 'sync_aligned_time'>>;
      if (waits > 0) changes = { sync_state: SyncStatus.pending, sync_pending: pendingPeople.get(id) ?? 0 };
      else if (failed) {
        const command = await db
          .selectFrom('sys_device_command')
          .select(['status', 'result'])
          .where('device_id', '=', id)
          .where('kind', 'in', SYNC_KINDS)
          .where('status', 'in', ENDED_BADLY)
          .orderBy('create_time', 'desc')
          .limit(1)
          .executeTakeFirst();
        changes = { sync_state: SyncStatus.failed, sync_pending: 0, sync_reason: command ? reasonOf(command.status, command.result) : lastBad.status };
      } else changes = { sync_state: SyncStatus.inSync, sync_pending: 0, sync_reason: null, ...(lastAcked?.last_acked ? { sync_aligned_time: String(lastAcked.last_acked) } : {}) };
      await db.updateTable('sys_device').set(changes).where('id', '=', id).execute();
    }
  }
}

/** Devices whose stored status may be behind their queue: those shown pending, and those with batches waiting. */
export async function devicesToRefresh(db: Kysely<Database>, limit = 500): Promise<string[]> {
  const shown = await db.selectFrom('sys_device').select('id').where('sync_state', '=', SyncStatus.pending).limit(limit).execute();
  const queued = await db.selectFrom('sys_device_command').select('device_id').distinct().where('kind', 'in', SYNC_KINDS).where('status', 'in', WAITING).limit(limit).execute();
  return [...new Set([...shown.map((r) => r.id), ...queued.map((r) => r.device_id)])];
}
