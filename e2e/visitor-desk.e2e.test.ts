import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate, withIdCheck } from '../packages/contract/src/index.ts';
import { SimDevice, provisionDevices } from '../tools/device-sim/src/index.ts';
import { text, type UiLanguage } from './catalogues.ts';
import { dialog, label, openScreen, rows } from './crud-page.ts';
import { adminSessionOn, freePort, launchBrowser, newContext, screenshot, signedInState, startServer, viewports, type AdminSession, type SignedInState } from './harness.ts';

/**
 * The arrivals desk (issue 30) as an operator uses it from the visit list: the visit's Arrival button, the visitor's
 * ID card read at a simulated capture device (or typed), a card issued and shown masked, then the pass with its QR
 * code; the pass in every language on a desktop and a phone, and as printed.
 */
const PASSWORD = 'Desk#Arrive5';
const SN = 'VEIN-DESK-0001';
const VISIT_PATH = '/vistor/visit';
const CARD = 'DESKCARD4711';

let session: AdminSession;
let browser: Browser;
let reader: SimDevice;
let signedIn: SignedInState;
const contexts: BrowserContext[] = [];
let visitId = '';

/** A legal resident ID card number of a sequence number. */
const idCard = (sequence: number): string => withIdCheck(`11010519880402${String(sequence).padStart(3, '0')}`);
const VISITOR_ID_CARD = idCard(7);

/** A wall-clock time of the machine's zone (the server's TIME_ZONE in these tests). */
function wall(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:00`;
}

const t = (lang: UiLanguage, key: string, params: Record<string, string> = {}) => text(lang, key as Parameters<typeof text>[1], params);

beforeAll(async () => {
  const mqttPort = await freePort();
  session = await adminSessionOn(await startServer({ MQTT_PORT: String(mqttPort) }), PASSWORD);
  const keys = await provisionDevices(`${session.server.url}/api`, session.token, [SN]);
  await session.call('POST', '/sysDevice/add', { deviceName: 'Front desk reader', sn: SN, systemType: 'access', deviceKind: '3', location: 1 });
  reader = new SimDevice({ url: `mqtt://127.0.0.1:${mqttPort}`, sn: SN, key: keys.get(SN)!, kind: 'vein', enrollDelayMs: 500 });
  await reader.start();
  const devices = await session.call<{ records: Array<{ id: string; sn: string }> }>('GET', '/sysDevice/list?pageNo=1&pageSize=10');
  const deviceId = devices.records.find((d) => d.sn === SN)!.id;
  for (let tries = 0; Number((await session.call<{ online: number }>('GET', `/sysDevice/queryById?id=${deviceId}`)).online) !== 1; tries += 1) {
    if (tries > 100) throw new Error(`${SN} never came online`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await session.call('GET', `/sysDevice/setCapture?id=${deviceId}`);
  await session.call('POST', '/sysDoor/add', { doorName: 'Lobby gate', deviceId, doorNo: 1 });
  const doorId = (await session.call<{ records: Array<{ id: string }> }>('GET', '/sysDoor/list?pageNo=1&pageSize=10')).records[0]!.id;
  await session.call('POST', '/sysVistor/add', { name: 'Chen Jing', idType: '1', idCard: VISITOR_ID_CARD, phone: '13911112222', category: 'general', password: '123456' });
  const visitorId = (await session.call<{ records: Array<{ id: string }> }>('GET', '/sysVistor/list?pageNo=1&pageSize=10&name=Chen*')).records[0]!.id;
  const adminId = (await session.call<{ records: Array<{ id: string; username: string }> }>('GET', '/sys/user/list?pageNo=1&pageSize=10')).records.find((u) => u.username === 'admin')!.id;
  const now = Date.now();
  visitId = (await session.call<{ id: string }>('POST', '/vistor/visit/add', { visitorId, hostId: adminId, startTime: wall(now - 3_600_000), endTime: wall(now + 2 * 3_600_000), doorIds: doorId })).id;
  signedIn = await signedInState(session.server, 'admin', PASSWORD);
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await reader?.stop().catch(() => undefined);
  await browser?.close();
  await session?.server.stop();
});

async function openDesk(lang: UiLanguage, viewport: keyof typeof viewports = 'desktop'): Promise<Page> {
  const context = await newContext(browser, { lang, signedIn, viewport });
  contexts.push(context);
  const page = await context.newPage();
  await openScreen(page, session.server.url, VISIT_PATH);
  const row = rows(page).filter({ hasText: 'Chen Jing' });
  await row.getByRole('button', { name: t(lang, 'visitorDesk.arrival') }).click();
  await dialog(page).getByText(t(lang, 'visitorDesk.stepIdCard')).first().waitFor();
  return page;
}

describe('the arrivals desk', () => {
  it('reads the ID card at the capture device, issues a card shown masked, and shows the pass with a QR code of the visit', async () => {
    const page = await openDesk('en-US');
    const box = dialog(page);
    reader.idCard = VISITOR_ID_CARD;
    await box.getByRole('button', { name: t('en-US', 'visitorDesk.readIdCard') }).click();
    await box.getByText(`**************${VISITOR_ID_CARD.slice(-4)}`).waitFor();
    await box.getByRole('radio').first().waitFor();
    expect(await box.getByRole('radio').first().isChecked()).toBe(true);
    await screenshot(page, 'visitor-desk-found-en-US-desktop');
    await box.getByRole('button', { name: t('en-US', 'visitorDesk.next'), exact: true }).click();

    await box.getByLabel(t('en-US', 'visitorDesk.cardNo')).fill(CARD);
    await box.getByRole('button', { name: t('en-US', 'visitorDesk.issue'), exact: true }).click();
    const masked = `${'*'.repeat(CARD.length - 4)}${CARD.slice(-4)}`;
    await box.getByText(t('en-US', 'visitorDesk.cardIssued', { masked })).waitFor();
    expect(await box.getByLabel(t('en-US', 'visitorDesk.cardNo')).inputValue()).toBe('');
    expect(await box.innerText()).not.toContain(CARD);
    await screenshot(page, 'visitor-desk-card-en-US-desktop');

    await box.getByRole('button', { name: t('en-US', 'visitorDesk.showPass') }).click();
    const pass = box.getByTestId('visit-pass');
    await pass.getByText('Chen Jing').waitFor();
    expect(await pass.innerText()).toContain(label('visit.field.hostId'));
    expect(await pass.innerText()).toContain('Administrator');
    expect(await pass.innerText()).toContain('Lobby gate');
    expect(await pass.innerText()).toContain(visitId);
    expect(await pass.locator('svg path').count()).toBeGreaterThan(0);
    await box.getByRole('button', { name: t('en-US', 'visitorDesk.print') }).waitFor();
    // as printed: the pass alone on the page
    await page.emulateMedia({ media: 'print' });
    await expect.poll(() => page.locator('body > div [data-testid="visit-pass"]').filter({ hasText: 'Chen Jing' }).last().isVisible()).toBe(true);
    expect(await box.isVisible()).toBe(false);
    await screenshot(page, 'visitor-desk-pass-print');
    await page.emulateMedia({ media: 'screen' });
  });

  // a phone opens the desk afresh: a window crossing the phone breakpoint draws the list anew, and its row's dialog with it
  it.each(['zh-CN', 'en-US', 'ja-JP'] as const)('shows the pass of a visitor found by the typed ID number in %s, desktop and 375 px', async (lang) => {
    for (const viewport of ['desktop', 'mobile'] as const) {
      const page = await openDesk(lang, viewport);
      const box = dialog(page);
      const field = box.getByLabel(t(lang, 'visitorDesk.idCard'));
      if (lang === 'zh-CN' && viewport === 'desktop') {
        // a number no visitor has: said so, and a visitor can be registered
        await field.fill(idCard(900));
        await box.getByRole('button', { name: t(lang, 'visitorDesk.find') }).click();
        await box.getByText(translate(lang, 'visitorDesk.noVisitor')).waitFor();
        await box.getByRole('button', { name: t(lang, 'visitorDesk.register') }).waitFor();
        await screenshot(page, `visitor-desk-none-${lang}-desktop`);
      }
      await field.fill(VISITOR_ID_CARD.toLowerCase());
      await box.getByRole('button', { name: t(lang, 'visitorDesk.find') }).click();
      await box.getByRole('radio').first().waitFor();
      if (viewport === 'mobile') await screenshot(page, `visitor-desk-found-${lang}-375`);
      await box.getByRole('button', { name: t(lang, 'visitorDesk.next'), exact: true }).click();
      await box.getByRole('button', { name: t(lang, 'visitorDesk.showPass') }).click();
      await box.getByTestId('visit-pass').getByText('Chen Jing').waitFor();
      await screenshot(page, `visitor-desk-pass-${lang}-${viewport === 'mobile' ? '375' : 'desktop'}`);
      await page.context().close();
    }
  });
});
