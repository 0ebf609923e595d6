import { LANGUAGES } from '@isps/contract';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../shared/i18n/index.ts';
import { sinceText } from './since-text.ts';

describe('when someone came in, on the muster list', () => {
  it.each(LANGUAGES)('%s: names the door when it is known and leaves it unsaid when it is not, never "through —"', (lang) => {
    const t = i18n.getFixedT(lang);
    const known = sinceText(t, '2026-11-25 08:00:00', 'North gate');
    expect(known).toContain('North gate');
    expect(known).toContain('2026-11-25 08:00:00');
    const unknown = sinceText(t, '2026-11-25 08:00:00', null);
    expect(unknown).toContain('2026-11-25 08:00:00');
    expect(unknown).not.toMatch(/—|\{\{|emergency\./);
    expect(unknown).toBe(t('emergency.sinceNoDoor', { time: '2026-11-25 08:00:00' }));
    // the sentence about the door is gone, not only its name
    expect(unknown).not.toContain(t('emergency.since', { time: '', door: '' }).trim());
  });
});
