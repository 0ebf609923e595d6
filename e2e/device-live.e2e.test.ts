import { seededDictionaries, translate } from '@isps/contract';
import { SIM_KINDS, provisionDevices, startFleet, type Fleet, type SimKind } from '../tools/device-sim/src/index.ts';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text, type UiLanguage } from './catalogues.ts';
import { dialog, label, openScreen, rows } from './crud-page.ts';
import { adminSessionOn, freePort, launchBrowser, newContext, screenshot, signedInState, startServer, viewports, type AdminSession, type SignedInState } from './harness.ts';

// One server with its embedded broker and one simulated fleet, shared by the file's tests.
const PASSWORD = 'Device#Live1';
const FLEET_SIZE = 50;
/** what each kind of simulated device is on the device list: its system and its device kind (dictionary device_kind) */
const LISTED_AS: Record<SimKind, { systemType: string; deviceKind: string; name: string }> = {
  door: { systemType: 'abDoor', deviceKind: '1', name: 'Door' },
  vein: { systemType: 'access', deviceKind: '3', name: 'Vein reader' },
  camera: { systemType: 'access', deviceKind: '2', name: 'Camera' },
  cabinet: { systemType: 'storage', deviceKind: '1', name: 'Cabinet' },
  keys: { systemType: 'ks', deviceKind: '1', name: 'Key cabinet' },
  patrol: { systemType: 'access', deviceKind: '1', name: 'Patrol point' },
  quake: { systemType: 'quake', deviceKind: '1', name: 'Quake sensor' },
};
const sns = Array.from({ length: FLEET_SIZE }, (_, i) => `SIM-${String(i + 1).padStart(4, '0')}`);
const kindOf = (index: number): SimKind => SIM_KINDS[index % SIM_KINDS.length]!;

let session: AdminSession;
let mqttUrl: string;
let keys: Map<string, string>;
let browser: Browser;
/** the administrator signed in once for the whole file: every context opens with it */
let admin: SignedInState;
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
  admin = await signedInState(session.server, 'admin', PASSWORD);
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

/**
 * Closes the presence notices the way a person does, with their "Got it" button, one at a time: a closed notice stays
 * in the page while it fades out (its button still counted), so the next click waits until it is gone.
 */
async function dismissNotices(page: Page, lang: UiLanguage): Promise<void> {
  const notices = page.locator('.ant-notification-notice');
  const gotIt = notices.getByRole('button', { name: text(lang, 'realtime.gotIt') });
  for (let left = await gotIt.count(); left > 0; left = await gotIt.count()) {
    await gotIt.first().click();
    await expect.poll(() => gotIt.count(), { timeout: 5_000 }).toBeLessThan(left);
  }
  // a notice under the pointer waits (antd pauses its timer on hover): the pointer leaves, as a person's does
  await page.mouse.move(0, 0);
  await expect.poll(async () => (await notices.allInnerTexts()).join(' | '), { timeout: 10_000 }).toBe('');
}

/** The devices the server holds online (an attempt run before this one may have left its fleet connected). */
async function devicesOnline(): Promise<number> {
  const page = await session.call<{ records: Array<{ online: number | string }> }>('GET', `/sysDevice/list?pageNo=1&pageSize=${FLEET_SIZE}`);
  return page.records.filter((d) => Number(d.online) === 1).length;
}

describe('device list follows the devices live', () => {
  let context: BrowserContext;
  let page: Page;

  afterAll(async () => {
    await context?.close();
  });

  it('shows a fleet coming online and one device dropping off, without a reload', async () => {
    // a retry starts again from a fleet that never connected, without the page of the attempt before
    await context?.close();
    await fleet?.stop();
    fleet = undefined;
    await expect.poll(devicesOnline, { timeout: 10_000 }).toBe(0);
    context = await newContext(browser, { lang: 'en-US', signedIn: admin });
    page = await context.newPage();
    await openScreen(page, session.server.url, LIST);
    await page.getByText(text('en-US', 'crud.total', { total: String(FLEET_SIZE) })).waitFor();
    await fiftyPerPage(page);
    // every device is registered and none has connected yet
    await expect.poll(() => statusRows(page, 'en-US', 'device.offline').count()).toBe(FLEET_SIZE);
    await markDocument(page);

    const started = Date.now();
    // the devices were provisioned with this server: packages are fetched from it, with their keys, and from nowhere else
    fleet = await startFleet({ url: mqttUrl, keys, kinds: SIM_KINDS, rate: 0, apiUrl: `${session.server.url}/api` });
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
    // the console says so too, naming the device; the fleet's coming online was one notice counting the devices
    // back (presence is folded), never fifty
    const notices = page.locator('.ant-notification-notice');
    await notices.filter({ hasText: text('en-US', 'realtime.devicesDisconnected', { count: '1' }) }).filter({ hasText: `${LISTED_AS[kindOf(6)].name} 07` }).waitFor();
    // (the sign-in's welcome may still be shown beside them: only the presence notices are counted)
    expect(await notices.filter({ hasText: /devices? connected/ }).count()).toBeLessThanOrEqual(1);
    expect(await notices.filter({ hasText: /devices? disconnected/ }).count()).toBe(1);
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
    // on a phone each device is a card: its name titles it, its network status is the first line, each on one line,
    // without scrolling sideways
    const first = rows(page).first();
    const name = first.locator('[data-card-title]');
    const status = first.locator('dd').first();
    await expect.poll(() => status.innerText()).toMatch(new RegExp(`${label('device.online', lang)}|${label('device.offline', lang)}`));
    expect(await name.innerText()).toMatch(/^(Door|Vein reader|Camera|Cabinet|Key cabinet|Patrol point|Quake sensor) \d\d$/);
    expect(await insideWindow(name, viewports.mobile.width), 'name inside the window').toBe(true);
    expect(await insideWindow(status, viewports.mobile.width), 'status inside the window').toBe(true);
    expect(await linesOf(name)).toBe(1);
    expect(await linesOf(status)).toBe(1);
    // nothing wider than the phone's screen
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewports.mobile.width);
    await screenshot(page, `device-live-${lang}-375`);
  });
});

const SOFT_UPDATE = '/device/softUpdate';
const UPDATED_DEVICES = 20;

/** A tar archive holding one file, as `tar` writes it (ustar header, the content in 512-byte blocks, two empty blocks). */
function tarOf(name: string, content: string): Buffer {
  const header = Buffer.alloc(512);
  const data = Buffer.from(content);
  const octal = (value: number, width: number) => `${value.toString(8).padStart(width - 1, '0')}\0`;
  header.write(name, 0);
  header.write(octal(0o644, 8), 100);
  header.write(octal(0, 8), 108);
  header.write(octal(0, 8), 116);
  header.write(octal(data.length, 12), 124);
  header.write(octal(Math.floor(Date.now() / 1000), 12), 136);
  header.write('        ', 148);
  header.write('0', 156);
  header.write('ustar\0', 257);
  header.write('00', 263);
  const sum = header.reduce((total, byte) => total + byte, 0);
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  const padded = Buffer.alloc(Math.ceil(data.length / 512) * 512);
  data.copy(padded);
  return Buffer.concat([header, padded, Buffer.alloc(1024)]);
}

/** Switches the console's language with the header's menu (the page reloads in it). */
async function switchLanguage(page: Page, lang: UiLanguage): Promise<void> {
  const current = (await page.evaluate(() => JSON.parse(localStorage.getItem('pro__lang') ?? '{}') as { value?: string })).value as UiLanguage;
  if (current === lang) return;
  await page.getByRole('button', { name: text(current, 'language.switch') }).click();
  await page.getByRole('menuitem', { name: text(lang, `language.${lang}` as const) }).click();
  await page.getByText(label('softUpdate.title', lang), { exact: true }).first().waitFor();
}

/** The progress view's rows: one per device, its state in `data-state`. */
const pushRows = (page: Page) => page.locator('.ant-drawer-open tr[data-state]');
const endedRows = (page: Page) => page.locator('.ant-drawer-open tr[data-state="ok"], .ant-drawer-open tr[data-state="failed"]');

it('pushes a software package to 20 devices and follows each to its end; a text file named .apk is refused', async () => {
  if (!fleet) throw new Error('the live test started no fleet');
  const context = await newContext(browser, { lang: 'en-US', signedIn: admin });
  try {
    const page = await context.newPage();
    await page.setViewportSize(viewports.desktop);
    await openScreen(page, session.server.url, SOFT_UPDATE);
    await page.getByRole('button', { name: text('en-US', 'softUpdate.upload') }).click();
    const form = dialog(page);
    const picker = form.locator('input[type="file"]');
    expect(await picker.getAttribute('accept')).toBe('.apk,.tar,.tar.gz,.tgz');
    await picker.setInputFiles({ name: 'notes.apk', mimeType: 'application/vnd.android.package-archive', buffer: Buffer.from('only a text file\n') });
    await form.getByLabel(label('softUpdate.field.version'), { exact: true }).fill('2.0.0');
    await form.getByRole('button', { name: text('en-US', 'softUpdate.upload'), exact: true }).click();
    // the upload layer reads the content first: a text is no APK, whatever its name says
    await form.getByText(translate('en-US', 'upload.contentMismatch', { name: 'notes.apk' })).waitFor();
    await screenshot(page, 'soft-update-refused-en-US-1440');

    await picker.setInputFiles({ name: 'firmware-2.0.0.tar', mimeType: 'application/x-tar', buffer: tarOf('firmware/VERSION', '2.0.0\n') });
    await form.getByRole('button', { name: text('en-US', 'softUpdate.upload'), exact: true }).click();
    const packageRow = rows(page).filter({ hasText: 'firmware-2.0.0' });
    await packageRow.waitFor();

    // the push: twenty devices that are online, ticked on a page of 50
    await packageRow.locator('[data-command="push"]').click();
    const chooser = dialog(page);
    await chooser.locator('.ant-pagination-options .ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '50' }).click();
    const candidates = chooser.locator('.ant-table-tbody tr.ant-table-row');
    await expect.poll(() => candidates.count()).toBe(FLEET_SIZE);
    const online = candidates.filter({ hasText: label('device.online') });
    const chosen: string[] = [];
    for (let i = 0; i < UPDATED_DEVICES; i++) {
      await online.nth(i).locator('input[type="checkbox"]').check();
      chosen.push((await online.nth(i).locator('td').nth(1).innerText()).trim());
    }
    await chooser.getByTestId('soft-update-chosen').filter({ hasText: text('en-US', 'softUpdate.chosenDevices', { count: String(UPDATED_DEVICES) }) }).waitFor();
    await chooser.getByRole('button', { name: label('softUpdate.push'), exact: true }).click();

    // the progress opens at once: a bar per device moves, then every device ends updated or failed
    await expect.poll(() => pushRows(page).count()).toBe(UPDATED_DEVICES);
    await page.locator('.ant-drawer-open tr[data-state="running"]').first().waitFor({ timeout: 20_000 });
    await screenshot(page, 'soft-update-progress-en-US-1440');
    await expect.poll(() => endedRows(page).count(), { timeout: 60_000 }).toBe(UPDATED_DEVICES);
    for (const device of chosen) expect(await endedRows(page).filter({ hasText: device }).count(), device).toBe(1);
    const updated = await page.locator('.ant-drawer-open tr[data-state="ok"] [role="progressbar"]').evaluateAll((bars) => bars.map((bar) => bar.getAttribute('aria-valuenow')));
    expect(updated.every((value) => value === '100')).toBe(true);
    await screenshot(page, 'soft-update-ended-en-US-1440');
    await page.setViewportSize(viewports.mobile);
    await screenshot(page, 'soft-update-ended-en-US-375');

    // read again later, in Chinese: every device's final state
    await page.setViewportSize(viewports.desktop);
    await page.locator('.ant-drawer-open .ant-drawer-close').click();
    await switchLanguage(page, 'zh-CN');
    await rows(page).filter({ hasText: 'firmware-2.0.0' }).locator('[data-command="progress"]').click();
    await expect.poll(() => endedRows(page).count()).toBe(UPDATED_DEVICES);
    await page.locator('.ant-drawer-open').getByText(text('zh-CN', 'softUpdate.progressTitle', { version: '2.0.0' })).waitFor();
    await screenshot(page, 'soft-update-ended-zh-CN-1440');
    await page.setViewportSize(viewports.mobile);
    await screenshot(page, 'soft-update-ended-zh-CN-375');
  } finally {
    await context.close();
  }
});
