import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../packages/contract/src/index.ts';
import { text } from './catalogues.ts';
import { SCREENSHOT_VIEWS, dialog, en, label, openScreen, pickOption, rows, save, waitForRow } from './crud-page.ts';
import { ADMIN_PASSWORD, changeAdminPassword, launchBrowser, newContext, screenshot, signedInState, startServer, type RunningServer, type SignedInState } from './harness.ts';

const PASSWORD = 'Jobs#Pass5';
let server: RunningServer;
let browser: Browser;
/** the administrator signed in once for the whole file: every context opens with it */
let admin: SignedInState;

beforeAll(async () => {
  server = await startServer();
  await changeAdminPassword(server, ADMIN_PASSWORD, PASSWORD);
  admin = await signedInState(server, 'admin', PASSWORD);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const rowOf = (page: Page, name: string) => rows(page).filter({ hasText: name }).first();

describe('scheduled jobs', () => {
  it('adds a job with the cron editor, starts, runs once, shows the history and stops it', async () => {
    const context = await newContext(browser, { lang: 'en-US', signedIn: admin });
    const page = await context.newPage();
    await openScreen(page, server.url, '/system/quartzJob');
    await page.getByRole('button', { name: en('crud.add') }).click();
    const form = dialog(page);
    await pickOption(page, form.getByLabel(label('quartzJob.field.jobClassName'), { exact: true }), label('quartzJob.handler.heartbeat'));
    const cron = form.getByLabel(label('quartzJob.field.cronExpression'), { exact: true });
    await cron.fill('61 * * * * ?');
    await save(page);
    await form.getByText(translate('en-US', 'validation.cron', { field: label('quartzJob.field.cronExpression') })).waitFor();
    // a preset fills a valid expression and the editor says what it means
    await form.getByRole('button', { name: en('cron.presets') }).click();
    await page.getByRole('menuitem', { name: en('cron.preset.every5Minutes') }).click();
    await expect.poll(() => cron.inputValue()).toBe('0 0/5 * * * ?');
    await expect.poll(() => form.getByTestId('cron-description').innerText()).toMatch(/5 minutes/i);
    await form.getByLabel(label('quartzJob.field.description'), { exact: true }).fill('Liveness check');
    await screenshot(page, 'system-job-form-en-US-desktop');
    await save(page);
    await waitForRow(page, 'Liveness check');
    await expect.poll(() => rowOf(page, 'Liveness check').innerText()).toContain('Stopped');

    await rowOf(page, 'Liveness check').getByRole('button', { name: en('jobScreen.start') }).click();
    await page.getByText(translate('en-US', 'quartzJob.resumed')).first().waitFor();
    await expect.poll(() => rowOf(page, 'Liveness check').innerText()).toContain('Normal');
    await rowOf(page, 'Liveness check').getByRole('button', { name: en('jobScreen.runOnce') }).click();
    await page.getByText(translate('en-US', 'quartzJob.executed', { result: 'alive' })).first().waitFor();
    await rowOf(page, 'Liveness check').getByRole('button', { name: label('jobLog.title'), exact: true }).click();
    const history = dialog(page);
    await expect.poll(() => history.locator('.ant-table-row').first().innerText()).toContain('alive');
    await screenshot(page, 'system-job-history-en-US-desktop');
    await page.keyboard.press('Escape');
    await history.waitFor({ state: 'hidden' });

    await rowOf(page, 'Liveness check').getByRole('button', { name: en('jobScreen.stop') }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: en('common.ok') }).click();
    await page.getByText(translate('en-US', 'quartzJob.paused')).first().waitFor();
    await expect.poll(() => rowOf(page, 'Liveness check').innerText()).toContain('Stopped');
    await screenshot(page, 'system-job-list-en-US-desktop');
    await context.close();
  });

  it.each(SCREENSHOT_VIEWS)('list and cron editor in %s on %s', async (lang, viewport) => {
    const context = await newContext(browser, { lang, viewport, signedIn: admin });
    const page = await context.newPage();
    await openScreen(page, server.url, '/system/quartzJob');
    await waitForRow(page, 'Liveness check');
    await screenshot(page, `system-job-list-${lang}-${viewport}`);
    await rowOf(page, 'Liveness check').getByRole('button', { name: text(lang, 'crud.edit') }).click();
    const description = dialog(page).getByTestId('cron-description');
    if (lang === 'zh-CN') await expect.poll(() => description.innerText()).toContain('5 分钟');
    else await expect.poll(() => description.innerText()).toMatch(/5 minutes/i);
    await screenshot(page, `system-job-form-${lang}-${viewport}`);
    await context.close();
  });

  it('describes the schedule in ja-JP too', async () => {
    const context = await newContext(browser, { lang: 'ja-JP', signedIn: admin });
    const page = await context.newPage();
    await openScreen(page, server.url, '/system/quartzJob');
    await waitForRow(page, 'Liveness check');
    await rowOf(page, 'Liveness check').getByRole('button', { name: text('ja-JP', 'crud.edit') }).click();
    // cronstrue's Japanese for every five minutes
    await expect.poll(() => dialog(page).getByTestId('cron-description').innerText()).toContain('5 分ごと');
    await screenshot(page, 'system-job-form-ja-JP-desktop');
    await context.close();
  });
});
