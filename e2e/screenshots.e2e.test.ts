import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogues, text, type UiLanguage } from './catalogues.ts';
import { label, openInApp, openScreen, rows, searchForm } from './crud-page.ts';
import { ADMIN_PASSWORD, api, apiLogin, changeAdminPassword, launchBrowser, newContext, openLoginPage, passSliderCaptcha, screenshot, signedInState, startServer, type RunningServer, type SignedInState } from './harness.ts';

const PASSWORD = 'Shots#Pass4';
const languages = Object.keys(catalogues) as UiLanguage[];

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

/** The login-method tabs and the slider hint fit the page: no overflow menu, each tab label whole, the hint clear of the handle. */
async function expectLoginFits(page: Page, lang: UiLanguage) {
  // the tab strip holds every tab: nothing scrolls out of it
  const strip = page.getByRole('tablist');
  expect(await strip.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  for (const key of ['login.tabAccount', 'login.tabPhone'] as const) {
    const tab = page.getByRole('tab', { name: text(lang, key) });
    const whole = await tab.evaluate((el) => {
      const strip = el.closest('[role=tablist]')?.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(el);
      const label = range.getBoundingClientRect();
      return !!strip && label.width > 0 && label.left >= strip.left - 0.5 && label.right <= strip.right + 0.5 && el.scrollWidth <= el.clientWidth + 1;
    });
    expect(whole, `${lang} ${key}`).toBe(true);
  }
  const track = page.getByTestId('slider-captcha');
  const [hint, handle, box] = await Promise.all([
    track.getByText(text(lang, 'sliderCaptcha.hint'), { exact: true }).evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const r = range.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    }),
    track.getByRole('slider').boundingBox(),
    track.boundingBox(),
  ]);
  if (!handle || !box) throw new Error('no slider captcha');
  expect(hint.left, `${lang}: the hint starts right of the handle`).toBeGreaterThanOrEqual(handle.x + handle.width);
  expect(hint.right).toBeLessThanOrEqual(box.x + box.width);
  expect(hint.top).toBeGreaterThanOrEqual(box.y);
  expect(hint.bottom).toBeLessThanOrEqual(box.y + box.height);
}

/** English seed texts a Chinese or Japanese reader must never meet in a table (the seed stores them in English). */
const ENGLISH_SEEDS = ['Administrator', 'System administrator', 'Default', 'Enabled', 'Disabled', 'Male', 'Female', 'Gender'];
const CJK = /[\u3040-\u30ff\u4e00-\u9fff]/;

/** The text of the tables in `scope` once their rows are in. */
async function tableText(page: Page, scope: ReturnType<Page['locator']>): Promise<string> {
  await scope.locator('tbody tr.ant-table-row').first().waitFor();
  await page.waitForLoadState('networkidle');
  return (await scope.locator('.ant-table').allInnerTexts()).join('\n');
}

/** Seeded rows read in the reader's language: no English seed text in Chinese or Japanese, no CJK in English, never a raw key. */
function expectReaderLanguage(lang: UiLanguage, screen: string, shown: string) {
  expect(shown, `${lang} ${screen}`).not.toMatch(/\bmenu\.[a-z]/);
  if (lang === 'en-US') expect(shown.match(CJK), `${lang} ${screen}`).toBeNull();
  else for (const english of ENGLISH_SEEDS) expect(shown, `${lang} ${screen}`).not.toMatch(new RegExp(`\\b${english}\\b`));
}

/** The system screens that show seeded rows, visited in the signed-in page: each table read and captured. */
async function visitSeededScreens(page: Page, lang: UiLanguage) {
  const main = page.getByRole('main');
  for (const [path, screen] of [['/system/user', 'users'], ['/system/role', 'roles'], ['/system/log', 'logs'], ['/system/permission', 'menus'], ['/system/dict', 'dictionaries']] as const) {
    await openInApp(page, path);
    expectReaderLanguage(lang, screen, await tableText(page, main));
    await screenshot(page, `${screen}-${lang}-desktop`);
  }
  // the items of the gender dictionary, opened from its row on the dictionary screen: the seeded dictionaries share
  // one creation time, so the list's first page need not hold it; searched by its code
  await searchForm(page).getByLabel(label('dict.field.dictCode', lang), { exact: true }).fill('sex');
  await searchForm(page).getByRole('button', { name: text(lang, 'crud.search') }).click();
  await main.locator('tbody tr.ant-table-row', { hasText: 'sex' }).getByRole('button', { name: text(lang, 'system.dict.items') }).click();
  const items = page.getByRole('dialog');
  const shown = await tableText(page, items);
  expect(shown).toContain({ 'zh-CN': '男', 'ja-JP': '男性', 'en-US': 'Male' }[lang]);
  expectReaderLanguage(lang, 'dictionary items', shown);
  await screenshot(page, `dictionary-items-${lang}-desktop`);
}

describe.each(languages)('login and home in %s', (lang) => {
  it.each(['desktop', 'mobile'] as const)('on %s: translated, and captured as screenshots', async (viewport) => {
    const t = (key: Parameters<typeof text>[1]) => text(lang, key);
    const context = await newContext(browser, { lang, viewport });
    // the login page as a console with its captcha on shows it (this server has it off, so any text passes)
    await context.route('**/api/sys/account/loginSettings*', (route) =>
      route.fulfill({ json: { success: true, code: 200, message: '', result: { captcha: true, registration: 'off' }, timestamp: 0 } }),
    );
    const page = await context.newPage();
    await openLoginPage(page, server.url);
    await page.getByRole('img', { name: t('login.captchaImage') }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    await expectLoginFits(page, lang);
    await screenshot(page, `login-${lang}-${viewport}`);

    await page.getByLabel(t('login.username'), { exact: true }).fill('admin');
    await page.getByLabel(t('login.password'), { exact: true }).fill(PASSWORD);
    await page.getByRole('textbox', { name: t('login.captcha') }).fill('e2e0');
    await passSliderCaptcha(page);
    await page.getByRole('button', { name: new RegExp(`${t('login.submit')}$`) }).click();
    await page.waitForURL(/\/dashboard\/analysis$/);
    // The home page shows real numbers from the server: at least the admin account itself.
    await page.getByText(t('dashboard.userCount'), { exact: true }).first().waitFor();
    await page.waitForLoadState('networkidle');
    const body = await page.locator('body').innerText();
    // No raw i18n key leaks onto the page.
    expect(body).not.toMatch(/\b(menu|login|header|dashboard|common)\.[a-z]+/);
    await screenshot(page, `home-${lang}-${viewport}`);
    // one sign-in per language: the desktop session goes on to the screens of seeded rows
    if (viewport === 'desktop') await visitSeededScreens(page, lang);
    await context.close();
  });
});

/**
 * A row in every list a phone shows below: a device and a person through the API, an alarm as a device's event
 * stores it (written into the database: no device runs here), each column it requires given a value of its type.
 */
async function seedPhoneLists(): Promise<void> {
  const token = (await apiLogin(server, 'admin', PASSWORD)).result.token;
  const device = await api<string>(server, 'POST', '/sysDevice/add', { token, body: { deviceName: 'Lobby door controller', sn: 'SHOT-0001', deviceModel: 'SIM-DOOR', deviceKind: '1' } });
  expect(device.body.success, device.body.message).toBe(true);
  const person = await api(server, 'POST', '/sysPeople/add', { token, body: { name: 'Wang Xiaoming' } });
  expect(person.body.success, person.body.message).toBe(true);
  const database = new Database(join(server.dataDir, 'isps.db'));
  try {
    const row = database.prepare('select id, tenant_id from sys_device where sn = ?').get('SHOT-0001') as { id: string; tenant_id: string };
    const now = new Date().toISOString();
    const given: Record<string, unknown> = { id: randomUUID(), device_id: row.id, tenant_id: row.tenant_id, code: 'tamper', level: 'H', state: 0, alarm_time: now, last_time: now, alarm_count: 3, create_by: 'system', create_time: now };
    const columns = database.prepare("select name, type, \"notnull\" as required, dflt_value as fallback from pragma_table_info('sys_device_alarm')").all() as Array<{ name: string; type: string; required: number; fallback: unknown }>;
    const values = Object.fromEntries(
      columns.flatMap((c) => (c.name in given ? [[c.name, given[c.name]]] : c.required && c.fallback === null ? [[c.name, /int/i.test(c.type) ? 1 : 'x']] : [])),
    );
    database.prepare(`insert into sys_device_alarm (${Object.keys(values).join(', ')}) values (${Object.keys(values).map(() => '?').join(', ')})`).run(...Object.values(values));
  } finally {
    database.close();
  }
}

describe('lists on a 375 px phone', () => {
  beforeAll(seedPhoneLists);

  it.each(['zh-CN', 'en-US'] as const)('%s: the device list, people, users and alarms show each row as a readable card whose actions work', async (lang) => {
    const context = await newContext(browser, { lang, viewport: 'mobile', signedIn: admin });
    const page = await context.newPage();
    await openScreen(page, server.url, '/device/list');
    for (const [path, shot] of [['/device/list', 'devices'], ['/device/people', 'people'], ['/system/user', 'users'], ['/device/alarm', 'alarms']] as const) {
      if (new URL(page.url()).pathname !== path) await openInApp(page, path);
      const main = page.getByRole('main');
      const card = rows(page).first();
      await card.waitFor();
      // cards, not a squeezed table, and nothing wider than the phone
      expect(await main.locator('table').count(), `${shot}: no table`).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${shot}: no sideways scroll`).toBeLessThanOrEqual(375);
      const box = await card.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 375, `${shot}: the card fits`).toBe(true);
      // label: value lines in the reader's language
      expect(await card.locator('dt').count(), `${shot}: label lines`).toBeGreaterThan(0);
      expectReaderLanguage(lang, shot, await card.innerText());
      // the row's actions are on its card, inside the window, and work: Details opens the row's details
      const details = card.getByRole('button', { name: text(lang, 'crud.detail'), exact: true });
      const at = await details.boundingBox();
      expect(at && at.x >= 0 && at.x + at.width <= 375, `${shot}: actions reachable`).toBe(true);
      await screenshot(page, `${shot}-${lang}-375`);
      await details.click();
      const drawer = page.getByRole('dialog');
      await drawer.waitFor();
      await page.keyboard.press('Escape');
      await expect.poll(() => drawer.count()).toBe(0);
      // the toolbar folds into its main action and one More menu
      const toolbar = main.getByRole('toolbar').first();
      expect(await toolbar.getByRole('button', { name: new RegExp(text(lang, 'crud.more')) }).count(), `${shot}: More`).toBe(1);
    }
    await context.close();
  });
});

describe('the side menu at 1440 px', () => {
  it.each(['en-US', 'ja-JP'] as const)('%s: every menu name shows whole, wrapped where it is long, never cut with "…"', async (lang) => {
    const context = await newContext(browser, { lang, signedIn: admin });
    const page = await context.newPage();
    await openScreen(page, server.url, '/system/user');
    const sider = page.locator('.ant-layout-sider').first();
    await sider.locator('.ant-menu-submenu-title').first().waitFor();
    const cut: string[] = [];
    const areas = await sider.locator('.ant-menu-submenu-title').count();
    for (let i = 0; i < areas; i += 1) {
      const area = sider.locator('.ant-menu-submenu-title').nth(i);
      if ((await area.getAttribute('aria-expanded')) !== 'true') await area.click();
      await expect.poll(() => area.getAttribute('aria-expanded')).toBe('true');
      // a name is cut when its text is wider than the box that shows it
      cut.push(
        ...(await sider.locator('.ant-menu-title-content').evaluateAll((els) =>
          els.filter((el) => el.getClientRects().length > 0).flatMap((el) => [el, ...el.querySelectorAll<HTMLElement>('*')].filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent ?? '')),
        )),
      );
    }
    expect([...new Set(cut)]).toEqual([]);
    await screenshot(page, `side-menu-${lang}-desktop`);
    await context.close();
  });
});
