import { deflateSync } from 'node:zlib';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSED_RECIPIENT_REPLY, startSmtp, type LocalSmtp } from '../apps/server/src/test/smtp-server.ts';
import { ANNOUNCEMENT_UPLOAD_BIZ, AnnouncementPath, FilePath, MessageTemplatePath, translate, type NoticeSummary } from '../packages/contract/src/index.ts';
import { text, type UiLanguage } from './catalogues.ts';
import { SCREENSHOT_VIEWS, cellsUnderActions, openInApp, openScreen, pageArea, pickOption, pickOptions, pickTime } from './crud-page.ts';
import { ADMIN_PASSWORD, api, apiLogin, changeAdminPassword, launchBrowser, newContext, screenshot, signedInState, startServer, type RunningServer, type SignedInState } from './harness.ts';

const PASSWORD = 'Screens#Pass2';
type Key = Parameters<typeof text>[1];
const en = (key: Key, params?: Record<string, string>) => text('en-US', key, params);

let server: RunningServer;
let smtp: LocalSmtp;
let browser: Browser;
let page: Page;
let token: string;
/** the administrator signed in once for the file: every context opens with it */
let admin: SignedInState;

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

/** The content editor of the announcement form, found by its field name as a person hears it. */
const editor = (form: Locator, lang: UiLanguage = 'en-US') => form.getByRole('textbox', { name: text(lang, 'announcement.field.msgContent') });

/** The file input of an upload field, by the field's label. */
const fileInputOf = (form: Locator, labelText: string) => form.locator('.ant-form-item').filter({ has: form.page().getByText(labelText, { exact: true }) }).locator('input[type=file]');

/** A small png of one colour: enough for an image to have a natural size in the browser. */
function pngOf(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

/** A user made through the API with `PASSWORD` (a retry finds the one made before), and a token of theirs. */
async function ensureUser(username: string, realname: string): Promise<{ id: string; token: string }> {
  const find = async () => (await call<{ records: { id: string; username: string }[] }>('GET', `/sys/user/list?username=${username}`)).records.find((u) => u.username === username)?.id;
  if (!(await find())) {
    const first = 'First#Pass12';
    await call('POST', '/sys/user/add', { username, realname, password: first });
    const firstToken = (await apiLogin(server, username, first)).result.token;
    const { body } = await api(server, 'POST', '/sys/user/updatePassword', { token: firstToken, body: { username, oldpassword: first, password: PASSWORD, confirmpassword: PASSWORD } });
    if (!body.success) throw new Error(`${username}: ${body.message}`);
  }
  return { id: (await find())!, token: (await apiLogin(server, username, PASSWORD)).result.token };
}

/** The titles in a user's bell, both tabs, as the API gives them. */
async function bellTitles(userToken: string): Promise<string[]> {
  const { body } = await api<NoticeSummary>(server, 'GET', AnnouncementPath.listByUser, { token: userToken });
  return [...body.result.anntMsgList, ...body.result.sysMsgList].map((n) => n.titile);
}

/** The text of a table row's cell under the column headed `header`. */
async function cell(tableRow: Locator, header: string): Promise<string> {
  const headers = (await page.locator('.ant-table-thead th').allInnerTexts()).map((h) => h.trim());
  const index = headers.indexOf(header);
  if (index < 0) throw new Error(`no column ${header} in ${headers.join(' | ')}`);
  return (await tableRow.locator('td').nth(index).innerText()).trim();
}

/** Uploads a file through the API as a script would, into the announcement folder: its static address. */
async function uploadForAnnouncement(name: string, type: string, bytes: Buffer): Promise<string> {
  const form = new FormData();
  form.append('biz', ANNOUNCEMENT_UPLOAD_BIZ);
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${server.url}/api${FilePath.upload}`, { method: 'POST', headers: { 'X-Access-Token': token }, body: form });
  const answer = (await res.json()) as { success: boolean; message: string };
  if (!answer.success) throw new Error(`upload ${name}: ${answer.message}`);
  return `/api${FilePath.static.replace('*', '')}${answer.message}`;
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

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
  // e-mail goes to a local SMTP server that keeps what it receives and refuses the mailboxes 'gone…@…'
  smtp = await startSmtp({ refuse: (address) => address.startsWith('gone') });
  server = await startServer({ SMTP_URL: smtp.url, SMTP_FROM: 'ISPS Console <console@isps.test>' });
  await changeAdminPassword(server, ADMIN_PASSWORD, PASSWORD);
  token = (await apiLogin(server, 'admin', PASSWORD)).result.token;
  admin = await signedInState(server, 'admin', PASSWORD);
  browser = await launchBrowser();
  // the administrator works in Beijing time: times picked in the form must come back as picked, whatever the server's zone
  const context = await newContext(browser, { lang: 'en-US', timezoneId: 'Asia/Shanghai', signedIn: admin });
  page = await context.newPage();
  await openScreen(page, server.url, '/dashboard/analysis');
  await bell().waitFor();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.close();
});

/** The list's Add button, its name led by its "+" icon's (the dialogs' own buttons have other names). */
const addButton = (page: Page, lang: UiLanguage) => page.getByRole('button', { name: new RegExp(`^(plus )?${text(lang, 'crud.add')}$`) });

describe('announcement and message screens', () => {
  it('authoring: SPEC 5 rules in the reader language, save a draft, release and revoke with confirmation', async () => {
    await go('/system/announcement');
    await addButton(page, 'en-US').click();
    const dialog = formDialog();
    await dialog.getByLabel(en('announcement.field.titile')).waitFor();
    await dialog.getByRole('button', { name: en('crud.save') }).click();
    await dialog.getByRole('alert').getByText(translate('en-US', 'announcement.titleRequired')).waitFor();

    await dialog.getByLabel(en('announcement.field.titile')).fill('Parking lot closed');
    await dialog.getByRole('button', { name: en('crud.save') }).click();
    await dialog.getByRole('alert').getByText(translate('en-US', 'announcement.contentRequired')).waitFor();

    await dialog.getByRole('radio', { name: en('announcement.type.video'), exact: true }).check();
    await editor(dialog).click();
    await page.keyboard.type('The parking lot is closed on Friday.');
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
    // the English row actions are fixed on the right: the send time is not cut under them
    expect(await cellsUnderActions(page.locator('body'))).toEqual([]);
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
    await addButton(page, 'en-US').click();
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

  it('authoring with the editor: bold text, a content image, a background image and an attachment reach the detail dialog', async (context) => {
    const attempt = context.task.result?.retryCount ?? 0;
    const title = attempt ? `Fire drill (${attempt})` : 'Fire drill';
    await go('/system/announcement');
    await addButton(page, 'en-US').click();
    const dialog = formDialog();
    await dialog.getByLabel(en('announcement.field.titile')).fill(title);

    // content typed like a person: the word 'Friday' made bold with the toolbar
    await editor(dialog).click();
    await page.keyboard.type('The fire drill is on ');
    const bold = dialog.getByRole('button', { name: en('richText.bold'), exact: true });
    await bold.click();
    await expect.poll(() => bold.getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.type('Friday');
    await bold.click();
    await page.keyboard.type(' at 10:00. Meet at the gate.');
    await page.keyboard.press('Enter');
    await dialog.getByTestId('rich-text-image-input').setInputFiles({ name: 'assembly-point.png', mimeType: 'image/png', buffer: pngOf(160, 90, [22, 119, 255]) });
    await editor(dialog).locator('img[src*="/sys/common/static/annountCement/"]').waitFor();

    await fileInputOf(dialog, en('announcement.field.backgroundImage')).setInputFiles({ name: 'drill-banner.png', mimeType: 'image/png', buffer: pngOf(640, 120, [250, 173, 20]) });
    await fileInputOf(dialog, en('announcement.field.attachments')).setInputFiles({ name: 'drill-plan.pdf', mimeType: 'application/pdf', buffer: PDF });
    await dialog.locator('.ant-upload-list-item-done').filter({ hasText: 'drill-banner.png' }).waitFor();
    await dialog.locator('.ant-upload-list-item-done').filter({ hasText: 'drill-plan.pdf' }).waitFor();
    // a file the server refuses shows its localised reason and is not kept
    await fileInputOf(dialog, en('announcement.field.attachments')).setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
    await page.getByText(translate('en-US', 'upload.typeRefused', { name: 'logo.svg' })).first().waitFor();
    await dialog.locator('.ant-upload-list-item-error').filter({ hasText: 'logo.svg' }).getByRole('button').last().click();
    await dialog.locator('.ant-upload-list-item').filter({ hasText: 'logo.svg' }).waitFor({ state: 'detached' });
    await editor(dialog).scrollIntoViewIfNeeded();
    await screenshot(page, 'notices-announcement-form-files-en-US');

    await dialog.getByRole('button', { name: en('crud.save') }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row(title).getByRole('button', { name: en('announcement.release') }).click();
    await confirmOk();
    await row(title).getByText(en('announcement.status.1')).waitFor();

    await row(title).getByRole('button', { name: en('crud.detail') }).click();
    const detail = page.locator('.announcement-detail-modal .ant-modal');
    const content = detail.getByTestId('announcement-content');
    await expect.poll(() => content.locator('strong').innerText()).toBe('Friday');
    expect(await content.innerText()).toContain('The fire drill is on Friday at 10:00. Meet at the gate.');
    const attachment = detail.getByRole('link', { name: 'drill-plan.pdf' });
    const href = await attachment.getAttribute('href');
    expect(href).toMatch(/^\/api\/sys\/common\/static\/annountCement\/\d{8}\/[0-9a-f]{32}_drill-plan\.pdf$/);
    const download = await page.request.get(`${server.url}${href}`);
    expect(download.headers()['content-disposition']).toMatch(/^attachment;/);
    expect(Buffer.compare(await download.body(), PDF)).toBe(0);
    // both images load from the static route without a token header
    for (const image of [detail.getByTestId('announcement-background'), content.locator('img')]) {
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    }
    // the shot shows the dialog, not the notices of the save and release above it
    await expect.poll(() => page.locator('.ant-message-notice').count(), { timeout: 10_000 }).toBe(0);
    await screenshot(page, 'notices-announcement-detail-files-en-US');
    await detail.locator('.ant-modal-footer').getByRole('button', { name: en('notices.close') }).click();
  });

  it('authoring fields through the form: priority, theme, start and end, channels and chosen users come back on edit; the release reaches only the chosen user', async (context) => {
    const attempt = context.task.result?.retryCount ?? 0;
    const title = attempt ? `Badge pickup (${attempt})` : 'Badge pickup';
    const ivy = await ensureUser('ivy', 'Ivy Chosen');
    const otto = await ensureUser('otto', 'Otto Other');
    await go('/system/announcement');
    await addButton(page, 'en-US').click();
    const dialog = formDialog();
    await dialog.getByLabel(en('announcement.field.titile')).fill(title);
    await dialog.getByRole('radio', { name: en('notices.category.2'), exact: true }).check();
    await dialog.getByRole('radio', { name: en('notices.priority.H'), exact: true }).check();
    await dialog.getByLabel(en('announcement.field.theme')).fill('Security');
    await dialog.getByRole('radio', { name: en('announcement.msgType.USER'), exact: true }).check();
    await pickOptions(page, dialog.getByRole('combobox', { name: en('announcement.field.userIds') }), ['Ivy Chosen (ivy)']);
    const start = dialog.getByLabel(en('announcement.field.startTime'));
    const end = dialog.getByLabel(en('announcement.field.endTime'));
    await pickTime(page, start, '2025-03-01 09:30:00');
    // an end before the start is refused with the spec's words, and nothing is saved
    await pickTime(page, end, '2025-02-28 18:00:00');
    await dialog.getByLabel(en('announcement.field.channels')).fill('system,email');
    await editor(dialog).click();
    await page.keyboard.type('Collect your new badge at the front desk.');
    await dialog.getByRole('button', { name: en('crud.save') }).click();
    await dialog.getByRole('alert').getByText(translate('en-US', 'validation.endBeforeStart'), { exact: true }).waitFor();
    expect(await dialog.isVisible()).toBe(true);
    await pickTime(page, end, '2099-12-31 18:00:00');
    await dialog.getByRole('button', { name: en('crud.save') }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await cell(row(title), en('announcement.field.priority'))).toBe(en('notices.priority.H'));
    expect(await cell(row(title), en('announcement.field.msgCategory'))).toBe(en('notices.category.2'));
    expect(await cell(row(title), en('announcement.field.msgType'))).toBe(en('announcement.msgType.USER'));

    // every value comes back in the edit form as it was picked (the times in the author's own zone)
    await row(title).getByRole('button', { name: en('crud.edit'), exact: true }).click();
    const edit = formDialog();
    await expect.poll(() => edit.getByLabel(en('announcement.field.titile')).inputValue()).toBe(title);
    expect(await edit.getByRole('radio', { name: en('notices.category.2'), exact: true }).isChecked()).toBe(true);
    expect(await edit.getByRole('radio', { name: en('notices.priority.H'), exact: true }).isChecked()).toBe(true);
    expect(await edit.getByLabel(en('announcement.field.theme')).inputValue()).toBe('Security');
    expect(await edit.getByLabel(en('announcement.field.startTime')).inputValue()).toBe('2025-03-01 09:30:00');
    expect(await edit.getByLabel(en('announcement.field.endTime')).inputValue()).toBe('2099-12-31 18:00:00');
    expect(await edit.getByLabel(en('announcement.field.channels')).inputValue()).toBe('system,email');
    expect(await edit.getByRole('radio', { name: en('announcement.msgType.USER'), exact: true }).isChecked()).toBe(true);
    const chosen = edit.locator('.ant-form-item').filter({ has: page.getByText(en('announcement.field.userIds'), { exact: true }) }).locator('.ant-select-selection-item');
    await expect.poll(() => chosen.allInnerTexts()).toEqual(['Ivy Chosen (ivy)']);
    expect(await editor(edit).innerText()).toContain('Collect your new badge at the front desk.');
    await edit.getByRole('button', { name: en('common.cancel') }).click();
    await edit.waitFor({ state: 'hidden' });

    await row(title).getByRole('button', { name: en('announcement.release') }).click();
    await confirmOk();
    await row(title).getByText(en('announcement.status.1')).waitFor();
    expect(await bellTitles(ivy.token)).toContain(title);
    expect(await bellTitles(otto.token)).not.toContain(title);
    expect(await bellTitles(token)).not.toContain(title);
  });

  it('categories: an announcement and a system message written in the form land in their own tab of the bell and are labelled in the user list', async (context) => {
    const attempt = context.task.result?.retryCount ?? 0;
    const suffix = attempt ? ` (${attempt})` : '';
    const notice = `Lift maintenance${suffix}`;
    const systemMessage = `Backup finished${suffix}`;
    await go('/system/announcement');
    for (const [title, category] of [
      [notice, '1'],
      [systemMessage, '2'],
    ] as const) {
      await addButton(page, 'en-US').click();
      const dialog = formDialog();
      await dialog.getByLabel(en('announcement.field.titile')).fill(title);
      await dialog.getByRole('radio', { name: en(`notices.category.${category}`), exact: true }).check();
      await editor(dialog).click();
      await page.keyboard.type(`${title}: details inside.`);
      await dialog.getByRole('button', { name: en('crud.save') }).click();
      await dialog.waitFor({ state: 'hidden' });
      await row(title).getByRole('button', { name: en('announcement.release') }).click();
      await confirmOk();
      await row(title).getByText(en('announcement.status.1')).waitFor();
    }

    await bell().click();
    const popover = page.getByTestId('notice-popover');
    // a tab is named with its count, 'Announcements (3)': found by the words before the count
    const tab = (key: 'notices.announcements' | 'notices.systemMessages') =>
      popover.getByRole('tab', { name: new RegExp(`^${en(key, { count: '\u0000' }).split('\u0000')[0]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });
    const [announcementsTab, messagesTab] = [tab('notices.announcements'), tab('notices.systemMessages')];
    // the panel of the chosen tab (the other one is hidden from the accessibility tree)
    const shownItems = () => popover.getByRole('tabpanel').getByTestId('notice-item').allInnerTexts();
    await announcementsTab.click();
    await expect.poll(async () => (await shownItems()).join('\n')).toContain(notice);
    expect((await shownItems()).join('\n')).not.toContain(systemMessage);
    await messagesTab.click();
    await expect.poll(async () => (await shownItems()).join('\n')).toContain(systemMessage);
    expect((await shownItems()).join('\n')).not.toContain(notice);
    await bell().click();
    await popover.waitFor({ state: 'hidden' });

    await go('/isps/userAnnouncement');
    expect(await cell(row(notice), en('notices.category'))).toBe(en('notices.category.1'));
    expect(await cell(row(systemMessage), en('notices.category'))).toBe(en('notices.category.2'));
  });

  it('message center: an e-mail test-send reaches the SMTP server; the list shows send type, status, attempts and the reason of a refused one', async (context) => {
    const attempt = context.task.result?.retryCount ?? 0;
    const code = `visit_mail_${attempt}`;
    const to = `dan.${attempt}@example.com`;
    const refused = `gone.${attempt}@example.com`;
    await call('POST', MessageTemplatePath.add, { templateCode: code, templateName: 'Visit of ${guest}', templateContent: 'Hello,\n${guest} arrives at ${time}.', templateType: '1', templateTestJson: '{"guest":"Ada","time":"10:00"}' });
    await go('/message/template');
    await row(code).getByRole('button', { name: en('template.testSend') }).click();
    const send = formDialog();
    await send.getByText('Hello, Ada arrives at 10:00.').waitFor();
    await pickOption(page, send.getByLabel(en('template.msgType')), en('message.sendType.email'));
    await send.getByLabel(en('template.receiver')).fill(to);
    await send.getByRole('button', { name: en('template.send') }).click();
    await send.waitFor({ state: 'hidden' });
    await expect.poll(() => smtp.mails.filter((mail) => mail.to.includes(to)).length).toBe(1);
    const mail = smtp.mails.find((m) => m.to.includes(to))!;
    expect(mail.raw).toContain('Subject: Visit of Ada');
    expect(mail.raw).toContain('Ada arrives at 10:00.');
    expect(mail.raw).toContain('console@isps.test');

    // a mailbox the server refuses: the sender reads why, and the dialog stays for another try
    await row(code).getByRole('button', { name: en('template.testSend') }).click();
    await send.getByText('Hello, Ada arrives at 10:00.').waitFor();
    await pickOption(page, send.getByLabel(en('template.msgType')), en('message.sendType.email'));
    await send.getByLabel(en('template.receiver')).fill(refused);
    await send.getByRole('button', { name: en('template.send') }).click();
    await page.locator('.ant-message-notice').filter({ hasText: REFUSED_RECIPIENT_REPLY }).first().waitFor();
    expect(await send.isVisible()).toBe(true);
    await send.getByRole('button', { name: en('common.cancel') }).click();
    await send.waitFor({ state: 'hidden' });
    expect(smtp.mails.some((m) => m.to.includes(refused))).toBe(false);

    await go('/message/message');
    const sent = row(to);
    await sent.waitFor();
    expect(await cell(sent, en('message.field.esTitle'))).toBe('Visit of Ada');
    expect(await cell(sent, en('message.field.esType'))).toBe(en('message.sendType.email'));
    expect(await cell(sent, en('message.field.esSendStatus'))).toBe(en('message.sendStatus.1'));
    expect(await cell(sent, en('message.field.esSendNum'))).toBe('1');
    expect(await cell(sent, en('message.field.esResult'))).toBe('');
    const failed = row(refused);
    expect(await cell(failed, en('message.field.esType'))).toBe(en('message.sendType.email'));
    expect(await cell(failed, en('message.field.esSendStatus'))).toBe(en('message.sendStatus.2'));
    expect(await cell(failed, en('message.field.esSendNum'))).toBe('1');
    expect(await cell(failed, en('message.field.esResult'))).toContain(REFUSED_RECIPIENT_REPLY);
  });

  it('search forms of the announcement, message and template screens line up like the other list screens, in zh-CN and en-US, on a desktop and at 375 px', { timeout: 180_000 }, async () => {
    const screens = [
      ['/system/announcement', 'announcement'],
      ['/isps/userAnnouncement', 'user'],
      ['/message/message', 'message'],
      ['/message/template', 'template'],
    ] as const;
    // two templates to search between
    for (const templateCode of ['search_form_a', 'search_form_b']) {
      const found = await call<{ records: unknown[] }>('GET', `${MessageTemplatePath.list}?templateCode=${templateCode}`);
      if (found.records.length === 0) await call('POST', MessageTemplatePath.add, { templateCode, templateName: templateCode, templateContent: 'Hello ${name}', templateType: '1' });
    }
    const views = [['zh-CN', 'desktop'], ['zh-CN', 'mobile'], ['en-US', 'desktop'], ['en-US', 'mobile']] as const;
    for (const [lang, viewport] of views) {
      const context = await newContext(browser, { lang, viewport, signedIn: admin });
      const view = await context.newPage();
      await openScreen(view, server.url, screens[0][0]);
      for (const [path, name] of screens) {
        // the first screen is open: the others are reached inside the console, as from its menu (each once, so none
        // shows a list kept from before)
        await openInApp(view, path);
        const area = pageArea(view, path);
        const form = area.getByRole('search');
        await area.locator('.ant-table').first().waitFor();
        if (viewport === 'mobile') {
          // on a phone the conditions wait folded behind the Filters button, the list first
          expect(await form.isVisible()).toBe(false);
          await area.getByRole('button', { name: text(lang, 'crud.filters') }).click();
        }
        await form.waitFor();
        const controls = await form.locator('.ant-form-item-control-input-content > *').evaluateAll((els) =>
          els.map((el) => { const r = el.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, width: r.width }; }),
        );
        const search = (await form.getByRole('button', { name: text(lang, 'crud.search') }).boundingBox())!;
        const reset = (await form.getByRole('button', { name: text(lang, 'crud.reset') }).boundingBox())!;
        const fields = controls.slice(0, -1);
        const buttons = controls.at(-1)!;
        const at = `${name} ${lang} ${viewport}: ${JSON.stringify(controls)}`;
        expect(fields.length, at).toBeGreaterThan(0);
        // every control as wide as the others, the search and reset buttons after them
        for (const field of fields) expect(Math.abs(field.width - fields[0]!.width), at).toBeLessThanOrEqual(1);
        expect(Math.abs(search.x - buttons.left), at).toBeLessThanOrEqual(1);
        expect(reset.x, at).toBeGreaterThan(search.x + search.width);
        expect(Math.abs(reset.y - search.y), at).toBeLessThanOrEqual(1);
        const width = view.viewportSize()!.width;
        if (viewport === 'mobile') {
          // on a phone one column: every control and the buttons on one left edge, each under the one before, inside the window
          for (const box of controls) expect(Math.abs(box.left - controls[0]!.left), at).toBeLessThanOrEqual(1);
          for (const [i, box] of controls.entries()) if (i > 0) expect(box.top, at).toBeGreaterThan(controls[i - 1]!.top);
          expect(fields[0]!.width, at).toBeGreaterThan(width * 0.7);
        }
        for (const box of [...controls, { left: reset.x, right: reset.x + reset.width }]) {
          expect(box.left, at).toBeGreaterThanOrEqual(0);
          expect(box.right, at).toBeLessThanOrEqual(width);
        }
        expect(await view.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), at).toBe(true);
        await screenshot(view, `notices-search-${name}-${lang}-${viewport}`);
        if (name === 'template' && viewport === 'mobile') {
          // the search narrows the list, the reset empties the fields and lists everything again
          const tableRows = area.locator('.ant-table-tbody tr.ant-table-row');
          const code = form.getByLabel(text(lang, 'template.field.templateCode'), { exact: true });
          await code.fill('search_form_b');
          await form.getByRole('button', { name: text(lang, 'crud.search') }).click();
          await expect.poll(() => tableRows.allInnerTexts()).toEqual([expect.stringContaining('search_form_b')]);
          await form.getByRole('button', { name: text(lang, 'crud.reset') }).click();
          expect(await code.inputValue()).toBe('');
          await tableRows.filter({ hasText: 'search_form_a' }).waitFor();
          await tableRows.filter({ hasText: 'search_form_b' }).waitFor();
        }
      }
      await context.close();
    }
  });

  it('the editor form in zh-CN and en-US, on a desktop and at 375 px', async () => {
    const views = [...SCREENSHOT_VIEWS, ['en-US', 'desktop'], ['zh-CN', 'mobile']] as const;
    for (const [lang, viewport] of views) {
      const context = await newContext(browser, { lang, viewport, signedIn: admin });
      const view = await context.newPage();
      if (viewport === 'desktop') await view.setViewportSize({ width: 1280, height: 800 });
      await openScreen(view, server.url, '/system/announcement');
      await view.locator('.ant-table').first().waitFor();
      await addButton(view, lang).click();
      const dialog = view.locator('.ant-modal-wrap:visible .ant-modal').last();
      // titled like the other add dialogs: the screen's own name (in zh-CN the longer 通知公告) and "new record"
      const entity = text(lang, lang === 'zh-CN' ? 'announcement.entity' : 'menu.system.announcement');
      expect(await dialog.locator('.ant-modal-title').innerText()).toBe(text(lang, 'crud.addTitle', { entity }));
      await dialog.getByLabel(text(lang, 'announcement.field.titile')).fill(lang === 'zh-CN' ? '消防演练通知' : 'Fire drill');
      await editor(dialog, lang).click();
      await view.keyboard.type(lang === 'zh-CN' ? '本周五上午十点举行' : 'The drill is on ');
      await view.keyboard.press('Control+b');
      await view.keyboard.type(lang === 'zh-CN' ? '消防演练' : 'Friday');
      await view.keyboard.press('Control+b');
      await view.keyboard.type(lang === 'zh-CN' ? '，请各部门准时参加。' : ' at 10:00.');
      await expect.poll(() => editor(dialog, lang).locator('strong').count()).toBe(1);
      // the toolbar wraps inside the dialog instead of widening it
      const [toolbar, body] = await Promise.all([dialog.getByRole('toolbar').boundingBox(), dialog.locator('.ant-modal-body').boundingBox()]);
      expect(toolbar!.x + toolbar!.width).toBeLessThanOrEqual(body!.x + body!.width + 1);
      await editor(dialog, lang).scrollIntoViewIfNeeded();
      await screenshot(view, `notices-announcement-editor-${lang}-${viewport}`);
      await context.close();
    }
  });

  it('message list, template test-send and the detail with attachments, in zh-CN and en-US, on a desktop and at 375 px', async () => {
    // a list with every kind of row: an in-app send, an e-mail sent and an e-mail the server refused
    const code = 'shift_change';
    const templates = await call<{ records: unknown[] }>('GET', `${MessageTemplatePath.list}?templateCode=${code}`);
    if (templates.records.length === 0) {
      await call('POST', MessageTemplatePath.add, { templateCode: code, templateName: '交接班提醒 ${shift}', templateContent: '${name}，您好：\n${shift}将于 ${time} 交接，请提前到岗。', templateType: '1', templateTestJson: '{"name":"王磊","shift":"夜班","time":"20:00"}' });
      for (const [receiver, msgType] of [['admin', 'system'], ['ops@example.com', 'email'], ['gone.shift@example.com', 'email']] as const) {
        await api(server, 'POST', MessageTemplatePath.sendMsg, { token, body: { templateCode: code, testData: '{"name":"王磊","shift":"夜班","time":"20:00"}', receiver, msgType } });
      }
    }
    // an announcement with a background image and two attachments, for its detail on a phone
    const title = '年度消防演练安排 / Annual fire drill';
    const announcements = await call<{ records: { id: string; titile: string }[] }>('GET', `/sys/annountCement/list?titile=${encodeURIComponent(title)}`);
    if (!announcements.records.some((a) => a.titile === title)) {
      const background = await uploadForAnnouncement('drill-banner.png', 'image/png', pngOf(640, 120, [250, 173, 20]));
      const plan = await uploadForAnnouncement('消防演练方案-2025年度-第一版.pdf', 'application/pdf', PDF);
      const map = await uploadForAnnouncement('assembly-points-floor-plan-building-a.pdf', 'application/pdf', PDF);
      await call('POST', '/sys/annountCement/add', {
        titile: title,
        msgContent: '<p>The drill is on <strong>Friday at 10:00</strong>. Leave by the nearest stairs and meet at assembly point B.</p><p>演练期间电梯停用，请勿携带个人物品。</p>',
        msgCategory: '1',
        msgType: 'ALL',
        priority: 'H',
        backgroundImage: background,
        attachments: `${plan},${map}`,
      });
      const id = (await call<{ records: { id: string }[] }>('GET', `/sys/annountCement/list?titile=${encodeURIComponent(title)}`)).records[0]!.id;
      await call('GET', `/sys/annountCement/doReleaseData?id=${id}`);
    }

    const views = [...SCREENSHOT_VIEWS, ['en-US', 'desktop'], ['zh-CN', 'mobile']] as const;
    for (const [lang, viewport] of views) {
      const context = await newContext(browser, { lang, viewport, signedIn: admin });
      const view = await context.newPage();
      const fitsWindow = async () => expect(await view.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await openScreen(view, server.url, '/message/message');
      const refusedRow = view.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: 'gone.shift@example.com' });
      await refusedRow.waitFor();
      // the title has room to be read, and the reason of the refused send is shown whole, not cut to one line
      expect((await refusedRow.locator('td').first().boundingBox())!.width).toBeGreaterThan(150);
      const reason = refusedRow.locator('td').filter({ hasText: REFUSED_RECIPIENT_REPLY });
      expect(await reason.evaluate((td) => td.scrollWidth <= td.clientWidth && td.scrollHeight <= td.clientHeight)).toBe(true);
      if (viewport === 'desktop') {
        // and not under the actions column that stays on the right
        const actions = view.locator('.ant-table-thead th').filter({ hasText: text(lang, 'crud.actions') });
        const [reasonBox, actionsBox] = [await reason.boundingBox(), await actions.boundingBox()];
        expect(reasonBox!.x + reasonBox!.width).toBeLessThanOrEqual(actionsBox!.x + 1);
      }
      await fitsWindow();
      await screenshot(view, `notices-message-list-${lang}-${viewport}`);

      // the next screens are reached inside the console, as from its menu
      await openInApp(view, '/message/template');
      await pageArea(view, '/message/template').locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: code }).getByRole('button', { name: text(lang, 'template.testSend') }).click();
      const send = view.locator('.ant-modal-wrap:visible .ant-modal').last();
      await send.getByText('王磊，您好： 夜班将于 20:00 交接，请提前到岗。').waitFor();
      await send.getByLabel(text(lang, 'template.receiver')).fill('ops@example.com');
      // on a phone the dialog takes the window's width instead of 60% of it
      if (viewport === 'mobile') expect((await send.boundingBox())!.width).toBeGreaterThan(view.viewportSize()!.width * 0.85);
      await fitsWindow();
      await screenshot(view, `notices-template-test-send-${lang}-${viewport}`);

      if (viewport === 'mobile') {
        await openInApp(view, '/system/announcement');
        const announcementRow = pageArea(view, '/system/announcement').locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: title });
        // on a phone the actions scroll with the row instead of lying over its title
        const [titleBox, actionsBox] = [await announcementRow.locator('td').first().boundingBox(), await announcementRow.locator('td').last().boundingBox()];
        expect(actionsBox!.x).toBeGreaterThanOrEqual(titleBox!.x + titleBox!.width - 1);
        await announcementRow.getByRole('button', { name: text(lang, 'crud.detail') }).click();
        const detail = view.locator('.announcement-detail-modal .ant-modal');
        await detail.getByRole('link', { name: 'assembly-points-floor-plan-building-a.pdf' }).waitFor();
        await expect.poll(() => detail.getByTestId('announcement-background').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
        // the dialog, its links and its image stay inside the phone's width
        const [box, window] = [await detail.boundingBox(), view.viewportSize()!];
        expect(box!.x).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width).toBeLessThanOrEqual(window.width);
        await fitsWindow();
        await screenshot(view, `notices-announcement-detail-files-${lang}-mobile`);
      }
      await context.close();
    }
  });
});
