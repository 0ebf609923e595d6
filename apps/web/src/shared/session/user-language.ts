import { ApiPath, type Language } from '@isps/contract';
import { http } from '../api/client.ts';
import { browser } from '../api/feedback.ts';
import { isLanguage, storedLanguage, switchLanguage } from '../i18n/language.ts';
import { StorageKey, setStored } from '../storage/index.ts';
import { currentToken, useSession } from './session-store.ts';

/** Set while a language picked before signing in (on the login page) waits to be kept with the user who signs in. */
const CHOSEN_SIGNED_OUT = 'pro__lang_chosen_signed_out';

/**
 * The language switches: the choice is kept in this browser and, for a signed-in user, with the user on the server
 * (so another browser signs them in in it); the page reloads in the new language.
 */
export async function chooseLanguage(language: Language): Promise<void> {
  if (currentToken()) await http.put(ApiPath.userLanguage, { lang: language }).catch(() => undefined);
  else sessionStorage.setItem(CHOSEN_SIGNED_OUT, '1');
  switchLanguage(language);
}

/**
 * At sign-in: a language picked on the login page becomes the user's; otherwise the language the user keeps is applied
 * (the page reloads in it) when it is not the one on screen.
 */
useSession.subscribe((state, previous) => {
  if (!state.token || state.token === previous.token || !state.userInfo) return;
  if (sessionStorage.getItem(CHOSEN_SIGNED_OUT)) {
    sessionStorage.removeItem(CHOSEN_SIGNED_OUT);
    void http.put(ApiPath.userLanguage, { lang: storedLanguage() }).catch(() => undefined);
    return;
  }
  const kept = state.userInfo.lang;
  if (isLanguage(kept) && kept !== storedLanguage()) {
    setStored(StorageKey.language, kept, null);
    browser.reload();
  }
});
