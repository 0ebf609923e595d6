import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATIC_ROUTES } from '../apps/web/src/app/static-routes.ts';
import { text, type UiLanguage } from './catalogues.ts';
import { ADMIN_PASSWORD, changeAdminPassword, launchBrowser, newContext, restoreSignedIn, screenshot, signedInState, startServer, type RunningServer, type SignedInState } from './harness.ts';
import { openSignedIn } from './shell-support.ts';

const PASSWORD = 'Pages#Pass3';
const languages: UiLanguage[] = ['zh-CN', 'en-US'];
/** The desktop size of these shots: a common laptop window. */
const LAPTOP = { width: 1280, height: 800 };

let server: RunningServer;
let browser: Browser;
/** the administrator signed in once for the whole file */
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

/** What a person would see as broken: a page wider than the window, or a raw message key instead of words. */
async function expectsTidy(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${what} is wider than the window`).toBeLessThanOrEqual(0);
  const body = await page.locator('body').innerText();
  expect(body, what).not.toMatch(/\b(menu|login|header|dashboard|common|exception|panel|result|testHome|settings|password|depart|departSelect|tabs)\.[a-zA-Z]+/);
}

async function shot(page: Page, name: string) {
  await expectsTidy(page, name);
  await screenshot(page, name);
}

describe.each(languages)('static and exception pages in %s', (lang) => {
  const t = (key: Parameters<typeof text>[1]) => text(lang, key);

  it.each(['desktop', 'mobile'] as const)('on %s: /panel, /result, /test/home and 403/404/500 render and lead back', async (viewport) => {
    const context = await newContext(browser, { lang, viewport });
    const page = await context.newPage();
    if (viewport === 'desktop') await page.setViewportSize(LAPTOP);
    const size = `${lang}-${viewport}`;

    // Public pages without a session: /panel names the console and offers the ways in.
    await page.goto(`${server.url}/panel`);
    await page.getByRole('heading', { name: t('panel.title') }).waitFor();
    await page.getByText(t('panel.description')).waitFor();
    await page.getByRole('button', { name: t('panel.visitorLogin') }).waitFor();
    expect(await page.title()).toContain(t('panel.title'));
    await shot(page, `panel-${size}`);
    await page.getByRole('button', { name: t('panel.login') }).click();
    await page.waitForURL(/\/user\/login$/);

    // /result reads its status; without a session its button leads to the login.
    await page.goto(`${server.url}/result?status=success`);
    await page.getByText(t('result.successTitle'), { exact: true }).waitFor();
    await page.getByText(t('result.successDescription'), { exact: true }).waitFor();
    await shot(page, `result-success-${size}`);
    await page.goto(`${server.url}/result?status=error`);
    await page.getByText(t('result.failureTitle'), { exact: true }).waitFor();
    await page.getByText(t('result.failureDescription'), { exact: true }).waitFor();
    await shot(page, `result-error-${size}`);
    await page.getByRole('button', { name: t('panel.login') }).click();
    await page.waitForURL(/\/user\/login$/);

    // the session starts here, in the page that showed the public ones
    await restoreSignedIn(page, admin);
    await openSignedIn(page, server.url, lang);
    // Signed in, /result offers the caller's way back (a console path only) and home.
    await page.goto(`${server.url}/result?status=success&back=/test/home`);
    await page.getByRole('button', { name: t('result.back') }).click();
    await page.waitForURL(/\/test\/home$/);

    // /test/home lists every static route with its page and access, each a link.
    await page.getByText(t('testHome.title'), { exact: true }).first().waitFor();
    await page.getByText(t('testHome.description')).waitFor();
    const table = page.getByRole('table');
    for (const route of STATIC_ROUTES) {
      const address = route.example ?? route.path;
      const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: address, exact: true }) });
      await expect.poll(() => row.innerText(), { message: address }).toContain(t(route.titleKey));
      expect(await row.innerText()).toContain(route.access === 'public' ? t('testHome.public') : t('testHome.signedIn'));
    }
    await shot(page, `test-home-${size}`);

    // The exception pages, reached from the tester's list: status, text, and a way home that works.
    for (const [status, subTitle] of [
      ['403', 'exception.403'],
      ['404', 'exception.404'],
      ['500', 'exception.500'],
    ] as const) {
      await page.getByRole('link', { name: `/exception/${status}`, exact: true }).click();
      await page.waitForURL(new RegExp(`/exception/${status}$`));
      await page.getByText(t(subTitle), { exact: true }).waitFor();
      expect(await page.getByText(status, { exact: true }).filter({ visible: true }).count()).toBeGreaterThan(0);
      await shot(page, `exception-${status}-${size}`);
      await page.getByRole('button', { name: t('exception.backHome') }).click();
      await page.waitForURL(/\/dashboard\/analysis$/);
      await page.goto(`${server.url}/test/home`);
      await page.getByRole('table').waitFor();
    }
    // An unknown address lands on the 404 page.
    await page.goto(`${server.url}/no/such/page`);
    await page.waitForURL(/\/404$/);
    await page.getByText(t('exception.404'), { exact: true }).waitFor();
    await context.close();
  });

  it.each(['desktop', 'mobile'] as const)('on %s: the settings drawer, change-password and group dialogs and the tab menu', async (viewport) => {
    const context = await newContext(browser, { lang, viewport, signedIn: admin });
    const page = await context.newPage();
    if (viewport === 'desktop') await page.setViewportSize(LAPTOP);
    const size = `${lang}-${viewport}`;
    await openSignedIn(page, server.url, lang);
    await page.getByText(t('dashboard.userCount'), { exact: true }).first().waitFor();
    const userMenu = page.getByRole('button', { name: t('header.userMenu') });

    await userMenu.click();
    await page.getByRole('menuitem', { name: t('header.systemSettings') }).click();
    const drawer = page.getByRole('dialog', { name: t('settings.title') });
    await drawer.getByRole('switch', { name: t('settings.multipage') }).waitFor();
    await shot(page, `settings-drawer-${size}`);
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.isVisible()).toBe(false);

    await userMenu.click();
    await page.getByRole('menuitem', { name: t('header.changePassword') }).click();
    const password = page.getByRole('dialog', { name: t('password.title') });
    await password.getByLabel(t('password.old')).waitFor();
    // its rules speak up on an empty submit, as a person would see them
    await password.getByRole('button', { name: t('common.ok') }).click();
    await password.locator('.ant-form-item-explain-error').first().waitFor();
    await shot(page, `change-password-${size}`);
    await password.getByRole('button', { name: t('common.cancel') }).click();
    await expect.poll(() => password.isVisible()).toBe(false);

    await userMenu.click();
    await page.getByRole('menuitem', { name: t('header.switchDepart') }).click();
    const depart = page.getByRole('dialog', { name: t('departSelect.title') });
    await expect.poll(() => depart.getByText('ISPS').count()).toBeGreaterThan(0);
    await shot(page, `depart-select-${size}`);
    await depart.getByRole('button', { name: t('common.cancel') }).click();
    await expect.poll(() => depart.isVisible()).toBe(false);

    if (viewport === 'desktop') {
      // the tab context menu, with a second tab open
      await page.goto(`${server.url}/dashboard/clock`);
      await page.getByRole('navigation', { name: t('header.breadcrumb') }).getByRole('link', { name: t('app.home') }).click();
      const tabs = page.getByRole('navigation', { name: t('tabs.label') });
      await expect.poll(() => tabs.getByRole('tab').count()).toBe(2);
      await page.getByText(t('dashboard.userCount'), { exact: true }).first().waitFor();
      await tabs.getByRole('tab', { name: t('menu.dashboard.clock'), exact: true }).click({ button: 'right' });
      await page.getByRole('menuitem', { name: t('tabs.closeOthers') }).filter({ visible: true }).waitFor();
      await shot(page, `tab-menu-${size}`);
    }
    await context.close();
  });
});
