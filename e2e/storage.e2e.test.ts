import { DeviceEventKind, serverMessages, type Page as PageOf } from '@isps/contract';
import { SimDevice, provisionDevices } from '../tools/device-sim/src/index.ts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text, type UiLanguage } from './catalogues.ts';
import { addRow, dialog, label, pickOption, pickOptions, rows, waitForRow, openSignedIn, openInApp } from './crud-page.ts';
import { adminSessionOn, freePort, launchBrowser, screenshot, signedInState, startServer, viewports, type AdminSession, type SignedInState } from './harness.ts';

// One server with its embedded broker, one simulated cabinet device of six lockers and one key cabinet.
const PASSWORD = 'Lockers#E2e1';
const SN = 'LOCKER-0001';
const CARD = 'LOCKERCARD0001';
const KEY_SN = 'KEYS-0001';

let session: AdminSession;
let browser: Browser;
let signedIn: SignedInState;
let sim: SimDevice | undefined;
let keySim: SimDevice | undefined;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  const mqttPort = await freePort();
  session = await adminSessionOn(await startServer({ MQTT_PORT: String(mqttPort) }), PASSWORD);
  const keys = await provisionDevices(`${session.server.url}/api`, session.token, [SN, KEY_SN]);
  keySim = new SimDevice({ url: `mqtt://127.0.0.1:${mqttPort}`, sn: KEY_SN, key: keys.get(KEY_SN)!, kind: 'keys' });
  await keySim.start();
  sim = new SimDevice({ url: `mqtt://127.0.0.1:${mqttPort}`, sn: SN, key: keys.get(SN)!, kind: 'cabinet', cabinets: 6, appVersion: '2.1.0', doorOpenMs: 0 });
  await sim.start();
  // the hello makes the device's six lockers
  for (const until = Date.now() + 15_000; (await session.call<PageOf<unknown>>('GET', '/cabinet/cabinet/list?pageNo=1&pageSize=10')).total < 6; ) {
    if (Date.now() > until) throw new Error('the lockers of the hello did not come');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await session.call('POST', '/sysPeople/add', { name: 'Ann Locker', cardNo: CARD, userNo: 'L001' });
  await session.call('POST', '/sysPeople/add', { name: 'Ben Locker', cardNo: 'LOCKERCARD0002', userNo: 'L002' });
  await session.call('POST', '/cabinet/checkUpdate/add', { versionName: '2.2.0', versionCode: 22, description: 'Faster opening' });
  signedIn = await signedInState(session.server, 'admin', PASSWORD);
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await sim?.stop();
  await keySim?.stop();
  await browser?.close();
  await session?.server.stop();
});

function open(path: string, lang: UiLanguage = 'en-US', viewport: keyof typeof viewports = 'desktop'): Promise<Page> {
  return openSignedIn(browser, contexts, signedIn, session.server.url, [path, lang, viewport]);
}

const lockerRow = (page: Page, no: number) => rows(page).filter({ has: page.locator('td', { hasText: new RegExp(`^${no}$`) }) });

describe('storage cabinets', () => {
  it('allocates a locker from its row, refuses a reassignment with the spec’s message, and shows the holder’s opening live', async () => {
    const page = await open('/storage/cabinet');
    await lockerRow(page, 1).waitFor();
    await lockerRow(page, 1).getByRole('button', { name: label('cabinet.allocate') }).click();
    await dialog(page).getByText(label('cabinet.allocateTitle').replace('{{name}}', '1')).waitFor();
    await pickOptions(page, dialog(page).getByLabel(label('cabinet.allocatePeople')), ['Ann Locker']);
    await dialog(page).getByRole('button', { name: label('cabinet.allocate') }).click();
    await page.getByText('Allocation succeeded').waitFor();
    await lockerRow(page, 1).filter({ hasText: 'Ann Locker' }).filter({ hasText: label('cabinet.status.assigned') }).waitFor();
    await expect.poll(() => sim!.cabinets.get(1)?.holders[0]?.name, { timeout: 10_000 }).toBe('Ann Locker');

    // to someone else before the device cleared it: refused, and the dialog stays for another choice
    await lockerRow(page, 1).getByRole('button', { name: label('cabinet.allocate') }).click();
    // a one-person cabinet: Ann makes way for Ben in the picker
    await dialog(page).getByLabel(label('cabinet.allocatePeople')).click();
    await page.keyboard.press('Backspace');
    await pickOptions(page, dialog(page).getByLabel(label('cabinet.allocatePeople')), ['Ben Locker']);
    await dialog(page).getByRole('button', { name: label('cabinet.allocate') }).click();
    await page.getByText('Allocation failed: Cabinet must be cleared before reassignment').waitFor();
    await expect.poll(() => dialog(page).isVisible()).toBe(true);
    await dialog(page).getByRole('button', { name: text('en-US', 'common.cancel') }).click();

    // the opening record list gets the holder's opening without a reload
    const records = await open('/storage/openRecord');
    await records.locator('.ant-table-tbody .ant-empty').waitFor();
    await records.evaluate(() => ((window as unknown as { mark?: boolean }).mark = true));
    expect(await sim!.openCabinet(1, { cardNo: CARD })).toBe(true);
    await waitForRow(records, 'Ann Locker');
    expect(await rows(records).first().innerText()).toContain('**********0001');
    expect(await records.evaluate(() => (window as unknown as { mark?: boolean }).mark)).toBe(true);
  });

  it('shows the device area’s cabinets by device, each locker’s state and holders, and allocates from a tile', async () => {
    const page = await open('/device/cabinet');
    const tile = (no: number) => page.locator('[data-cabinet-id]').filter({ hasText: `#${no}` });
    await tile(1).and(page.locator('[data-status="assigned"]')).waitFor();
    await tile(2).and(page.locator('[data-status="unassigned"]')).waitFor();
    await tile(1).click();
    await page.getByTestId('cabinet-details').filter({ hasText: 'Ann Locker' }).waitFor();
    await tile(2).click();
    await page.getByTestId('cabinet-details').getByRole('button', { name: label('cabinet.allocate') }).click();
    await pickOptions(page, dialog(page).getByLabel(label('cabinet.allocatePeople')), ['Ben Locker']);
    await dialog(page).getByRole('button', { name: label('cabinet.allocate') }).click();
    await page.getByText('Allocation succeeded').waitFor();
    await tile(2).and(page.locator('[data-status="assigned"]')).waitFor();
  });

  it('sends a command to the device from the interface test page and shows its reply', async () => {
    const page = await open('/storage/interfaceTest');
    await pickOption(page, page.getByLabel(label('storageInterfaceTest.field.deviceId')), SN);
    await page.getByRole('button', { name: text('en-US', 'interfaceTest.send') }).click();
    await page.locator('[data-testid="interface-test-result"][data-status="answered"]').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('interface-test-reply').innerText()).toContain('"appVersion": "2.1.0"');
  });

  it('lists people with their lockers, the terminals with their app version, the versions offered and the managers', async () => {
    const userInfo = await open('/storage/userInfo');
    await waitForRow(userInfo, 'Ann Locker');
    expect(await rows(userInfo).filter({ hasText: 'Ann Locker' }).innerText()).toContain('#1');
    const terminals = await open('/storage/appDevice');
    await waitForRow(terminals, '2.1.0');
    const versions = await open('/storage/checkUpdate');
    await waitForRow(versions, '2.2.0');
    const managers = await open('/storage/manager');
    await managers.getByRole('button', { name: text('en-US', 'crud.add') }).click();
    await pickOption(managers, dialog(managers).getByLabel(label('storageManager.field.userName')), 'admin');
    await dialog(managers).getByRole('button', { name: text('en-US', 'crud.save') }).click();
    await waitForRow(managers, 'admin');
  });

  it('keys: a key person and a key role give a key, its take shows live with the holder and its history, and an overdue take warns every console', async () => {
    const people = await open('/ks/keyPeople');
    await addRow(people, (form) => pickOption(people, form.getByLabel(label('keyPeople.field.peopleId')), 'Ann Locker'));
    await waitForRow(people, 'Ann Locker');

    const keysPage = await open('/ks/key');
    await addRow(keysPage, async (form) => {
      await form.getByLabel(label('key.field.keyName')).fill('Van key');
      await pickOption(keysPage, form.getByLabel(label('key.field.deviceId')), KEY_SN);
      await form.getByLabel(label('key.field.slotNo')).fill('1');
    });
    await waitForRow(keysPage, 'Van key');
    await addRow(keysPage, async (form) => {
      await form.getByLabel(label('key.field.keyName')).fill('Store key');
      await pickOption(keysPage, form.getByLabel(label('key.field.deviceId')), KEY_SN);
      await form.getByLabel(label('key.field.slotNo')).fill('2');
    });

    const roles = await open('/ks/role');
    await addRow(roles, async (form) => {
      await form.getByLabel(label('deviceRole.field.roleName')).fill('Van drivers');
      await pickOptions(roles, form.getByLabel(label('keyRole.field.keyIds')), ['Van key']);
      await pickOptions(roles, form.getByLabel(label('deviceRole.field.peopleIds')), ['Ann Locker']);
    });
    await rows(roles).filter({ hasText: 'Van drivers' }).filter({ hasText: 'Van key' }).waitFor();
    await expect.poll(() => keySim!.keys.entry(1)?.holders.map((h) => h.name), { timeout: 10_000 }).toEqual(['Ann Locker']);

    // the take shows in the open list without a reload, with its holder; the row's history lists it
    await keysPage.evaluate(() => ((window as unknown as { mark?: boolean }).mark = true));
    expect(await keySim!.takeKey(1, { cardNo: CARD })).toBe(true);
    await rows(keysPage).filter({ hasText: 'Van key' }).filter({ hasText: label('key.status.taken') }).filter({ hasText: 'Ann Locker' }).waitFor();
    expect(await keysPage.evaluate(() => (window as unknown as { mark?: boolean }).mark)).toBe(true);
    await rows(keysPage).filter({ hasText: 'Van key' }).getByRole('button', { name: label('key.history') }).click();
    const history = dialog(keysPage);
    await history.getByText(label('key.historyTitle').replace('{{name}}', 'Van key')).waitFor();
    await history.locator('tr.ant-table-row, li').filter({ hasText: 'Ann Locker' }).filter({ hasText: label('key.history.notReturned') }).waitFor();
    await keySim!.returnKey(1);
    await history.locator('tr.ant-table-row, li').filter({ hasText: 'Ann Locker' }).filter({ hasNotText: label('key.history.notReturned') }).waitFor();
    await history.getByRole('button', { name: 'Close' }).click();

    // a take by nobody the console knows is overdue at once: one warning on the console, kept until "got it"
    await keySim!.emit(DeviceEventKind.keyTaken, { slot: 2, cardNo: 'NOBODYSCARD' });
    const warning = keysPage.locator('.ant-notification-notice').filter({ hasText: serverMessages['en-US']['keys.overdueTitle'] });
    await warning.filter({ hasText: 'Store key' }).waitFor({ timeout: 15_000 });
    await rows(keysPage).filter({ hasText: 'Store key' }).filter({ hasText: label('key.status.taken') }).waitFor();
    await screenshot(keysPage, 'keys-overdue-en-US-1440');
    await warning.getByRole('button', { name: text('en-US', 'realtime.gotIt') }).click();
    await warning.waitFor({ state: 'detached' });
    await keySim!.emit(DeviceEventKind.keyReturned, { slot: 2 });
  });

  it('reads in every language, at 1440 and 375 px', { timeout: 600_000 }, async () => {
    const screens = ['/storage/cabinet', '/storage/openRecord', '/storage/appDevice', '/storage/userInfo', '/storage/manager', '/storage/checkUpdate', '/storage/interfaceTest', '/device/cabinet', '/ks/key', '/ks/keyPeople', '/ks/role'];
    for (const lang of ['zh-CN', 'en-US', 'ja-JP'] as const satisfies readonly UiLanguage[]) {
      for (const viewport of ['desktop', 'mobile'] as const) {
        const page = await open(screens[0]!, lang, viewport);
        for (const path of screens) {
          // the first screen is open: the others are reached inside the console, as from its menu
          if (path !== screens[0]) await openInApp(page, path);
          await page.locator('.ant-table-tbody, [data-testid="crud-cards"], [data-testid="cabinet-tree"], [data-testid="interface-test"]').first().waitFor({ state: 'attached' });
          await page.locator('.ant-spin-spinning').first().waitFor({ state: 'detached' }).catch(() => undefined);
          if (viewport === 'mobile') await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewports.mobile.width);
          await screenshot(page, `storage-${path.split('/').slice(1).join('-')}-${lang}-${viewport === 'desktop' ? 1440 : 375}`);
        }
        await page.context().close();
      }
    }
  });
});
