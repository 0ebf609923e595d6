import { ACCESS_EVENT_KINDS, AccessResult, DeviceEventKind, AlarmState, maskCardNo, SERVER_REFUSED_OPENING_ALARM, ServerVerdict, type DeviceEvent, type EvaluationContext } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { cardHoldersOf } from '../../gateway/event-people.ts';
import type { DerivedRows } from '../../gateway/index.ts';
import { judgeAccess } from './access-verdict.ts';

// passages, and door states (kept as door events)
const KINDS = new Set<string>([...ACCESS_EVENT_KINDS, DeviceEventKind.doorState]);
const text = (value: unknown, max: number) => (typeof value === 'string' && value !== '' ? value.slice(0, max) : null);

/**
 * Stores the access events among a device's events (openings, denials) and its door events (door states), each
 * (device, seq) once, with the other rows of the batch (`derived`). A device names the person by id, or by the card it
 * read: the card is turned into its holder and stored masked only. Each opening and denial carries the server's own
 * verdict at the event's device time (access-verdict.ts); an opening the server would have refused, or of someone it
 * does not know (an unknown card), is flagged and raises an alarm of the device.
 */
export async function recordAccessEvents(
  db: Kysely<Database>,
  derived: DerivedRows,
  device: { id: string; tenantId: string | null },
  events: readonly DeviceEvent[],
  site: EvaluationContext,
): Promise<void> {
  const relevant = events.filter((e) => KINDS.has(e.kind));
  if (relevant.length === 0) return;
  const doors = new Map((await db.selectFrom('sys_door').select(['id', 'door_no']).where('device_id', '=', device.id).execute()).map((d) => [Number(d.door_no), d.id]));
  const cards = [...new Set(relevant.map((e) => e.data.cardNo).filter((c): c is string => typeof c === 'string' && c !== '' && c.length <= 32))];
  // people and visitors alike
  const holders = await cardHoldersOf(db, device.tenantId, cards);
  const passages = relevant.map((e) => {
    const door = typeof e.data.door === 'number' && Number.isInteger(e.data.door) ? e.data.door : null;
    const peopleId = text(e.data.peopleId, 36) ?? (typeof e.data.cardNo === 'string' ? (holders.get(e.data.cardNo) ?? null) : null);
    return { event: e, door, doorId: door === null ? null : (doors.get(door) ?? null), peopleId };
  });
  // openings and denials are judged by the server too, at the device's own time of each
  const judged = passages.filter((p) => p.event.kind !== 'doorState');
  const verdicts = new Map<DeviceEvent, ServerVerdict>();
  const answers = await judgeAccess(db, device.id, judged.map((p) => ({ peopleId: p.peopleId, doorId: p.doorId, at: p.event.time })), site);
  judged.forEach((p, i) => verdicts.set(p.event, answers[i]!));
  for (const { event: e, door, doorId, peopleId } of passages) {
    const verdict = verdicts.get(e) ?? null;
    const eventTime = new Date(e.time).toISOString();
    if (e.kind === DeviceEventKind.doorState) {
      derived.add('sys_door_event', device, { seq: e.seq, event_time: eventTime, door_id: doorId, door_no: door, state: text(e.data.state, 16) });
      continue;
    }
    // a door opened for someone the server would refuse, or for nobody it knows (an unknown card), is not a plain passage
    const flagged = e.kind === 'opening' && verdict !== ServerVerdict.allowed;
    derived.add('sys_access_event', device, {
      seq: e.seq,
      event_time: eventTime,
      kind: e.kind,
      result: e.kind === 'opening' ? AccessResult.passed : e.kind === 'denial' ? AccessResult.refused : null,
      people_id: peopleId,
      door_id: doorId,
      door_no: door,
      method: text(e.data.method, 16),
      detail: e.kind === 'denial' ? text(e.data.reason, 32) : null,
      server_verdict: verdict,
      flagged: flagged ? 1 : 0,
      // which card was shown (an unknown or refused one too), never the whole number
      card_no_masked: typeof e.data.cardNo === 'string' && e.data.cardNo !== '' ? maskCardNo(e.data.cardNo.slice(0, 32)) : null,
    });
    // an opening the server would have refused is an alarm of the device (once per event, as the event itself)
    if (flagged) {
      derived.add('sys_device_alarm', device, {
        event_seq: e.seq,
        code: SERVER_REFUSED_OPENING_ALARM,
        level: 'H',
        state: AlarmState.open,
        alarm_time: eventTime,
        handled_by: null,
        handled_time: null,
      });
    }
  }
}
