import { entityLabels, serverMessages, type Language } from '@isps/contract';
import { i18n } from './i18n.ts';

let added = false;

/**
 * Entity titles and field labels come from the contract (the server uses them too) with the screen declarations
 * they are derived from (and zod): the screens that show them add them when they load, so the login page does not
 * download them. So do the messages the server shares with the forms (`validation.*`, `upload.*`, …): a form's
 * `t('validation.required')` then reads as the server's refusal would, never as its key. Console messages win on a
 * clash, then entity labels.
 */
export function addEntityLabels(): void {
  if (added) return;
  added = true;
  for (const [language, labels] of Object.entries(entityLabels)) i18n.addResourceBundle(language as Language, 'translation', labels, true, false);
  for (const [language, messages] of Object.entries(serverMessages)) i18n.addResourceBundle(language as Language, 'translation', messages, true, false);
}
