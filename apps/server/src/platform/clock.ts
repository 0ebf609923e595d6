/** Milliseconds since the epoch; injectable so tests can move time instead of sleeping. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

export function isoAt(clock: Clock, offsetMs = 0): string {
  return new Date(clock() + offsetMs).toISOString();
}
