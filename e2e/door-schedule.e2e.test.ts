import type { Page as PageOf } from '@isps/contract';
import { SimDevice, provisionDevices } from '../tools/device-sim/src/index.ts';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text, type UiLanguage } from './catalogues.ts';
import { dialog, label, pickOptions, rows, openSignedIn } from './crud-page.ts';
import { adminSessionOn, freePort, launchBrowser, screenshot, signedInState, startServer, viewports, type AdminSession, type SignedInState } from './harness.ts';

// One server (in UTC) with its embedded broker and one simulated door controller whose lobby door the schedules unlock.
// The schedule's rules on the device (periods, offline, holidays, the emergency) are
// apps/server/src/modules/door-schedule/door-schedule.test.ts; this is the form as a person fills it.
const PASSWORD = 'Schedule#E2e1';
const SN = 'DOORSCHED-0001';
const MINUTE = 60_000;
const LANGS = ['zh-CN', 'en-US', 'ja-JP'] as const satisfies readonly UiLanguage[];

let session: AdminSession;
let browser: Browser;
let signedIn: SignedInState;
let sim: SimDevice;
const contexts: BrowserContext[] = [];

/** `HH:mm` in UTC (the server's zone). */
const clockOf = (ms: number) => new Date(ms).toISOString().slice(11, 16);

beforeAll(async () => {
  const mqttPort = await freePort();
  session = await adminSessionOn(await startServer({ MQTT_PORT: String(mqttPort), TIME_ZONE: 'UTC' }), PASSWORD);
  const keys = await provisionDevices(`${session.server.url}/api`, session.token, [SN]);
  sim = new SimDevice({ url: `mqtt://127.0.0.1:${mqttPort}`, sn: SN, key: keys.get(SN)!, kind: 'door', doorOpenMs: 0, scheduleTickMs: 200 });
  await sim.start();
  let deviceId = '';
  for (const until = Date.now() + 15_000; !deviceId; ) {
    if (Date.now() > until) throw new Error('the door controller did not say hello');
    const online = (await session.call<PageOf<{ id: string; online: number }>>('GET', '/sysDevice/list?pageNo=1&pageSize=10')).records.find((d) => d.online === 1);
    if (online) deviceId = online.id;
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await session.call('POST', '/sysDoor/add', { doorName: 'Lobby door', deviceId, doorNo: 1 });
  await session.call('POST', '/sysDoor/add', { doorName: 'Loading bay', deviceId, doorNo: 2 });
  signedIn = await signedInState(session.server, 'admin', PASSWORD);
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await sim?.stop();
  await browser?.close();
  await session?.server.stop();
});

function open(path: string, lang: UiLanguage, viewport: keyof typeof viewports = 'desktop'): Promise<Page> {
  return openSignedIn(browser, contexts, signedIn, session.server.url, [path, lang, viewport]);
}

/** Types a clock time into a time picker and confirms it with the picker's OK. */
async function typeTime(page: Page, control: Locator, value: string) {
  await control.click();
  await control.fill(value);
  const picker = page.locator('.ant-picker-dropdown:visible');
  await picker.locator('.ant-picker-ok button').click();
  await picker.waitFor({ state: 'hidden' });
  await expect.poll(() => control.inputValue()).toBe(value);
}

const width = (viewport: keyof typeof viewports) => (viewport === 'desktop' ? 1440 : 375);

/** Fills the add form as a person does: a name, the doors, the period of today (every day), a remark. */
async function fillSchedule(page: Page, lang: UiLanguage, name: string, from: string, to: string) {
  const form = dialog(page);
  await form.getByLabel(label('doorSchedule.field.scheduleName', lang), { exact: true }).fill(name);
  await pickOptions(page, form.getByLabel(label('doorSchedule.field.doorIds', lang), { exact: true }), ['Lobby door']);
  const editor = form.getByTestId('time-setting-editor');
  await editor.getByLabel(label('timeSetting.custom', lang), { exact: true }).check();
  // a new schedule offers business hours on weekdays: this one is every day, from a few minutes ago for an hour
  const period = editor.getByTestId('time-period').first();
  await typeTime(page, period.getByLabel(label('timeSetting.periodStart', lang), { exact: true }), from);
  await typeTime(page, period.getByLabel(label('timeSetting.periodEnd', lang), { exact: true }), to);
  await editor.getByLabel(label('timeSetting.day.weekday', lang), { exact: true }).uncheck();
  await editor.getByText(label('timeSetting.everyDay', lang), { exact: true }).waitFor();
  await form.getByLabel(label('doorSchedule.field.remark', lang), { exact: true }).fill('Front desk hours');
  return form;
}

describe('door schedules', () => {
  for (const lang of LANGS) {
    it(`in ${lang}: a schedule typed into the form reaches the door controller, which unlocks the lobby inside its period`, { timeout: 180_000 }, async () => {
      const name = `Lobby ${lang}`;
      const from = clockOf(Date.now() - 5 * MINUTE);
      const to = clockOf(Date.now() + 60 * MINUTE);
      const page = await open('/device/doorSchedule', lang);
      await page.getByRole('button', { name: text(lang, 'crud.add') }).click();
      const form = await fillSchedule(page, lang, name, from, to);
      await screenshot(page, `door-schedule-form-${lang}-1440`);
      await form.getByRole('button', { name: text(lang, 'crud.save') }).click();
      await expect.poll(() => page.locator('.ant-modal-wrap:visible').count(), { timeout: 15_000 }).toBe(0);

      const row = rows(page).filter({ hasText: name });
      await row.filter({ hasText: 'Lobby door' }).waitFor();
      await expect.poll(() => row.innerText()).toContain(`${from}–${to}`);
      await screenshot(page, `door-schedule-list-${lang}-1440`);
      // the controller holds the schedule and the lobby stands unlocked now; the loading bay stays locked
      await expect.poll(() => sim.doorLocks.get(1), { timeout: 15_000 }).toBe(true);
      expect(sim.doorUnlocked(2)).toBe(false);

      // switched off in the form, the schedule no longer unlocks the lobby (the other languages' schedules aside)
      const stored = (await session.call<PageOf<{ id: string; scheduleName: string }>>('GET', '/doorSchedule/list?pageNo=1&pageSize=50')).records;
      const others = stored.filter((s) => s.scheduleName !== name);
      for (const other of others) await session.call('PUT', '/doorSchedule/edit', { id: other.id, enabled: 0 });
      await row.getByRole('button', { name: text(lang, 'crud.edit'), exact: true }).click();
      const again = dialog(page);
      await expect.poll(() => again.getByLabel(label('doorSchedule.field.scheduleName', lang), { exact: true }).inputValue()).toBe(name);
      await again.getByRole('switch').first().click();
      await again.getByRole('button', { name: text(lang, 'crud.save') }).click();
      await expect.poll(() => page.locator('.ant-modal-wrap:visible').count(), { timeout: 15_000 }).toBe(0);
      await expect.poll(() => sim.doorLocks.get(1), { timeout: 15_000 }).toBe(false);
    });

    it(`in ${lang}: the form and the list read at 375 px`, { timeout: 120_000 }, async () => {
      const page = await open('/device/doorSchedule', lang, 'mobile');
      await rows(page).first().waitFor();
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewports.mobile.width);
      await screenshot(page, `door-schedule-list-${lang}-${width('mobile')}`);
      await page.getByRole('button', { name: text(lang, 'crud.add') }).click();
      const form = await fillSchedule(page, lang, `Narrow ${lang}`, '08:00', '18:00');
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewports.mobile.width);
      await screenshot(page, `door-schedule-form-${lang}-${width('mobile')}`);
      await form.getByRole('button', { name: text(lang, 'common.cancel') }).click();
    });
  }
});
