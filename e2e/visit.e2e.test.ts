import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOT_VIEWS, dialog, en, label, pickOption, pickOptions, pickTime, rows, save, screenshotListAndForm, signIn, waitForRow, type ScreenshotView } from './crud-page.ts';
import { api, launchBrowser, newContext, screenshot, startAsAdmin, type AdminSession } from './harness.ts';

const PASSWORD = 'Visit#Form3';
let session: AdminSession;
let browser: Browser;

type Row = { id: string } & Record<string, unknown>;
async function idOf(path: string, field: string, value: string): Promise<string> {
  const page = await session.call<{ records: Row[] }>('GET', `${path}/list?pageNo=1&pageSize=100`);
  const row = page.records.find((r) => r[field] === value);
  if (!row) throw new Error(`no row ${field}=${value} at ${path}`);
  return row.id;
}

beforeAll(async () => {
  session = await startAsAdmin(PASSWORD);
  const call = session.call.bind(session);
  // a controller with two doors, a visitor to receive
  await call('POST', '/sysDevice/add', { deviceName: 'Lobby controller', sn: 'SNVISIT0001' });
  const deviceId = await idOf('/sysDevice', 'deviceName', 'Lobby controller');
  await call('POST', '/sysDoor/add', { doorName: 'Lobby gate', deviceId, doorNo: 1 });
  await call('POST', '/sysDoor/add', { doorName: 'Lift lobby', deviceId, doorNo: 2 });
  await call('POST', '/sysVistor/add', { name: 'Officer Wang', idType: '3', idCard: 'P1234567', phone: '13988880001', category: 'police', password: '123456', cardNo: 'VC00112233' });
  await call('POST', '/vistor/visit/add', {
    visitorId: await idOf('/sysVistor', 'name', 'Officer Wang'),
    hostId: (await session.call<{ records: Row[] }>('GET', '/sys/user/list?pageNo=1&pageSize=10')).records[0]!.id,
    startTime: '2026-12-01 09:00:00',
    endTime: '2026-12-01 10:00:00',
    doorIds: await idOf('/sysDoor', 'doorName', 'Lobby gate'),
  });
  // sign-ins of the visitor: one through the API, one refused
  await api(session.server, 'POST', '/vistor/login', { body: { account: '13988880001', password: '123456' } });
  await api(session.server, 'POST', '/vistor/login', { body: { account: '13988880001', password: '654321' } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await session?.server.stop();
});

/** Every language on both window sizes. */
const views = [...SCREENSHOT_VIEWS, ['ja-JP', 'desktop'], ['zh-CN', 'mobile'], ['en-US', 'desktop'], ['ja-JP', 'mobile']] as unknown as readonly ScreenshotView[];

/** Opens the visit form of a signed-in administrator and fills Officer Wang's visit to admin from `start` to `end`. */
async function newVisit(start: string, end: string) {
  const context = await newContext(browser, { lang: 'en-US' });
  const page = await context.newPage();
  await signIn(page, session.server.url, '/vistor/visit', 'admin', PASSWORD);
  await waitForRow(page, 'Officer Wang');
  await page.getByRole('button', { name: en('crud.add') }).click();
  const form = dialog(page);
  await pickOption(page, form.getByLabel(label('visit.field.visitorId'), { exact: true }), 'Officer Wang');
  await pickOption(page, form.getByLabel(label('visit.field.hostId'), { exact: true }), 'admin');
  await pickTime(page, form.getByLabel(label('visit.field.startTime'), { exact: true }), start);
  await pickTime(page, form.getByLabel(label('visit.field.endTime'), { exact: true }), end);
  return { context, page, form };
}

describe('visits for the staff', () => {
  it('gives a visitor a host, a window and doors through the visit form; the list shows them by name', async () => {
    const { context, page, form } = await newVisit('2026-12-02 14:00:00', '2026-12-02 15:00:00');
    await pickOptions(page, form.getByLabel(label('visit.field.doorIds'), { exact: true }), ['Lobby gate', 'Lift lobby']);
    // the open door list closes with a click beside it (Escape would ask to discard the form)
    await form.getByText(label('visit.field.remark'), { exact: true }).click();
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden' });
    await screenshot(page, 'visit-form-filled-en-US-desktop');
    await save(page);
    await expect.poll(() => rows(page).filter({ hasText: '2026-12-02 14:00:00' }).count()).toBe(1);
    const row = rows(page).filter({ hasText: '2026-12-02 14:00:00' }).first();
    await expect.poll(() => row.innerText()).toContain('Lift lobby');
    expect(await row.innerText()).toContain('Officer Wang');
    await context.close();
  });

  it('refuses a window that ends before it starts, in the reader\'s language', async () => {
    const { context, page } = await newVisit('2026-12-03 15:00:00', '2026-12-03 14:00:00');
    await save(page);
    await page.getByText('The end of a visit must come after its start.').first().waitFor();
    await context.close();
  });

  it.each(views)('list and form screenshots in %s on %s', (lang, viewport) =>
    screenshotListAndForm(browser, session.server.url, [lang, viewport], {
      path: '/vistor/visit',
      password: PASSWORD,
      name: 'visit',
      ready: (page) => rows(page).filter({ hasText: 'Officer Wang' }).first().waitFor(),
    }),
  );
});

describe('the API login list', () => {
  it('lists each visitor sign-in with its address, method and result, and filters by result', async () => {
    const context = await newContext(browser, { lang: 'en-US' });
    const page = await context.newPage();
    await signIn(page, session.server.url, '/vistor/apiLogin', 'admin', PASSWORD);
    await expect.poll(() => rows(page).filter({ hasText: 'Officer Wang' }).count()).toBe(2);
    const texts = await rows(page).allInnerTexts();
    expect(texts.some((t) => t.includes(label('visitorLogin.result.refused')))).toBe(true);
    expect(texts.some((t) => t.includes(label('visitorLogin.result.ok')))).toBe(true);
    expect(texts.join(' ')).not.toContain('13988880001');
    await pickOption(page, page.getByRole('search').getByLabel(label('visitorLogin.field.result'), { exact: true }), label('visitorLogin.result.refused'));
    await page.getByRole('search').getByRole('button', { name: en('crud.search') }).click();
    await expect.poll(() => rows(page).count()).toBe(1);
    await context.close();
  });

  it.each(views)('list screenshots in %s on %s', async (lang, viewport) => {
    const context = await newContext(browser, { lang, viewport });
    const page = await context.newPage();
    await signIn(page, session.server.url, '/vistor/apiLogin', 'admin', PASSWORD);
    await rows(page).filter({ hasText: 'Officer Wang' }).first().waitFor();
    await screenshot(page, `visitor-login-list-${lang}-${viewport}`);
    await context.close();
  });
});
