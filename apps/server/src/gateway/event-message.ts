import { DEVICE_EVENT_BATCH_MAX, DeviceEventKind, deviceEventMessage, type DeviceEvent } from '@isps/contract';

const KINDS = new Set<string>(Object.values(DeviceEventKind));
const MAX_TIME = 8_640_000_000_000_000;

const isId = (value: unknown) => typeof value === 'string' && value.length >= 1 && value.length <= 64;
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the contract's deviceEvent schema accepts, checked by hand (a batch holds up to 500: zod costs more than storing them). */
function isPlainEvent(value: unknown): value is DeviceEvent {
  if (!isRecord(value)) return false;
  const { id, seq, time, kind, data } = value;
  return (
    isId(id) &&
    Number.isSafeInteger(seq) &&
    (seq as number) >= 0 &&
    Number.isSafeInteger(time) &&
    (time as number) >= 0 &&
    (time as number) <= MAX_TIME &&
    typeof kind === 'string' &&
    KINDS.has(kind) &&
    isRecord(data) &&
    Object.getPrototypeOf(data) === Object.prototype
  );
}

/**
 * The events of an `event` message (one event, or a batch `{ id, events }`), or null when the message is not one.
 * The usual message is checked by hand; anything else (an event without data, extra keys, something invalid) goes
 * through the contract's schema, which has the last word.
 */
export function eventsOf(body: unknown): DeviceEvent[] | null {
  if (isRecord(body)) {
    if ('events' in body) {
      const { id, events } = body;
      if (isId(id) && Array.isArray(events) && events.length >= 1 && events.length <= DEVICE_EVENT_BATCH_MAX && events.every(isPlainEvent)) {
        return events.map(({ id: eventId, seq, time, kind, data }) => ({ id: eventId, seq, time, kind, data }));
      }
    } else if (isPlainEvent(body)) {
      const { id, seq, time, kind, data } = body;
      return [{ id, seq, time, kind, data }];
    }
  }
  const parsed = deviceEventMessage.safeParse(body);
  if (!parsed.success) return null;
  return 'events' in parsed.data ? parsed.data.events : [parsed.data];
}

/** The most an event's `data` may take, as JSON in UTF-8: an event with more is refused (docs/device-protocol.md). */
export const EVENT_DATA_MAX_BYTES = 4096;

/**
 * The events of a message whose data is within EVENT_DATA_MAX_BYTES, and the others. A message no larger than the cap
 * (`bytes`, its payload's size) holds no event over it, so the usual one is not measured.
 */
export function withinDataCap(events: DeviceEvent[], bytes: number): { kept: DeviceEvent[]; refused: DeviceEvent[] } {
  if (bytes <= EVENT_DATA_MAX_BYTES) return { kept: events, refused: [] };
  const kept: DeviceEvent[] = [];
  const refused: DeviceEvent[] = [];
  for (const event of events) {
    const text = JSON.stringify(event.data);
    // a UTF-16 unit takes at most 3 bytes of UTF-8: most data needs no byte count
    const over = text.length * 3 > EVENT_DATA_MAX_BYTES && Buffer.byteLength(text, 'utf8') > EVENT_DATA_MAX_BYTES;
    (over ? refused : kept).push(event);
  }
  return { kept, refused };
}
