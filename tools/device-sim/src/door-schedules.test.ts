import { describe, expect, it } from 'vitest';
import { DoorScheduleStore, emptyHeldDoorSchedules } from './door-schedules.ts';

const at = (iso: string) => Date.parse(iso);
// Wednesday 2026-03-04 and Thursday 2026-03-05 (a holiday of the site); the schedules are read in Shanghai
const SITE = { timeZone: 'UTC', holidays: ['2026-03-05'] };
const BUSINESS = JSON.stringify({ mode: 'custom', periods: [{ start: '08:00', end: '18:00' }], days: ['weekday'] });

function store(times: string[]) {
  const s = new DoorScheduleStore(emptyHeldDoorSchedules());
  s.apply({ doors: [{ door: 1, times }], timeZone: 'Asia/Shanghai', version: 'v1' });
  return s;
}

describe('a door controller’s schedules', () => {
  it('unlock inside the periods in the site’s zone, lock outside them, on holidays and for doors not listed', () => {
    const s = store([BUSINESS]);
    // 09:00 in Shanghai is 01:00 UTC
    expect(s.unlocked(1, at('2026-03-04T01:00:00Z'), SITE)).toBe(true);
    expect(s.unlocked(1, at('2026-03-04T11:00:00Z'), SITE)).toBe(false);
    expect(s.unlocked(1, at('2026-03-05T01:00:00Z'), SITE)).toBe(false);
    // a Saturday is no weekday
    expect(s.unlocked(1, at('2026-03-07T01:00:00Z'), SITE)).toBe(false);
    expect(s.unlocked(2, at('2026-03-04T01:00:00Z'), SITE)).toBe(false);
  });

  it('a time the device cannot read unlocks nothing; the emergency’s hold unlocks whatever the schedule says', () => {
    const s = store(['not json']);
    expect(s.unlocked(1, at('2026-03-04T01:00:00Z'), SITE)).toBe(false);
    s.hold(1, true);
    expect(s.unlocked(1, at('2026-03-05T01:00:00Z'), SITE)).toBe(true);
    s.hold(1, false);
    expect(s.unlocked(1, at('2026-03-05T01:00:00Z'), SITE)).toBe(false);
  });
});
