import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPath } from '@isps/contract';
import { text } from './catalogues.ts';
import { ADMIN_PASSWORD, api, launchBrowser, newContext, passSliderCaptcha, screenshot, startServer, type RunningServer } from './harness.ts';
import { SHELL_MARK } from '../apps/web/src/features/user/login-shell.ts';

const NEW_PASSWORD = 'Changed#Pass2';
const en = (key: Parameters<typeof text>[1], params?: Record<string, string>) => text('en-US', key, params);

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function fillLogin(page: Page, username: string, password: string) {
  await page.getByLabel(en('login.username'), { exact: true }).fill(username);
  await page.getByLabel(en('login.password'), { exact: true }).fill(password);
  await passSliderCaptcha(page);
  // After a failed attempt antd may still be fading out the button's spinner, whose label ('loading') then leads
  // the button's accessible name for a moment: the person clicks the button that reads 'Login' either way.
  await page.getByRole('button', { name: new RegExp(`${en('login.submit')}$`) }).click();
}

async function storedToken(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const raw = window.localStorage.getItem('pro__Access-Token');
    return raw ? (JSON.parse(raw) as { value: string }).value : null;
  });
}

describe('signing in, the first password change, deep links and signing out', () => {
  it('walks the whole session life cycle like a person', async () => {
    const context = await newContext(browser, { lang: 'en-US' });
    const page = await context.newPage();

    // Without a token every page leads to the login page, remembering where the person wanted to go.
    await page.goto(`${server.url}/`);
    await page.waitForURL(/\/user\/login\?redirect=/);
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/dashboard/analysis');
    // LOGIN_CAPTCHA=off: once the server has said so, the page asks for no captcha
    await expect.poll(() => page.getByRole('textbox', { name: en('login.captcha') }).count()).toBe(0);

    // A wrong password gets the server's own message and keeps the person on the login page.
    await fillLogin(page, 'admin', 'Wrong#Pass9');
    await expect.poll(() => page.getByText('The user name or password is wrong').count()).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe('/user/login');

    // The first login with the initial password demands a new one before anything else.
    await fillLogin(page, 'admin', ADMIN_PASSWORD);
    const dialog = page.getByRole('dialog');
    await dialog.getByText(en('password.mustChange')).waitFor();
    await dialog.getByLabel(en('password.old')).fill(ADMIN_PASSWORD);
    await dialog.getByLabel(en('password.new'), { exact: true }).fill(NEW_PASSWORD);
    await dialog.getByLabel(en('password.confirm')).fill('Different#Pass3');
    await dialog.getByRole('button', { name: en('common.ok') }).click();
    await dialog.getByText(en('password.mismatch')).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByLabel(en('password.confirm')).fill(NEW_PASSWORD);
    await dialog.getByRole('button', { name: en('common.ok') }).click();
    await page.waitForURL(/\/user\/login/);
    await expect.poll(() => storedToken(page)).toBeNull();

    // Logging in with the new password shows the menu and the home page.
    await fillLogin(page, 'admin', NEW_PASSWORD);
    await page.waitForURL(/\/dashboard\/analysis$/);
    await page.getByRole('menuitem', { name: en('menu.dashboard.clock') }).waitFor();
    await page.getByRole('menuitem', { name: en('menu.dashboard.analysis') }).waitFor();
    expect(await page.title()).toBe(`${en('menu.dashboard.analysis')} - ${en('app.productName')}`);

    // The menu navigates inside the console.
    await page.getByRole('menuitem', { name: en('menu.dashboard.clock') }).click();
    await page.waitForURL(/\/dashboard\/clock$/);

    // The signed-in administrator reads the API documentation with the console's session.
    await page.goto(`${server.url}/api/docs`);
    // The title comes from the API description itself, which the server only gives to a signed-in administrator.
    await page.getByRole('heading', { name: /ISPS Console API/ }).waitFor();
    await page.goto(`${server.url}/dashboard/clock`);
    await page.getByRole('button', { name: en('header.userMenu') }).waitFor();

    // Logging out asks first; cancelling keeps the session.
    const token = await storedToken(page);
    expect(token).toBeTruthy();
    await page.getByRole('button', { name: en('header.userMenu') }).click();
    await page.getByRole('menuitem', { name: en('header.logout') }).click();
    await page.getByText(en('header.logoutConfirm')).waitFor();
    await page.getByRole('button', { name: en('common.cancel') }).click();
    // the confirmation has closed (its closing animation no longer covers the header) and the session stays
    await page.getByText(en('header.logoutConfirm')).waitFor({ state: 'hidden' });
    await expect.poll(() => page.locator('.ant-modal-wrap >> visible=true').count()).toBe(0);
    expect(await storedToken(page)).toBe(token);
    await page.getByRole('button', { name: en('header.userMenu') }).click();
    await page.getByRole('menuitem', { name: en('header.logout') }).click();
    // The console leaves for the login page at once and tells the server in the background: the check below waits
    // for the server's answer, not only for the page.
    const loggedOut = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith(ApiPath.logout));
    await page.getByRole('button', { name: en('common.ok') }).click();
    await page.waitForURL(/\/user\/login/);
    await expect.poll(() => storedToken(page)).toBeNull();
    expect((await loggedOut).status()).toBe(200);

    // The server revoked the old token.
    const { status, body } = await api(server, 'GET', '/sys/permission/getUserPermissionByToken', { token: token! });
    expect(status).toBe(401);
    expect(body.code).toBe(401);

    // A deep link opened while logged out lands there after login.
    await page.goto(`${server.url}/dashboard/clock?tab=1`);
    await page.waitForURL(/\/user\/login\?redirect=/);
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/dashboard/clock?tab=1');
    await fillLogin(page, 'admin', NEW_PASSWORD);
    await page.waitForURL(/\/dashboard\/clock\?tab=1$/);

    // With a token the login page sends the person home; an unknown page shows the 404 page.
    await page.goto(`${server.url}/user/login`);
    await page.waitForURL(/\/dashboard\/analysis$/);
    await page.goto(`${server.url}/no/such/page`);
    await page.getByText(en('exception.404')).waitFor();
    await screenshot(page, 'not-found-en-US-desktop');
    await context.close();
  });
});

describe('the login page of a first visit', () => {
  it('shows before the console script has run, keeps what was typed, and sends a submit made before the console once it is there', async () => {
    const context = await newContext(browser, { lang: 'ja-JP' });
    // the console's script is held back until released, as on a slow line
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await context.route(/\/assets\/index-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    const sent: string[] = [];
    const consoleScripts: string[] = [];
    context.on('request', (request) => {
      if (request.url().includes('/api/')) sent.push(request.url());
      if (/\/assets\/index-[^/]*\.js$/.test(request.url())) consoleScripts.push(new URL(request.frame().url()).pathname);
    });
    const ja = (key: Parameters<typeof text>[1]) => text('ja-JP', key);

    // any other address waits for the console
    const other = await context.newPage();
    await other.goto(`${server.url}/dashboard/analysis`, { waitUntil: 'commit' });
    // parsed (the held module script keeps DOMContentLoaded back)
    await other.waitForFunction(() => document.readyState !== 'loading');
    expect(await other.locator('#root').innerHTML()).toBe('');
    // there the console's script was asked for at once, by the head's first script
    expect(consoleScripts).toEqual(['/dashboard/analysis']);
    expect(await other.locator('head link[rel=modulepreload][href^="/assets/index-"]').count()).toBe(1);
    await other.close();

    const page = await context.newPage();
    await page.goto(`${server.url}/user/login`, { waitUntil: 'commit' });
    const username = page.getByLabel(ja('login.username'), { exact: true });
    const password = page.getByLabel(ja('login.password'), { exact: true });
    await password.waitFor();
    expect(await page.locator('#root').getAttribute(SHELL_MARK)).toBe('');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ja-JP');
    expect(await page.locator('footer').textContent()).toContain(String(new Date().getFullYear()));
    // the drawn page does not start the console's script (the page's longest work) while no one uses it
    expect(await page.locator('head link[rel=modulepreload][href^="/assets/index-"]').count()).toBe(0);
    await page.waitForTimeout(400);
    expect(consoleScripts).toEqual(['/dashboard/analysis']);
    // the caret is in the user name, as on the console's page; Enter sends nothing before the console is there
    await page.keyboard.type('admin');
    await expect.poll(() => consoleScripts).toEqual(['/dashboard/analysis', '/user/login']);
    await password.click();
    await page.keyboard.type('Secret#9');
    // LOGIN_CAPTCHA=off: the drawn page asks for no captcha either, once the server has said so
    await expect.poll(() => page.locator('input[name=captcha]').isVisible()).toBe(false);
    // Enter before the console is there is held (the button shows busy), not dropped and not sent in the address
    await page.keyboard.press('Enter');
    expect(new URL(page.url()).search).toBe('');
    expect(await page.locator('button[type=submit]').getAttribute('aria-busy')).toBe('true');
    expect(sent.filter((url) => url.includes('/sys/login'))).toEqual([]);

    release();
    // the console sends it once it has drawn the page, with what was typed, and tells the person the answer
    await page.getByText(ja('login.failed')).first().waitFor();
    expect(sent.filter((url) => url.includes('/sys/login')), sent.join(' ')).toHaveLength(1);
    expect(await page.locator('#root').getAttribute(SHELL_MARK)).toBeNull();
    expect(await username.inputValue()).toBe('admin');
    expect(await password.inputValue()).toBe('Secret#9');

    // a visitor who only looks gets the console too, a second after the page shows
    const idle = await context.newPage();
    await idle.goto(`${server.url}/user/login`);
    await idle.locator(`#root:not([${SHELL_MARK}]) input[name=password]`).waitFor({ timeout: 5000 });
    expect(consoleScripts).toHaveLength(3);
    await context.close();
  });
});
