/** Shared steps of the shell browser tests: signing in like a person, opening the console signed in, reading the layout settings. */
import type { Page } from 'playwright-core';
import { text, type UiLanguage } from './catalogues.ts';
import { openScreen } from './crud-page.ts';
import { openLoginPage, passSliderCaptcha } from './harness.ts';

/**
 * Signs in through the login form, as a person does. Only for what the form's sign-in does and a stored session
 * does not (the group question right after it, the welcome): elsewhere a test opens a context made signed in
 * (`signedInState`) with `openSignedIn`.
 */
export async function signIn(page: Page, url: string, lang: UiLanguage, password: string, username = 'admin'): Promise<void> {
  const t = (key: Parameters<typeof text>[1]) => text(lang, key);
  await openLoginPage(page, url);
  await page.getByLabel(t('login.username'), { exact: true }).fill(username);
  await page.getByLabel(t('login.password'), { exact: true }).fill(password);
  await passSliderCaptcha(page);
  await page.getByRole('button', { name: t('login.submit'), exact: true }).click();
  await page.waitForURL(/\/dashboard\/analysis$/);
  await page.getByRole('button', { name: t('header.userMenu') }).waitFor();
}

/** Opens `path` in a context made signed in (`newContext`'s `signedIn`) and waits for the header's user menu. */
export async function openSignedIn(page: Page, url: string, lang: UiLanguage, path = '/dashboard/analysis'): Promise<void> {
  await openScreen(page, url, path);
  await page.getByRole('button', { name: text(lang, 'header.userMenu') }).waitFor();
}

export async function storedSettings(page: Page): Promise<Record<string, unknown> | null> {
  return page.evaluate(() => {
    const raw = window.localStorage.getItem('pro__layout-settings');
    return raw ? (JSON.parse(raw) as { value: Record<string, unknown> }).value : null;
  });
}

/** Writes layout settings the way the console stores them, for the next page load. */
export async function writeSettings(page: Page, settings: Record<string, unknown>): Promise<void> {
  await page.evaluate((value) => {
    window.localStorage.setItem('pro__layout-settings', JSON.stringify({ value, expire: null }));
  }, settings);
}
