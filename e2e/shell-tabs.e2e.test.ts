import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text } from './catalogues.ts';
import { ADMIN_PASSWORD, api, apiLogin, changeAdminPassword, launchBrowser, newContext, screenshot, startServer, type RunningServer } from './harness.ts';
import { signIn, storedSettings } from './shell-support.ts';

const PASSWORD = 'Tabs#Pass6';
const lang = 'en-US';
const t = (key: Parameters<typeof text>[1], params?: Record<string, string>) => text(lang, key, params);

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  await changeAdminPassword(server, ADMIN_PASSWORD, PASSWORD);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const tabBar = (page: Page) => page.getByRole('navigation', { name: t('tabs.label') });
const tabNames = (page: Page) => tabBar(page).getByRole('tab').allInnerTexts();

async function searchMenu(page: Page, words: string) {
  const search = page.getByRole('combobox', { name: t('header.menuSearch') });
  await search.click();
  await search.fill(words);
  await page.getByRole('option', { name: new RegExp(`${words}$`) }).click();
}

async function tabMenu(page: Page, tab: string, action: Parameters<typeof t>[0]) {
  // The menu of the previous right click has faded out first.
  await expect.poll(() => page.getByRole('menuitem', { name: t('tabs.refresh') }).filter({ visible: true }).count()).toBe(0);
  await tabBar(page).getByRole('tab', { name: tab, exact: true }).click({ button: 'right' });
  await page.waitForTimeout(300);
  await page.getByRole('menuitem', { name: t(action) }).filter({ visible: true }).click();
}

async function expectWarning(page: Page, words: string) {
  await page.getByText(words, { exact: true }).first().waitFor();
}

describe('multi-page tabs', () => {
  it('opens a tab per page; context menu refresh, close left, right and others; home and the last page stay', async () => {
    const context = await newContext(browser, { lang });
    const page = await context.newPage();
    await signIn(page, server.url, lang, PASSWORD);
    const home = t('menu.dashboard.analysis');
    const clock = t('menu.dashboard.clock');
    const dicts = t('menu.system.dict');
    const tenants = t('menu.system.tenant');
    const positions = t('menu.system.position');

    // The menu search navigates inside the console; each visited page becomes a tab.
    await searchMenu(page, clock);
    await page.waitForURL(/\/dashboard\/clock$/);
    await searchMenu(page, dicts);
    await page.waitForURL(/\/system\/dict$/);
    await searchMenu(page, tenants);
    await page.waitForURL(/\/system\/tenant$/);
    await searchMenu(page, positions);
    await page.waitForURL(/\/system\/position$/);
    await expect.poll(() => tabNames(page)).toEqual([home, clock, dicts, tenants, positions]);
    // Breadcrumbs: home plus the matched menu entries.
    const crumbs = page.getByRole('navigation', { name: t('header.breadcrumb') });
    await expect.poll(() => crumbs.innerText()).toMatch(new RegExp(`${t('app.home')}\\s*/\\s*${t('menu.system')}\\s*/\\s*${positions}`));
    expect(await page.title()).toBe(`${positions} - ${t('app.productName')}`);
    await screenshot(page, 'shell-tabs-en-US-desktop');

    // Closing the home tab is refused.
    const homeTab = page.locator('.ant-tabs-tab').filter({ has: page.getByRole('tab', { name: home, exact: true }) });
    await homeTab.getByRole('button').click();
    await expectWarning(page, t('tabs.cannotClose'));
    expect(await tabNames(page)).toContain(home);

    // Refresh mounts the page again: what was typed into it is gone.
    const firstField = page.getByRole('main').getByRole('textbox').first();
    await firstField.fill('typed before refresh');
    await tabMenu(page, positions, 'tabs.refresh');
    await expect.poll(() => page.getByRole('main').getByRole('textbox').first().inputValue()).toBe('');

    // Close left keeps home and the clicked tab onwards; it stays on screen.
    await tabMenu(page, dicts, 'tabs.closeLeft');
    await page.waitForURL(/\/system\/dict$/);
    await expect.poll(() => tabNames(page)).toEqual([home, dicts, tenants, positions]);
    // Close right.
    await tabMenu(page, tenants, 'tabs.closeRight');
    await page.waitForURL(/\/system\/tenant$/);
    await expect.poll(() => tabNames(page)).toEqual([home, dicts, tenants]);
    // Close others keeps home.
    await tabMenu(page, dicts, 'tabs.closeOthers');
    await page.waitForURL(/\/system\/dict$/);
    await expect.poll(() => tabNames(page)).toEqual([home, dicts]);
    // Closing the page on screen goes to its neighbour.
    const dictTab = page.locator('.ant-tabs-tab').filter({ has: page.getByRole('tab', { name: dicts, exact: true }) });
    await dictTab.getByRole('button').click();
    await page.waitForURL(/\/dashboard\/analysis$/);
    await expect.poll(() => tabNames(page)).toEqual([home]);

    // After a reload on another page that page is the only tab, and the last tab cannot be closed.
    await page.goto(`${server.url}/dashboard/clock`);
    await expect.poll(() => tabNames(page)).toEqual([clock]);
    const clockTab = page.locator('.ant-tabs-tab').filter({ has: page.getByRole('tab', { name: clock, exact: true }) });
    await clockTab.getByRole('button').click();
    await expectWarning(page, t('tabs.cannotClose'));
    expect(await tabNames(page)).toEqual([clock]);
    await context.close();
  });
});

describe('the menu search', () => {
  it('opens an external menu item in a new window and a console page in place', async () => {
    // a menu whose address is http(s) stays an external address (SPEC section 2); this server's health answer
    // stands in for the outside site
    const external = `${server.url}/api/health?from=menu`;
    const token = (await apiLogin(server, 'admin', PASSWORD)).result.token;
    const added = await api(server, 'POST', '/sys/permission/add', { token, body: { menuType: 0, name: 'Vendor portal', url: external, component: '', sortNo: 90 } });
    expect(added.body.success, added.body.message).toBe(true);

    const context = await newContext(browser, { lang });
    const page = await context.newPage();
    await signIn(page, server.url, lang, PASSWORD);
    const atHome = page.url();

    const opened = context.waitForEvent('page');
    await searchMenu(page, 'Vendor portal');
    const popup = await opened;
    await popup.waitForURL(external);
    expect(await popup.locator('body').innerText()).toContain('ready');
    // the console itself stays where it was
    expect(page.url()).toBe(atHome);

    await searchMenu(page, t('menu.dashboard.clock'));
    await page.waitForURL(/\/dashboard\/clock$/);
    expect(context.pages()).toHaveLength(2);
    await context.close();
  });
});

describe('the settings drawer', () => {
  it('applies every option, keeps its constraints, and the choice survives a reload', async () => {
    const context = await newContext(browser, { lang });
    const page = await context.newPage();
    await signIn(page, server.url, lang, PASSWORD);

    // Opened from the user menu.
    await page.getByRole('button', { name: t('header.userMenu') }).click();
    await page.getByRole('menuitem', { name: t('header.systemSettings') }).click();
    const drawer = page.getByRole('dialog', { name: t('settings.title') });
    await drawer.waitFor();
    // Side menu: Fluid width is not offered; hide-on-scroll waits for a fixed header.
    expect(await drawer.getByRole('radio', { name: t('settings.contentWidth.Fluid') }).isDisabled()).toBe(true);
    expect(await drawer.getByRole('switch', { name: t('settings.autoHideHeader') }).isDisabled()).toBe(true);

    await drawer.getByText(t('settings.navTheme.light'), { exact: true }).click();
    await drawer.getByRole('button', { name: t('settings.color.purple') }).click();
    await page.getByText(t('settings.applyingTheme')).first().waitFor();
    await drawer.getByRole('switch', { name: t('settings.fixedHeader') }).click();
    expect(await drawer.getByRole('switch', { name: t('settings.autoHideHeader') }).isDisabled()).toBe(false);
    await drawer.getByRole('switch', { name: t('settings.autoHideHeader') }).click();
    await drawer.getByRole('switch', { name: t('settings.colorWeak') }).click();
    expect(await page.evaluate(() => document.documentElement.classList.contains('color-weak'))).toBe(true);
    await drawer.getByRole('switch', { name: t('settings.colorWeak') }).click();
    await expect.poll(() => storedSettings(page)).toMatchObject({
      navTheme: 'light',
      primaryColor: '#722ED1',
      fixedHeader: true,
      autoHideHeader: true,
      colorWeak: false,
    });

    await page.reload();
    await page.getByRole('button', { name: t('header.userMenu') }).waitFor();
    // The light navigation and the purple primary colour are back after the reload.
    const siderBackground = await page.locator('.ant-layout-sider').first().evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(siderBackground).toMatch(/255, 255, 255|rgba\(0, 0, 0, 0\)|transparent/);
    const selectedColor = await page.getByRole('menuitem', { name: t('menu.dashboard.analysis') }).evaluate((el) => getComputedStyle(el).color);
    expect(selectedColor).toBe('rgb(114, 46, 209)');
    await page.getByRole('button', { name: t('header.systemSettings') }).click();
    await drawer.waitFor();
    expect(await drawer.getByRole('switch', { name: t('settings.fixedHeader') }).isChecked()).toBe(true);
    expect(await drawer.getByRole('button', { name: t('settings.color.purple') }).getAttribute('aria-pressed')).toBe('true');

    // Top menu: Fluid becomes available and the page spans the window; the fixed sidebar does not apply.
    await drawer.getByText(t('settings.layoutMode.topmenu'), { exact: true }).click();
    expect(await drawer.getByRole('switch', { name: t('settings.fixSiderbar') }).isDisabled()).toBe(true);
    // The breadcrumb spans the page column, so its width is the content width.
    const main = page.getByRole('navigation', { name: t('header.breadcrumb') });
    await expect.poll(() => main.evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(1200);
    await drawer.getByText(t('settings.contentWidth.Fluid'), { exact: true }).click();
    await expect.poll(() => main.evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThan(1300);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.ant-layout-sider').count()).toBe(0);
    await screenshot(page, 'shell-topmenu-fluid-en-US-desktop');
    await page.reload();
    await page.getByRole('button', { name: t('header.userMenu') }).waitFor();
    await expect.poll(() => storedSettings(page)).toMatchObject({ layoutMode: 'topmenu', contentWidth: 'Fluid', fixSiderbar: false });
    await expect.poll(() => main.evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThan(1300);

    // Back to the side menu: the width returns to Fixed.
    await page.getByRole('button', { name: t('header.systemSettings') }).click();
    await drawer.getByText(t('settings.layoutMode.sidemenu'), { exact: true }).click();
    await expect.poll(() => storedSettings(page)).toMatchObject({ layoutMode: 'sidemenu', contentWidth: 'Fixed' });

    // A browser that refuses to store the colour (full quota, private mode) keeps the old one and says so.
    await page.evaluate(() => {
      Storage.prototype.setItem = () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      };
    });
    await drawer.getByRole('button', { name: t('settings.color.cyan') }).click();
    await page.getByText(t('settings.themeFailed')).waitFor();
    expect(await drawer.getByRole('button', { name: t('settings.color.cyan') }).getAttribute('aria-pressed')).toBe('false');
    expect(await drawer.getByRole('button', { name: t('settings.color.purple') }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('menuitem', { name: t('menu.dashboard.analysis') }).evaluate((el) => getComputedStyle(el).color)).toBe(
      'rgb(114, 46, 209)',
    );
    await context.close();
  });
});

describe('the user menu', () => {
  it('switches the group and explains a password mismatch', async () => {
    const context = await newContext(browser, { lang });
    const page = await context.newPage();
    await signIn(page, server.url, lang, PASSWORD);

    await page.getByRole('button', { name: t('header.userMenu') }).click();
    await page.getByRole('menuitem', { name: t('header.switchDepart') }).click();
    const departDialog = page.getByRole('dialog', { name: t('departSelect.title') });
    await departDialog.waitFor();
    // The current group is preselected.
    await expect.poll(() => departDialog.getByText('ISPS').count()).toBeGreaterThan(0);
    await departDialog.getByRole('button', { name: t('common.ok') }).click();
    await expect.poll(() => departDialog.isVisible()).toBe(false);

    await page.getByRole('button', { name: t('header.userMenu') }).click();
    await page.getByRole('menuitem', { name: t('header.changePassword') }).click();
    const dialog = page.getByRole('dialog', { name: t('password.title') });
    await dialog.getByLabel(t('password.old')).fill(PASSWORD);
    await dialog.getByLabel(t('password.new'), { exact: true }).fill('Another#Pass7');
    await dialog.getByLabel(t('password.confirm')).fill('Different#Pass8');
    await dialog.getByRole('button', { name: t('common.ok') }).click();
    await dialog.getByText(t('password.mismatch')).waitFor();
    await dialog.getByRole('button', { name: t('common.cancel') }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await context.close();
  });
});
