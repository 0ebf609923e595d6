import { loadServerMessages, type Language } from '@isps/contract';
import { i18n } from './i18n.ts';

/** Each language's entity labels, a chunk of its own made from the contract's at build time (vite.config.ts). */
const labelLoaders: Record<Language, () => Promise<Record<string, string>>> = {
  'zh-CN': () => import('virtual:isps-entity-labels/zh-CN').then((m) => m.default),
  'en-US': () => import('virtual:isps-entity-labels/en-US').then((m) => m.default),
  'ja-JP': () => import('virtual:isps-entity-labels/ja-JP').then((m) => m.default),
};

let added = false;

/**
 * Entity titles and field labels come from the contract (the server uses them too): the screens that show them add
 * them when they load, so the login page does not download them. So do the messages the server shares with the forms
 * (`validation.*`, `upload.*`, …): a form's `t('validation.required')` then reads as the server's refusal would, never
 * as its key. Console messages win on a clash, then entity labels. Given by language (tests give all three).
 */
export function addEntityLabels(labels: Partial<Record<Language, Record<string, string>>>, serverMessages: Partial<Record<Language, Record<string, string>>>): void {
  if (added) return;
  added = true;
  for (const [language, texts] of Object.entries(labels)) i18n.addResourceBundle(language as Language, 'translation', texts, true, false);
  for (const [language, messages] of Object.entries(serverMessages)) i18n.addResourceBundle(language as Language, 'translation', messages, true, false);
}

/** Loads and adds the entity labels and server messages of `language` only (a switch reloads the page). */
export async function loadEntityLabels(language: Language): Promise<void> {
  if (added) return;
  const [labels, messages] = await Promise.all([labelLoaders[language](), loadServerMessages(language)]);
  addEntityLabels({ [language]: labels }, { [language]: messages });
}
