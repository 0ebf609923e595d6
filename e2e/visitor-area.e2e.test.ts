import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text, type UiLanguage } from './catalogues.ts';
import { dialog, en, rows, signIn } from './crud-page.ts';
import { api, launchBrowser, newContext, screenshot, startAsAdmin, type AdminSession } from './harness.ts';

/*
 * The visitor's own area (issue 30): a visitor signs in, asks the administrator for a visit, the administrator approves
 * it in the console with a door, and the visitor sees it approved and the message; then the area in three languages
 * on a desktop and at 375 px.
 */
const PASSWORD = 'Visitor#Area3';
const VISITOR = { name: 'Zhang Min', phone: '13977770001', password: '135790' };
let session: AdminSession;
let browser: Browser;

type Row = { id: string } & Record<string, unknown>;
async function idOf(path: string, field: string, value: string): Promise<string> {
  const page = await session.call<{ records: Row[] }>('GET', `${path}/list?pageNo=1&pageSize=100`);
  const row = page.records.find((r) => r[field] === value);
  if (!row) throw new Error(`no row ${field}=${value} at ${path}`);
  return row.id;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A wall-clock time `days` from now at `hour`:00, as the pickers type it (the browser and server share the machine's zone). */
function dayAt(days: number, hour: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(hour)}:00`;
}

beforeAll(async () => {
  session = await startAsAdmin(PASSWORD);
  await session.call('POST', '/sysDevice/add', { deviceName: 'Reception controller', sn: 'SNVAREA0001' });
  const deviceId = await idOf('/sysDevice', 'deviceName', 'Reception controller');
  await session.call('POST', '/sysDoor/add', { doorName: 'Reception gate', deviceId, doorNo: 1 });
  await session.call('POST', '/sysVistor/add', { name: VISITOR.name, idType: '3', idCard: 'VA1234567', phone: VISITOR.phone, category: 'general', password: VISITOR.password });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await session?.server.stop();
});

/** Types one edge of the range picker and confirms it with its OK button. */
async function pickEdge(page: Page, input: ReturnType<Page['locator']>, value: string) {
  await input.click();
  await input.fill(value);
  await page.locator('.ant-picker-dropdown:visible .ant-picker-ok button').click();
}

describe('the visitor area', () => {
  it('a visitor asks for a visit, the host approves it in the console, and the visitor sees it approved and the message', async () => {
    const visitorContext = await newContext(browser, { lang: 'en-US' });
    const page = await visitorContext.newPage();
    await page.goto(`${session.server.url}/vistor/login`);
    await page.getByLabel(en('visitor.account'), { exact: true }).fill(VISITOR.phone);
    await page.getByLabel(en('visitor.password'), { exact: true }).fill(VISITOR.password);
    await page.getByRole('button', { name: en('visitor.loginSubmit') }).click();
    await page.waitForURL(/\/vistor\/user\/main$/);
    await page.getByText(en('visitorArea.noVisits')).waitFor();

    // the request: a host found by name, tomorrow 10:00 to 11:00, a reason
    await page.getByRole('button', { name: en('visitorArea.ask') }).click();
    const form = dialog(page);
    await form.getByLabel(en('visitorArea.host'), { exact: true }).click();
    await form.getByLabel(en('visitorArea.host'), { exact: true }).fill('adm');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'admin' }).first().click();
    const [start, end] = [dayAt(1, 10), dayAt(1, 11)];
    const inputs = form.locator('.ant-picker-range input');
    await pickEdge(page, inputs.nth(0), start);
    await pickEdge(page, inputs.nth(1), end);
    await form.getByLabel(en('visitorArea.reason'), { exact: true }).fill('Quarterly audit');
    await form.getByRole('button', { name: en('visitorArea.send') }).click();
    await page.getByText('Your request has been sent to').first().waitFor();
    const visit = page.getByTestId('my-visits');
    await visit.getByText(en('visitorArea.state.requested')).waitFor();
    expect(await visit.innerText()).toContain(`${start}:00`);

    // the host approves it in the console, choosing the door
    const staffContext = await newContext(browser, { lang: 'en-US' });
    const staff = await staffContext.newPage();
    await signIn(staff, session.server.url, '/vistor/visit', 'admin', PASSWORD);
    const row = rows(staff).filter({ hasText: 'Zhang Min' }).first();
    await row.getByText(text('en-US', 'visitorArea.state.requested')).waitFor();
    await row.getByRole('button', { name: en('visitDecision.approve') }).click();
    const approval = dialog(staff);
    await approval.getByLabel('Doors', { exact: true }).click();
    await staff.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Reception gate' }).first().click();
    // the open door list closes with a click beside it (Escape would close the dialog)
    await approval.getByText(en('visitDecision.approveHint')).click();
    await staff.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden' });
    await screenshot(staff, 'visit-approve-en-US-desktop');
    await approval.getByRole('button', { name: en('visitDecision.approve') }).click();
    await staff.getByText('Visit approved').first().waitFor();
    await expect.poll(() => row.innerText()).toContain('Approved');
    await staffContext.close();

    // the visitor sees it approved with its door, and the message
    await page.reload();
    await visit.getByText(en('visitorArea.state.approved')).waitFor();
    expect(await visit.innerText()).toContain('Reception gate');
    await page.getByRole('tab', { name: new RegExp(en('visitorArea.messages')) }).click();
    const messages = page.getByTestId('visitor-messages');
    await messages.getByText('Your visit is approved').waitFor();
    expect(await messages.innerText()).toContain('Doors: Reception gate');
    await visitorContext.close();
  }, 60_000);

  it('shows the area in zh-CN, en-US and ja-JP on a desktop and at 375 px', async () => {
    const login = await api<{ token: string; visitor: unknown }>(session.server, 'POST', '/vistor/login', { body: { account: VISITOR.phone, password: VISITOR.password } });
    for (const lang of ['zh-CN', 'en-US', 'ja-JP'] as const satisfies readonly UiLanguage[]) {
      for (const viewport of ['desktop', 'mobile'] as const) {
        const context = await newContext(browser, { lang, viewport });
        await context.addInitScript((kept) => {
          window.localStorage.setItem('pro__Visitor-Token', JSON.stringify({ value: kept.token, expire: null }));
          window.localStorage.setItem('pro__Visitor-Info', JSON.stringify({ value: kept.visitor, expire: null }));
        }, login.body.result);
        const page = await context.newPage();
        await page.goto(`${session.server.url}/vistor/user/main`);
        await page.getByTestId('my-visits').getByText(text(lang, 'visitorArea.state.approved')).waitFor();
        await screenshot(page, `visitor-area-visits-${lang}-${viewport}`);
        await page.getByRole('button', { name: text(lang, 'visitorArea.ask') }).click();
        await dialog(page).getByRole('button', { name: text(lang, 'visitorArea.send') }).click();
        await dialog(page).getByText(text(lang, 'visitorArea.hostRequired')).waitFor();
        await screenshot(page, `visitor-area-ask-${lang}-${viewport}`);
        await dialog(page).getByRole('button', { name: text(lang, 'common.cancel') }).click();
        await page.getByRole('tab', { name: new RegExp(text(lang, 'visitorArea.messages')) }).click();
        await page.getByTestId('visitor-messages').waitFor();
        await screenshot(page, `visitor-area-messages-${lang}-${viewport}`);
        await context.close();
      }
    }
  }, 90_000);
});
