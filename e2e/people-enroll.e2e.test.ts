import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage, translate, withIdCheck } from '../packages/contract/src/index.ts';
import { SimDevice, provisionDevices } from '../tools/device-sim/src/index.ts';
import { text } from './catalogues.ts';
import { dialog, label, rows, signIn } from './crud-page.ts';
import { adminSessionOn, animationsSettled, freePort, launchBrowser, newContext, startServer, viewports, type AdminSession } from './harness.ts';

/**
 * Palm-vein enrollment and ID card reading as a person does them on the people screen, in Chinese and in English,
 * against a simulated capture device: the enrollment dialog (device, hand, waiting, outcome or the device's reason,
 * cancel), the list's registration columns, and the form's "Read ID card" button with its 'No ID card detected'.
 */
type Lang = 'zh-CN' | 'en-US';
const PASSWORD = 'Enroll#Pass4';
const SHOTS = process.env.ENROLL_SHOTS_DIR ?? '/tmp/shots/enroll';
const SN = 'VEIN-E2E-0001';
const DEVICE_NAME = 'Front desk reader';
const PEOPLE_PATH = '/device/people';

let session: AdminSession;
let browser: Browser;
let reader: SimDevice;

const lbl = (lang: Lang, key: string, params: Record<string, string> = {}) => formatMessage(label(key, lang), params);

/** A legal resident ID card number of a sequence number. */
const idCard = (sequence: number): string => withIdCheck(`11010519900307${String(sequence).padStart(3, '0')}`);

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await animationsSettled(page);
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

beforeAll(async () => {
  const mqttPort = await freePort();
  session = await adminSessionOn(await startServer({ MQTT_PORT: String(mqttPort) }), PASSWORD);
  const keys = await provisionDevices(`${session.server.url}/api`, session.token, [SN]);
  await session.call('POST', '/sysDevice/add', { deviceName: DEVICE_NAME, sn: SN, systemType: 'access', deviceKind: '3', location: 1 });
  reader = new SimDevice({ url: `mqtt://127.0.0.1:${mqttPort}`, sn: SN, key: keys.get(SN)!, kind: 'vein', enrollDelayMs: 1500 });
  await reader.start();
  const deviceId = (await session.call<{ records: Array<{ id: string; sn: string }> }>('GET', '/sysDevice/list?pageNo=1&pageSize=10')).records.find((d) => d.sn === SN)!.id;
  // set as capture device once it is online (the device says hello right after it connects)
  for (let tries = 0; Number((await session.call<{ online: number }>('GET', `/sysDevice/queryById?id=${deviceId}`)).online) !== 1; tries += 1) {
    if (tries > 100) throw new Error(`${SN} never came online`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await session.call('GET', `/sysDevice/setCapture?id=${deviceId}`);
  for (const [n, name] of ['Zhang San', 'Alice Enroll'].entries()) await session.call('POST', '/sysPeople/add', { name, idCard: idCard(n + 1) });
  browser = await launchBrowser();
});

afterAll(async () => {
  await reader?.stop().catch(() => undefined);
  await browser?.close();
  await session?.server.stop();
});

const personRow = (page: Page, name: string) => rows(page).filter({ hasText: name });
/** the row's cell of a declared column (its position among the list's columns, after the selection box) */
async function cellOf(page: Page, name: string, column: string): Promise<Locator> {
  const headers = (await page.locator('.ant-table-thead th').allInnerTexts()).map((h) => h.trim());
  return personRow(page, name).locator('td').nth(headers.indexOf(column));
}

describe.each([
  ['zh-CN', 'Zhang San'],
  ['en-US', 'Alice Enroll'],
] as const)('palm-vein enrollment and ID card reading in %s', (lang, person) => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await newContext(browser, { lang });
    page = await context.newPage();
    await signIn(page, session.server.url, PEOPLE_PATH, 'admin', PASSWORD);
    await personRow(page, person).waitFor();
  });
  afterAll(async () => {
    await context?.close();
  });

  it('enrolls the right palm (with the keyboard in zh-CN), waits for the device and shows the hand registered in the list', async () => {
    reader.enrollOutcome = 'ok';
    await personRow(page, person).getByRole('button', { name: lbl(lang, 'people.enroll') }).click();
    const box = dialog(page);
    await box.getByText(lbl(lang, 'people.enrollTitle', { name: person })).waitFor();
    // the tenant's capture device comes chosen
    await box.getByText(`${DEVICE_NAME} (${SN})`).waitFor();
    await shot(page, `enroll-dialog-${lang}-1440`);
    if (lang === 'zh-CN') {
      // the hand is picked with the arrow keys, the enrollment started with Enter on the button (once: the keys are no language's)
      await box.getByRole('radio', { name: lbl(lang, 'people.hand.left') }).focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => box.getByRole('radio', { name: lbl(lang, 'people.hand.right') }).isChecked()).toBe(true);
      await box.getByRole('button', { name: lbl(lang, 'people.enrollStart') }).focus();
      await page.keyboard.press('Enter');
    } else {
      await box.locator('label').filter({ hasText: lbl(lang, 'people.hand.right') }).click();
      await expect.poll(() => box.getByRole('radio', { name: lbl(lang, 'people.hand.right') }).isChecked()).toBe(true);
      await box.getByRole('button', { name: lbl(lang, 'people.enrollStart') }).click();
    }
    await box.getByText(lbl(lang, 'people.enrollWaiting', { hand: lbl(lang, 'people.hand.right'), device: DEVICE_NAME })).waitFor();
    await shot(page, `enroll-waiting-${lang}-1440`);
    await box.getByText(lbl(lang, 'people.enrollDone', { hand: lbl(lang, 'people.hand.right') })).waitFor({ timeout: 10_000 });
    await shot(page, `enroll-done-${lang}-1440`);
    await box.locator('.ant-modal-footer').getByRole('button', { name: lbl(lang, 'people.enrollClose') }).click();
    await expect.poll(async () => (await cellOf(page, person, lbl(lang, 'people.field.palmRight'))).innerText()).toBe(lbl(lang, 'people.palm.registered'));
    expect(await (await cellOf(page, person, lbl(lang, 'people.field.palmLeft'))).innerText()).toBe(lbl(lang, 'people.palm.none'));
  });

  it('shows the device’s reason when the palm is read poorly, tries again and can cancel', async () => {
    reader.enrollOutcome = 'quality';
    await personRow(page, person).getByRole('button', { name: lbl(lang, 'people.enroll') }).click();
    const box = dialog(page);
    await box.getByRole('radio', { name: lbl(lang, 'people.hand.left') }).check();
    await box.getByRole('button', { name: lbl(lang, 'people.enrollStart') }).click();
    await box.getByText(lbl(lang, 'people.enrollFailure.quality')).waitFor({ timeout: 10_000 });
    await shot(page, `enroll-failed-${lang}-1440`);
    reader.enrollOutcome = 'ok';
    await box.getByRole('button', { name: lbl(lang, 'people.enrollAgain') }).click();
    await box.getByRole('button', { name: lbl(lang, 'people.enrollStart') }).click();
    await box.getByRole('button', { name: lbl(lang, 'people.enrollCancel') }).click();
    await box.getByText(lbl(lang, 'people.enrollFailure.cancelled')).waitFor();
    await box.locator('.ant-modal-footer').getByRole('button', { name: lbl(lang, 'people.enrollClose') }).click();
    expect(await (await cellOf(page, person, lbl(lang, 'people.field.palmLeft'))).innerText()).toBe(lbl(lang, 'people.palm.none'));
  });

  it('reads the ID card into the form (and, in zh-CN, warns that none is detected)', async () => {
    reader.idCard = null;
    await page.getByRole('button', { name: text(lang, 'crud.add') }).first().click();
    const form = dialog(page);
    const button = form.getByRole('button', { name: lbl(lang, 'people.readIdCard') });
    if (lang === 'zh-CN') {
      // the server's warning, shown as it comes (its words in every language: apps/server/src/modules/people/enrollment.test.ts)
      await button.click();
      await page.locator('.ant-message-notice').filter({ hasText: translate(lang, 'people.noIdCard') }).waitFor();
    }
    const card = idCard(40 + (lang === 'en-US' ? 1 : 0));
    reader.idCard = card;
    await button.click();
    const field = form.getByLabel(lbl(lang, 'people.field.idCard'), { exact: true });
    await expect.poll(() => field.inputValue()).toBe(card);
    await shot(page, `idcard-form-${lang}-1440`);
    await page.setViewportSize(viewports.mobile);
    await shot(page, `idcard-form-${lang}-375`);
    await form.locator('.ant-modal-footer').getByRole('button', { name: text(lang, 'common.cancel') }).click();
    // a changed form asks before it is discarded
    const confirm = page.locator('.ant-modal-confirm');
    if (await confirm.isVisible().catch(() => false)) await confirm.getByRole('button', { name: text(lang, 'crud.discard') }).click();
    // the enrollment dialog on a phone
    await personRow(page, person).getByRole('button', { name: lbl(lang, 'people.enroll') }).click();
    await dialog(page).getByText(`${DEVICE_NAME} (${SN})`).waitFor();
    await shot(page, `enroll-dialog-${lang}-375`);
    await dialog(page).locator('.ant-modal-footer').getByRole('button', { name: text(lang, 'common.cancel') }).click();
    await page.setViewportSize(viewports.desktop);
  });
});
