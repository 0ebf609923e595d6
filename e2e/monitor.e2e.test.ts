import { connect } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../packages/contract/src/index.ts';
import { text, type UiLanguage } from './catalogues.ts';
import { openInApp, openSignedIn } from './crud-page.ts';
import { adminSessionOn, launchBrowser, screenshot, signedInState, startServer, viewports, type AdminSession, type SignedInState } from './harness.ts';

// The seven monitoring screens of a system administrator, on a server with Redis and on one without.
const PASSWORD = 'Monitor#E2e1';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SCREENS = ['disk', 'httpTrace', 'jvm', 'tomcat', 'server', 'redis', 'redisTerminal'] as const;
type Screen = (typeof SCREENS)[number];

/** Redis answers on its port; with CI=true a missing one fails the run. */
async function redisUp(): Promise<boolean> {
  const url = new URL(REDIS_URL);
  const up = await new Promise<boolean>((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port || 6379) });
    socket.setTimeout(1500, () => (socket.destroy(), resolve(false)));
    socket.once('connect', () => (socket.end(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
  if (!up && process.env.CI === 'true') throw new Error(`Redis is not reachable at ${REDIS_URL} and CI=true`);
  return up;
}

let browser: Browser;
const contexts: BrowserContext[] = [];
const sessions: AdminSession[] = [];
let withRedis: { session: AdminSession; signedIn: SignedInState } | null = null;
let withoutRedis: { session: AdminSession; signedIn: SignedInState };

beforeAll(async () => {
  const redis = await redisUp();
  const [plain, linked] = await Promise.all([
    startServer().then((server) => adminSessionOn(server, PASSWORD)),
    redis ? startServer({ REDIS_URL }).then((server) => adminSessionOn(server, PASSWORD)) : Promise.resolve(null),
    launchBrowser().then((b) => void (browser = b)),
  ]);
  sessions.push(plain, ...(linked ? [linked] : []));
  withoutRedis = { session: plain, signedIn: await signedInState(plain.server, 'admin', PASSWORD) };
  if (linked) withRedis = { session: linked, signedIn: await signedInState(linked.server, 'admin', PASSWORD) };
}, 90_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  for (const session of sessions) await session.server.stop();
});

const shot = (page: Page, screen: Screen, lang: UiLanguage, viewport: keyof typeof viewports, redis: boolean) =>
  screenshot(page, `monitor-${screen}-${redis ? 'redis' : 'no-redis'}-${lang}-${viewport === 'desktop' ? 1440 : 375}`);

/** The header's language menu: the console loads again in the chosen language, on the screen it was on. */
async function switchLanguage(page: Page, from: UiLanguage, to: UiLanguage) {
  await page.getByRole('button', { name: text(from, 'language.switch') }).click();
  await page.getByRole('menuitem', { name: text(to, `language.${to}` as const) }).click();
  await page.getByRole('button', { name: text(to, 'language.switch') }).waitFor();
}

/**
 * Each screen, moving inside the console, in each language and window size of `legs` in turn (one signed-in page: a
 * language is chosen in the header, a size is the window's); what it must show, then its picture.
 */
async function tour(target: { session: AdminSession; signedIn: SignedInState }, redis: boolean, legs: readonly (readonly [UiLanguage, keyof typeof viewports])[]) {
  const [first] = legs;
  if (!first) return;
  const page = await openSignedIn(browser, contexts, target.signedIn, target.session.server.url, [`/monitor/${SCREENS[0]}`, ...first]);
  let current = first[0];
  for (const [lang, viewport] of legs) {
    if (lang !== current) {
      await switchLanguage(page, current, lang);
      current = lang;
    }
    await page.setViewportSize(viewports[viewport]);
    await screens(page, lang, viewport, redis);
  }
}

async function screens(page: Page, lang: UiLanguage, viewport: keyof typeof viewports, redis: boolean) {
  const t = (key: Parameters<typeof text>[1], params?: Record<string, string>) => text(lang, key, params);
  for (const screen of SCREENS) {
    const path = `/monitor/${screen}`;
    if (new URL(page.url()).pathname !== path) await openInApp(page, path);
    const area = page.locator(`[data-page-path="${path}"]:visible`);
    if (screen === 'redisTerminal') {
      if (redis) {
        const input = area.getByRole('textbox', { name: t('monitor.terminal.placeholder') });
        await expect.poll(() => input.isEnabled()).toBe(true);
        await input.fill('INFO server');
        await input.press('Enter');
        const output = area.getByTestId('monitor-terminal-output');
        await expect.poll(() => output.textContent()).toContain('redis_version:');
        await input.fill('FLUSHALL');
        await input.press('Enter');
        await expect.poll(() => output.textContent()).toContain(translate(lang, 'monitor.commandRefused', { command: 'FLUSHALL' }));
      } else {
        await area.getByText(t('monitor.fetchFailed.redisTerminal')).waitFor();
      }
    } else if (screen === 'redis' && !redis) {
      await area.getByTestId('monitor-failed').getByText(t('monitor.fetchFailed.redis')).waitFor();
    } else {
      await area.getByRole('combobox', { name: t('monitor.autoRefresh') }).waitFor();
      const ready = { disk: 'monitor-disk-card', httpTrace: null, jvm: null, tomcat: null, server: null, redis: 'monitor-redis-section' }[screen];
      if (ready) await area.getByTestId(ready).first().waitFor();
      else await area.locator('.ant-card, .ant-table').first().waitFor();
      expect(await area.getByTestId('monitor-failed').count()).toBe(0);
    }
    await shot(page, screen, lang, viewport, redis);
  }
}

describe('monitoring screens', () => {
  it('every screen opens in zh-CN, en-US and ja-JP at 1440 and 375 px: with Redis in Chinese and English, without it in Japanese', { timeout: 120_000 }, async () => {
    // one signed-in page per server: a language more is one reload, a size more no reload at all
    await tour(withoutRedis, false, [
      ['ja-JP', 'desktop'],
      ['ja-JP', 'mobile'],
    ]);
    await tour(withRedis ?? withoutRedis, withRedis !== null, [
      ['zh-CN', 'desktop'],
      ['zh-CN', 'mobile'],
      ['en-US', 'mobile'],
      ['en-US', 'desktop'],
    ]);
  });
});
