import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { entityLabels } from '../packages/contract/src/index.ts';
import { text, type UiLanguage } from './catalogues.ts';
import { newContext, screenshot } from './harness.ts';

/** What a person sees and does on a generic list-and-form screen (shared by the screens' browser tests). */
type Key = Parameters<typeof text>[1];
export const en = (key: Key, params?: Record<string, string>) => text('en-US', key, params);
/** Entity titles and field labels live in the contract; the console shows them as written there. */
export const label = (key: string, lang: UiLanguage = 'en-US') => entityLabels[lang][key] ?? key;

/** Signs in on the login page the console sends a deep link to, and waits to land on it. */
export async function signIn(page: Page, serverUrl: string, lang: UiLanguage, path: string, username: string, password: string) {
  await page.goto(`${serverUrl}${path}`);
  await page.getByLabel(text(lang, 'login.username'), { exact: true }).fill(username);
  await page.getByLabel(text(lang, 'login.password'), { exact: true }).fill(password);
  await page.getByLabel(text(lang, 'login.captcha'), { exact: true }).fill('abcd');
  await page.getByRole('button', { name: new RegExp(`${text(lang, 'login.submit')}$`) }).click();
  await page.waitForURL((url) => url.pathname === path);
}

export const rows = (page: Page) => page.locator('.ant-table-tbody tr.ant-table-row');
export const firstCells = async (page: Page, column: number) => (await rows(page).locator(`td:nth-child(${column})`).allInnerTexts()).map((s) => s.trim());
export const searchForm = (page: Page) => page.getByRole('search');
export const dialog = (page: Page) => page.locator('.ant-modal-wrap:visible .ant-modal').last();

export async function waitForRow(page: Page, cellText: string) {
  await rows(page).filter({ hasText: cellText }).first().waitFor();
}

export async function noRow(page: Page) {
  await expect.poll(() => rows(page).count()).toBe(0);
}

export async function search(page: Page, fieldLabel: string, value: string) {
  await searchForm(page).getByLabel(fieldLabel, { exact: true }).fill(value);
  await searchForm(page).getByRole('button', { name: en('crud.search') }).click();
}

export async function resetSearch(page: Page) {
  await searchForm(page).getByRole('button', { name: en('crud.reset') }).click();
}

export async function pickOption(page: Page, control: Locator, optionText: string) {
  await control.click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: optionText }).first().click();
}

/** Picks several options of a multiple select in one opening of its list, then closes it. */
export async function pickOptions(page: Page, control: Locator, optionTexts: string[]) {
  await control.click();
  const list = page.locator('.ant-select-dropdown:visible');
  for (const optionText of optionTexts) {
    const option = list.locator('.ant-select-item-option', { hasText: optionText }).first();
    await option.click();
    await expect.poll(async () => (await option.getAttribute('class')) ?? '').toContain('ant-select-item-option-selected');
  }
  await page.keyboard.press('Escape');
  await list.waitFor({ state: 'hidden' });
}

/** Types a time into a date-time picker and confirms it with the picker's OK button. */
export async function pickTime(page: Page, control: Locator, value: string) {
  await control.click();
  await control.fill(value);
  const picker = page.locator('.ant-picker-dropdown:visible');
  await picker.locator('.ant-picker-ok button').click();
  await picker.waitFor({ state: 'hidden' });
  await expect.poll(() => control.inputValue()).toBe(value);
}

export async function save(page: Page) {
  await dialog(page).getByRole('button', { name: en('crud.save') }).click();
}

export async function confirmPopup(page: Page) {
  await page.locator('.ant-popconfirm:visible').getByRole('button', { name: en('common.ok') }).click();
}

export async function exportTo(page: Page, folder: string, name: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: en('crud.export') }).click()]);
  const file = join(folder, name);
  await download.saveAs(file);
  expect(statSync(file).size).toBeGreaterThan(1000);
  return file;
}

export async function importFrom(page: Page, file: string, summary: { total: number; added: number; failed: number }) {
  await page.locator('.ant-upload input[type=file]').setInputFiles(file);
  const report = dialog(page);
  await report.getByText(en('crud.importSummary', { total: String(summary.total), added: String(summary.added), failed: String(summary.failed) })).waitFor();
  await report.getByRole('button', { name: en('crud.close'), exact: true }).last().click();
}

export async function deleteRow(page: Page, cellText: string) {
  await rows(page).filter({ hasText: cellText }).first().getByRole('button', { name: en('crud.delete') }).click();
  await page.locator('.ant-popconfirm:visible').waitFor();
  await confirmPopup(page);
}

/** The languages and sizes every list screen is captured in. */
export const SCREENSHOT_VIEWS = [
  ['zh-CN', 'desktop'],
  ['en-US', 'desktop'],
  ['zh-CN', 'mobile'],
  ['en-US', 'mobile'],
] as const;

/**
 * Captures a list screen and its form with the required-field messages shown: signs in on `path`, waits for
 * `ready`, shoots `<name>-list-…`, opens the add form, saves it empty and shoots `<name>-form-…`.
 */
export async function screenshotListAndForm(
  browser: Browser,
  serverUrl: string,
  [lang, viewport]: (typeof SCREENSHOT_VIEWS)[number],
  options: { path: string; password: string; name: string; ready: (page: Page) => Promise<void> },
) {
  const context = await newContext(browser, { lang, viewport });
  const page = await context.newPage();
  await signIn(page, serverUrl, lang, options.path, 'admin', options.password);
  await options.ready(page);
  await screenshot(page, `${options.name}-list-${lang}-${viewport}`);
  await page.getByRole('button', { name: text(lang, 'crud.add') }).click();
  await dialog(page).getByRole('button', { name: text(lang, 'crud.save') }).click();
  await dialog(page).locator('.ant-form-item-explain-error').first().waitFor();
  await screenshot(page, `${options.name}-form-${lang}-${viewport}`);
  await context.close();
}
