import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entityLabel } from '../packages/contract/src/index.ts';
import { clickToolbarButton, dialog, openScreen } from './crud-page.ts';
import { ADMIN_PASSWORD, api, apiLogin, changeAdminPassword, launchBrowser, newContext, screenshot, signedInState, startServer, type RunningServer, type SignedInState } from './harness.ts';
import { text } from './catalogues.ts';

const PASSWORD = 'Import#Admin2';
const ROWS = 10_000;
let server: RunningServer;
let browser: Browser;
/** the administrator signed in once for the whole file: every context opens with it */
let admin: SignedInState;
let token: string;
const folder = mkdtempSync(join(tmpdir(), 'isps-import-'));

/** A users sheet as a person would fill one, large enough that its import is still running when looked at. */
async function usersFile(prefix: string): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('users');
  sheet.addRow(['user.field.username', 'user.field.realname', 'user.field.roles'].map((key) => entityLabel('en-US', key)));
  // one row a person got wrong: the administrator's own user name, refused as taken
  sheet.addRow(['admin', 'Taken name', 'Clerk']);
  for (let i = 1; i < ROWS; i++) sheet.addRow([`${prefix}${i}`, `Imported ${i}`, 'Clerk']);
  const file = join(folder, `${prefix}.xlsx`);
  writeFileSync(file, Buffer.from(await workbook.xlsx.writeBuffer()));
  return file;
}

beforeAll(async () => {
  server = await startServer();
  await changeAdminPassword(server, ADMIN_PASSWORD, PASSWORD);
  token = (await apiLogin(server, 'admin', PASSWORD)).result.token;
  const { body } = await api(server, 'POST', '/sys/role/add', { token, body: { roleName: 'Clerk', roleCode: 'clerk', roleType: 1 } });
  if (!body.success) throw new Error(body.message);
  admin = await signedInState(server, 'admin', PASSWORD);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('a large import runs in the background', () => {
  for (const [lang, viewport] of [
    ['en-US', 'desktop'],
    ['zh-CN', 'desktop'],
    ['en-US', 'mobile'],
    ['zh-CN', 'mobile'],
  ] as const) {
    it(`shows its progress and can be cancelled (${lang}, ${viewport})`, async () => {
      const t = (key: Parameters<typeof text>[1], params?: Record<string, string>) => text(lang, key, params);
      const context = await newContext(browser, { lang, viewport, signedIn: admin });
      const page = await context.newPage();
      await openScreen(page, server.url, '/system/user');
      const prefix = `imp${lang.slice(0, 2)}${viewport.slice(0, 1)}`;
      const file = await usersFile(prefix);
      await clickToolbarButton(page, lang, t('crud.import'));
      const ask = dialog(page);
      await ask.getByLabel(t('crud.importInitialLabel', { field: entityLabel(lang, 'user.field.password') }), { exact: true }).fill('Import#Pass5');
      await ask.locator('.ant-upload input[type=file]').setInputFiles(file);
      await ask.getByRole('button', { name: t('crud.import'), exact: true }).click();
      const progress = page.locator('.ant-modal-wrap:visible .ant-modal').filter({ hasText: t('crud.importCancel') });
      await progress.getByRole('progressbar').waitFor();
      // the bar moves while the rows are stored
      await expect.poll(async () => Number(await progress.getByRole('progressbar').getAttribute('aria-valuenow')), { timeout: 30_000 }).toBeGreaterThan(0);
      await screenshot(page, `import-progress-${lang}-${viewport}`);
      await progress.getByRole('button', { name: t('crud.importCancel') }).click();
      const report = page.locator('.ant-modal-wrap:visible .ant-modal').filter({ hasText: t('crud.importTitle') });
      await report.locator('.ant-alert-warning').first().waitFor();
      await screenshot(page, `import-report-${lang}-${viewport}`);
      // the refused row comes as a spreadsheet to correct and import again
      const [download] = await Promise.all([page.waitForEvent('download'), report.getByRole('button', { name: t('crud.importRefusedDownload') }).click()]);
      const refused = new ExcelJS.Workbook();
      await refused.xlsx.readFile(await download.path());
      expect(refused.worksheets[0]!.getRow(2).values).toContain('admin');
      const added = await api<{ total: number }>(server, 'GET', `/sys/user/list?username=${prefix}*&pageSize=1`, { token });
      expect(added.body.result.total).toBeGreaterThan(0);
      expect(added.body.result.total).toBeLessThan(ROWS);
      await context.close();
    });
  }
});
