/** The console's own catalogues, so browser tests find controls by the words a person reads in each language. */
import { enUS } from '../apps/web/src/locales/en-US.ts';
import { jaJP } from '../apps/web/src/locales/ja-JP.ts';
import { zhCN } from '../apps/web/src/locales/zh-CN.ts';

export const catalogues = { 'zh-CN': zhCN, 'en-US': enUS, 'ja-JP': jaJP } as const;
export type UiLanguage = keyof typeof catalogues;

/**
 * The text of `key` as i18next picks it: with a `count` (or a list's `total`), the plural form of the language when it
 * has one; a `{{name, number}}` placeholder is formatted as the language writes numbers (thousands separated).
 */
export function text(lang: UiLanguage, key: keyof typeof enUS, params: Record<string, string> = {}): string {
  const count = params.count ?? params.total;
  const plural = count === undefined ? undefined : `${key}_${new Intl.PluralRules(lang).select(Number(count))}`;
  const catalogue = catalogues[lang] as Record<string, string>;
  const template = plural !== undefined && Object.hasOwn(catalogue, plural) ? catalogue[plural] : catalogue[key];
  return String(template).replace(/\{\{(\w+)(, *number)?\}\}/g, (_all, name: string, number?: string) => {
    const value = params[name] ?? '';
    return number !== undefined && value !== '' ? new Intl.NumberFormat(lang).format(Number(value)) : value;
  });
}
