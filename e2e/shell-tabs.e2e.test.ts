import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text } from './catalogues.ts';
import { ADMIN_PASSWORD, animationsSettled, api, apiLogin, changeAdminPassword, launchBrowser, newContext, screenshot, signedInState, startServer, type RunningServer, type SignedInState } from './harness.ts';
import { pickOption } from './crud-page.ts';
import { openSignedIn, signIn, storedSettings } from './shell-support.ts';

const PASSWORD = 'Tabs#Pass6';
const lang = 'en-US';
const t = (key: Parameters<typeof text>[1], params?: Record<string, string>) => text(lang, key, params);

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
  // the tab's edge, outside its title: the whole tab answers a right click
  await page.locator('.ant-tabs-tab').filter({ has: page.getByRole('tab', { name: tab, exact: true }) }).click({ button: 'right', position: { x: 3, y: 3 } });
  // the menu zooms in: its items take clicks once it has come to rest
  await animationsSettled(page);
  await page.getByRole('menuitem', { name: t(action) }).filter({ visible: true }).click();
}

async function expectWarning(page: Page, words: string) {
  await page.getByText(words, { exact: true }).first().waitFor();
}

describe('multi-page tabs', () => {
  it('opens a tab per page; context menu refresh, close left, right and others; home and the last page stay', async () => {
    // a menu page whose screen is not built (yet): it is not found, and leaves no tab of its own behind
    const unbuilt = 'Unbuilt screen';
    const token = (await apiLogin(server, 'admin', PASSWORD)).result.token;
    const added = await api(server, 'POST', '/sys/permission/add', { token, body: { menuType: 0, name: unbuilt, url: '/isps/unbuilt', component: 'isps/unbuilt', sortNo: 95 } });
    expect(added.body.success, added.body.message).toBe(true);
    const context = await newContext(browser, { lang, signedIn: admin });
    const page = await context.newPage();
    await openSignedIn(page, server.url, lang);
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

    // The home tab cannot be closed, so it has no close button; the others have one.
    const homeTab = page.locator('.ant-tabs-tab').filter({ has: page.getByRole('tab', { name: home, exact: true }) });
    expect(await homeTab.getByRole('button').count()).toBe(0);
    expect(await page.locator('.ant-tabs-tab').filter({ has: page.getByRole('tab', { name: positions, exact: true }) }).getByRole('button').count()).toBe(1);

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

    // An unbuilt menu page lands on the not-found page: its tab, and none named after the menu item.
    const notFound = t('exception.pageNotFound');
    await searchMenu(page, unbuilt);
    await page.waitForURL(/\/404$/);
    await expect.poll(() => tabNames(page)).toEqual([clock, notFound]);
    // An unknown address opens one not-found tab, not one for the address and another for /404.
    await page.goto(`${server.url}/no/such/page`);
    await page.waitForURL(/\/404$/);
    await page.getByText(t('exception.404'), { exact: true }).waitFor();
    await expect.poll(() => tabNames(page)).toEqual([notFound]);
    await page.waitForTimeout(300);
    expect(await tabNames(page)).toEqual([notFound]);
    await context.close();
  });
});

describe('the menu search', () => {
  it('opens external and iframe menu items in a new window and a console page in place', async () => {
    // a menu whose address is http(s) stays an external address (SPEC section 2), and an iframe page
    // (component layouts/IframePageView) shows another site's address; this server's health answer stands in for both sites
    const items = [
      { name: 'Vendor portal', url: `${server.url}/api/health?from=menu`, component: '', sortNo: 90 },
      { name: 'Report frame', url: `${server.url}/api/health?from=frame`, component: 'layouts/IframePageView', sortNo: 91 },
    ];
    const token = (await apiLogin(server, 'admin', PASSWORD)).result.token;
    for (const { name, url, component, sortNo } of items) {
      const added = await api(server, 'POST', '/sys/permission/add', { token, body: { menuType: 0, name, url, component, sortNo } });
      expect(added.body.success, added.body.message).toBe(true);
    }

    const context = await newContext(browser, { lang, signedIn: admin });
    const page = await context.newPage();
    await openSignedIn(page, server.url, lang);
    const atHome = page.url();
    for (const { name, url } of items) {
      const opened = context.waitForEvent('page');
      await searchMenu(page, name);
      const popup = await opened;
      await popup.waitForURL(url);
      expect(await popup.locator('body').innerText()).toContain('ready');
      // the console itself stays where it was
      expect(page.url()).toBe(atHome);
    }

    await searchMenu(page, t('menu.dashboard.clock'));
    await page.waitForURL(/\/dashboard\/clock$/);
    expect(context.pages()).toHaveLength(items.length + 1);
    await context.close();
  });
});

describe('keep-alive pages', () => {
  it('a keep-alive page keeps what was typed after another tab was on screen; any other page starts afresh', async () => {
    // SPEC section 2 menu meta.keepAlive, set on the positions menu as the menus screen would save it
    const token = (await apiLogin(server, 'admin', PASSWORD)).result.token;
    // the origin console's menu list: the whole menu tree, unpaged
    type MenuNode = Record<string, unknown> & { children?: MenuNode[] };
    const { body: menus } = await api<MenuNode[]>(server, 'GET', '/sys/permission/list', { token });
    const flat = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((node) => [node, ...flat(node.children ?? [])]);
    const positionMenu = flat(menus.result).find((record) => record.url === '/system/position');
    expect(positionMenu).toBeDefined();
    const edited = await api(server, 'PUT', '/sys/permission/edit', { token, body: { ...positionMenu, keepAlive: 1 } });
    expect(edited.body.success, edited.body.message).toBe(true);

    const context = await newContext(browser, { lang, signedIn: admin });
    const page = await context.newPage();
    await openSignedIn(page, server.url, lang);
    const positions = t('menu.system.position');
    const dicts = t('menu.system.dict');
    const firstField = () => page.getByRole('main').getByRole('textbox').filter({ visible: true }).first();

    await searchMenu(page, positions);
    await page.waitForURL(/\/system\/position$/);
    await firstField().fill('kept while away');
    await searchMenu(page, dicts);
    await page.waitForURL(/\/system\/dict$/);
    await expect.poll(() => firstField().inputValue()).toBe('');
    await firstField().fill('gone when away');

    // back to the keep-alive page by its tab: the search form still holds the words
    await tabBar(page).getByRole('tab', { name: positions, exact: true }).click();
    await page.waitForURL(/\/system\/position$/);
    await expect.poll(() => firstField().inputValue()).toBe('kept while away');
    // the other page was mounted afresh
    await tabBar(page).getByRole('tab', { name: dicts, exact: true }).click();
    await page.waitForURL(/\/system\/dict$/);
    await page.getByRole('main').getByRole('table').filter({ visible: true }).first().waitFor();
    await expect.poll(() => firstField().inputValue()).toBe('');
    await context.close();
  });
});

describe('the settings drawer', () => {
  it('applies every option, keeps its constraints, and the choice survives a reload', async () => {
    const context = await newContext(browser, { lang, signedIn: admin });
    const page = await context.newPage();
    await openSignedIn(page, server.url, lang);

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

  it('turns the tabs off and on for good, hides a fixed header past 100 px of scrolling, and applies all eight colours', async () => {
    const context = await newContext(browser, { lang, signedIn: admin });
    const page = await context.newPage();
    await openSignedIn(page, server.url, lang);
    await searchMenu(page, t('menu.system.position'));
    await page.waitForURL(/\/system\/position$/);
    const drawer = page.getByRole('dialog', { name: t('settings.title') });
    const openDrawer = async () => {
      await page.getByRole('button', { name: t('header.systemSettings') }).click();
      await drawer.waitFor();
    };

    // Multi-page tabs: off removes the bar, and it stays off after a reload; on brings it back.
    await openDrawer();
    await drawer.getByRole('switch', { name: t('settings.multipage') }).click();
    await expect.poll(() => tabBar(page).count()).toBe(0);
    await page.reload();
    await page.getByRole('button', { name: t('header.userMenu') }).waitFor();
    await page.getByRole('main').getByRole('table').first().waitFor();
    expect(await tabBar(page).count()).toBe(0);
    expect(await storedSettings(page)).toMatchObject({ multipage: false });
    await openDrawer();
    expect(await drawer.getByRole('switch', { name: t('settings.multipage') }).isChecked()).toBe(false);
    await drawer.getByRole('switch', { name: t('settings.multipage') }).click();
    await expect.poll(() => tabNames(page)).toEqual([t('menu.system.position')]);
    await page.reload();
    await page.getByRole('button', { name: t('header.userMenu') }).waitFor();
    await expect.poll(() => tabNames(page)).toEqual([t('menu.system.position')]);

    // Eight primary colours: each one turns the page's primary button that colour.
    await openDrawer();
    const primaryButton = page.getByRole('main').locator('.ant-btn-primary').filter({ visible: true }).first();
    const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
    for (const [key, hex] of [
      ['dust', '#F5222D'],
      ['volcano', '#FA541C'],
      ['sunset', '#FAAD14'],
      ['cyan', '#13C2C2'],
      ['green', '#52C41A'],
      ['geekblue', '#2F54EB'],
      ['purple', '#722ED1'],
      ['daybreak', '#1890FF'],
    ] as const) {
      const swatch = drawer.getByRole('button', { name: t(`settings.color.${key}`) });
      await swatch.click();
      await expect.poll(() => swatch.getAttribute('aria-pressed')).toBe('true');
      await expect.poll(() => primaryButton.evaluate((el) => getComputedStyle(el).backgroundColor), { message: key }).toBe(rgb(hex));
      await expect.poll(() => storedSettings(page)).toMatchObject({ primaryColor: hex });
    }

    // Hide header on scroll needs the fixed header; then the header goes after 100 px and comes back above that.
    await drawer.getByRole('switch', { name: t('settings.fixedHeader') }).click();
    await drawer.getByRole('switch', { name: t('settings.autoHideHeader') }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.isVisible()).toBe(false);
    // a short window makes the list page taller than the window
    await page.setViewportSize({ width: 1440, height: 420 });
    const header = page.locator('header').filter({ has: page.getByRole('button', { name: t('header.userMenu') }) });
    const headerBottom = () => header.evaluate((el) => el.getBoundingClientRect().bottom);
    expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).toBeGreaterThan(200);
    const scrollTo = (y: number) => page.evaluate((top) => window.scrollTo(0, top), y);
    await scrollTo(80);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(80);
    // at 80 px the fixed header is still on screen, pinned to the top
    await expect.poll(() => header.evaluate((el) => el.getBoundingClientRect().top)).toBe(0);
    await scrollTo(150);
    await expect.poll(headerBottom).toBeLessThanOrEqual(0);
    // scrolling back up above 100 px brings it back
    await scrollTo(60);
    await expect.poll(() => header.evaluate((el) => el.getBoundingClientRect().top)).toBe(0);
    await context.close();
  });
});

describe('the user menu', () => {
  it('switches the group and explains a password mismatch', async () => {
    const context = await newContext(browser, { lang, signedIn: admin });
    const page = await context.newPage();
    await openSignedIn(page, server.url, lang);

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

  it('switches to another group: the console asks the server, keeps the new group and still has it after a reload', async () => {
    const login = await apiLogin(server, 'admin', PASSWORD);
    const token = login.result.token;
    const adminId = (login.result.userInfo as { id: string }).id;
    const departName = `Branch ${Date.now().toString(36)}`;
    const added = await api<{ id: string }>(server, 'POST', '/sys/sysDepart/add', { token, body: { departName, departOrder: 0 } });
    expect(added.body.success, added.body.message).toBe(true);

    const joined = await api(server, 'POST', '/sys/user/editSysDepartWithUser', { token, body: { depId: added.body.result.id, userIdList: adminId } });
    expect(joined.body.success, joined.body.message).toBe(true);
    const { body: departs } = await api<{ list: Array<{ orgCode: string; departName: string }>; orgCode: string }>(server, 'GET', '/sys/user/getCurrentUserDeparts', { token });
    const branch = departs.result.list.find((d) => d.departName === departName);
    expect(branch).toBeDefined();

    const context = await newContext(browser, { lang });
    const page = await context.newPage();
    const storedOrgCode = () =>
      page.evaluate(() => (JSON.parse(window.localStorage.getItem('pro__Login_Userinfo') ?? '{}') as { value?: { orgCode?: string } }).value?.orgCode);
    const dialog = page.getByRole('dialog', { name: t('departSelect.title') });
    const openDialog = async () => {
      await page.getByRole('button', { name: t('header.userMenu') }).click();
      await page.getByRole('menuitem', { name: t('header.switchDepart') }).click();
      await dialog.waitFor();
    };
    // Someone in several groups is asked for the current one right after signing in.
    // through the form: the question follows the login's answer (several groups), which a stored session has not
    await signIn(page, server.url, lang, PASSWORD);
    await dialog.waitFor();
    expect(await storedOrgCode()).not.toBe(branch?.orgCode);
    await pickOption(page, dialog.getByRole('combobox', { name: t('depart.label') }), departName);
    const selected = page.waitForRequest((request) => request.url().endsWith('/api/sys/selectDepart') && request.method() === 'POST');
    await dialog.getByRole('button', { name: t('common.ok') }).click();
    expect((await selected).postDataJSON()).toMatchObject({ orgCode: branch?.orgCode, username: 'admin' });
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect.poll(storedOrgCode).toBe(branch?.orgCode);

    // after a reload the console still works in the chosen group, and the dialog shows it as the current one
    await page.reload();
    await page.getByRole('button', { name: t('header.userMenu') }).waitFor();
    expect(await storedOrgCode()).toBe(branch?.orgCode);
    // the server keeps the choice too
    const { body: after } = await api<{ orgCode: string }>(server, 'GET', '/sys/user/getCurrentUserDeparts', { token });
    expect(after.result.orgCode).toBe(branch?.orgCode);
    await openDialog();
    await expect.poll(() => dialog.getByText(departName, { exact: true }).count()).toBe(1);
    expect(await dialog.getByText('ISPS', { exact: true }).count()).toBe(0);
    await dialog.getByRole('button', { name: t('common.cancel') }).click();
    await context.close();
  });
  it('warns someone without any group instead of opening the group switch', async () => {
    const token = (await apiLogin(server, 'admin', PASSWORD)).result.token;
    const { body: roles } = await api<{ records: { id: string; roleCode: string }[] }>(server, 'GET', '/sys/role/list?roleCode=admin', { token });
    const username = `loner${Date.now().toString(36)}`;
    const added = await api(server, 'POST', '/sys/user/add', {
      token,
      body: { username, realname: 'Loner', password: 'Loner#Init2025', selectedroles: roles.result.records.find((r) => r.roleCode === 'admin')?.id },
    });
    expect(added.body.success, added.body.message).toBe(true);
    // the initial password is replaced first, as the console demands at the first login
    const own = (await apiLogin(server, username, 'Loner#Init2025')).result.token;
    const changed = await api(server, 'POST', '/sys/user/updatePassword', {
      token: own,
      body: { username, oldpassword: 'Loner#Init2025', password: PASSWORD, confirmpassword: PASSWORD },
    });
    expect(changed.body.success, changed.body.message).toBe(true);

    // a user made here: a state of their own
    const context = await newContext(browser, { lang, signedIn: await signedInState(server, username, PASSWORD) });
    const page = await context.newPage();
    await openSignedIn(page, server.url, lang);
    await page.getByRole('button', { name: t('header.userMenu') }).click();
    await page.getByRole('menuitem', { name: t('header.switchDepart') }).click();
    await expectWarning(page, t('depart.noneSet'));
    expect(await page.getByRole('dialog', { name: t('departSelect.title') }).count()).toBe(0);
    await context.close();
  });
});
