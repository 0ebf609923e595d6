import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MenuItem, PermissionResult } from '../packages/contract/src/index.ts';
import { text, type UiLanguage } from './catalogues.ts';
import { signIn } from './crud-page.ts';
import { api, apiLogin, launchBrowser, newContext, screenshot, startAsAdmin, viewports, type AdminSession } from './harness.ts';

// Issue 26, acceptance 2: a user holding only the seeded device-administrator role walks every device page their menu
// holds, in zh-CN and en-US, and is denied a system page.
const KEEPER = { username: 'keeper', password: 'Keeper#Pass26' };
let session: AdminSession;
let browser: Browser;
let menu: MenuItem[];

beforeAll(async () => {
  session = await startAsAdmin('Walk#Pass26');
  const roles = await session.call<Array<{ id: string; roleCode: string }>>('GET', '/sys/role/queryall');
  const deviceAdmin = roles.find((r) => r.roleCode === 'device_admin');
  if (!deviceAdmin) throw new Error('no seeded device administrator role');
  await session.call('POST', '/sys/user/add', { username: KEEPER.username, realname: 'Keeper', password: `${KEEPER.password}0`, selectedroles: deviceAdmin.id });
  const first = await apiLogin(session.server, KEEPER.username, `${KEEPER.password}0`);
  const changed = await api(session.server, 'POST', '/sys/user/updatePassword', {
    token: first.result.token,
    body: { username: KEEPER.username, oldpassword: `${KEEPER.password}0`, password: KEEPER.password, confirmpassword: KEEPER.password },
  });
  if (!changed.body.success) throw new Error(`the keeper's password: ${changed.body.message}`);
  const token = (await apiLogin(session.server, KEEPER.username, KEEPER.password)).result.token;
  menu = (await api<PermissionResult>(session.server, 'GET', '/sys/permission/getUserPermissionByToken', { token })).body.result.menu;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await session?.server.stop();
});

const titleOf = (item: MenuItem) => item.meta.titleKey ?? item.meta.title;
const shown = (items: readonly MenuItem[] | undefined) => (items ?? []).filter((item) => !item.hidden && item.route !== '0');
/** The device areas of the keeper's menu with the pages each shows. */
const deviceAreas = () => shown(menu).filter((area) => ['/device', '/devices'].includes(area.path));

/** API answers the page got that were refusals or failures: a page showing its content gets none. */
function failedAnswers(page: Page): string[] {
  const failed: string[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (!url.pathname.startsWith('/api/') || response.request().method() === 'OPTIONS') return;
    if (response.status() >= 400) failed.push(`${response.status()} ${url.pathname}`);
    else
      void response
        .json()
        .then((body: { success?: boolean; message?: string }) => {
          if (body && body.success === false) failed.push(`${url.pathname}: ${body.message}`);
        })
        .catch(() => undefined);
  });
  return failed;
}

/** A side-menu entry by its whole title (its icon, when it has one, is named before it). */
const menuItem = (page: Page, title: string) =>
  page.getByRole('menuitem', { name: new RegExp(`(^|\\s)${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) });

const ERROR_RESULTS = '.ant-result-403, .ant-result-404, .ant-result-500, .ant-result-error, .ant-result-warning';
const CONTENT = '.ant-table-wrapper, .ant-card, .ant-form, .ant-list, .ant-descriptions, .ant-empty, .ant-tree';

async function showsContent(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === path);
  await page
    .locator(CONTENT)
    .filter({ visible: true })
    .first()
    .waitFor()
    .catch((error: unknown) => {
      throw new Error(`${path} shows no content`, { cause: error });
    });
  await expect.poll(() => page.locator('.ant-spin-spinning, .ant-skeleton-active').filter({ visible: true }).count()).toBe(0);
  expect([path, await page.locator(ERROR_RESULTS).filter({ visible: true }).count()]).toEqual([path, 0]);
}

describe.each<UiLanguage>(['zh-CN', 'en-US'])('the device administrator in %s', (lang) => {
  let context: BrowserContext;
  afterAll(async () => context?.close());

  it('sees the device figures on the home page, opens every device page of the menu, and is denied a system page', async () => {
    expect(deviceAreas().flatMap((area) => shown(area.children)).length).toBeGreaterThanOrEqual(10);
    context = await newContext(browser, { lang });
    const page = await context.newPage();
    await signIn(page, session.server.url, '/dashboard/analysis', KEEPER.username, KEEPER.password);
    const failed = failedAnswers(page);
    await page.getByTestId('dashboard-devicesOnline').waitFor();
    await page.getByText(text(lang, 'dashboard.eventsByHour')).first().waitFor();
    await page.getByTestId('chart-access').waitFor();
    for (const key of ['dashboard.userCount', 'dashboard.onlineTokenCount', 'dashboard.loginsToday'] as const) {
      expect(await page.getByText(text(lang, key), { exact: true }).count()).toBe(0);
    }
    await screenshot(page, `device-admin-home-${lang}-desktop`);

    for (const area of deviceAreas()) {
      const submenu = menuItem(page, text(lang, titleOf(area) as never));
      if ((await submenu.getAttribute('aria-expanded')) !== 'true') await submenu.click();
      for (const item of shown(area.children)) {
        await menuItem(page, text(lang, titleOf(item) as never)).click();
        await showsContent(page, item.path);
      }
    }
    expect(failed).toEqual([]);

    // a page of the console their menu does not hold: access denied, not "not found"
    await page.goto(`${session.server.url}/system/user`);
    await page.waitForURL((url) => url.pathname === '/exception/403');
    await page.getByText(text(lang, 'exception.403')).waitFor();
    await screenshot(page, `device-admin-403-${lang}-desktop`);

    // the same two screens on a phone, signed in as before
    const phone = await browser.newContext({ viewport: viewports.mobile, reducedMotion: 'reduce', storageState: await context.storageState() });
    try {
      const small = await phone.newPage();
      await small.goto(`${session.server.url}/dashboard/analysis`);
      await small.getByTestId('dashboard-devicesOnline').waitFor();
      await screenshot(small, `device-admin-home-${lang}-mobile`);
      await small.goto(`${session.server.url}/system/role`);
      await small.waitForURL((url) => url.pathname === '/exception/403');
      await small.getByText(text(lang, 'exception.403')).waitFor();
      await screenshot(small, `device-admin-403-${lang}-mobile`);
    } finally {
      await phone.close();
    }
  });
});
