import { seededDictionaries } from '@isps/contract';
import { SIM_KINDS, provisionDevices, startFleet, type Fleet, type SimKind } from '../tools/device-sim/src/index.ts';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text, type UiLanguage } from './catalogues.ts';
import { label, rows, signIn } from './crud-page.ts';
import { adminSessionOn, freePort, launchBrowser, newContext, screenshot, startServer, viewports, type AdminSession } from './harness.ts';

// One server with its embedded broker and one simulated fleet, shared by the file's tests.
const PASSWORD = 'Device#Live1';
const FLEET_SIZE = 50;
/** what each kind of simulated device is on the device list: its system and its device kind (dictionary device_kind) */
const LISTED_AS: Record<SimKind, { systemType: string; deviceKind: string; name: string }> = {
  door: { systemType: 'abDoor', deviceKind: '1', name: 'Door' },
  vein: { systemType: 'access', deviceKind: '3', name: 'Vein reader' },
  camera: { systemType: 'access', deviceKind: '2', name: 'Camera' },
  cabinet: { systemType: 'storage', deviceKind: '1', name: 'Cabinet' },
  patrol: { systemType: 'access', deviceKind: '1', name: 'Patrol point' },
  quake: { systemType: 'quake', deviceKind: '1', name: 'Quake sensor' },
};
const sns = Array.from({ length: FLEET_SIZE }, (_, i) => `SIM-${String(i + 1).padStart(4, '0')}`);
const kindOf = (index: number): SimKind => SIM_KINDS[index % SIM_KINDS.length]!;

let session: AdminSession;
let mqttUrl: string;
let keys: Map<string, string>;
let browser: Browser;
let fleet: Fleet | undefined;

beforeAll(async () => {
  const mqttPort = await freePort();
  mqttUrl = `mqtt://127.0.0.1:${mqttPort}`;
  session = await adminSessionOn(await startServer({ MQTT_PORT: String(mqttPort) }), PASSWORD);
  // an administrator issues and approves a code per serial number, and registers the devices with their kinds
  keys = await provisionDevices(`${session.server.url}/api`, session.token, sns);
  for (const [index, sn] of sns.entries()) {
    const kind = LISTED_AS[kindOf(index)];
    await session.call('POST', '/sysDevice/add', { deviceName: `${kind.name} ${String(index + 1).padStart(2, '0')}`, sn, systemType: kind.systemType, deviceKind: kind.deviceKind, location: 1 });
  }
  browser = await launchBrowser();
});

afterAll(async () => {
  await fleet?.stop();
  await browser?.close();
  await session?.server.stop();
});

const LIST = '/device/list';
const statusRows = (page: Page, lang: UiLanguage, key: 'device.online' | 'device.offline') => rows(page).filter({ hasText: label(key, lang) });

/** Marks the document, so a reload (which would bring a fresh list) is seen: the mark is gone after one. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => ((window as unknown as { deviceLiveMark?: boolean }).deviceLiveMark = true));
}
async function sameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { deviceLiveMark?: boolean }).deviceLiveMark === true);
}

/** Shows 50 rows a page, as a person does with the pager's size changer. */
async function fiftyPerPage(page: Page): Promise<void> {
  await page.locator('.ant-pagination-options .ant-select').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '50' }).click();
  await expect.poll(() => rows(page).count()).toBe(FLEET_SIZE);
}

/** The lines a cell's text takes on screen: the distinct tops of the boxes of its text (elements' own boxes left out). */
async function linesOf(cell: Locator): Promise<number> {
  return cell.evaluate((element) => {
    const tops = new Set<number>();
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) if (rect.width > 0) tops.add(Math.round(rect.top));
    }
    return tops.size;
  });
}

/** The lines a cell's text takes when its column is as narrow as the table can make it (its min-content width). */
async function linesAtNarrowest(cell: Locator): Promise<number> {
  return cell.evaluate((element) => {
    const probe = document.createElement('div');
    probe.style.width = 'min-content';
    probe.textContent = (element as HTMLElement).innerText.trim();
    element.append(probe);
    const range = document.createRange();
    range.selectNodeContents(probe.firstChild!);
    const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
    probe.remove();
    return lines;
  });
}

/** Where a cell is against the window: inside it when it starts at or right of 0 and ends at or left of its width. */
async function insideWindow(cell: Locator, width: number): Promise<boolean> {
  const box = await cell.boundingBox();
  return box !== null && box.x >= 0 && box.x + box.width <= width;
}

/** The controller kind as the list shows it in `lang` (dictionary device_kind, item 1). */
function controllerIn(lang: UiLanguage): string {
  const item = seededDictionaries.find((d) => d.code === 'device_kind')!.items.find(([value]) => value === '1')!;
  return { 'en-US': item[1], 'zh-CN': item[2], 'ja-JP': item[3] }[lang];
}

/** Closes the presence notices the way a person does, with their "Got it" button. */
async function dismissNotices(page: Page, lang: UiLanguage): Promise<void> {
  const gotIt = page.locator('.ant-notification-notice').getByRole('button', { name: text(lang, 'realtime.gotIt') });
  while ((await gotIt.count()) > 0) await gotIt.first().click();
  await expect.poll(() => page.locator('.ant-notification-notice').count()).toBe(0);
}

describe('device list follows the devices live', () => {
  let context: BrowserContext;
  let page: Page;

  afterAll(async () => {
    await context?.close();
  });

  it('shows a fleet coming online and one device dropping off, without a reload', async () => {
    context = await newContext(browser, { lang: 'en-US' });
    page = await context.newPage();
    await signIn(page, session.server.url, LIST, 'admin', PASSWORD);
    await page.getByText(text('en-US', 'crud.total', { total: String(FLEET_SIZE) })).waitFor();
    await fiftyPerPage(page);
    // every device is registered and none has connected yet
    await expect.poll(() => statusRows(page, 'en-US', 'device.offline').count()).toBe(FLEET_SIZE);
    await markDocument(page);

    const started = Date.now();
    fleet = await startFleet({ url: mqttUrl, keys, kinds: SIM_KINDS, rate: 0 });
    await expect.poll(() => statusRows(page, 'en-US', 'device.online').count(), { timeout: 15_000 }).toBe(FLEET_SIZE);
    expect(await statusRows(page, 'en-US', 'device.offline').count()).toBe(0);
    expect(await sameDocument(page), 'the page was not reloaded').toBe(true);
    console.log(`${FLEET_SIZE} devices shown online ${Date.now() - started} ms after the fleet started`);

    // the cable of one device is pulled: the broker publishes its last will
    const dropped = sns[6]!;
    fleet.device(dropped).dropOffNetwork();
    const droppedRow = rows(page).filter({ hasText: dropped });
    await expect.poll(() => droppedRow.filter({ hasText: label('device.offline', 'en-US') }).count(), { timeout: 10_000 }).toBe(1);
    expect(await statusRows(page, 'en-US', 'device.online').count()).toBe(FLEET_SIZE - 1);
    expect(await sameDocument(page), 'the page was not reloaded').toBe(true);
    // the console says so too, naming the device; the fleet's coming online was one notice, not fifty
    const notices = page.locator('.ant-notification-notice');
    await notices.filter({ hasText: text('en-US', 'realtime.deviceDisconnected') }).filter({ hasText: 'Door 07' }).waitFor();
    expect(await notices.filter({ hasText: text('en-US', 'realtime.deviceConnected') }).count()).toBe(1);
    await dismissNotices(page, 'en-US');
  });

  it.each(['en-US', 'zh-CN', 'ja-JP'] as const)('reads in %s at 1440 and 375 px', async (lang) => {
    if (!page) throw new Error('the live test opened no page');
    await page.setViewportSize(viewports.desktop);
    if (lang !== 'en-US') {
      // the console's language menu in the header (it reloads the page in the chosen language)
      const current = (await page.evaluate(() => JSON.parse(localStorage.getItem('pro__lang') ?? '{}') as { value?: string })).value as UiLanguage;
      await page.getByRole('button', { name: text(current, 'language.switch') }).click();
      await page.getByRole('menuitem', { name: text(lang, `language.${lang}` as const) }).click();
      await page.getByText(label('device.title', lang), { exact: true }).first().waitFor();
    }
    await expect.poll(() => statusRows(page, lang, 'device.online').count()).toBeGreaterThan(0);
    await expect.poll(() => statusRows(page, lang, 'device.offline').count()).toBeLessThanOrEqual(1);
    await page.evaluate(() => window.scrollTo(0, 0));
    // a kind picked from a list is one word: コントローラー never breaks as コントローラ / ー
    const controllerCell = rows(page).locator('td.crud-term').filter({ hasText: controllerIn(lang) }).first();
    await controllerCell.waitFor();
    expect(await linesOf(controllerCell), `${controllerIn(lang)} on one line`).toBe(1);
    expect(await linesAtNarrowest(controllerCell), `${controllerIn(lang)} on one line in the narrowest column`).toBe(1);
    await screenshot(page, `device-live-${lang}-1440`);
    await page.setViewportSize(viewports.mobile);
    await rows(page).first().waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    // on a phone a device's name and its network status come first, each on one line, without scrolling sideways
    const first = rows(page).first();
    const name = first.locator('td').nth(1);
    const status = first.locator('td').nth(2);
    await expect.poll(() => status.innerText()).toMatch(new RegExp(`${label('device.online', lang)}|${label('device.offline', lang)}`));
    expect(await name.innerText()).toMatch(/^(Door|Vein reader|Camera|Cabinet|Patrol point|Quake sensor) \d\d$/);
    expect(await insideWindow(name, viewports.mobile.width), 'name inside the window').toBe(true);
    expect(await insideWindow(status, viewports.mobile.width), 'status inside the window').toBe(true);
    expect(await linesOf(name)).toBe(1);
    expect(await linesOf(status)).toBe(1);
    // nothing wider than the phone's screen but the table's own scroller
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewports.mobile.width);
    await screenshot(page, `device-live-${lang}-375`);
  });
});
