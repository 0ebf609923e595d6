import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './http.ts';
import { migratedDictionaries, seededDictionaries } from './dictionaries.ts';
import { dictItemText } from './seeded-texts.ts';

describe('dictionary item texts', () => {
  it('translates a seeded item that still holds its English text', () => {
    expect(dictItemText('zh-CN', 'user_status', '2', 'Frozen')).toBe('冻结');
    expect(dictItemText('ja-JP', 'user_status', '2', 'Frozen')).toBe('凍結');
    expect(dictItemText('en-US', 'user_status', '2', 'Frozen')).toBe('Frozen');
  });

  it('translates the items of dictionaries a migration added', () => {
    expect(dictItemText('zh-CN', 'tenant_status', '0', 'Frozen')).toBe('冻结');
    expect(dictItemText('ja-JP', 'post_rank', '3', 'Manager')).toBe('マネージャー');
  });

  it('shows a text an administrator changed, and items the product did not seed, as stored', () => {
    expect(dictItemText('zh-CN', 'user_status', '2', 'Locked')).toBe('Locked');
    expect(dictItemText('zh-CN', 'user_status', '9', 'Archived')).toBe('Archived');
    expect(dictItemText('zh-CN', 'my_dict', '1', 'Normal')).toBe('Normal');
  });

  it('has every seeded item in all three languages, each value once per dictionary', () => {
    for (const dict of [...seededDictionaries, ...migratedDictionaries]) {
      expect(new Set(dict.items.map((i) => i[0])).size).toBe(dict.items.length);
      for (const item of dict.items) for (const lang of LANGUAGES) expect(dictItemText(lang, dict.code, item[0], item[1]).trim()).not.toBe('');
    }
  });
});
