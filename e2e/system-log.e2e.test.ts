import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../packages/contract/src/index.ts';
import { text } from './catalogues.ts';
import { SCREENSHOT_VIEWS, exportTo, label, openScreen, resetSearch, rows, search } from './crud-page.ts';
import { ADMIN_PASSWORD, animationsSettled, api, apiLogin, changeAdminPassword, launchBrowser, newContext, screenshot, signedInState, startServer, type RunningServer, type SignedInState } from './harness.ts';

const PASSWORD = 'Logs#Pass2';
let server: RunningServer;
let browser: Browser;
/** the administrator signed in once for the whole file: every context opens with it */
let admin: SignedInState;
let positionId = '';
const downloads = mkdtempSync(join(tmpdir(), 'isps-log-'));

beforeAll(async () => {
  server = await startServer();
  await changeAdminPassword(server, ADMIN_PASSWORD, PASSWORD);
  const token = (await apiLogin(server, 'admin', PASSWORD)).result.token;
  for (const code of ['LOG-1', 'LOG-2', 'LOG-3']) await api(server, 'POST', '/sys/position/add', { token, body: { code, name: code, postRank: '1' } });
  const { body } = await api<{ records: Array<{ id: string }> }>(server, 'GET', '/sys/position/list?code=LOG-1', { token });
  positionId = body.result.records[0]!.id;
  await api(server, 'PUT', '/sys/position/edit', { token, body: { id: positionId, name: 'Renamed once' } });
  admin = await signedInState(server, 'admin', PASSWORD);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('logs screen', () => {
  it("compares two versions of a record in the data log, marking what changed", async () => {
    const context = await newContext(browser, { lang: 'en-US', signedIn: admin });
    const page = await context.newPage();
    await openScreen(page, server.url, '/system/dataLog');
    await search(page, label('dataLog.field.dataId'), positionId);
    await expect.poll(() => rows(page).count()).toBe(2);
    await page.getByRole('button', { name: text('en-US', 'dataLogScreen.compare') }).click();
    const pickTwo = page.locator('.ant-message-notice', { hasText: text('en-US', 'dataLogScreen.pickTwo') });
    await pickTwo.waitFor();
    for (const checkbox of await rows(page).locator('.ant-checkbox-input').all()) await checkbox.check();
    // the comparison takes the warning away at once, not when its own 3 s run out
    const comparing = Date.now();
    await page.getByRole('button', { name: text('en-US', 'dataLogScreen.compare') }).click();
    const compare = page.locator('.ant-modal-wrap:visible .ant-modal').last();
    await pickTwo.waitFor({ state: 'detached' });
    expect(Date.now() - comparing).toBeLessThan(1500);
    const changed = compare.getByRole('row', { name: text('en-US', 'dataLogScreen.changed') });
    await expect.poll(() => changed.filter({ hasText: label('position.field.name') }).innerText()).toContain('Renamed once');
    await expect.poll(() => compare.getByRole('row', { name: text('en-US', 'dataLogScreen.changed') }).filter({ hasText: label('position.field.code') }).count()).toBe(0);
    // the audit times read as in the list (local, to the second), not as stored ISO strings
    const time = String.raw`\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}`;
    const cells = async (field: string) => (await compare.getByRole('row').filter({ hasText: label(field) }).locator('td').allInnerTexts()).slice(1);
    expect(await cells('crud.field.createTime')).toEqual([expect.stringMatching(new RegExp(`^${time}$`)), expect.stringMatching(new RegExp(`^${time}$`))]);
    // the first version was never updated
    expect(await cells('crud.field.updateTime')).toEqual([expect.stringMatching(new RegExp(`^(${time})?$`)), expect.stringMatching(new RegExp(`^${time}$`))]);
    // let the dialog finish opening before the picture
    await animationsSettled(page);
    await screenshot(page, 'system-data-log-compare-en-US-desktop');
    await context.close();
  });

  it('shows sign-ins and operations in their tabs, searches, sorts by cost time and exports', async () => {
    const context = await newContext(browser, { lang: 'en-US', signedIn: admin });
    const page = await context.newPage();
    await openScreen(page, server.url, '/system/log');
    await rows(page).filter({ hasText: label('log.operate.login') }).first().waitFor();
    expect(await rows(page).filter({ hasText: label('log.operate.add') }).count()).toBe(0);
    await exportTo(page, downloads, 'logins.xlsx');

    await page.getByRole('tab', { name: label('log.type.operation') }).click();
    // an entry reads in the reader's language: "Positions: added <id>" for each of the three positions added
    const added = translate('en-US', 'log.added', { entity: label('position.title'), id: '' }).trim();
    await rows(page).filter({ hasText: added }).first().waitFor();
    await search(page, label('log.field.content'), added);
    await expect.poll(() => rows(page).count()).toBe(3);
    await page.getByRole('columnheader', { name: label('log.field.costTime') }).click();
    await expect.poll(() => rows(page).count()).toBe(3);
    await resetSearch(page);
    await screenshot(page, 'system-log-operation-en-US-desktop');
    await context.close();
  });

  it.each(SCREENSHOT_VIEWS)('screenshot in %s on %s', async (lang, viewport) => {
    const context = await newContext(browser, { lang, viewport, signedIn: admin });
    const page = await context.newPage();
    await openScreen(page, server.url, '/system/log');
    await rows(page).filter({ hasText: label('log.operate.login', lang) }).first().waitFor();
    await page.getByRole('tab', { name: label('log.type.login', lang) }).waitFor();
    await screenshot(page, `system-log-login-${lang}-${viewport}`);
    expect(await page.getByText(text(lang, 'crud.export')).count()).toBeGreaterThan(0);
    await context.close();
  });
});

