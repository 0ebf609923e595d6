/** The console's own catalogues, so browser tests find controls by the words a person reads in each language. */
import { enUS } from '../apps/web/src/locales/en-US.ts';
import { jaJP } from '../apps/web/src/locales/ja-JP.ts';
import { zhCN } from '../apps/web/src/locales/zh-CN.ts';

export const catalogues = { 'zh-CN': zhCN, 'en-US': enUS, 'ja-JP': jaJP } as const;
export type UiLanguage = keyof typeof catalogues;

export function text(lang: UiLanguage, key: keyof typeof enUS, params: Record<string, string> = {}): string {
  return String(catalogues[lang][key]).replace(/\{\{(\w+)\}\}/g, (_all, name: string) => params[name] ?? '');
}
