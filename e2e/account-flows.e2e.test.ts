import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text, type UiLanguage } from './catalogues.ts';
import { launchBrowser, newContext, screenshot, startServer, type RunningServer } from './harness.ts';

const en = (key: Parameters<typeof text>[1], params?: Record<string, string>) => text('en-US', key, params);

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  // the log SMS provider writes codes at info level; the test reads them like an operator would
  server = await startServer({ LOG_LEVEL: 'info' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The latest code the log SMS provider wrote for the phone. */
async function smsCodeFor(phone: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(() => {
      const matches = [...server.output().matchAll(new RegExp(`"phone":"${phone}","code":"(\\d{6})"`, 'g'))];
      code = matches.at(-1)?.[1];
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code as string;
}

/** A legal 18-character ID card number with the GB 11643 check character. */
function idCard(sequence: number): string {
  const body = `11010519850214${String(sequence).padStart(3, '0')}`;
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  return body + '10X98765432'[weights.reduce((acc, w, i) => acc + w * Number(body[i]), 0) % 11];
}

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
}

describe('account pages', () => {
  it('registers, shows the result and logs the new user in', async () => {
    const context = await newContext(browser, { lang: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${server.url}/user/login`);
    await page.getByRole('link', { name: en('login.register') }).click();
    await page.waitForURL(/\/user\/register$/);

    // a taken user name is refused with the spec's message as soon as the field is left
    await page.getByLabel(en('register.username'), { exact: true }).fill('admin');
    await page.getByLabel(en('register.password'), { exact: true }).click();
    await page.getByText('User name already exists!').waitFor();
    await page.getByLabel(en('register.username'), { exact: true }).fill('walker');
    await page.getByLabel(en('register.password'), { exact: true }).fill('abc');
    await page.getByText(en('register.strength', { level: en('register.strengthLow') })).waitFor();
    await page.getByLabel(en('register.password'), { exact: true }).fill('Walker#Pass2024');
    await page.getByText(en('register.strength', { level: en('register.strengthHigh') })).waitFor();
    await page.getByLabel(en('register.confirmPassword'), { exact: true }).fill('Walker#Pass2024');
    await page.getByLabel(en('register.email'), { exact: true }).fill('walker@example.com');
    await page.getByLabel(en('register.phone'), { exact: true }).fill('13700000001');
    await page.getByRole('button', { name: en('register.sendCode') }).click();
    await page.getByLabel(en('register.smsCode'), { exact: true }).fill(await smsCodeFor('13700000001'));
    await page.getByRole('button', { name: en('register.submit'), exact: true }).click();

    await page.waitForURL(/\/user\/register-result\?username=walker/);
    await page.getByText(en('registerResult.title', { username: 'walker' })).waitFor();
    await page.getByRole('button', { name: en('registerResult.toLogin') }).click();
    await page.waitForURL(/\/user\/login/);
    await page.getByLabel(en('login.username'), { exact: true }).fill('walker');
    await page.getByLabel(en('login.password'), { exact: true }).fill('Walker#Pass2024');
    await page.getByLabel(en('login.captcha'), { exact: true }).fill('abcd');
    await page.getByRole('button', { name: en('login.submit'), exact: true }).click();
    await page.waitForURL(/\/dashboard\/analysis$/);
    await context.close();
  });

  it('resets a password in four steps with the code from the server log', async () => {
    const context = await newContext(browser, { lang: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${server.url}/user/login`);
    await page.getByRole('link', { name: en('login.forgotPassword') }).click();
    await page.waitForURL(/\/user\/alteration$/);

    await page.getByLabel(en('reset.username'), { exact: true }).fill('nobody');
    await page.getByRole('button', { name: en('reset.next') }).click();
    await page.getByText('Account dose not exist!').waitFor();

    await page.getByLabel(en('reset.username'), { exact: true }).fill('walker');
    await page.getByRole('button', { name: en('reset.next') }).click();
    await page.getByText(en('reset.codeTarget', { phone: '137****0001' })).first().waitFor();
    // the registration code went out less than a minute ago for another purpose; the reset code is separate
    await page.getByRole('button', { name: en('register.sendCode') }).click();
    await expect.poll(() => (server.output().match(/"phone":"13700000001"/g) ?? []).length).toBeGreaterThanOrEqual(2);
    await page.getByLabel(en('reset.code'), { exact: true }).fill(await smsCodeFor('13700000001'));
    await page.getByRole('button', { name: en('reset.next') }).click();

    await page.getByLabel(en('reset.newPassword'), { exact: true }).fill('Walker#Renewed9');
    await page.getByLabel(en('reset.confirmPassword'), { exact: true }).fill('Walker#Renewed9');
    await page.getByRole('button', { name: en('reset.submit') }).click();
    await page.getByText(en('reset.doneTitle')).waitFor();

    const login = await fetch(`${server.url}/api/sys/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'walker', password: 'Walker#Renewed9' }),
    }).then((r) => r.json() as Promise<{ success: boolean }>);
    expect(login.success).toBe(true);
    await context.close();
  });
});

describe('visitor area', () => {
  it('sends visitor main without a visitor token to the visitor login', async () => {
    const context = await newContext(browser, { lang: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${server.url}/vistor/user/main`);
    await page.waitForURL(/\/vistor\/login$/);
    await page.getByRole('heading', { name: en('app.productName') }).waitFor();
    await context.close();
  });

  it('registers a visitor, logs in and shows the visitor main page', async () => {
    const context = await newContext(browser, { lang: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${server.url}/vistor/login`);
    await page.getByRole('link', { name: en('visitor.toRegister') }).click();
    await page.waitForURL(/\/vistor\/reg$/);
    await page.getByLabel(en('visitor.name'), { exact: true }).fill('Li Na');
    await page.getByLabel(en('visitor.idCard'), { exact: true }).fill('110105198502140000');
    await page.getByLabel(en('visitor.phone'), { exact: true }).click();
    await page.getByText(en('visitor.idCardInvalid')).waitFor();
    await page.getByLabel(en('visitor.idCard'), { exact: true }).fill(idCard(3));
    await page.getByLabel(en('visitor.phone'), { exact: true }).fill('13500000001');
    await page.getByLabel(en('visitor.password'), { exact: true }).fill('20250101');
    await page.getByLabel(en('visitor.confirmPassword'), { exact: true }).fill('20250101');
    await page.getByRole('button', { name: en('visitor.regSubmit') }).click();
    await page.waitForURL(/\/vistor\/login$/);

    // staff credentials are no visitor credentials
    await page.getByLabel(en('visitor.account'), { exact: true }).fill('walker');
    await page.getByLabel(en('visitor.password'), { exact: true }).fill('Walker#Renewed9');
    await page.getByRole('button', { name: en('visitor.loginSubmit') }).click();
    await page.getByText('The phone number or password is wrong').waitFor();

    await page.getByLabel(en('visitor.account'), { exact: true }).fill('13500000001');
    await page.getByLabel(en('visitor.password'), { exact: true }).fill('20250101');
    await page.getByRole('button', { name: en('visitor.loginSubmit') }).click();
    await page.waitForURL(/\/vistor\/user\/main$/);
    await page.getByText(en('visitor.welcome', { name: 'Li Na' })).waitFor();
    // the visitor token is no staff session: the console itself still asks for a login
    await page.goto(`${server.url}/dashboard/analysis`);
    await page.waitForURL(/\/user\/login\?redirect=/);
    await page.goto(`${server.url}/vistor/user/main`);
    await page.getByText(en('visitor.welcome', { name: 'Li Na' })).waitFor();
    await page.getByRole('button', { name: en('visitor.logout') }).click();
    await page.waitForURL(/\/vistor\/login$/);
    await context.close();
  });
});

describe('screenshots of the account and visitor pages', () => {
  const pages: { name: string; path: string; ready: (lang: UiLanguage) => string; visitor?: boolean }[] = [
    { name: 'register', path: '/user/register', ready: (l) => text(l, 'register.heading') },
    { name: 'register-result', path: '/user/register-result?username=walker', ready: (l) => text(l, 'registerResult.toLogin') },
    { name: 'alteration', path: '/user/alteration', ready: (l) => text(l, 'reset.stepVerify') },
    { name: 'apilogin', path: '/user/apilogin', ready: (l) => text(l, 'apilogin.noTicket') },
    { name: 'active', path: '/user/active', ready: (l) => text(l, 'active.heading') },
    { name: 'vistor-login', path: '/vistor/login', ready: (l) => text(l, 'visitor.toRegister') },
    { name: 'vistor-reg', path: '/vistor/reg', ready: (l) => text(l, 'visitor.toLogin') },
    { name: 'vistor-panel', path: '/vistor/panel', ready: (l) => text(l, 'visitor.panelDescription') },
    { name: 'vistor-main', path: '/vistor/user/main', ready: (l) => text(l, 'visitor.logout'), visitor: true },
  ];

  it('captures each page in zh-CN and en-US, desktop and 375 px', async () => {
    const login = await fetch(`${server.url}/api/vistor/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: '13500000001', password: '20250101' }),
    }).then((r) => r.json() as Promise<{ result: { token: string; visitor: unknown } }>);
    for (const lang of ['zh-CN', 'en-US'] as const) {
      for (const viewport of ['desktop', 'mobile'] as const) {
        const context = await newContext(browser, { lang, viewport });
        await context.addInitScript((session) => {
          window.localStorage.setItem('pro__Visitor-Token', JSON.stringify({ value: session.token, expire: null }));
          window.localStorage.setItem('pro__Visitor-Info', JSON.stringify({ value: session.visitor, expire: null }));
        }, login.result);
        const page = await context.newPage();
        for (const entry of pages) {
          await page.goto(`${server.url}${entry.path}`);
          await page.getByText(entry.ready(lang)).first().waitFor();
          await settle(page);
          await screenshot(page, `${entry.name}-${lang}-${viewport}`);
        }
        await context.close();
      }
    }
  }, 180_000);
});
