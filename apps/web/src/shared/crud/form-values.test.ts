import { entityLabels, patrolRouteEntity } from '@isps/contract';
import { describe, expect, it } from 'vitest';
import { displayValue } from './entity-fields.ts';
import { toFormValue } from './form-values.ts';
import { fieldRules, toApiValue } from './zod-rules.ts';

const t = (key: string) => entityLabels['en-US'][key] ?? key;
const weekDay = patrolRouteEntity.fields.weekDay!;

describe('an options field that picks several values (a route’s weekdays)', () => {
  it('edits the stored text as a list, sends it joined by commas, and shows each value’s label', async () => {
    expect(toFormValue(weekDay, '1,3,5')).toEqual(['1', '3', '5']);
    expect(toApiValue(weekDay, ['1', '3', '5'])).toBe('1,3,5');
    expect(displayValue(patrolRouteEntity, 'weekDay', { weekDay: '1,3,5' }, t)).toBe('Monday, Wednesday, Friday');
    // the same schema as the server's: a day that is none is refused before sending
    const rules = fieldRules(weekDay, { mode: 'add', label: 'Weekdays', lang: 'en-US' });
    const refusals = await Promise.all(rules.map((rule) => Promise.resolve((rule as { validator?: (r: unknown, v: unknown) => Promise<void> }).validator?.(rule, ['8'])).then(() => null, (e: Error) => e.message)));
    expect(refusals.some((m) => m !== null)).toBe(true);
  });
});
