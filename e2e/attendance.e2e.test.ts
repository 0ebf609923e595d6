import { DeviceEventKind, serverMessages, type Page as PageOf } from '@isps/contract';
import { SimDevice, provisionDevices } from '../tools/device-sim/src/index.ts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text, type UiLanguage } from './catalogues.ts';
import { addRow, dialog, label, pickOption, pickTreeNode, resetSearch, rows, search, searchPick, waitForRow, openSignedIn, openInApp } from './crud-page.ts';
import { adminSessionOn, freePort, launchBrowser, screenshot, signedInState, startServer, viewports, type AdminSession, type SignedInState } from './harness.ts';

// One server (site zone UTC) with its embedded broker, one palm-vein reader sending punches of March 2026.
const PASSWORD = 'Punches#E2e1';
const SN = 'ATTEND-0001';
const MONTH = '2026-03';
const at = (day: string, time: string) => Date.parse(`${MONTH}-${day}T${time}:00Z`);

let session: AdminSession;
let browser: Browser;
let signedIn: SignedInState;
let sim: SimDevice | undefined;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  const mqttPort = await freePort();
  session = await adminSessionOn(await startServer({ MQTT_PORT: String(mqttPort), TIME_ZONE: 'UTC' }), PASSWORD);
  const keys = await provisionDevices(`${session.server.url}/api`, session.token, [SN]);
  sim = new SimDevice({ url: `mqtt://127.0.0.1:${mqttPort}`, sn: SN, key: keys.get(SN)!, kind: 'vein' });
  await sim.start();
  await session.call('POST', '/sys/sysDepart/add', { departName: 'Front office' });
  const groups = await session.call<PageOf<{ id: string; departName: string }>>('GET', '/sys/sysDepart/list?pageNo=1&pageSize=50');
  const front = groups.records.find((g) => g.departName === 'Front office')!.id;
  await session.call('POST', '/sysPeople/add', { name: 'Ann Punch', userNo: 'A001', departId: front });
  await session.call('POST', '/sysPeople/add', { name: 'Bob Punch', userNo: 'A002', departId: front });
  signedIn = await signedInState(session.server, 'admin', PASSWORD);
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await sim?.stop();
  await browser?.close();
  await session?.server.stop();
});

function open(path: string, lang: UiLanguage = 'en-US', viewport: keyof typeof viewports = 'desktop'): Promise<Page> {
  return openSignedIn(browser, contexts, signedIn, session.server.url, [path, lang, viewport]);
}

const dayRow = (page: Page, day: string) => rows(page).filter({ hasText: `${MONTH}-${day}` });

describe('attendance', () => {
  it('a rule for the group, its festivals suggested for a year and confirmed', async () => {
    const page = await open('/device/oaRule');
    await page.locator('.ant-table-tbody .ant-empty').waitFor();
    await addRow(page, async (form) => {
      await form.getByLabel(label('oaRule.field.ruleName')).fill('Front office hours');
      await pickTreeNode(page, form.getByLabel(label('oaRule.field.departIds')), 'Front office');
      const year = form.getByRole('spinbutton', { name: label('oaRule.suggest').replace('{{year}}', String(new Date().getFullYear() + 1)) });
      await year.fill('2026');
      await form.getByRole('button', { name: label('oaRule.suggest').replace('{{year}}', '2026') }).click();
      await expect.poll(() => form.getByLabel(label('oaRule.field.festNationalDay')).inputValue()).toContain('2026-10-01');
      expect(await form.getByLabel(label('oaRule.field.workdays')).inputValue()).toContain('2026-02-14');
      // the administrator changes a suggestion before saving
      await form.getByLabel(label('oaRule.field.holidays')).fill('2026-03-13');
      await screenshot(page, 'attendance-rule-form-en-US-1440');
    });
    await waitForRow(page, 'Front office hours');
    // the system area's screen shows the very same rule
    const system = await open('/system/attendanceRule');
    await waitForRow(system, 'Front office hours');
  });

  it('punches become a month: recomputed from the screen, each person’s month as a calendar', async () => {
    // Ann: on time Monday, late Tuesday, absent Wednesday, one punch Thursday; Friday the 13th is the rule's holiday
    for (const [day, time] of [['02', '08:55'], ['02', '18:05'], ['03', '09:20'], ['03', '18:01'], ['05', '08:59']] as const) await sim!.emit(DeviceEventKind.punch, { userNo: 'A001', hand: 'left' }, at(day, time));
    await sim!.emit(DeviceEventKind.punch, { userNo: 'A002', hand: 'right' }, at('02', '08:40'));
    await sim!.emit(DeviceEventKind.punch, { userNo: 'A002', hand: 'right' }, at('02', '17:00'));
    // the punches are stored once the month counts them (the screen's recompute follows)
    await expect
      .poll(
        async () => {
          await session.call('POST', '/device/attendanceMonth/recompute', { month: MONTH });
          const month = await session.call<PageOf<{ userName: string; lateCount: number; missCardCount: number }>>('GET', `/device/attendanceMonth/list?month=${MONTH}`);
          const ann = month.records.find((r) => r.userName === 'Ann Punch');
          return ann ? [ann.lateCount, ann.missCardCount] : null;
        },
        { timeout: 20_000 },
      )
      .toEqual([1, 1]);

    const page = await open('/device/attendanceMonth');
    await waitForRow(page, 'Ann Punch');
    const picker = page.getByLabel(label('attendanceMonth.recomputeMonth'));
    await picker.click();
    await picker.fill(MONTH);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: label('attendanceMonth.recompute') }).click();
    await page.getByText(label('attendanceMonth.recomputed').replace('{{month}}', MONTH).replace('{{people}}', '2').replace('{{days}}', '62')).waitFor();
    await search(page, label('attendanceMonth.field.month'), MONTH);
    const ann = rows(page).filter({ hasText: 'Ann Punch' });
    await ann.waitFor();
    // 22 weekdays less the holiday: 1 normal, 1 late, 1 missing, the rest absent
    expect((await ann.locator('td').allInnerTexts()).map((s) => s.trim())).toEqual(expect.arrayContaining(['21', '1', '1', '18', '0', '1']));
    await ann.getByRole('button', { name: label('attendanceMonth.calendar') }).click();
    const calendar = dialog(page);
    await calendar.locator('[data-day="2026-03-02"][data-status="1"]').waitFor();
    await calendar.locator('[data-day="2026-03-03"][data-status="2"]').waitFor();
    await calendar.locator('[data-day="2026-03-13"][data-status="6"]').waitFor();
    await calendar.locator('[data-day="2026-03-07"][data-status="7"]').waitFor();
    await screenshot(page, 'attendance-calendar-en-US-1440');
    await calendar.getByRole('button', { name: 'Close' }).click();
  });

  it('a late day corrected with a reason, and every day traceable to its punches', async () => {
    const page = await open('/device/attendance');
    await search(page, label('attendance.field.month'), MONTH);
    await searchPick(page, label('attendance.field.status'), label('attendance.status.late'));
    const late = dayRow(page, '03');
    await late.waitFor();
    await late.getByRole('button', { name: label('attendance.correct') }).click();
    const correction = dialog(page);
    await pickOption(page, correction.getByLabel(label('attendance.field.status')), label('attendance.status.normal'));
    await correction.getByLabel(label('attendance.reason')).fill('Stuck in a lift');
    await screenshot(page, 'attendance-correct-en-US-1440');
    await correction.getByRole('button', { name: text('en-US', 'common.ok') }).click();
    await page.getByText(serverMessages['en-US']['common.ok']).first().waitFor();
    await expect.poll(() => rows(page).count()).toBe(0);

    await resetSearch(page);
    await search(page, label('attendance.field.month'), MONTH);
    await searchPick(page, label('attendance.field.status'), label('attendance.status.normal'));
    await dayRow(page, '03').filter({ hasText: 'Stuck in a lift' }).waitFor();
    await dayRow(page, '02').filter({ hasText: 'Ann Punch' }).getByRole('button', { name: label('attendance.punches') }).click();
    const punches = dialog(page);
    await punches.locator('tr.ant-table-row, li').filter({ hasText: '2026-03-02 08:55:00' }).waitFor();
    await punches.locator('tr.ant-table-row, li').filter({ hasText: '2026-03-02 18:05:00' }).waitFor();
    await screenshot(page, 'attendance-punches-en-US-1440');
  });

  it('reads in every language, at 1440 and 375 px', { timeout: 600_000 }, async () => {
    const screens = ['/device/oaRule', '/system/attendanceRule', '/device/attendance', '/device/attendanceMonth'];
    for (const lang of ['zh-CN', 'en-US', 'ja-JP'] as const satisfies readonly UiLanguage[]) {
      for (const viewport of ['desktop', 'mobile'] as const) {
        const page = await open(screens[0]!, lang, viewport);
        const width = viewport === 'desktop' ? 1440 : 375;
        for (const path of screens) {
          // the first screen is open: the others are reached inside the console, as from its menu
          if (path !== screens[0]) await openInApp(page, path);
          await rows(page).first().waitFor();
          await page.locator('.ant-spin-spinning').first().waitFor({ state: 'detached' }).catch(() => undefined);
          if (viewport === 'mobile') await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewports.mobile.width);
          await screenshot(page, `attendance-${path.split('/').slice(1).join('-')}-${lang}-${width}`);
        }
        // the month's calendar of the first person
        await rows(page).first().getByRole('button', { name: label('attendanceMonth.calendar', lang) }).click();
        await dialog(page).locator('[data-day="2026-03-02"]').waitFor();
        if (viewport === 'mobile') await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewports.mobile.width);
        await screenshot(page, `attendance-calendar-${lang}-${width}`);
        await page.context().close();
      }
    }
  });
});

