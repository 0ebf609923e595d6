import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnnouncementPath, translate } from '../packages/contract/src/index.ts';
import { text } from './catalogues.ts';
import { ADMIN_PASSWORD, api, apiLogin, changeAdminPassword, launchBrowser, newContext, passSliderCaptcha, screenshot, startServer, type RunningServer } from './harness.ts';

const PASSWORD = 'Screens#Pass2';
type Key = Parameters<typeof text>[1];
const en = (key: Key, params?: Record<string, string>) => text('en-US', key, params);

let server: RunningServer;
let browser: Browser;
let page: Page;
let token: string;

async function call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const { body: answer } = await api<T>(server, method, path, { token, body });
  if (!answer.success) throw new Error(`${method} ${path}: ${answer.message}`);
  return answer.result;
}

const bell = () => page.getByTestId('notice-bell');
const count = async () => Number(await bell().getAttribute('data-count'));
const rows = () => page.locator('.ant-table-tbody tr.ant-table-row');
const row = (cellText: string) => rows().filter({ hasText: cellText }).first();
const formDialog = () => page.locator('.ant-modal-wrap:visible .ant-modal').last();

async function confirmOk() {
  const confirm = page.locator('.ant-modal-confirm:visible');
  await confirm.waitFor();
  await confirm.locator('.ant-btn-primary').click();
  await confirm.waitFor({ state: 'hidden' });
}

async function go(path: string) {
  await page.goto(`${server.url}${path}`);
  await page.locator('.ant-table').first().waitFor();
}

beforeAll(async () => {
  server = await startServer();
  await changeAdminPassword(server, ADMIN_PASSWORD, PASSWORD);
  token = (await apiLogin(server, 'admin', PASSWORD)).result.token;
  browser = await launchBrowser();
  const context = await newContext(browser, { lang: 'en-US' });
  page = await context.newPage();
  await page.goto(`${server.url}/dashboard/analysis`);
  await page.getByLabel(en('login.username'), { exact: true }).fill('admin');
  await page.getByLabel(en('login.password'), { exact: true }).fill(PASSWORD);
  await page.getByLabel(en('login.captcha'), { exact: true }).fill('abcd');
  await passSliderCaptcha(page);
  await page.getByRole('button', { name: en('login.submit'), exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard/analysis');
  await bell().waitFor();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('announcement and message screens', () => {
  it('authoring: SPEC 5 rules in the reader language, save a draft, release and revoke with confirmation', async () => {
    await go('/system/announcement');
    await page.getByRole('button', { name: en('crud.add'), exact: true }).click();
    const dialog = formDialog();
    await dialog.getByLabel(en('announcement.field.titile')).waitFor();
    await dialog.getByRole('button', { name: en('crud.save') }).click();
    await dialog.getByRole('alert').getByText(translate('en-US', 'announcement.titleRequired')).waitFor();

    await dialog.getByLabel(en('announcement.field.titile')).fill('Parking lot closed');
    await dialog.getByRole('button', { name: en('crud.save') }).click();
    await dialog.getByRole('alert').getByText(translate('en-US', 'announcement.contentRequired')).waitFor();

    await dialog.getByRole('radio', { name: en('announcement.type.video'), exact: true }).check();
    await dialog.getByLabel(en('announcement.field.msgContent')).fill('<p>The parking lot is closed on Friday.</p>');
    await dialog.getByRole('button', { name: en('crud.save') }).click();
    await dialog.getByRole('alert').getByText(translate('en-US', 'announcement.videoRequired')).waitFor();
    await dialog.getByRole('radio', { name: en('announcement.type.word'), exact: true }).check();
    await screenshot(page, 'notices-announcement-form-en-US');
    await dialog.getByRole('button', { name: en('crud.save') }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row('Parking lot closed').getByText(en('announcement.status.0')).waitFor();

    const before = await count();
    await row('Parking lot closed').getByRole('button', { name: en('announcement.release') }).click();
    await confirmOk();
    await row('Parking lot closed').getByText(en('announcement.status.1')).waitFor();
    await expect.poll(count, { timeout: 3000 }).toBe(before + 1);
    await screenshot(page, 'notices-announcement-list-en-US');

    await row('Parking lot closed').getByRole('button', { name: en('announcement.revoke') }).click();
    await confirmOk();
    await row('Parking lot closed').getByText(en('announcement.status.2')).waitFor();
    await expect.poll(count, { timeout: 3000 }).toBe(before);
  });

  it('user announcement list: unread filter, open marks read, read all', async (context) => {
    // a retry starts from a read bell, with notices of its own
    const attempt = context.task.result?.retryCount ?? 0;
    if (attempt > 0) {
      await call('PUT', AnnouncementPath.readAll);
      await go('/isps/userAnnouncement');
      await expect.poll(count).toBe(0);
    }
    const [one, two, three] = ['Notice one', 'Notice two', 'Notice three'].map((title) => (attempt ? `${title} (${attempt})` : title));
    for (const titile of [one!, two!, three!]) {
      await call('POST', '/sys/annountCement/add', { titile, msgContent: `<p>${titile} body</p>`, msgCategory: '1', msgType: 'ALL', priority: 'L' });
      const list = await call<{ records: { id: string; titile: string }[] }>('GET', `/sys/annountCement/list?titile=${encodeURIComponent(titile)}`);
      await call('GET', `/sys/annountCement/doReleaseData?id=${list.records[0]!.id}`);
    }
    await expect.poll(count, { timeout: 3000 }).toBe(3);
    // 'view more' in the popover leads to /isps/userAnnouncement
    await bell().click();
    await page.getByTestId('notice-popover').getByRole('button', { name: en('notices.viewMore') }).click();
    await page.waitForURL((url) => url.pathname === '/isps/userAnnouncement');
    await row(two!).waitFor();
    await row(two!).getByRole('button', { name: en('notices.open') }).click();
    await page.locator('.announcement-detail-modal .ant-modal').getByText(`${two} body`).waitFor();
    await page.locator('.announcement-detail-modal .ant-modal-footer').getByRole('button', { name: en('notices.close') }).click();
    await expect.poll(count, { timeout: 3000 }).toBe(2);
    await row(two!).getByText(en('notices.read'), { exact: true }).waitFor();

    await page.getByText(en('notices.unread'), { exact: true }).first().click();
    await expect.poll(() => rows().count()).toBe(2);
    await screenshot(page, 'notices-user-list-en-US');
    await page.getByRole('button', { name: en('notices.readAll') }).click();
    await confirmOk();
    await expect.poll(count, { timeout: 3000 }).toBe(0);
    await expect.poll(() => rows().count()).toBe(0);
  });

  it('templates: add, test-send in-app to the admin, the message list and the bell show it', async () => {
    await go('/message/template');
    await page.getByRole('button', { name: en('crud.add'), exact: true }).click();
    const dialog = formDialog();
    await dialog.getByLabel(en('template.field.templateCode')).fill('welcome_notice');
    await dialog.getByLabel(en('template.field.templateName')).fill('Welcome');
    await dialog.getByLabel(en('template.field.templateContent')).fill('Hello ${name}, welcome to ${site}.');
    await dialog.getByLabel(en('template.field.templateTestJson')).fill('{"name":"Ada","site":"ISPS"}');
    await dialog.getByRole('button', { name: en('crud.save') }).click();
    await row('welcome_notice').waitFor();

    await row('welcome_notice').getByRole('button', { name: en('template.testSend') }).click();
    const send = formDialog();
    await send.getByText('Hello Ada, welcome to ISPS.').waitFor();
    await send.getByLabel(en('template.testData')).fill('not json');
    await send.getByLabel(en('template.receiver')).fill('admin');
    await send.getByRole('button', { name: en('template.send') }).click();
    await send.getByText(en('template.illegalJson')).waitFor();
    await send.getByLabel(en('template.testData')).fill('{"name":"Grace","site":"ISPS"}');
    await send.getByText('Hello Grace, welcome to ISPS.').waitFor();
    await send.getByText(en('template.illegalJson')).waitFor({ state: 'hidden' });
    await screenshot(page, 'notices-template-test-send-en-US');
    const before = await count();
    await send.getByRole('button', { name: en('template.send') }).click();
    await send.waitFor({ state: 'hidden' });
    await expect.poll(count, { timeout: 3000 }).toBe(before + 1);

    await go('/message/message');
    await row('admin').waitFor();
    expect(await row('admin').innerText()).toContain(en('message.sendStatus.1'));
  });
});
