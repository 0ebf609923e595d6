import { describe, expect, it } from 'vitest';
import { greetingKey } from './greeting.ts';

describe('welcome text by time of day (SPEC section 9 bands)', () => {
  it.each([
    [0, 'greeting.morning'],
    [8, 'greeting.morning'],
    [9, 'greeting.forenoon'],
    [11, 'greeting.forenoon'],
    [12, 'greeting.noon'],
    [13, 'greeting.noon'],
    [14, 'greeting.afternoon'],
    [19, 'greeting.afternoon'],
    [20, 'greeting.evening'],
    [23, 'greeting.evening'],
  ])('at %i h: %s', (hour, key) => {
    expect(greetingKey(hour)).toBe(key);
  });
});
