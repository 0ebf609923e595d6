import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode, totpStep } from '../apps/server/src/modules/account/totp.ts';
import { translate } from '../packages/contract/src/index.ts';
import { text, type UiLanguage } from './catalogues.ts';
import { animationsSettled, launchBrowser, newContext, passSliderCaptcha, responseTo, screenshot, startServer, type RunningServer } from './harness.ts';

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

/**
 * The visible form's submit button. After a refused attempt antd may still be fading out the spinner, whose label
 * ('loading') then leads the accessible name for a moment.
 */
const submitButton = (page: Page, lang: UiLanguage) => page.getByRole('button', { name: new RegExp(`${text(lang, 'login.submit')}$`) }).filter({ visible: true });

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
    await passSliderCaptcha(page);
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

describe('login by phone and two-step verification', () => {
  it('asks for the slider on the account form: refused until dragged, a jump does not count, a failed login resets it', async () => {
    const context = await newContext(browser, { lang: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${server.url}/user/login`);
    await page.getByLabel(en('login.username'), { exact: true }).fill('walker');
    await page.getByLabel(en('login.password'), { exact: true }).fill('Wrong#Pass000');
    await page.getByLabel(en('login.captcha'), { exact: true }).fill('abcd');
    const submit = submitButton(page, 'en-US');
    await submit.click();
    await page.getByText(en('sliderCaptcha.required')).waitFor();
    const slider = page.getByRole('slider', { name: en('sliderCaptcha.label') });
    expect(await slider.getAttribute('aria-valuenow')).toBe('0');

    // pressed and released at the end without moving like a hand: the handle goes back
    const track = (await page.getByTestId('slider-captcha').boundingBox())!;
    const handle = (await slider.boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(track.x + track.width + 5, handle.y + handle.height / 2);
    await page.mouse.up();
    await expect.poll(() => slider.getAttribute('aria-valuenow')).toBe('0');

    await passSliderCaptcha(page);
    await page.getByText(en('sliderCaptcha.passed')).waitFor();
    await submit.click();
    await page.getByText(translate('en-US', 'login.wrongCredentials')).first().waitFor();
    // a new attempt, a new check
    await expect.poll(() => slider.getAttribute('aria-valuenow')).toBe('0');
    await context.close();
  });

  it('logs in with a phone number and an SMS code: bad input is explained, the code button counts down', async () => {
    const context = await newContext(browser, { lang: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${server.url}/user/login`);
    await page.getByRole('tab', { name: en('login.tabPhone') }).click();
    const phone = page.getByLabel(en('login.phone'), { exact: true });
    await submitButton(page, 'en-US').click();
    await page.getByText(en('login.phoneRequired')).waitFor();
    await phone.fill('12345');
    await page.getByRole('button', { name: en('register.sendCode') }).click();
    await page.getByText(en('register.phoneInvalid')).waitFor();

    await phone.fill('13700000001');
    // the error under the field folds away first; the button moves up with it
    await page.getByText(en('register.phoneInvalid')).waitFor({ state: 'hidden' });
    await animationsSettled(page);
    const codesBefore = (server.output().match(/"phone":"13700000001"/g) ?? []).length;
    const sent = responseTo(page, (r) => r.url().includes('/api/sys/sms'));
    await page.getByRole('button', { name: en('register.sendCode') }).click();
    expect(await (await sent).json()).toMatchObject({ success: true });
    await expect.poll(() => (server.output().match(/"phone":"13700000001"/g) ?? []).length).toBeGreaterThan(codesBefore);
    const code = await smsCodeFor('13700000001');
    // the button waits a minute before the next code
    // (antd may still be fading out the sending spinner, whose label then leads the name)
    const countdown = page.getByRole('button', { name: /\d+ s$/ });
    await countdown.waitFor();
    expect(await countdown.isDisabled()).toBe(true);
    const seconds = Number((await countdown.innerText()).replace(/\D/g, ''));
    expect(seconds).toBeGreaterThan(50);
    expect(seconds).toBeLessThanOrEqual(60);

    const smsCode = page.getByLabel(en('register.smsCode'), { exact: true });
    await smsCode.fill('12');
    await submitButton(page, 'en-US').click();
    await page.getByText(en('register.smsCodeRequired')).waitFor();
    await smsCode.fill(code === '000000' ? '111111' : '000000');
    await submitButton(page, 'en-US').click();
    await page.getByText(translate('en-US', 'sms.codeWrong')).first().waitFor();
    await screenshot(page, 'login-phone-error-en-US-desktop');

    await smsCode.fill(code);
    await submitButton(page, 'en-US').click();
    await page.waitForURL(/\/dashboard\/analysis$/);
    await context.close();
  });

  it('turns two-step verification on from the user menu, asks for it at login, and turns it off', { timeout: 120_000 }, async () => {
    const context = await newContext(browser, { lang: 'en-US' });
    const page = await context.newPage();
    const passwordLogin = async () => {
      await page.goto(`${server.url}/user/login`);
      await page.getByLabel(en('login.username'), { exact: true }).fill('walker');
      await page.getByLabel(en('login.password'), { exact: true }).fill('Walker#Renewed9');
      await page.getByLabel(en('login.captcha'), { exact: true }).fill('abcd');
      await passSliderCaptcha(page);
      await submitButton(page, 'en-US').click();
    };
    const openDialog = async () => {
      await page.getByRole('button', { name: en('header.userMenu') }).click();
      await page.getByRole('menuitem', { name: en('header.twoFactor') }).click();
      const found = page.getByRole('dialog', { name: en('twoFactorDialog.title') });
      await found.waitFor();
      // a click while the dialog still zooms in can land on the mask, which closes it
      await animationsSettled(page);
      return found;
    };
    await passwordLogin();
    await page.waitForURL(/\/dashboard\/analysis$/);

    let dialog = await openDialog();
    await dialog.getByText(en('twoFactorDialog.off')).waitFor();
    await dialog.getByRole('button', { name: en('twoFactorDialog.setUp') }).click();
    const secretText = await dialog.getByTestId('two-factor-secret').innerText();
    const secret = secretText.replace(en('login.secondFactorSecret', { secret: '' }), '').trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(await dialog.locator('canvas, svg').count()).toBeGreaterThan(0);
    const code = dialog.getByLabel(en('login.secondFactorCode'));
    await code.fill('12a');
    await dialog.getByRole('button', { name: en('twoFactorDialog.enable') }).click();
    await dialog.getByText(en('login.secondFactorCodeRequired')).waitFor();
    const wrong = totpCode(secret, Date.now()) === '123456' ? '654321' : '123456';
    await code.fill(wrong);
    await dialog.getByRole('button', { name: en('twoFactorDialog.enable') }).click();
    await page.getByText(translate('en-US', 'twoFactor.codeWrong')).first().waitFor();

    // a code is good once: each later use takes the next 30 s step (the server accepts one step ahead)
    let usedStep = totpStep(Date.now());
    await code.fill(totpCode(secret, usedStep * 30_000));
    await dialog.getByRole('button', { name: en('twoFactorDialog.enable') }).click();
    await dialog.getByText(en('twoFactorDialog.on')).waitFor();
    await page.getByText(translate('en-US', 'twoFactor.enrolled')).first().waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // the password alone no longer signs walker in
    await page.evaluate(() => window.localStorage.clear());
    await passwordLogin();
    const secondStep = page.getByLabel(en('login.secondFactorCode'), { exact: true });
    await secondStep.waitFor();
    const nextCode = async () => {
      // wait until the step after the last used one is at most one step ahead of now
      await expect.poll(() => totpStep(Date.now()) + 1, { timeout: 40_000, interval: 500 }).toBeGreaterThan(usedStep);
      usedStep += 1;
      return totpCode(secret, usedStep * 30_000);
    };
    await secondStep.fill(await nextCode());
    await page.getByRole('button', { name: en('login.secondFactorSubmit') }).click();
    await page.waitForURL(/\/dashboard\/analysis$/);

    dialog = await openDialog();
    await dialog.getByText(en('twoFactorDialog.on')).waitFor();
    await dialog.getByLabel(en('login.secondFactorCode')).fill(wrong === totpCode(secret, Date.now()) ? '000000' : wrong);
    await dialog.getByRole('button', { name: en('twoFactorDialog.disable') }).click();
    await page.getByText(translate('en-US', 'twoFactor.codeWrong')).first().waitFor();
    await dialog.getByLabel(en('login.secondFactorCode')).fill(await nextCode());
    await dialog.getByRole('button', { name: en('twoFactorDialog.disable') }).click();
    await dialog.getByText(en('twoFactorDialog.off')).waitFor();
    await page.getByText(translate('en-US', 'twoFactor.disabled')).first().waitFor();
    await context.close();

    // and the password alone is enough again
    const login = await fetch(`${server.url}/api/sys/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'walker', password: 'Walker#Renewed9' }),
    }).then((r) => r.json() as Promise<{ success: boolean; result: { token?: string } }>);
    expect(login.result.token).toBeTruthy();
  });

  it('screenshots: the phone login tab and the two-step dialog in zh-CN and en-US, desktop and 375 px', { timeout: 180_000 }, async () => {
    for (const lang of ['zh-CN', 'en-US'] as const) {
      for (const viewport of ['desktop', 'mobile'] as const) {
        const context = await newContext(browser, { lang, viewport });
        const page = await context.newPage();
        await page.goto(`${server.url}/user/login`);
        await page.getByRole('tab', { name: text(lang, 'login.tabPhone') }).click();
        await page.getByLabel(text(lang, 'login.phone'), { exact: true }).waitFor();
        await settle(page);
        await screenshot(page, `login-phone-${lang}-${viewport}`);

        await page.getByRole('tab', { name: text(lang, 'login.tabAccount') }).click();
        await page.getByLabel(text(lang, 'login.username'), { exact: true }).fill('walker');
        await page.getByLabel(text(lang, 'login.password'), { exact: true }).fill('Walker#Renewed9');
        await page.getByLabel(text(lang, 'login.captcha'), { exact: true }).fill('abcd');
        await passSliderCaptcha(page);
        await settle(page);
        await screenshot(page, `login-slider-${lang}-${viewport}`);
        await submitButton(page, lang).click();
        await page.waitForURL(/\/dashboard\/analysis$/);
        await page.getByRole('button', { name: text(lang, 'header.userMenu') }).click();
        await page.getByRole('menuitem', { name: text(lang, 'header.twoFactor') }).click();
        const dialog = page.getByRole('dialog', { name: text(lang, 'twoFactorDialog.title') });
        await dialog.waitFor();
        await animationsSettled(page);
        await dialog.getByRole('button', { name: text(lang, 'twoFactorDialog.setUp') }).click();
        await dialog.getByTestId('two-factor-secret').waitFor();
        await settle(page);
        await screenshot(page, `two-factor-dialog-${lang}-${viewport}`);
        await context.close();
      }
    }
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
