import { MENU_TITLE_KEYS, entityDeclarations, entityLabels, type Language } from '@isps/contract';
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

  it.each(Object.keys(catalogues))('%s names every declared screen as the menu item that opens it', (lang) => {
    for (const entity of entityDeclarations) {
      const menu = catalogues[lang]?.[`menu.${entity.component.replace('/', '.')}`];
      // screens opened from another screen (a job's run history) have no menu item of their own
      if (menu !== undefined) expect(entityLabels[lang as Language][entity.title], entity.name).toBe(menu);
    }
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
