import { MENU_TITLE_KEYS, entityDeclarations, entityLabels, menuTitles, seededDictionaries, serverMessages, type Language } from '@isps/contract';
import { describe, expect, it } from 'vitest';
import { i18n } from '../shared/i18n/i18n.ts';
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

  /** Every text a reader of `lang` may read: console messages, server messages, screen labels and menu titles. */
  const everyText = (lang: Language): [string, string][] => [
    ...Object.entries(catalogues[lang] ?? {}),
    ...Object.entries(serverMessages[lang]),
    ...Object.entries(entityLabels[lang]),
    ...Object.entries(menuTitles[lang]),
  ];

  it.each(Object.keys(catalogues))('%s calls the announcement field a subject, never a theme', (lang) => {
    const theme = { 'en-US': /\btheme\b/i, 'zh-CN': /主题/, 'ja-JP': /テーマ/ }[lang as Language];
    expect(everyText(lang as Language).filter(([key, text]) => key.startsWith('announcement.') && theme.test(text))).toEqual([]);
  });

  it.each(Object.keys(catalogues))('%s has one word for a group', (lang) => {
    // zh-CN 部门, en-US group, ja-JP グループ; 组 stays in words that are no group (数组 array, 组件 component, 组织 organisation, 组长 leader)
    const other = { 'en-US': /\bdepartments?\b/i, 'zh-CN': /(?<!数)组(?!件|合|长|织)/, 'ja-JP': /部署|部門/ }[lang as Language];
    expect(everyText(lang as Language).filter(([, text]) => other.test(text))).toEqual([]);
  });

  it.each(Object.keys(catalogues))('%s has one word for a device', (lang) => {
    // ja-JP デバイス as in the menus, never 機器; a device's kind (controller, camera, vein reader) is no device type
    const other = { 'en-US': /$^/, 'zh-CN': /$^/, 'ja-JP': /機器/ }[lang as Language];
    expect(everyText(lang as Language).filter(([, text]) => other.test(text))).toEqual([]);
    const labels = entityLabels[lang as Language];
    expect(labels['device.field.deviceKind']).not.toBe(labels['deviceType.title']);
    expect(labels['device.field.deviceKind']).not.toBe(catalogues[lang]?.['menu.device.deviceType']);
    // the column reads as the name of the dictionary that offers its values
    const kinds = seededDictionaries.find((d) => d.code === 'device_kind')!;
    expect(labels['device.field.deviceKind']).toBe({ 'en-US': kinds.name, 'zh-CN': kinds.names[0], 'ja-JP': kinds.names[1] }[lang as Language]);
  });

  it('counts in English with the plural the number needs', () => {
    const t = i18n.getFixedT('en-US');
    expect([1, 2, 0].map((n) => t('crud.total', { count: n, total: n }))).toEqual(['1 record in total', '2 records in total', '0 records in total']);
    expect(t('crud.batchDeleteConfirm', { count: 1 })).toBe('Delete the 1 selected record?');
    const all = everyText('en-US');
    expect(all.filter(([, text]) => /(?<!http)\(s\)/.test(text))).toEqual([]);
    // a count before a plural noun needs its singular form; the server, which has no plural forms, words around it
    const countedNoun = /\{\{(count|total)\}\} [a-z]+s\b/;
    expect(Object.entries(enUS).filter(([key, text]) => countedNoun.test(text) && !key.endsWith('_one') && !Object.hasOwn(enUS, `${key}_one`))).toEqual([]);
    expect(Object.entries(serverMessages['en-US']).filter(([, text]) => countedNoun.test(text))).toEqual([]);
  });
});
