import { LANGUAGES, browserLanguage, type Language } from '@isps/contract';
import { StorageKey, getStored, setStored } from '../storage/index.ts';
import { browser } from '../api/feedback.ts';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The console language: the one chosen in this browser (or kept with the user who signed in), else on a first visit
 * the browser's own when the console speaks it (navigator.languages), else zh-CN.
 */
export function storedLanguage(): Language {
  const value = getStored<string>(StorageKey.language);
  if (isLanguage(value)) return value;
  return browserLanguage(typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]));
}

/** SPEC section 1: the choice is kept locally and the page reloads in the new language. */
export function switchLanguage(language: Language): void {
  if (language === storedLanguage()) return;
  setStored(StorageKey.language, language, null);
  browser.reload();
}
