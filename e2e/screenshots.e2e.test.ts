import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogues, text, type UiLanguage } from './catalogues.ts';
import { ADMIN_PASSWORD, changeAdminPassword, launchBrowser, newContext, passSliderCaptcha, screenshot, startServer, type RunningServer } from './harness.ts';

const PASSWORD = 'Shots#Pass4';
const languages = Object.keys(catalogues) as UiLanguage[];

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

describe.each(languages)('login and home in %s', (lang) => {
  it.each(['desktop', 'mobile'] as const)('on %s: translated, and captured as screenshots', async (viewport) => {
    const t = (key: Parameters<typeof text>[1]) => text(lang, key);
    const context = await newContext(browser, { lang, viewport });
    const page = await context.newPage();
    await page.goto(`${server.url}/user/login`);
    await page.getByRole('img', { name: t('login.captchaImage') }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    await screenshot(page, `login-${lang}-${viewport}`);

    await page.getByLabel(t('login.username'), { exact: true }).fill('admin');
    await page.getByLabel(t('login.password'), { exact: true }).fill(PASSWORD);
    await page.getByLabel(t('login.captcha'), { exact: true }).fill('abcd');
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
    await context.close();
  });
});
