import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jaJP } from '../../locales/ja-JP.ts';

describe('the login page tagline', () => {
  it('breaks only between phrases: the Japanese text marks them, the style keeps words whole', () => {
    const phrases = jaJP['app.tagline'].split('\u200b');
    expect(phrases.join('')).toBe('入退室管理・キャビネット・来訪者・巡回・勤怠をひとつのコンソールで');
    // each phrase fits a 375 px phone's line many times over; a line breaks after a phrase, never inside "キャビネット"
    expect(phrases.length).toBeGreaterThan(4);
    for (const phrase of phrases) expect(phrase.length, phrase).toBeLessThanOrEqual(7);
    const css = readFileSync(join(import.meta.dirname, 'user-layout.module.css'), 'utf8');
    expect(/\.tagline \{[^}]*word-break: keep-all;/.exec(css)).not.toBeNull();
  });
});
