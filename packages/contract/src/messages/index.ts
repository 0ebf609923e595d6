import type { Language } from '../http.ts';
import { enUS, type MessageKey } from './en-US.ts';
import { jaJP } from './ja-JP.ts';
import { zhCN } from './zh-CN.ts';

export type { MessageKey };
export { tokenExpiredMessages } from './token-expired.ts';
export const serverMessages: Record<Language, Record<MessageKey, string>> = {
  'zh-CN': zhCN,
  'en-US': enUS,
  'ja-JP': jaJP,
};

/** Fills `{{name}}` placeholders; unknown placeholders stay as they are. */
export function formatMessage(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

export function translate(lang: Language, key: MessageKey, params?: Record<string, string | number>): string {
  return formatMessage(serverMessages[lang][key], params);
}
