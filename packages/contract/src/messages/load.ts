import type { Language } from '../http.ts';
import type { MessageKey } from './en-US.ts';

/**
 * One language's server messages, loaded when asked for: in the console each language is a chunk of its own, fetched
 * for the active language only (`serverMessages` holds all three, for the server).
 */
export function loadServerMessages(language: Language): Promise<Record<MessageKey, string>> {
  switch (language) {
    case 'zh-CN':
      return import('./zh-CN.ts').then((m) => m.zhCN);
    case 'ja-JP':
      return import('./ja-JP.ts').then((m) => m.jaJP);
    default:
      return import('./en-US.ts').then((m) => m.enUS);
  }
}
