import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text } from './catalogues.ts';
import { exportTo, label, resetSearch, rows, search, signIn } from './crud-page.ts';
import { ADMIN_PASSWORD, api, apiLogin, changeAdminPassword, launchBrowser, newContext, screenshot, startServer, type RunningServer } from './harness.ts';

const PASSWORD = 'Logs#Pass2';
let server: RunningServer;
let browser: Browser;
const downloads = mkdtempSync(join(tmpdir(), 'isps-log-'));

beforeAll(async () => {
  server = await startServer();
  await changeAdminPassword(server, ADMIN_PASSWORD, PASSWORD);
  const token = (await apiLogin(server, 'admin', PASSWORD)).result.token;
  for (const code of ['LOG-1', 'LOG-2', 'LOG-3']) await api(server, 'POST', '/sys/position/add', { token, body: { code, name: code, postRank: '1' } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('logs screen', () => {
  it('shows sign-ins and operations in their tabs, searches, sorts by cost time and exports', async () => {
    const context = await newContext(browser, { lang: 'en-US' });
    const page = await context.newPage();
    await signIn(page, server.url, 'en-US', '/system/log', 'admin', PASSWORD);
    await rows(page).filter({ hasText: label('log.operate.login') }).first().waitFor();
    expect(await rows(page).filter({ hasText: label('log.operate.add') }).count()).toBe(0);
    await exportTo(page, downloads, 'logins.xlsx');

    await page.getByRole('tab', { name: label('log.type.operation') }).click();
    await rows(page).filter({ hasText: 'position: add' }).first().waitFor();
    await search(page, label('log.field.content'), 'position: add');
    await expect.poll(() => rows(page).count()).toBe(3);
    await page.getByRole('columnheader', { name: label('log.field.costTime') }).click();
    await expect.poll(() => rows(page).count()).toBe(3);
    await resetSearch(page);
    await screenshot(page, 'system-log-operation-en-US-desktop');
    await context.close();
  });

  it.each([
    ['zh-CN', 'desktop'],
    ['zh-CN', 'mobile'],
    ['en-US', 'mobile'],
  ] as const)('screenshot in %s on %s', async (lang, viewport) => {
    const context = await newContext(browser, { lang, viewport });
    const page = await context.newPage();
    await signIn(page, server.url, lang, '/system/log', 'admin', PASSWORD);
    await rows(page).filter({ hasText: label('log.operate.login', lang) }).first().waitFor();
    await page.getByRole('tab', { name: label('log.type.login', lang) }).waitFor();
    await screenshot(page, `system-log-login-${lang}-${viewport}`);
    expect(await page.getByText(text(lang, 'crud.export')).count()).toBeGreaterThan(0);
    await context.close();
  });
});

