import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text, type UiLanguage } from './catalogues.ts';
import { dialog, label, openSignedIn, pickOption, rows, waitForRow } from './crud-page.ts';
import { launchBrowser, screenshot, signedInState, startAsAdmin, type AdminSession, type SignedInState } from './harness.ts';

// The order list: an order with its customers and tickets typed into the form, then found in the list and its
// details. What the server does with the lines (edits, deletes, tenants, export and import) is
// apps/server/src/modules/message/order.test.ts; this is the form as a person fills it, on a desktop and a phone.
const PASSWORD = 'Orders#E2e1';
const PATH = '/message/order';

let session: AdminSession;
let browser: Browser;
let signedIn: SignedInState;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  session = await startAsAdmin(PASSWORD);
  signedIn = await signedInState(session.server, 'admin', PASSWORD);
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await session?.server.stop();
});

const area = (page: Page) => page.locator(`[data-page-path="${PATH}"]:visible`);
const lines = (form: Locator, detail: string) => form.locator(`[data-detail="${detail}"]`);

/** Adds a line to a detail's tab and types its first field (the keyboard is already there). */
async function addLine(page: Page, form: Locator, lang: UiLanguage, detail: string, first: string) {
  await lines(form, detail).getByRole('button', { name: text(lang, 'crud.addLine') }).click();
  await page.keyboard.type(first);
}

describe('the order list', () => {
  it('in zh-CN on a desktop: an order with two customers and a ticket, typed into the form, shows in the list and its details', { timeout: 60_000 }, async () => {
    const lang = 'zh-CN';
    const page = await openSignedIn(browser, contexts, signedIn, session.server.url, [PATH, lang, 'desktop']);
    await area(page).getByRole('button', { name: text(lang, 'crud.add') }).click();
    const form = dialog(page);
    await form.getByLabel(label('order.field.orderCode', lang), { exact: true }).fill('ORD-E2E-1');
    await pickOption(page, form.getByLabel(label('order.field.ctype', lang), { exact: true }), label('order.ctype.international', lang));
    await form.getByLabel(label('order.field.orderMoney', lang), { exact: true }).fill('3200.00');
    await addLine(page, form, lang, 'jeecgOrderCustomerList', '张三');
    await form.getByLabel(`${label('order.customer', lang)} 1 ${label('order.customer.field.telphone', lang)}`, { exact: true }).fill('13800000001');
    await addLine(page, form, lang, 'jeecgOrderCustomerList', '李四');
    await form.getByRole('tab', { name: new RegExp(label('order.tickets', lang)) }).click();
    await addLine(page, form, lang, 'jeecgOrderTicketList', 'CA1234');
    await form.getByRole('tab', { name: new RegExp(label('order.customers', lang)) }).click();
    await screenshot(page, 'orders-form-zh-CN-desktop');
    await form.getByRole('button', { name: text(lang, 'crud.save') }).click();
    await waitForRow(page, 'ORD-E2E-1');
    await rows(page).filter({ hasText: 'ORD-E2E-1' }).getByRole('button', { name: text(lang, 'crud.detail') }).click();
    const drawer = page.locator('.ant-drawer:visible');
    await drawer.getByRole('cell', { name: '李四' }).waitFor();
    await expect.poll(() => drawer.getByRole('cell', { name: '13800000001' }).count()).toBe(1);
    await screenshot(page, 'orders-detail-zh-CN-desktop');
    await drawer.getByRole('tab', { name: new RegExp(label('order.tickets', lang)) }).click();
    await drawer.getByRole('cell', { name: 'CA1234' }).waitFor();
  });

  it('in en-US on a 375 px phone: the order is a card, and its form stacks each line in a card of its own', { timeout: 45_000 }, async () => {
    const lang = 'en-US';
    const page = await openSignedIn(browser, contexts, signedIn, session.server.url, [PATH, lang, 'mobile']);
    await waitForRow(page, 'ORD-E2E-1');
    await screenshot(page, 'orders-list-en-US-mobile');
    await rows(page).filter({ hasText: 'ORD-E2E-1' }).getByRole('button', { name: text(lang, 'crud.edit'), exact: true }).click();
    const form = dialog(page);
    const customers = lines(form, 'jeecgOrderCustomerList');
    await customers.getByText(`${label('order.customer', lang)} 2`, { exact: true }).waitFor();
    await expect.poll(() => customers.getByLabel(label('order.customer.field.name', lang), { exact: true }).nth(1).inputValue()).toBe('李四');
    await customers.scrollIntoViewIfNeeded();
    await screenshot(page, 'orders-form-en-US-mobile');
    // nothing wider than the phone
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });

  it('in ja-JP on a desktop: the list names the order type in Japanese', { timeout: 30_000 }, async () => {
    const lang = 'ja-JP';
    const page = await openSignedIn(browser, contexts, signedIn, session.server.url, [PATH, lang, 'desktop']);
    await rows(page).filter({ hasText: label('order.ctype.international', lang) }).first().waitFor();
    await screenshot(page, 'orders-list-ja-JP-desktop');
  });
});
