import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { translate } from '../messages/index.ts';
import { integerSchema } from './fields.ts';
import { issueText } from './issue-text.ts';

const messageOf = (value: unknown, lang: 'en-US' | 'zh-CN' | 'ja-JP' = 'en-US') => {
  const parsed = integerSchema(0, 10).safeParse(value);
  return parsed.success ? null : issueText(lang, 'Rank', parsed.error.issues[0] as z.core.$ZodIssue, value);
};

describe('validation messages of schema issues', () => {
  it('say an integer is out of range rather than not an integer', () => {
    for (const lang of ['en-US', 'zh-CN', 'ja-JP'] as const) {
      expect(messageOf(99, lang)).toBe(translate(lang, 'validation.tooBig', { field: 'Rank', max: '10' }));
      expect(messageOf(-5, lang)).toBe(translate(lang, 'validation.tooSmall', { field: 'Rank', min: '0' }));
      expect(messageOf(1.5, lang)).toBe(translate(lang, 'validation.integer', { field: 'Rank' }));
      expect(messageOf('x', lang)).toBe(translate(lang, 'validation.integer', { field: 'Rank' }));
    }
    expect(messageOf(7)).toBeNull();
  });
});
