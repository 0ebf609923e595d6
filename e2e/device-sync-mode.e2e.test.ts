import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceEventKind } from '../packages/contract/src/index.ts';
import { SimDevice, provisionDevices } from '../tools/device-sim/src/index.ts';
import { text } from './catalogues.ts';
import { dialog, label, openScreen, pickOption, rows, searchForm } from './crud-page.ts';
import { adminSessionOn, animationsSettled, freePort, launchBrowser, newContext, signedInState, startServer, type AdminSession, type SignedInState } from './harness.ts';

/**
 * A device's data sync mode chosen in the device form, and the access events' server verdict and flag, in Chinese and
 * in English. The sync engine and the verdicts themselves are tested through the API (modules/access-sync); here
 * what a person reads and picks.
 */
type Lang = 'zh-CN' | 'en-US';
const PASSWORD = 'SyncMode#Pass4';
const SN = 'SNSYNCMODE01';
const DEVICE = 'Sync controller';
const SHOTS = process.env.SYNC_MODE_SHOTS_DIR ?? '/tmp/shots/syncmode';

let session: AdminSession;
let browser: Browser;
/** the administrator signed in once for the whole file: every context opens with it */
let admin: SignedInState;
let sim: SimDevice;
let deviceId: string;

type Row = { id: string } & Record<string, unknown>;
/** Waits (outside a test too) until `check` holds. */
async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const listOf = (path: string, query = '') => session.call<{ records: Row[] }>('GET', `${path}/list?pageNo=1&pageSize=100${query}`);

beforeAll(async () => {
  const mqttPort = await freePort();
  session = await adminSessionOn(await startServer({ MQTT_PORT: String(mqttPort) }), PASSWORD);
  const keys = await provisionDevices(`${session.server.url}/api`, session.token, [SN]);
  await session.call('POST', '/sysDevice/add', { deviceName: DEVICE, sn: SN });
  deviceId = (await listOf('/sysDevice')).records.find((r) => r.sn === SN)!.id;
  await session.call('POST', '/sysDoor/add', { doorName: 'Sync gate', deviceId, doorNo: 1 });
  sim = new SimDevice({ url: `mqtt://127.0.0.1:${mqttPort}`, sn: SN, key: keys.get(SN)!, kind: 'door', doorOpenMs: 0 });
  await sim.start();
  // one person let in by right, one let in by a device that should not have (the server flags it)
  await session.call('POST', '/sysPeople/add', { name: 'Rita Rightful', cardNo: '77001001' });
  await session.call('POST', '/sysPeople/add', { name: 'Oscar Outsider', cardNo: '77001002' });
  const people = (await listOf('/sysPeople')).records;
  const rita = people.find((p) => p.name === 'Rita Rightful')!.id;
  const oscar = people.find((p) => p.name === 'Oscar Outsider')!.id;
  await session.call('POST', '/deviceRole/add', { roleName: 'Sync gate access', roleType: '1', deviceIds: deviceId, peopleIds: rita, timeSetting: '{"mode":"permanent"}' });
  await until(() => sim.access.entries.has(rita), 'the person on the device');
  expect((await sim.swipe('77001001')).allowed).toBe(true);
  await sim.emit(DeviceEventKind.opening, { door: 1, method: 'card', peopleId: oscar });
  await until(async () => (await listOf('/sysAccessEvent', `&deviceId=${deviceId}`)).records.length === 2, 'two access events');
  admin = await signedInState(session.server, 'admin', PASSWORD);
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await sim?.stop();
  await browser?.close();
  await session?.server.stop();
});

async function shot(page: Page, name: string) {
  await animationsSettled(page);
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

async function open(lang: Lang, path: string, viewport: 'desktop' | 'mobile' = 'desktop') {
  const context = await newContext(browser, { lang, viewport, signedIn: admin });
  const page = await context.newPage();
  await openScreen(page, session.server.url, path);
  return { context, page };
}

describe.each([
  ['zh-CN', 'full'],
  ['en-US', 'increment'],
] as const)('data sync mode and server verdicts in %s', (lang, mode) => {
  const lbl = (key: string) => label(key, lang);

  it(`picks the ${mode} sync mode in the device form`, async () => {
    const { context, page } = await open(lang, '/device/list');
    await rows(page).filter({ hasText: DEVICE }).first().getByRole('button', { name: text(lang, 'crud.edit'), exact: true }).click();
    const form = dialog(page);
    const control = form.getByLabel(lbl('device.field.syncMode'), { exact: true });
    await pickOption(page, control, lbl(`device.syncMode.${mode}`));
    await form.getByText(lbl(`device.syncMode.${mode}`)).first().scrollIntoViewIfNeeded();
    await shot(page, `device-form-sync-mode-${lang}-desktop`);
    await form.getByRole('button', { name: text(lang, 'crud.save') }).click();
    await expect.poll(async () => (await session.call<Row>('GET', `/sysDevice/queryById?id=${deviceId}`)).syncMode).toBe(mode);
    await context.close();

    // the same form on a phone
    const phone = await open(lang, '/device/list', 'mobile');
    await rows(phone.page).filter({ hasText: DEVICE }).first().getByRole('button', { name: text(lang, 'crud.edit'), exact: true }).click();
    const phoneForm = dialog(phone.page);
    await phoneForm.getByLabel(lbl('device.field.syncMode'), { exact: true }).scrollIntoViewIfNeeded();
    await expect.poll(() => phoneForm.locator('.ant-select-content, .ant-select-selection-item').filter({ hasText: lbl(`device.syncMode.${mode}`) }).count()).toBeGreaterThan(0);
    await shot(phone.page, `device-form-sync-mode-${lang}-mobile`);
    await phone.context.close();
  });

  it('lists the server verdict and the flag of access events, and finds the flagged opening', async () => {
    for (const viewport of ['desktop', 'mobile'] as const) {
      const { context, page } = await open(lang, '/device/accessEvent', viewport);
      await rows(page).first().waitFor();
      // a desktop's column heads, a phone card's field names
      const header = viewport === 'desktop' ? page.locator('.ant-table-thead') : rows(page).first();
      await expect.poll(() => header.innerText()).toContain(lbl('accessEvent.field.serverVerdict'));
      await expect.poll(() => header.innerText()).toContain(lbl('accessEvent.field.flagged'));
      if (viewport === 'desktop') {
        await pickOption(page, searchForm(page).getByLabel(lbl('accessEvent.field.flagged'), { exact: true }), lbl('accessEvent.flagged.yes'));
        await searchForm(page).getByRole('button', { name: text(lang, 'crud.search') }).click();
        await expect.poll(() => rows(page).count()).toBe(1);
        const flagged = rows(page).first();
        await expect.poll(() => flagged.innerText()).toContain('Oscar Outsider');
        expect(await flagged.innerText()).toContain(lbl('accessEvent.verdict.refused'));
        expect(await flagged.innerText()).toContain(lbl('accessEvent.flagged.yes'));
      }
      await shot(page, `access-events-verdict-${lang}-${viewport}`);
      await context.close();
    }
  });
});
