import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text, type UiLanguage } from './catalogues.ts';
import { ADMIN_PASSWORD, animationsSettled, changeAdminPassword, launchBrowser, newContext, screenshot, startServer, type RunningServer } from './harness.ts';
import { signIn, writeSettings } from './shell-support.ts';

const PASSWORD = 'Layout#Pass5';
const languages: UiLanguage[] = ['zh-CN', 'en-US'];

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

describe.each(languages)('the layout in %s', (lang) => {
  const t = (key: Parameters<typeof text>[1]) => text(lang, key);

  it.each(['desktop', 'mobile'] as const)('on %s: both menu modes, dark and light navigation', async (viewport) => {
    // with animations, as most people see the console
    const context = await newContext(browser, { lang, viewport, motion: true });
    const page = await context.newPage();
    await signIn(page, server.url, lang, PASSWORD);
    for (const layoutMode of ['sidemenu', 'topmenu'] as const) {
      for (const navTheme of ['dark', 'light'] as const) {
        await writeSettings(page, { layoutMode, navTheme });
        await page.reload();
        await page.getByRole('button', { name: t('header.userMenu') }).waitFor();
        await page.getByText(t('dashboard.userCount'), { exact: true }).first().waitFor();
        await page.waitForLoadState('networkidle');
        // One brand per screen: the product name is not drawn twice.
        const brands = await page.getByText(t('app.productName'), { exact: true }).filter({ visible: true }).count();
        expect(brands, `${layoutMode} ${navTheme}`).toBeLessThanOrEqual(1);
        if (viewport === 'desktop') {
          // The welcome text of the time of day names the person.
          await expect.poll(() => page.getByRole('button', { name: t('header.userMenu') }).innerText()).toMatch(/admin|Administrator|管理员/i);
        }
        await screenshot(page, `shell-${layoutMode}-${navTheme}-${lang}-${viewport}`);
        if (viewport === 'mobile') {
          // In both menu modes a phone reaches the menu through the drawer.
          const clock = page.getByRole('menuitem', { name: t('menu.dashboard.clock') });
          await page.getByRole('button', { name: t('header.menu') }).click();
          // the drawer may open with the dashboard group folded, as a person would find it: unfold it
          await page.waitForTimeout(400);
          if (!(await clock.isVisible())) await page.getByRole('menuitem', { name: t('menu.dashboard') }).first().click();
          await expect.poll(() => clock.isVisible()).toBe(true);
          await page.waitForTimeout(400); // the drawer's slide-in
          await screenshot(page, `shell-${layoutMode}-${navTheme}-${lang}-mobile-drawer`);
        }
      }
    }
    await context.close();
  });
});

describe('the mobile drawer at 375 px', () => {
  it('opens from the header, navigates and closes again; the menu search is a dialog', async () => {
    const lang = 'en-US';
    const t = (key: Parameters<typeof text>[1]) => text(lang, key);
    const context = await newContext(browser, { lang, viewport: 'mobile', motion: true });
    const page = await context.newPage();
    await signIn(page, server.url, lang, PASSWORD);
    const clock = page.getByRole('menuitem', { name: t('menu.dashboard.clock') });
    await expect.poll(() => clock.isVisible()).toBe(false);
    await page.getByRole('button', { name: t('header.menu') }).click();
    await expect.poll(() => clock.isVisible()).toBe(true);
    await clock.click();
    await page.waitForURL(/\/dashboard\/clock$/);
    await expect.poll(() => clock.isVisible()).toBe(false);
    // No tabs on a phone.
    expect(await page.getByRole('navigation', { name: t('tabs.label') }).count()).toBe(0);

    await page.getByRole('button', { name: t('header.menuSearch') }).click();
    const dialog = page.getByRole('dialog', { name: t('header.menuSearch') });
    await dialog.getByRole('combobox').fill(t('menu.dashboard.analysis'));
    await page.getByRole('option', { name: new RegExp(t('menu.dashboard.analysis')) }).click();
    await page.waitForURL(/\/dashboard\/analysis$/);
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await context.close();
  });
});

describe('motion', () => {
  it('animates by default and not when the system asks for reduced motion', async () => {
    const lang = 'en-US';
    const moving: number[] = [];
    for (const motion of [true, false]) {
      const context = await newContext(browser, { lang, motion });
      const page = await context.newPage();
      await signIn(page, server.url, lang, PASSWORD);
      await animationsSettled(page);
      // the settings drawer slides in: the most finite animations running at once in the frames after the click
      const settings = page.getByRole('button', { name: text(lang, 'header.systemSettings') });
      moving.push(
        await settings.evaluate(async (button) => {
          const finite = () => document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity).length;
          (button as HTMLElement).click();
          let most = 0;
          for (let frame = 0; frame < 40; frame += 1) {
            await new Promise((r) => requestAnimationFrame(r));
            most = Math.max(most, finite());
          }
          return most;
        }),
      );
      await page.getByText(text(lang, 'settings.title')).first().waitFor();
      await context.close();
    }
    expect(moving[0]).toBeGreaterThan(0);
    expect(moving[1]).toBe(0);
  });
});
