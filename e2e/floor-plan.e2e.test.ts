import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { DeviceEventKind, type Page as PageOf } from '@isps/contract';
import { provisionDevices, startFleet, type Fleet } from '../tools/device-sim/src/index.ts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text, type UiLanguage } from './catalogues.ts';
import { dialog, label, openInApp, signIn } from './crud-page.ts';
import { adminSessionOn, freePort, launchBrowser, newContext, screenshot, startServer, viewports, type AdminSession } from './harness.ts';

// One server with its embedded broker, one simulated door controller in the area "Lobby" with one door.
const PASSWORD = 'Floor#Plan1';
const SN = 'PLAN-0001';
const DOOR = 'Lobby gate';
const AREA = 'Lobby';

let session: AdminSession;
let browser: Browser;
let fleet: Fleet | undefined;
let context: BrowserContext | undefined;
let planFile: string;

/** A floor-plan-like PNG (white, grey walls and rooms) of 1200 × 700, made here so the test needs no fixture file. */
function floorPlanPng(width = 1200, height = 700): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const wall = (x: number, y: number) => {
    const t = 6;
    const outer = x < 40 + t && x >= 40 || x > width - 40 - t && x <= width - 40 || y < 40 + t && y >= 40 || y > height - 40 - t && y <= height - 40;
    const inside = x >= 40 && x <= width - 40 && y >= 40 && y <= height - 40;
    const rooms = inside && ((Math.abs(x - 480) < 3 && (y < 300 || y > 380)) || (Math.abs(y - 360) < 3 && x > 480 && (x < 700 || x > 780)) || (Math.abs(x - 860) < 3 && y < 360));
    return outer || rooms;
  };
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      const v = wall(x, y) ? 90 : x > 480 && y > 360 && x < width - 40 && y < height - 40 ? 238 : 252;
      raw[row + 1 + x * 3] = v;
      raw[row + 2 + x * 3] = v;
      raw[row + 3 + x * 3] = v + 2 > 255 ? 255 : v + 2;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

beforeAll(async () => {
  const mqttPort = await freePort();
  session = await adminSessionOn(await startServer({ MQTT_PORT: String(mqttPort) }), PASSWORD);
  const keys = await provisionDevices(`${session.server.url}/api`, session.token, [SN]);
  await session.call('POST', '/sysArea/add', { areaName: AREA });
  const areas = await session.call<PageOf<{ id: string; areaName: string }>>('GET', '/sysArea/list?pageNo=1&pageSize=10');
  const areaId = areas.records.find((a) => a.areaName === AREA)?.id;
  await session.call('POST', '/sysDevice/add', { deviceName: 'Lobby controller', sn: SN, systemType: 'abDoor', deviceKind: '1', location: 1, areaId });
  const devices = await session.call<PageOf<{ id: string; sn: string }>>('GET', '/sysDevice/list?pageNo=1&pageSize=10');
  // the door takes its device's area
  await session.call('POST', '/sysDoor/add', { doorName: DOOR, deviceId: devices.records.find((d) => d.sn === SN)?.id, doorNo: 1 });
  fleet = await startFleet({ url: `mqtt://127.0.0.1:${mqttPort}`, keys, kinds: ['door'], rate: 0 });
  const folder = join(tmpdir(), `isps-floor-plan-${process.pid}`);
  mkdirSync(folder, { recursive: true });
  planFile = join(folder, 'lobby-plan.png');
  writeFileSync(planFile, floorPlanPng());
  browser = await launchBrowser();
});

afterAll(async () => {
  await context?.close();
  await fleet?.stop();
  await browser?.close();
  await session?.server.stop();
});

const marker = (page: Page) => page.locator('[data-plan-door]').filter({ hasText: DOOR });

async function switchLanguage(page: Page, lang: UiLanguage) {
  const current = (await page.evaluate(() => JSON.parse(localStorage.getItem('pro__lang') ?? '{}') as { value?: string })).value as UiLanguage;
  if (current === lang) return;
  await page.getByRole('button', { name: text(current, 'language.switch') }).click();
  await page.getByRole('menuitem', { name: text(lang, `language.${lang}` as const) }).click();
  await page.getByText(label('area.title', lang), { exact: true }).first().waitFor();
}

async function openEditor(page: Page, lang: UiLanguage) {
  await openInApp(page, '/device/area');
  await page.locator('[data-command="floorPlan"]').first().click();
  await dialog(page).getByText(text(lang, 'floorPlan.title', { name: AREA })).waitFor();
}

async function openPlanView(page: Page, lang: UiLanguage) {
  await openInApp(page, '/device/doorStatus');
  await page.getByTestId('door-status-view').getByText(text(lang, 'floorPlan.plan'), { exact: true }).click();
  await marker(page).waitFor();
}

/** Both widths of the current screen; at 375 px the page fits the phone and the marker keeps its place on the image. */
async function bothWidths(page: Page, name: string, lang: UiLanguage) {
  await page.setViewportSize(viewports.desktop);
  await screenshot(page, `${name}-${lang}-1440`);
  await page.setViewportSize(viewports.mobile);
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewports.mobile.width);
  await screenshot(page, `${name}-${lang}-375`);
  await page.setViewportSize(viewports.desktop);
}

describe('floor plans', () => {
  it('places a door by dragging, saves, and shows its live state on the door status plan, in every language at 1440 and 375 px', async () => {
    await context?.close();
    await fleet!.device(SN).emit(DeviceEventKind.doorState, { door: 1, state: 'closed' });
    context = await newContext(browser, { lang: 'en-US' });
    const page = await context.newPage();
    await page.setViewportSize(viewports.desktop);
    await signIn(page, session.server.url, '/device/area', 'admin', PASSWORD);

    // the editor: the image uploaded, the door dragged from the side list onto the plan, saved
    await page.locator('[data-command="floorPlan"]').first().click();
    const editor = dialog(page);
    await editor.getByText(text('en-US', 'floorPlan.noImage')).waitFor();
    await editor.locator('input[type="file"]').setInputFiles(planFile);
    const canvas = editor.getByTestId('floor-plan-canvas');
    await canvas.locator('img').waitFor();
    await expect.poll(() => canvas.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1200);
    const item = editor.locator('[data-item^="door:"]');
    const from = (await item.boundingBox())!;
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.5, { steps: 6 });
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height * 0.62, { steps: 4 });
    await page.mouse.up();
    const placed = canvas.locator('[data-marker^="door:"]');
    await placed.waitFor();
    expect(Number(await placed.getAttribute('data-x'))).toBeCloseTo(0.25, 1);
    expect(Number(await placed.getAttribute('data-y'))).toBeCloseTo(0.62, 1);
    const saved = page.waitForResponse((r) => r.url().endsWith('/sysArea/floorPlan/save'));
    await editor.getByTestId('floor-plan-save').click();
    expect((await (await saved).json()) as { success: boolean }).toMatchObject({ success: true });
    // the shots show the screens, not the passing notices of the upload and the save
    // (the notices pause while the pointer is over them, and the drag may have crossed one: it passes and leaves)
    const notice = page.locator('.ant-message-notice:visible').first();
    if (await notice.isVisible()) await notice.hover().catch(() => undefined);
    await page.mouse.move(viewports.desktop.width / 2, viewports.desktop.height - 10);
    await expect.poll(() => page.locator('.ant-message-notice:visible').count(), { timeout: 10_000 }).toBe(0);
    await bothWidths(page, 'floor-plan-editor', 'en-US');
    await editor.locator('.ant-modal-close').click();

    // the door status plan: the door's state, changed by the device without a reload
    await openPlanView(page, 'en-US');
    await expect.poll(() => marker(page).getAttribute('data-state')).toBe('closed');
    await page.evaluate(() => ((window as unknown as { planMark?: boolean }).planMark = true));
    await fleet!.device(SN).emit(DeviceEventKind.doorState, { door: 1, state: 'open' });
    await page.locator('[data-plan-door][data-state="open"]').waitFor({ timeout: 5000 });
    expect(await marker(page).textContent()).toContain(label('door.state.open', 'en-US'));
    expect(await page.evaluate(() => (window as unknown as { planMark?: boolean }).planMark)).toBe(true);
    // a click offers the remote opening to the administrator, who holds device:door:open
    await marker(page).click();
    const popover = page.getByTestId('plan-door-popover');
    await expect.poll(() => popover.getByRole('button', { name: text('en-US', 'door.remoteOpen') }).isEnabled()).toBe(true);
    await bothWidths(page, 'floor-plan-doors', 'en-US');
    await page.keyboard.press('Escape');

    for (const lang of ['zh-CN', 'ja-JP'] as const) {
      await switchLanguage(page, lang);
      await openEditor(page, lang);
      await dialog(page).locator('[data-marker^="door:"]').waitFor();
      await bothWidths(page, 'floor-plan-editor', lang);
      await dialog(page).locator('.ant-modal-close').click();
      await openPlanView(page, lang);
      await expect.poll(() => marker(page).textContent()).toContain(label('door.state.open', lang));
      await marker(page).click();
      await page.getByTestId('plan-door-popover').waitFor();
      await bothWidths(page, 'floor-plan-doors', lang);
      await page.keyboard.press('Escape');
    }
  });
});
