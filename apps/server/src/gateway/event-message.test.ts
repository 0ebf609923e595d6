import { describe, expect, it } from 'vitest';
import { DeviceEventKind } from '@isps/contract';
import { EVENT_DATA_MAX_BYTES, eventsOf, withinDataCap } from './event-message.ts';

const event = { id: 'e-1', seq: 1, time: 1767225600000, kind: DeviceEventKind.doorState, data: { door: 1, state: 'open' } };

describe('event messages', () => {
  it('reads one event or a batch, keeping only the known fields', () => {
    expect(eventsOf(event)).toEqual([event]);
    expect(eventsOf({ ...event, extra: 1 })).toEqual([event]);
    expect(eventsOf({ id: 'b-1', events: [event, { ...event, id: 'e-2', seq: 2 }] })).toEqual([event, { ...event, id: 'e-2', seq: 2 }]);
  });

  it('answers what the contract’s schema answers for the rest', () => {
    // no data: the schema's default
    const { data: _data, ...bare } = event;
    expect(eventsOf(bare)).toEqual([{ ...bare, data: {} }]);
    for (const bad of [
      null,
      [],
      'text',
      { ...event, seq: -1 },
      { ...event, seq: 1.5 },
      { ...event, time: 'now' },
      { ...event, kind: 'unknown' },
      { ...event, id: '' },
      { ...event, id: 'x'.repeat(65) },
      { ...event, data: [1] },
      { id: 'b', events: [] },
      { id: 'b', events: Array.from({ length: 501 }, (_, i) => ({ ...event, seq: i })) },
      { id: 'b', events: [event, { ...event, kind: 'nope' }] },
    ]) {
      expect(eventsOf(bad), JSON.stringify(bad)?.slice(0, 80)).toBeNull();
    }
  });

  it('keeps the events whose data is within the cap, counting UTF-8 bytes, and refuses the others', () => {
    const withNote = (seq: number, note: string) => ({ ...event, seq, data: { note } });
    const fits = withNote(1, 'x'.repeat(EVENT_DATA_MAX_BYTES - 20));
    const over = withNote(2, 'x'.repeat(EVENT_DATA_MAX_BYTES));
    // 1,400 characters, 4,200 bytes
    const wide = withNote(3, '界'.repeat(1400));
    const events = [fits, over, wide, event];
    expect(withinDataCap(events, JSON.stringify(events).length)).toEqual({ kept: [fits, event], refused: [over, wide] });
    // a message no larger than the cap is taken as it is
    expect(withinDataCap([event], EVENT_DATA_MAX_BYTES)).toEqual({ kept: [event], refused: [] });
  });
});
