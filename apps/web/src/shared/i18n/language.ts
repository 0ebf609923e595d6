import { DEFAULT_UI_LANGUAGE, LANGUAGES, type Language } from '@isps/contract';
import { StorageKey, getStored, setStored } from '../storage/index.ts';
import { browser } from '../api/feedback.ts';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The chosen console language, zh-CN until the user picks another. */
export function storedLanguage(): Language {
  const value = getStored<string>(StorageKey.language);
  return isLanguage(value) ? value : DEFAULT_UI_LANGUAGE;
}

/** SPEC section 1: the choice is kept locally and the page reloads in the new language. */
export function switchLanguage(language: Language): void {
  if (language === storedLanguage()) return;
  setStored(StorageKey.language, language, null);
  browser.reload();
}
