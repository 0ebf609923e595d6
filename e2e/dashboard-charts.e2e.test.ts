/**
 * The home page's charts as a person sees them, in the three languages at 1440 and 375 px, light and (in Chinese)
 * dark, and the dashboard's panel.
 * The figures themselves are proven against the database by the server's test (modules/dashboard/figures.test.ts);
 * here the device figures are a fixed answer, so that every chart has something to draw.
 */
import type { DashboardDevices } from '@isps/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text, type UiLanguage } from './catalogues.ts';
import { openInApp, openScreen } from './crud-page.ts';
import { animationsSettled, launchBrowser, newContext, openLoginPage, screenshot, screenshotDir, signedInState, startAsAdmin, viewports, type AdminSession } from './harness.ts';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';

const PASSWORD = 'Charts#E2e1';
const hours = (peak: number) => Array.from({ length: 24 }, (_, h) => (h >= 7 && h <= 19 ? Math.round(peak * Math.sin(((h - 6) / 14) * Math.PI)) : 0));
const FIGURES: Required<DashboardDevices> = {
  devicesOnline: 46,
  devicesOffline: 5,
  doorsOpen: 3,
  openAlarms: 9,
  eventsByHour: hours(1450),
  devicesBySystem: [
    { system: 'abDoor', online: 12, offline: 1 },
    { system: 'access', online: 20, offline: 2 },
    { system: 'storage', online: 8, offline: 0 },
    { system: 'quake', online: 2, offline: 1 },
    { system: 'ks', online: 4, offline: 1 },
  ],
  accessByHour: { openings: hours(1200), denials: hours(60) },
  alarmsByLevel: { L: 4, M: 3, H: 2 },
  attendanceToday: { normal: 182, late: 11, absent: 4 },
  cabinets: { occupied: 130, free: 62 },
  emergencyActive: false,
};
const CHARTS = ['chart-access', 'chart-devices', 'chart-alarms', 'chart-attendance', 'chart-cabinets', 'chart-logins'];

let session: AdminSession;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [session, browser] = await Promise.all([startAsAdmin(PASSWORD), launchBrowser()]);
  context = await newContext(browser, { lang: 'zh-CN', viewport: 'desktop', signedIn: await signedInState(session.server, 'admin', PASSWORD) });
  await context.route(/\/dashboard\/devices(\?|$)/, (route) => route.fulfill({ json: { success: true, code: 200, message: '', result: FIGURES, timestamp: 0 } }));
  page = await context.newPage();
}, 60_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await session?.server.stop();
});

/** The whole page area in one shot: the window as tall as the page. */
async function shot(name: string, width: number) {
  await page.setViewportSize({ width, height: 900 });
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width, height: Math.max(900, height) });
  await animationsSettled(page);
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`) });
}

/** Every chart drawn (an SVG of its own) with its figures to read, nothing wider than the window. */
async function chartsDrawn(lang: UiLanguage, width: number) {
  for (const id of CHARTS) await page.locator(`[data-testid=${id}] svg.recharts-surface`).first().waitFor();
  const cabinets = page.getByTestId('chart-cabinets').getByRole('table');
  expect(await cabinets.locator('caption').textContent()).toBe(text(lang, 'dashboard.cabinets'));
  expect(await cabinets.getByRole('row', { name: text(lang, 'dashboard.cabinets.occupied') }).textContent()).toContain('130');
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `nothing wider than ${width} px`).toBeLessThanOrEqual(width);
  // a legend stays inside its chart's card
  for (const id of CHARTS) {
    const [legend, card] = await Promise.all([page.locator(`[data-testid=${id}] .recharts-legend-wrapper`).boundingBox(), page.getByTestId(id).boundingBox()]);
    expect(legend && card && legend.y + legend.height <= card.y + card.height + 1, `${id}'s legend inside it`).toBe(true);
  }
}

/** The settings drawer's light or dark choice for the whole console, then the drawer closed again. */
async function chooseTheme(lang: UiLanguage, choice: 'light' | 'dark') {
  await page.setViewportSize(viewports.desktop);
  await page.getByRole('button', { name: text(lang, 'header.systemSettings') }).click();
  const drawer = page.getByRole('dialog', { name: text(lang, 'settings.title') });
  await drawer.getByRole('radiogroup', { name: text(lang, 'settings.contentTheme') }).getByText(text(lang, `settings.contentTheme.${choice}`), { exact: true }).click();
  if (choice === 'dark') await screenshot(page, `settings-drawer-dark-${lang}-1440`);
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'hidden' });
}

/** What a chart is drawn in: its tick texts' colour, and its card's background as [r, g, b]. */
async function chartColours(id: string) {
  const chart = page.getByTestId(id);
  const tick = await chart.locator('.recharts-cartesian-axis-tick-value').first().getAttribute('fill');
  const card = await chart.evaluate((el) => getComputedStyle(el.closest('.ant-card') ?? document.body).backgroundColor);
  return { tick, card: (card.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number) };
}
const luminance = ([r = 0, g = 0, b = 0]: number[]) => (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;

/** The login page of a browser that kept the dark choice: dark before anyone signs in, its form readable. */
async function darkLoginPage() {
  const stored = await page.evaluate(() => window.localStorage.getItem('pro__layout-settings'));
  const other = await newContext(browser, { lang: 'zh-CN' });
  try {
    await other.addInitScript((value) => window.localStorage.setItem('pro__layout-settings', value), stored ?? '');
    const login = await other.newPage();
    await openLoginPage(login, session.server.url);
    const [background, input] = await login.evaluate(() => [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.querySelector('input[name=password]')!).color]);
    expect(luminance((background.match(/[\d.]+/g) ?? []).map(Number)), 'a dark login page').toBeLessThan(0.15);
    expect(luminance((input.match(/[\d.]+/g) ?? []).map(Number)), 'light text in its fields').toBeGreaterThan(0.8);
    await screenshot(login, 'login-dark-zh-CN-1440');
  } finally {
    await other.close();
  }
}

describe('the home page charts', () => {
  it('draw every figure in zh-CN, en-US and ja-JP at 1440 and 375 px, light and dark, in the theme’s colours; the panel opens the screens', async () => {
    await openScreen(page, session.server.url, '/dashboard/analysis');
    let current: UiLanguage = 'zh-CN';
    for (const lang of ['zh-CN', 'en-US', 'ja-JP'] as const) {
      if (lang !== current) {
        // the header's language menu (it loads the page again in the chosen language)
        await page.setViewportSize(viewports.desktop);
        await page.getByRole('button', { name: text(current, 'language.switch') }).click();
        await page.getByRole('menuitem', { name: text(lang, `language.${lang}` as const) }).click();
        await page.getByText(text(lang, 'dashboard.devicesBySystem'), { exact: true }).first().waitFor();
        current = lang;
      }
      await page.setViewportSize(viewports.desktop);
      await chartsDrawn(lang, viewports.desktop.width);
      await shot(`dashboard-charts-${lang}-1440`, viewports.desktop.width);
      await page.setViewportSize(viewports.mobile);
      await chartsDrawn(lang, viewports.mobile.width);
      await shot(`dashboard-charts-${lang}-375`, viewports.mobile.width);
      if (lang === 'zh-CN') {
        // the dark console: the charts redraw at once in the dark theme's colours, no reload
        const light = await chartColours('chart-logins');
        await chooseTheme(lang, 'dark');
        await expect.poll(async () => (await chartColours('chart-logins')).tick).not.toBe(light.tick);
        const dark = await chartColours('chart-logins');
        expect(luminance(light.card), 'a light card').toBeGreaterThan(0.9);
        expect(luminance(dark.card), 'a dark card').toBeLessThan(0.15);
        expect(dark.tick, 'tick texts light on the dark card').toMatch(/^rgba\(255, ?255, ?255/);
        expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
        await chartsDrawn(lang, viewports.desktop.width);
        await shot(`dashboard-charts-dark-${lang}-1440`, viewports.desktop.width);
        await page.setViewportSize(viewports.mobile);
        await chartsDrawn(lang, viewports.mobile.width);
        await shot(`dashboard-charts-dark-${lang}-375`, viewports.mobile.width);
        await darkLoginPage();
        await chooseTheme(lang, 'light');
        await expect.poll(async () => (await chartColours('chart-logins')).tick).toBe(light.tick);
      }
    }

    // the panel: today's figures, each card a way to its screen
    await page.setViewportSize(viewports.desktop);
    await openInApp(page, '/dashboard/panel');
    const cabinets = page.getByTestId('panel-cabinets');
    await expect.poll(() => cabinets.textContent()).toContain('130');
    expect(await page.getByTestId('panel-attendanceToday').textContent()).toContain('197');
    await shot('dashboard-panel-ja-JP-1440', viewports.desktop.width);
    await page.setViewportSize(viewports.desktop);
    await cabinets.getByRole('link').click();
    await page.waitForURL((url) => url.pathname === '/device/cabinet');
  }, 60_000);
});
