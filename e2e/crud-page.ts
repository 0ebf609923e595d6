import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { entityLabels, serverMessages } from '../packages/contract/src/index.ts';
import { text, type UiLanguage } from './catalogues.ts';
import { newContext, restoreSignedIn, screenshot, signedInState, type SignedInState, type viewports } from './harness.ts';

/** What a person sees and does on a generic list-and-form screen (shared by the screens' browser tests). */
type Key = Parameters<typeof text>[1];
export const en = (key: Key, params?: Record<string, string>) => text('en-US', key, params);
/** Entity titles and field labels live in the contract; the console shows them as written there. */
export const label = (key: string, lang: UiLanguage = 'en-US') => entityLabels[lang][key] ?? key;

/**
 * Opens `path` signed in as `username` on a page already open. The sign-in page has browser tests of its own
 * (auth-flow, account-flows and the login shots); a screen test takes its session from the API and stores it as the
 * login page does (`signedInState`), which spares it the form, the captcha and the slider (seconds on a busy machine,
 * and a source of flaky starts). A file that opens several contexts signs in once and gives each its state instead
 * (`newContext`'s `signedIn`, then `openScreen`).
 */
export async function signIn(page: Page, serverUrl: string, path: string, username: string, password: string) {
  const state = await signedInState({ url: serverUrl }, username, password);
  // any page of the console's origin holds its storage: the API's answer to a bare GET is the smallest
  await page.goto(`${serverUrl}/api/`);
  await restoreSignedIn(page, state);
  await openScreen(page, serverUrl, path);
}

/** Opens `path` in a signed-in context and waits until the console stays there (a refused session goes to the login). */
export async function openScreen(page: Page, serverUrl: string, path: string) {
  await page.goto(`${serverUrl}${path}`);
  await page.waitForURL((url) => url.pathname === path);
}

/**
 * Moves an open page of the app to `path` (a path, with a query if any) through the history, as a link inside the app
 * does: no reload, so the bundle is not parsed again. Any page of the app, signed in or not (account, visitor pages).
 */
export async function followInApp(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
  const pathname = path.split('?')[0];
  await page.waitForURL((url) => url.pathname === pathname);
}

/**
 * Moves a console page that is already open to `path` inside the console, as a menu click does: the router follows the
 * history, and nothing is loaded again (a reload parses the whole bundle anew, seconds of a busy machine's time).
 */
export async function openInApp(page: Page, path: string) {
  await followInApp(page, path);
  // the page area of `path` shown (the page host names it), and its page loaded, not the loading dots
  const area = pageArea(page, path);
  await area.waitFor();
  await expect.poll(() => area.getByRole('status').filter({ has: page.locator('span[aria-hidden] > i') }).count()).toBe(0);
}

/**
 * The page area of `path` on screen: the page host names each page's area, and a kept-alive tab's page stays mounted
 * but hidden, so locators scoped to this area (`rows(area)`, `searchForm(area)`) never reach into another tab.
 */
export const pageArea = (page: Page, path: string) => page.locator(`[data-page-path="${path.split('?')[0]}"]:visible`);

/** Opens a screen in a new context of a signed-in person; the context joins `contexts`, which the file closes at its end. */
export async function openSignedIn(
  browser: Browser,
  contexts: BrowserContext[],
  signedIn: SignedInState,
  serverUrl: string,
  [path, lang, viewport]: [path: string, lang: UiLanguage, viewport: keyof typeof viewports],
): Promise<Page> {
  const context = await newContext(browser, { lang, viewport, signedIn });
  contexts.push(context);
  const page = await context.newPage();
  await openScreen(page, serverUrl, path);
  return page;
}

// a list's rows: a desktop's table rows, a phone's cards; of the whole page, or of a page area (`pageArea`)
export const rows = (within: Page | Locator) => within.locator('.ant-table-tbody tr.ant-table-row, [data-testid="crud-cards"] > li');
export const firstCells = async (page: Page, column: number) => (await rows(page).locator(`td:nth-child(${column})`).allInnerTexts()).map((s) => s.trim());
export const searchForm = (within: Page | Locator) => within.getByRole('search');
export const dialog = (page: Page) => page.locator('.ant-modal-wrap:visible .ant-modal').last();

/**
 * Waits for the first page of a list of `total` rows: the pager's total on a desktop; on a phone, whose compact pager
 * shows the page and not the total, the page's rows.
 */
export async function firstPageShown(page: Page, lang: UiLanguage, viewport: 'desktop' | 'mobile', total: number, pageSize = 10) {
  if (viewport === 'desktop') await page.getByText(text(lang, 'crud.total', { total: String(total) })).waitFor();
  else await expect.poll(() => rows(page).count()).toBe(Math.min(total, pageSize));
}

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

/** Picks an option of a single select and waits for its list to close. */
export async function pickOption(page: Page, control: Locator, optionText: string) {
  const list = page.locator('.ant-select-dropdown:visible');
  await control.click();
  const option = list.locator('.ant-select-item-option', { hasText: optionText }).first();
  await option.click();
  // on a busy machine a click during the list's opening motion can be lost: click again while it is not picked
  await expect
    .poll(
      async () => {
        if ((await list.count()) === 0) return 'closed';
        // a list that closes between the two looks has no option left to read: the next look finds it closed
        const classes = await option.getAttribute('class', { timeout: 500 }).catch(() => null);
        if (classes !== null && !classes.includes('ant-select-item-option-selected')) await option.click({ timeout: 2000 }).catch(() => undefined);
        return 'open';
      },
      { timeout: 15_000 },
    )
    .toBe('closed');
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

/** Clicks Export (of `within`, where a screen is embedded in another) and saves the download. */
export async function exportTo(page: Page, folder: string, name: string, within: Page | Locator = page): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), within.getByRole('button', { name: en('crud.export') }).click()]);
  const file = join(folder, name);
  await download.saveAs(file);
  expect(statSync(file).size).toBeGreaterThan(1000);
  return file;
}

/**
 * Imports a file and checks the report's summary. Screens whose rows need a password ask for the initial one
 * first: `initial` fills that dialog by field label.
 */
export async function importFrom(page: Page, file: string, summary: { total: number; added: number; failed: number }, initial?: Record<string, string>) {
  if (initial) {
    await page.getByRole('button', { name: en('crud.import') }).click();
    const ask = dialog(page);
    for (const [fieldLabel, value] of Object.entries(initial)) await ask.getByLabel(fieldLabel, { exact: true }).fill(value);
    await ask.locator('.ant-upload input[type=file]').setInputFiles(file);
    await ask.getByRole('button', { name: en('crud.import'), exact: true }).click();
  } else {
    await page.locator('.ant-upload input[type=file]').setInputFiles(file);
  }
  const report = dialog(page);
  await report.getByText(en('crud.importSummary', { total: String(summary.total), added: String(summary.added), failed: String(summary.failed) })).waitFor();
  await report.getByRole('button', { name: en('crud.close'), exact: true }).last().click();
}

export async function deleteRow(page: Page, cellText: string) {
  await rows(page).filter({ hasText: cellText }).first().getByRole('button', { name: en('crud.delete') }).click();
  await page.locator('.ant-popconfirm:visible').waitFor();
  await confirmPopup(page);
}

const serverText = (key: keyof (typeof serverMessages)['en-US']) => serverMessages['en-US'][key];
const noDialog = (page: Page) => expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);

/** Opens the add form, lets `fill` complete it, saves, and waits for the server's confirmation and the closed form. */
export async function addRow(page: Page, fill: (form: Locator) => Promise<void>) {
  await page.getByRole('button', { name: en('crud.add') }).click();
  await fill(dialog(page));
  await save(page);
  await page.getByText(serverText('crud.added')).first().waitFor();
  await noDialog(page);
}

/** Opens the edit form of the row showing `cellText`, lets `fill` change it, saves, and waits for the closed form. */
export async function editRow(page: Page, cellText: string, fill: (form: Locator) => Promise<void>) {
  await rows(page).filter({ hasText: cellText }).first().getByRole('button', { name: en('crud.edit'), exact: true }).click();
  await fill(dialog(page));
  await save(page);
  await page.getByText(serverText('crud.edited')).first().waitFor();
  await noDialog(page);
}

/** Picks an option of a search-form select (a dictionary, fixed options) and searches. */
export async function searchPick(page: Page, fieldLabel: string, optionText: string) {
  await pickOption(page, searchForm(page).getByLabel(fieldLabel, { exact: true }), optionText);
  await searchForm(page).getByRole('button', { name: en('crud.search') }).click();
}

/** Picks a node of a tree select (groups, categories) by typing part of its title, and waits for the list to close. */
export async function pickTreeNode(page: Page, control: Locator, nodeText: string) {
  const node = page.locator('.ant-select-dropdown:visible .ant-select-tree-title', { hasText: nodeText }).first();
  // a dialog still zooming in can close the list it just opened: open it again until the node is picked
  await expect
    .poll(
      async () => {
        if (!(await node.isVisible())) {
          await control.click();
          await control.fill(nodeText);
        }
        return node.click({ timeout: 3000 }).then(
          () => true,
          () => false,
        );
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  // on a busy machine the list can open again under the pick: once picked, Escape closes it
  const open = page.locator('.ant-select-dropdown:visible');
  if (!(await open.waitFor({ state: 'hidden', timeout: 5000 }).then(() => true, () => false))) await page.keyboard.press('Escape');
  await open.waitFor({ state: 'hidden' });
}

/** Picks a node of a search-form tree select and searches. */
export async function searchTree(page: Page, fieldLabel: string, nodeText: string) {
  await pickTreeNode(page, searchForm(page).getByLabel(fieldLabel, { exact: true }), nodeText);
  await searchForm(page).getByRole('button', { name: en('crud.search') }).click();
}

/** Fills both ends of a range search (numbers, or days typed as YYYY-MM-DD) and searches. */
export async function searchRange(page: Page, fieldLabel: string, from: string, to: string) {
  const item = searchForm(page).locator('.ant-form-item').filter({ has: page.getByText(fieldLabel, { exact: true }) });
  const start = item.getByLabel(fieldLabel, { exact: true });
  const end = item.getByPlaceholder(en('crud.rangeTo'), { exact: true });
  await start.click();
  await start.fill(from);
  await start.press('Enter');
  await end.click();
  await end.fill(to);
  await end.press('Enter');
  await page.locator('.ant-picker-dropdown:visible').waitFor({ state: 'hidden' });
  await expect.poll(() => Promise.all([start.inputValue(), end.inputValue()])).toEqual([from, to]);
  await searchForm(page).getByRole('button', { name: en('crud.search') }).click();
}

/** Clicks a column header to sort by it (again for the other direction). */
export async function sortBy(page: Page, header: string) {
  await page.locator('.ant-table-thead th').filter({ has: page.getByText(header, { exact: true }) }).click();
}

/**
 * Exports the listed rows (the search narrowed them to `cellText`'s), deletes that row with confirmation, imports
 * the file back and sees the row again.
 */
export async function exportDeleteImport(page: Page, folder: string, fileName: string, cellText: string) {
  const file = await exportTo(page, folder, fileName);
  await deleteRow(page, cellText);
  await page.getByText(serverText('crud.deleted')).first().waitFor();
  await expect.poll(() => rows(page).filter({ hasText: cellText }).count()).toBe(0);
  await importFrom(page, file, { total: 1, added: 1, failed: 0 });
  await waitForRow(page, cellText);
}

/**
 * The languages and sizes every list screen is captured in: each screen in both languages and at both widths, the
 * longer English texts at the narrow one. The shell itself (menus, themes, user pages) is captured in all four
 * combinations by the shell and account tests.
 */
export const SCREENSHOT_VIEWS: readonly ScreenshotView[] = [
  ['zh-CN', 'desktop'],
  ['en-US', 'mobile'],
];

/** A language and a window size (see `newContext`). */
export type ScreenshotView = readonly [Extract<UiLanguage, 'zh-CN' | 'en-US'>, 'desktop' | 'mobile'];

/**
 * Captures a list screen and its form with the required-field messages shown: opens `path` as the administrator
 * (the file's `signedIn` state, or a sign-in with `password`), waits for `ready`, shoots `<name>-list-…`, opens the
 * add form, saves it empty and shoots `<name>-form-…`; with `importAsks` also the import's dialog,
 * `<name>-import-…` (see `captureListAndForm`).
 */
export async function screenshotListAndForm(
  browser: Browser,
  serverUrl: string,
  [lang, viewport]: ScreenshotView,
  options: { path: string; name: string; ready: (page: Page) => Promise<void>; importAsks?: boolean } & ({ password: string } | { signedIn: SignedInState }),
) {
  const signedIn = 'signedIn' in options ? options.signedIn : undefined;
  const context = await newContext(browser, { lang, viewport, signedIn });
  const page = await context.newPage();
  if ('password' in options) await signIn(page, serverUrl, options.path, 'admin', options.password);
  else await openScreen(page, serverUrl, options.path);
  await captureListAndForm(page, [lang, viewport], options);
  await context.close();
}

/**
 * The same on a page already signed in (several screens in one sign-in): opens `path` unless it is open, waits for
 * `ready`, shoots the list, and unless `form` is false the add form saved empty.
 */
export async function captureListAndForm(
  page: Page,
  [lang, viewport]: ScreenshotView,
  options: { path: string; name: string; ready: (page: Page) => Promise<void>; form?: boolean; importAsks?: boolean },
) {
  if (new URL(page.url()).pathname !== options.path) await page.goto(new URL(options.path, page.url()).href);
  await options.ready(page);
  await screenshot(page, `${options.name}-list-${lang}-${viewport}`);
  if (options.form === false) return;
  await page.getByRole('button', { name: text(lang, 'crud.add') }).click();
  await dialog(page).getByRole('button', { name: text(lang, 'crud.save') }).click();
  await dialog(page).locator('.ant-form-item-explain-error').first().waitFor();
  await screenshot(page, `${options.name}-form-${lang}-${viewport}`);
  if (options.importAsks) {
    // the import asks for the initial password the exported rows lack
    await dialog(page).getByRole('button', { name: text(lang, 'common.cancel') }).click();
    await expect.poll(() => page.locator('.ant-modal-wrap >> visible=true').count()).toBe(0);
    await clickToolbarButton(page, lang, text(lang, 'crud.import'));
    await dialog(page).getByRole('button', { name: text(lang, 'crud.importChooseFile') }).waitFor();
    await screenshot(page, `${options.name}-import-${lang}-${viewport}`);
  }
}

/** Clicks a list toolbar's button by its name; on a phone, where the toolbar folds all but its first, from its More menu. */
export async function clickToolbarButton(page: Page, lang: UiLanguage, name: string) {
  const toolbar = page.getByRole('toolbar').first();
  const button = toolbar.getByRole('button', { name }).or(page.getByTestId('toolbar-more-menu').getByRole('button', { name }));
  const more = toolbar.getByRole('button', { name: new RegExp(text(lang, 'crud.more')) });
  // the list may still be coming: wait for the button or the More that holds it
  await button.or(more).first().waitFor();
  if (!(await button.first().isVisible())) await more.click();
  await button.first().click();
}

type CheckRuleTable = 'localRules' | 'globalRules';
type CheckRuleValues = { digits?: string; pattern?: string; message?: string; priority?: string };

/** One of the two tables of the check rule editor in a form, found by its title. */
export const checkRuleTable = (form: Locator, table: CheckRuleTable, lang: UiLanguage = 'en-US') => form.getByRole('region', { name: label(`checkRule.rule.${table}`, lang) });

/** Types the given values into rule `n` (from 1) of a check rule table; cells are named "<column> <n>". */
export async function fillCheckRule(form: Locator, table: CheckRuleTable, n: number, values: CheckRuleValues, lang: UiLanguage = 'en-US') {
  const section = checkRuleTable(form, table, lang);
  for (const [column, value] of Object.entries(values)) {
    if (value !== undefined) await section.getByLabel(`${label(`checkRule.rule.${column}`, lang)} ${n}`, { exact: true }).fill(value);
  }
}

/** Adds a rule at the end of a check rule table and fills it. */
export async function addCheckRule(form: Locator, table: CheckRuleTable, values: CheckRuleValues, lang: UiLanguage = 'en-US') {
  const section = checkRuleTable(form, table, lang);
  const n = (await section.locator('tbody tr.ant-table-row').count()) + 1;
  await section.getByRole('button', { name: text(lang, 'crud.checkRules.addRule') }).click();
  await section.locator('tbody tr.ant-table-row').nth(n - 1).waitFor();
  await fillCheckRule(form, table, n, values, lang);
}

/**
 * The cells of the table in `within` whose text runs under its right-fixed actions column: each visible body cell
 * (one that starts left of the actions column) must end its text before that column or cut it with an ellipsis.
 * Answers "<header>: <text>" for each offender, so a failing test names them.
 */
export async function cellsUnderActions(within: Locator): Promise<string[]> {
  return within.locator('.ant-table').first().evaluate((table) => {
    const headers = [...table.querySelectorAll('.ant-table-thead th')].map((th) => (th.textContent ?? '').trim());
    const offenders: string[] = [];
    for (const row of table.querySelectorAll('.ant-table-tbody tr.ant-table-row')) {
      const cells = [...row.children] as HTMLElement[];
      const actions = cells.find((cell) => cell.className.includes('ant-table-cell-fix-end'));
      if (!actions) throw new Error('the table has no right-fixed actions column');
      const edge = actions.getBoundingClientRect().left;
      cells.forEach((cell, index) => {
        if (cell === actions || cell.getBoundingClientRect().left >= edge) return;
        const range = document.createRange();
        range.selectNodeContents(cell);
        const right = Math.max(0, ...[...range.getClientRects()].map((rect) => rect.right));
        if (right <= edge + 0.5) return;
        const cut = [cell, ...cell.querySelectorAll('*')].some((node) => getComputedStyle(node).textOverflow === 'ellipsis' && getComputedStyle(node).overflow === 'hidden');
        if (!cut) offenders.push(`${headers[index] ?? index}: ${(cell.textContent ?? '').trim()}`);
      });
    }
    return offenders;
  });
}
