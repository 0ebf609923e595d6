import { DeviceEventKind, reportPath, serverMessages, type MessageKey, type ReportResult } from '@isps/contract';
import { SimDevice, provisionDevices } from '../tools/device-sim/src/index.ts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text, type UiLanguage } from './catalogues.ts';
import { dialog, openInApp, openSignedIn, pickOption, rows } from './crud-page.ts';
import { adminSessionOn, freePort, launchBrowser, screenshot, signedInState, startServer, viewports, type AdminSession, type SignedInState } from './harness.ts';

// One server (site zone UTC) with its embedded broker and one door controller whose passages and alarms the reports count.
const PASSWORD = 'Reports#E2e1';
const SN = 'REPORT-0001';

let session: AdminSession;
let browser: Browser;
let signedIn: SignedInState;
let sim: SimDevice | undefined;
const contexts: BrowserContext[] = [];
/** a text the server shares with the console (report and column names) */
const shared = (lang: UiLanguage, key: MessageKey) => serverMessages[lang][key];

beforeAll(async () => {
  const mqttPort = await freePort();
  session = await adminSessionOn(await startServer({ MQTT_PORT: String(mqttPort), TIME_ZONE: 'UTC' }), PASSWORD);
  const keys = await provisionDevices(`${session.server.url}/api`, session.token, [SN]);
  sim = new SimDevice({ url: `mqtt://127.0.0.1:${mqttPort}`, sn: SN, key: keys.get(SN)!, kind: 'door', doors: 2, heartbeatMs: 0 });
  await sim.start();
  const hour = 3_600_000;
  const start = Date.now() - 10 * hour;
  for (let i = 0; i < 9; i++) await sim.emit(DeviceEventKind.opening, { door: (i % 2) + 1, method: 'remote' }, start + i * hour);
  await sim.emit(DeviceEventKind.denial, { door: 1, method: 'card', reason: 'outsideTime' }, start + 30 * 60_000);
  await sim.emit(DeviceEventKind.denial, { door: 2, method: 'card', reason: 'unknown' }, start + 90 * 60_000);
  // held open for a minute until the door closed
  await sim.emit(DeviceEventKind.alarm, { code: 'heldOpen', level: 'M' }, Date.now() - 120_000);
  await sim.emit(DeviceEventKind.doorState, { door: 1, state: 'closed' }, Date.now() - 60_000);
  await sim.emit(DeviceEventKind.alarm, { code: 'tamper', level: 'M' }, Date.now() - 30_000);
  signedIn = await signedInState(session.server, 'admin', PASSWORD);
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await sim?.stop();
  await browser?.close();
  await session?.server.stop();
});

describe('reports', () => {
  it('access and alarm reports with their charts, tables and schedules, in every language at 1440 and 375 px', { timeout: 300_000 }, async () => {
    // the device's passages and alarms are counted once stored
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const period = { begin: `${day(Date.now() - 6 * 86_400_000)} 00:00:00`, end: `${day(Date.now() + 86_400_000)} 00:00:00` };
    await expect
      .poll(async () => {
        const doors = await session.call<ReportResult>('GET', `${reportPath('access', 'run')}?${new URLSearchParams({ kind: 'accessByDoor', ...period })}`);
        const alarms = await session.call<ReportResult>('GET', `${reportPath('alarm', 'run')}?${new URLSearchParams({ kind: 'alarmsByCode', ...period })}`);
        return [doors.rows.reduce((s, r) => s + Number(r.total), 0), alarms.rows.length];
      }, { timeout: 20_000 })
      // held open, tamper, and the openings of nobody the server knows (flagged: serverRefusedOpening)
      .toEqual([11, 3]);
    /** a report of the screen: a tab, or on a phone a choice */
    const choose = async (page: Page, lang: UiLanguage, mobile: boolean, key: MessageKey) =>
      mobile ? pickOption(page, page.getByLabel(text(lang, 'reportScreen.schedule.kind')), shared(lang, key)) : page.getByRole('tab', { name: shared(lang, key) }).click();
    for (const lang of ['zh-CN', 'en-US', 'ja-JP'] as const satisfies readonly UiLanguage[]) {
      // one page per language: the phone's width is the same page made narrow, the screens reached as from the menu
      const page = await openSignedIn(browser, contexts, signedIn, session.server.url, ['/report/access', lang, 'desktop']);
      for (const viewport of ['desktop', 'mobile'] as const) {
        const size = viewport === 'desktop' ? 1440 : 375;
        if (viewport === 'mobile') {
          await page.setViewportSize(viewports.mobile);
          await openInApp(page, '/report/access');
        }
        await rows(page).first().waitFor();
        await page.getByRole('img', { name: text(lang, 'reportScreen.chart', { name: shared(lang, 'report.name.accessByDoor') }) }).locator('svg').first().waitFor();
        if (viewport === 'mobile') await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewports.mobile.width);
        await screenshot(page, `report-access-${lang}-${size}`);

        // the hours of the day, in the site's clock
        if (viewport === 'desktop') {
          await choose(page, lang, false, 'report.name.accessByHour');
          await rows(page).filter({ hasText: /^00/ }).first().waitFor();
          await screenshot(page, `report-access-hour-${lang}-${size}`);
        }

        await openInApp(page, '/report/alarm');
        await rows(page).first().waitFor();
        await choose(page, lang, viewport === 'mobile', 'report.name.doorOpenTimes');
        await page.getByRole('img', { name: text(lang, 'reportScreen.chart', { name: shared(lang, 'report.name.doorOpenTimes') }) }).locator('svg').first().waitFor();
        await rows(page).first().waitFor();
        await screenshot(page, `report-door-open-${lang}-${size}`);

        if (lang === 'en-US') {
          await page.getByRole('button', { name: text(lang, 'reportScreen.schedules') }).click();
          await dialog(page).getByRole('button', { name: text(lang, 'reportScreen.schedule.add') }).click();
          await page.locator('form#report-schedule').waitFor();
          await screenshot(page, `report-schedule-form-${lang}-${size}`);
          for (const title of ['reportScreen.schedule.add', 'reportScreen.schedule.title'] as const) {
            await page.keyboard.press('Escape');
            await page.locator('.ant-modal-title', { hasText: text(lang, title) }).waitFor({ state: 'hidden' });
          }
        }
      }
      await page.context().close();
    }
  });
});
