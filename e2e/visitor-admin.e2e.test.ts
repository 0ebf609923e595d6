import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages, translate, withIdCheck } from '../packages/contract/src/index.ts';
import { SCREENSHOT_VIEWS, confirmPopup, deleteRow, dialog, en, exportTo, firstPageShown, importFrom, label, noRow, pickOption, resetSearch, rows, save, search, screenshotListAndForm, signIn, waitForRow } from './crud-page.ts';
import { ADMIN_PASSWORD, api, apiLogin, changeAdminPassword, launchBrowser, newContext, screenshot, startServer, type RunningServer } from './harness.ts';

const PASSWORD = 'Visit#Pass2';
let server: RunningServer;
let browser: Browser;
let token: string;
const downloads = mkdtempSync(join(tmpdir(), 'isps-visitors-'));

/** A legal 18-character ID card number (GB 11643 check character). */
const idCard = (sequence: number): string => withIdCheck(`31010419880512${String(sequence).padStart(3, '0')}`);

const visitorLogin = async (account: string, password: string) =>
  (await api(server, 'POST', '/vistor/login', { body: { account, password } })).body;

beforeAll(async () => {
  server = await startServer();
  await changeAdminPassword(server, ADMIN_PASSWORD, PASSWORD);
  token = (await apiLogin(server, 'admin', PASSWORD)).result.token;
  for (let i = 1; i <= 11; i++) {
    const { body } = await api(server, 'POST', '/sysVistor/add', { token, body: { name: `Guest ${i}`, idCard: idCard(i), phone: `1390000${String(i).padStart(4, '0')}`, category: 'general', password: '112233' } });
    if (!body.success) throw new Error(body.message);
  }
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const rowOf = (page: Page, name: string) => rows(page).filter({ hasText: name }).first();

describe('visitor records for the staff', () => {
  // The form's rules (ID card, 6 to 8 digit password) and the duplicate ID card refusal in every language are
  // apps/web/src/shared/crud/entity-form-modal.test.tsx and apps/server/src/modules/visitor/visitor-admin.test.ts, as is
  // what freezing, deleting and restoring do to a visitor's sign-in; here the page as the staff click through it.
  it('adds, searches, freezes and thaws, deletes and restores, exports and imports', async () => {
    const context = await newContext(browser, { lang: 'en-US' });
    const page = await context.newPage();
    await signIn(page, server.url, '/vistor/list', 'admin', PASSWORD);
    await page.getByText(en('crud.total', { total: '11' })).waitFor();

    await page.getByRole('button', { name: en('crud.add') }).click();
    const form = dialog(page);
    await form.getByLabel(label('visitor.field.name'), { exact: true }).fill('Zhao Lei');
    await form.getByLabel(label('visitor.field.idCard'), { exact: true }).fill(idCard(50));
    await form.getByLabel(label('visitor.field.phone'), { exact: true }).fill('13911112222');
    await pickOption(page, form.getByLabel(label('visitor.field.category'), { exact: true }), label('visitor.categoryPolice'));
    await form.getByLabel(label('visitor.field.password'), { exact: true }).fill('24680135');
    await save(page);
    await waitForRow(page, 'Zhao Lei');
    await expect.poll(() => rowOf(page, 'Zhao Lei').innerText()).toContain(label('visitor.categoryPolice'));

    // Search by phone.
    await search(page, label('visitor.field.phone'), '1111');
    await expect.poll(() => rows(page).count()).toBe(1);
    await resetSearch(page);
    await page.getByText(en('crud.total', { total: '12' })).waitFor();

    // Freezing asks first; thawing does not.
    await rowOf(page, 'Zhao Lei').getByRole('button', { name: en('visitorAdmin.freeze') }).click();
    const confirm = page.locator('.ant-modal-confirm:visible');
    await confirm.locator('.ant-modal-confirm-title', { hasText: en('visitorAdmin.freezeConfirm', { name: 'Zhao Lei' }) }).waitFor();
    await confirm.getByRole('button', { name: en('visitorAdmin.freeze') }).click();
    await page.getByText(translate('en-US', 'visitor.frozenBatch', { count: 1 })).first().waitFor();
    await expect.poll(() => rowOf(page, 'Zhao Lei').innerText()).toContain('Frozen');
    await screenshot(page, 'visitor-admin-list-frozen-en-US-desktop');
    await rowOf(page, 'Zhao Lei').getByRole('button', { name: en('visitorAdmin.thaw') }).click();
    await expect.poll(() => rowOf(page, 'Zhao Lei').innerText()).toContain('Normal');

    // Delete with confirmation goes to the recycle bin; restoring brings the visitor back.
    await deleteRow(page, 'Zhao Lei');
    await page.getByText(en('crud.total', { total: '11' })).waitFor();
    await page.getByRole('button', { name: en('crud.recycleBin') }).click();
    const bin = dialog(page);
    await bin.locator('.ant-table-row', { hasText: 'Zhao Lei' }).getByRole('button', { name: en('crud.restore') }).click();
    await page.getByText(serverMessages['en-US']['crud.restored']).first().waitFor();
    await bin.locator('.ant-modal-close').click();
    await waitForRow(page, 'Zhao Lei');

    // Export the visitor, delete them completely and import them back: the file carries no password, so the
    // import asks for the initial one (6 to 8 digits, checked like the form).
    await search(page, label('visitor.field.phone'), '1111');
    await expect.poll(() => rows(page).count()).toBe(1);
    const file = await exportTo(page, downloads, 'visitor.xlsx');
    await deleteRow(page, 'Zhao Lei');
    await noRow(page);
    await page.getByRole('button', { name: en('crud.recycleBin') }).click();
    const again = dialog(page);
    await again.locator('.ant-table-row', { hasText: 'Zhao Lei' }).getByRole('button', { name: en('crud.deleteCompletely') }).click();
    await confirmPopup(page);
    await again.locator('.ant-table-row', { hasText: 'Zhao Lei' }).waitFor({ state: 'detached' });
    await again.locator('.ant-modal-close').click();
    await importFrom(page, file, { total: 1, added: 1, failed: 0 }, { [en('crud.importInitialLabel', { field: label('visitor.field.password') })]: '13572468' });
    await waitForRow(page, 'Zhao Lei');
    expect((await visitorLogin('13911112222', '13572468')).success).toBe(true);
    await context.close();
  });

  it.each(SCREENSHOT_VIEWS)('list and form screenshots in %s on %s', (lang, viewport) =>
    screenshotListAndForm(browser, server.url, [lang, viewport], {
      path: '/vistor/list',
      password: PASSWORD,
      name: 'visitor-admin',
      importAsks: true,
      ready: (page) => firstPageShown(page, lang, viewport, 12),
    }),
  );
});
