import { MENU_TITLE_KEYS } from '@isps/contract';
import { describe, expect, it } from 'vitest';
import { enUS } from './en-US.ts';
import { jaJP } from './ja-JP.ts';
import { zhCN } from './zh-CN.ts';

const catalogues = { 'zh-CN': zhCN, 'en-US': enUS, 'ja-JP': jaJP } as Record<string, Record<string, string>>;
const reference = Object.keys(enUS).sort();

describe('message catalogues', () => {
  it.each(Object.keys(catalogues))('%s has exactly the key set of en-US', (lang) => {
    expect(Object.keys(catalogues[lang] ?? {}).sort()).toEqual(reference);
  });

  it.each(Object.keys(catalogues))('%s translates every menu title key of the server', (lang) => {
    const missing = MENU_TITLE_KEYS.filter((key) => !catalogues[lang]?.[key]);
    expect(missing).toEqual([]);
  });

  it.each(Object.keys(catalogues))('%s has no empty message and keeps the placeholders of en-US', (lang) => {
    for (const key of reference) {
      const text = catalogues[lang]?.[key] ?? '';
      expect(text.trim(), key).not.toBe('');
      const placeholders = (s: string) => (s.match(/\{\{\w+\}\}/g) ?? []).sort();
      expect(placeholders(text), key).toEqual(placeholders(enUS[key as keyof typeof enUS]));
    }
  });
});
