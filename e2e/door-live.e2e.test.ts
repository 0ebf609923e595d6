import { DeviceEventKind, DoorState, type DoorStatusRow, type Page as PageOf } from '@isps/contract';
import { provisionDevices, startFleet, type Fleet } from '../tools/device-sim/src/index.ts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text, type UiLanguage } from './catalogues.ts';
import { label, signIn } from './crud-page.ts';
import { adminSessionOn, freePort, launchBrowser, newContext, screenshot, startServer, viewports, type AdminSession } from './harness.ts';

// One server with its embedded broker and two simulated door controllers.
const PASSWORD = 'Door#Live1';
const sns = ['DOOR-0001', 'DOOR-0002'];
const doorNames = ['Front gate', 'Store room'];

let session: AdminSession;
let browser: Browser;
let fleet: Fleet | undefined;
let context: BrowserContext | undefined;

beforeAll(async () => {
  const mqttPort = await freePort();
  session = await adminSessionOn(await startServer({ MQTT_PORT: String(mqttPort) }), PASSWORD);
  const keys = await provisionDevices(`${session.server.url}/api`, session.token, sns);
  for (const [index, sn] of sns.entries()) {
    await session.call('POST', '/sysDevice/add', { deviceName: `Controller ${index + 1}`, sn, systemType: 'abDoor', deviceKind: '1', location: 1 });
  }
  const devices = await session.call<PageOf<{ id: string; sn: string }>>('GET', '/sysDevice/list?pageNo=1&pageSize=10');
  for (const [index, sn] of sns.entries()) {
    const device = devices.records.find((d) => d.sn === sn);
    await session.call('POST', '/sysDoor/add', { doorName: doorNames[index], deviceId: device?.id, doorNo: 1 });
  }
  fleet = await startFleet({ url: `mqtt://127.0.0.1:${mqttPort}`, keys, kinds: ['door'], rate: 0 });
  browser = await launchBrowser();
});

afterAll(async () => {
  await context?.close();
  await fleet?.stop();
  await browser?.close();
  await session?.server.stop();
});

const card = (page: Page, name: string) => page.locator('[data-door-id]').filter({ hasText: name });
const doorState = async (name: string) => (await session.call<DoorStatusRow[]>('GET', '/sysDoor/status')).find((d) => d.doorName === name)?.state;

describe('door status page', () => {
  it('shows a door the device opens within a second, without a reload, and reads in every language at 1440 and 375 px', async () => {
    // a retry starts again from a closed door, without the page of the attempt before
    await context?.close();
    await fleet!.device(sns[0]!).emit(DeviceEventKind.doorState, { door: 1, state: 'closed' });
    await expect.poll(() => doorState(doorNames[0]!), { timeout: 5000 }).toBe(DoorState.closed);
    context = await newContext(browser, { lang: 'en-US' });
    const page = await context.newPage();
    await signIn(page, session.server.url, '/device/doorStatus', 'admin', PASSWORD);
    await expect.poll(() => card(page, doorNames[0]!).getAttribute('data-state')).toBe('closed');
    await expect.poll(() => card(page, doorNames[0]!).textContent()).toContain(text('en-US', 'doorStatus.deviceOnline'));
    await page.evaluate(() => ((window as unknown as { doorMark?: boolean }).doorMark = true));

    const sent = Date.now();
    await fleet!.device(sns[0]!).emit(DeviceEventKind.doorState, { door: 1, state: 'open' });
    await card(page, doorNames[0]!).and(page.locator('[data-state="open"]')).waitFor({ timeout: 5000 });
    const shownAfter = Date.now() - sent;
    console.log(`door open shown ${shownAfter} ms after the device sent it`);
    expect(shownAfter).toBeLessThan(1000);
    expect(await card(page, doorNames[0]!).textContent()).toContain(label('door.state.open', 'en-US'));
    expect(await page.evaluate(() => (window as unknown as { doorMark?: boolean }).doorMark)).toBe(true);
    expect(await card(page, doorNames[1]!).getAttribute('data-state')).toBe('closed');

    for (const lang of ['en-US', 'zh-CN', 'ja-JP'] as const satisfies readonly UiLanguage[]) {
      await page.setViewportSize(viewports.desktop);
      if (lang !== 'en-US') {
        const current = (await page.evaluate(() => JSON.parse(localStorage.getItem('pro__lang') ?? '{}') as { value?: string })).value as UiLanguage;
        await page.getByRole('button', { name: text(current, 'language.switch') }).click();
        await page.getByRole('menuitem', { name: text(lang, `language.${lang}` as const) }).click();
      }
      await card(page, doorNames[0]!).filter({ hasText: label('door.state.open', lang) }).waitFor();
      await screenshot(page, `door-status-${lang}-1440`);
      await page.setViewportSize(viewports.mobile);
      await card(page, doorNames[1]!).waitFor();
      // the console lays itself out for a phone once it sees the narrower window: wider for a moment right after the resize
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewports.mobile.width);
      await screenshot(page, `door-status-${lang}-375`);
    }
  });
});
