import { DeviceEventKind, DoorState, EmergencyPath, Perm, type DoorStatusRow, type EmergencyState, type MusterArea, type Page as PageOf } from '@isps/contract';
import { provisionDevices, startFleet, type Fleet } from '../tools/device-sim/src/index.ts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text, type UiLanguage } from './catalogues.ts';
import { openScreen } from './crud-page.ts';
import { adminSessionOn, api, apiLogin, freePort, launchBrowser, newContext, screenshot, signedInState, startServer, viewports, type AdminSession, type SignedInState } from './harness.ts';

// One server with its embedded broker, two door controllers (egress doors), one office door and a quake sensor.
const PASSWORD = 'Quake#Live1';
const GUARD = { username: 'guard', password: 'Guard#Pass2025' };
const doors = [
  { sn: 'EXIT-0001', name: 'East exit', egress: true, area: 'Building A' },
  { sn: 'EXIT-0002', name: 'Stairwell B', egress: true, area: 'Building B' },
  { sn: 'OFFICE-0001', name: 'Office', egress: false, area: 'Building A' },
];
const QUAKE = 'QUAKE-0001';
/** enough people that the muster list is longer than a phone's window */
const people = Array.from({ length: 14 }, (_, i) => ({ name: `Person ${String(i + 1).padStart(2, '0')}`, userNo: `U-${String(101 + i)}` }));

let session: AdminSession;
let browser: Browser;
/** the administrator and the guard, each signed in once for the whole file */
let signedIn: { admin: SignedInState; guard: SignedInState };
/** the two consoles of the quake test, kept open for the drill */
let adminPage: Page | undefined;
let guardPage: Page | undefined;
let fleet: Fleet | undefined;
const contexts: BrowserContext[] = [];
const doorIds = new Map<string, string>();

beforeAll(async () => {
  const mqttPort = await freePort();
  session = await adminSessionOn(await startServer({ MQTT_PORT: String(mqttPort) }), PASSWORD);
  const sns = [...doors.map((d) => d.sn), QUAKE];
  const keys = await provisionDevices(`${session.server.url}/api`, session.token, sns);
  for (const door of doors) await session.call('POST', '/sysDevice/add', { deviceName: `Controller ${door.name}`, sn: door.sn, systemType: 'abDoor', deviceKind: '1', location: 1 });
  await session.call('POST', '/sysDevice/add', { deviceName: 'Quake sensor 1F', sn: QUAKE, systemType: 'quake', deviceKind: '1', location: 1 });
  const areaIds = new Map<string, string>();
  for (const areaName of new Set(doors.map((d) => d.area))) {
    await session.call('POST', '/sysArea/add', { areaName });
    const areas = await session.call<PageOf<{ id: string; areaName: string }>>('GET', `/sysArea/list?areaName=${encodeURIComponent(areaName)}`);
    areaIds.set(areaName, areas.records.find((a) => a.areaName === areaName)!.id);
  }
  const devices = await session.call<PageOf<{ id: string; sn: string }>>('GET', '/sysDevice/list?pageNo=1&pageSize=10');
  for (const door of doors) {
    const deviceId = devices.records.find((d) => d.sn === door.sn)!.id;
    await session.call('POST', '/sysDoor/add', { doorName: door.name, deviceId, doorNo: 1, areaId: areaIds.get(door.area) });
  }
  const doorRows = await session.call<PageOf<{ id: string; doorName: string }>>('GET', '/sysDoor/list?pageNo=1&pageSize=10');
  for (const row of doorRows.records) doorIds.set(row.doorName, row.id);
  await session.call('PUT', EmergencyPath.setting, { enabled: true, threshold: 5, egressDoorIds: doors.filter((d) => d.egress).map((d) => doorIds.get(d.name)) });
  for (const person of people) await session.call('POST', '/sysPeople/add', { ...person, status: 1 });
  // a signed-in user of the same organisation who sees the home page only (an empty menu signs a user out)
  const role = await session.call<{ id: string }>('POST', '/sys/role/add', { roleName: 'Guard', roleCode: 'guard', roleType: 1 });
  type Node = { key: string; title: string; perms: string | null; children?: Node[] };
  const flat = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);
  const menu = flat((await session.call<{ treeList: Node[] }>('GET', '/sys/permission/queryTreeList')).treeList).filter((n) => ['menu.dashboard', 'menu.dashboard.analysis'].includes(n.title) || n.perms === Perm.dashboardView);
  await session.call('POST', '/sys/permission/saveRolePermission', { roleId: role.id, permissionIds: menu.map((n) => n.key).join(',') });
  await session.call('POST', '/sys/user/add', { username: GUARD.username, realname: 'Guard', password: `${GUARD.password}0`, selectedroles: role.id });
  const first = await apiLogin(session.server, GUARD.username, `${GUARD.password}0`);
  const changed = await api(session.server, 'POST', '/sys/user/updatePassword', {
    token: first.result.token,
    body: { username: GUARD.username, oldpassword: `${GUARD.password}0`, password: GUARD.password, confirmpassword: GUARD.password },
  });
  if (!changed.body.success) throw new Error(`the guard's password: ${changed.body.message}`);

  // kinds are taken in turn: the three controllers are doors, the last device the quake sensor
  fleet = await startFleet({ url: `mqtt://127.0.0.1:${mqttPort}`, keys, kinds: ['door', 'door', 'door', 'quake'], rate: 0 });
  // people came in: the first ten through the east exit (building A), the others through the stairwell (building B)
  for (const [index, person] of people.entries()) {
    await fleet.device(index < 10 ? doors[0]!.sn : doors[1]!.sn).emit(DeviceEventKind.opening, { door: 1, method: 'card', userNo: person.userNo, direction: 'in' });
  }
  const inside = async () => (await session.call<MusterArea[]>('GET', EmergencyPath.muster)).reduce((sum, area) => sum + area.people.length, 0);
  for (const deadline = Date.now() + 10_000; (await inside()) < people.length; ) {
    if (Date.now() > deadline) throw new Error('the entries were not stored');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  signedIn = { admin: await signedInState(session.server, 'admin', PASSWORD), guard: await signedInState(session.server, GUARD.username, GUARD.password) };
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await fleet?.stop();
  await browser?.close();
  await session?.server.stop();
});

async function consoleOf(lang: UiLanguage, who: keyof typeof signedIn, path: string): Promise<Page> {
  const context = await newContext(browser, { lang, signedIn: signedIn[who] });
  contexts.push(context);
  const page = await context.newPage();
  await openScreen(page, session.server.url, path);
  await page.evaluate(() => ((window as unknown as { quakeMark?: boolean }).quakeMark = true));
  return page;
}

const alarmOf = (page: Page) => page.getByTestId('emergency-alarm');
const doorStates = async () => new Map((await session.call<DoorStatusRow[]>('GET', '/sysDoor/status')).map((d) => [d.doorName, d.state]));
const egressOpen = async () => {
  const states = await doorStates();
  return doors.filter((d) => d.egress).every((d) => states.get(d.name) === DoorState.open);
};

/** The alarm fits the window: nothing wider than it, the muster list scrolls inside the overlay, its last person can be reached and the End control stays in view. */
async function checkFits(page: Page, lang: UiLanguage, width: number, endControl: 'button' | 'note') {
  const alarm = alarmOf(page);
  // the console under the alarm takes its phone layout a moment after the window narrows
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  const box = await alarm.boundingBox();
  expect(box && Math.round(box.width)).toBe(width);
  expect(await alarm.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  const last = alarm.getByText(`${people[9]!.name} (${people[9]!.userNo})`);
  await last.scrollIntoViewIfNeeded();
  const lastBox = await last.boundingBox();
  expect(lastBox!.y + lastBox!.height).toBeLessThanOrEqual(viewports[width === viewports.mobile.width ? 'mobile' : 'desktop'].height);
  // with the list scrolled to its end, the End control is still on screen: the head of the alarm stays put
  const end = endControl === 'button' ? alarm.getByRole('button', { name: text(lang, 'emergency.end') }) : alarm.getByText(text(lang, 'emergency.onlyPermitted'));
  const endBox = await end.boundingBox();
  expect(endBox!.x).toBeGreaterThanOrEqual(0);
  expect(endBox!.x + endBox!.width).toBeLessThanOrEqual(width);
  expect(endBox!.y).toBeGreaterThanOrEqual(0);
  expect(endBox!.y + endBox!.height).toBeLessThanOrEqual(viewports[width === viewports.mobile.width ? 'mobile' : 'desktop'].height);
  await alarm.evaluate((el) => el.scrollTo(0, 0));
}

describe('emergency (quake) scenario', () => {
  it('holds the egress doors open within a second, puts the alarm with the muster list on every console, and only a permitted operator ends it', { timeout: 60_000 }, async () => {
    // a try that failed half-way left its scenario running
    const left = await session.call<EmergencyState>('GET', EmergencyPath.current);
    if (left.active) await session.call('POST', EmergencyPath.end, { id: left.scenario.id });
    await expect.poll(egressOpen).toBe(false);
    const admin = await consoleOf('en-US', 'admin', '/device/doorStatus');
    const guard = await consoleOf('zh-CN', 'guard', '/dashboard/analysis');
    adminPage = admin;
    guardPage = guard;
    expect(await alarmOf(admin).count()).toBe(0);
    expect(await alarmOf(guard).count()).toBe(0);

    // a reading below the threshold first: the scenario starts on the one above it (intensity 6, as the log says)
    await fleet!.device(QUAKE).emit(DeviceEventKind.quakeReading, { pga: 0.03, intensity: 4 });
    const sent = Date.now();
    await fleet!.device(QUAKE).emit(DeviceEventKind.quakeReading, { pga: 0.35, intensity: 6 });
    // the controllers unlock when their holdOpen command arrives; the door status then reads open
    const unlocked = (sn: string) => fleet!.device(sn).memory.effects.some((e) => e.kind === 'holdOpen');
    await expect.poll(() => doors.filter((d) => d.egress).every((d) => unlocked(d.sn)), { timeout: 5000, interval: 10 }).toBe(true);
    const unlockedAfter = Date.now() - sent;
    await expect.poll(egressOpen, { timeout: 5000, interval: 50 }).toBe(true);
    const shownAfter = Date.now() - sent;
    console.log(`egress doors unlocked ${unlockedAfter} ms and read open on the door status ${shownAfter} ms after the quake reading`);
    expect(unlockedAfter).toBeLessThan(1000);
    expect(shownAfter).toBeLessThan(1000);
    expect((await doorStates()).get('Office')).not.toBe(DoorState.open);

    // both consoles, without a reload
    for (const [page, lang] of [[admin, 'en-US'], [guard, 'zh-CN']] as const) {
      const alarm = alarmOf(page);
      await alarm.waitFor({ timeout: 5000 });
      await alarm.getByText(text(lang, 'emergency.title')).waitFor();
      await alarm.getByText(text(lang, 'emergency.doorsHeld', { count: '2' })).waitFor();
      await alarm.getByText('Building A').waitFor();
      await alarm.getByText('Building B').waitFor();
      await alarm.getByText(`${people[0]!.name} (${people[0]!.userNo})`).waitFor();
      expect(await alarm.textContent()).toContain('Quake sensor 1F');
      expect(await page.evaluate(() => (window as unknown as { quakeMark?: boolean }).quakeMark)).toBe(true);
    }
    // the admin's own door status page shows the doors held open under the alarm
    await admin.locator('[data-door-id]').filter({ hasText: 'East exit' }).and(admin.locator('[data-state="open"]')).waitFor({ state: 'attached' });

    // the user without device:emergency:end has no End button
    expect(await alarmOf(guard).getByRole('button', { name: text('zh-CN', 'emergency.end') }).count()).toBe(0);
    expect(await alarmOf(guard).getByRole('button', { name: new RegExp(text('zh-CN', 'emergency.markSafe')) }).count()).toBe(0);
    await alarmOf(guard).getByText(text('zh-CN', 'emergency.onlyPermitted')).waitFor();
    const guardToken = (await apiLogin(session.server, GUARD.username, GUARD.password)).result.token;
    const current = await api<EmergencyState>(session.server, 'GET', EmergencyPath.current, { token: guardToken });
    expect(current.body.result.active).toBe(true);
    const refused = await api(session.server, 'POST', EmergencyPath.end, { token: guardToken, body: { id: current.body.result.scenario!.id } });
    expect(refused.body).toMatchObject({ success: false, code: 510 });

    for (const [page, lang, endControl] of [[admin, 'en-US', 'button'], [guard, 'zh-CN', 'note']] as const) {
      await page.setViewportSize(viewports.desktop);
      await checkFits(page, lang, viewports.desktop.width, endControl);
      await screenshot(page, `emergency-alarm-${lang}-1440`);
      await page.setViewportSize(viewports.mobile);
      await checkFits(page, lang, viewports.mobile.width, endControl);
      // on a phone the list is longer than the window: the overlay scrolls, the page under it does not move
      expect(await alarmOf(page).evaluate((el) => el.scrollHeight > el.clientHeight && getComputedStyle(el).overflowY === 'auto')).toBe(true);
      await screenshot(page, `emergency-alarm-${lang}-375`);
      await page.setViewportSize(viewports.desktop);
    }

    // the admin ends it after the confirmation; both alarms go away and the doors return to normal
    await alarmOf(admin).getByRole('button', { name: text('en-US', 'emergency.end') }).click();
    const confirm = admin.locator('.ant-popover').filter({ hasText: text('en-US', 'emergency.endConfirm') });
    await confirm.waitFor();
    expect((await session.call<EmergencyState>('GET', EmergencyPath.current)).active).toBe(true);
    await confirm.getByRole('button', { name: text('en-US', 'emergency.end') }).click();
    await alarmOf(admin).waitFor({ state: 'detached', timeout: 5000 });
    await alarmOf(guard).waitFor({ state: 'detached', timeout: 5000 });
    await expect.poll(async () => [...(await doorStates()).entries()].filter(([, state]) => state === DoorState.open).length, { timeout: 5000 }).toBe(0);

    // every step is in the operation log
    const logs = await session.call<PageOf<{ logContent: string }>>('GET', '/sys/log/list?logType=2&pageNo=1&pageSize=50');
    const lines = logs.records.map((r) => r.logContent);
    const expected = [
      'Emergency: setting saved (threshold 5, 2 egress doors)',
      'Emergency: quake intensity 6 at Quake sensor 1F, 2 egress doors held open',
      'Emergency: egress door East exit held open',
      'Emergency: egress door Stairwell B held open',
      'Emergency: the scenario started by Quake sensor 1F is ended',
      'Emergency: egress door East exit back to normal',
      'Emergency: egress door Stairwell B back to normal',
    ];
    for (const line of expected) expect(lines.some((l) => l.startsWith(line)), line).toBe(true);
  });
  it('a drill from the console: marked as a drill, End reachable while device notices arrive, roll call, then the report', { timeout: 60_000 }, async () => {
    const admin = adminPage ?? (await consoleOf('en-US', 'admin', '/device/emergency'));
    const guard = guardPage ?? (await consoleOf('zh-CN', 'guard', '/dashboard/analysis'));
    const left = await session.call<EmergencyState>('GET', EmergencyPath.current);
    if (left.active) await session.call('POST', EmergencyPath.end, { id: left.scenario.id });
    await admin.setViewportSize(viewports.desktop);
    await admin.goto(`${session.server.url}/device/emergency`);
    const start = admin.getByRole('button', { name: text('en-US', 'emergency.drill.start') });
    await start.click();
    const confirm = admin.locator('.ant-popover').filter({ hasText: text('en-US', 'emergency.drill.confirm') });
    await confirm.getByRole('button', { name: text('en-US', 'emergency.drill.start') }).click();

    // every console shows the alarm, marked as a drill; the egress doors are held open
    for (const [page, lang] of [[admin, 'en-US'], [guard, 'zh-CN']] as const) {
      const alarm = page.locator('[data-testid="emergency-alarm"][data-drill="true"]');
      await alarm.waitFor({ timeout: 5000 });
      await alarm.getByText(text(lang, 'emergency.drillBadge'), { exact: true }).waitFor();
    }
    await expect.poll(egressOpen, { timeout: 5000, interval: 50 }).toBe(true);

    // device notices arrive during the drill: the office controller goes away
    const office = fleet!.device(doors[2]!.sn);
    await office.stop();
    const offline = admin.locator('.ant-notification-notice').filter({ hasText: text('en-US', 'realtime.devicesDisconnected', { count: '1' }) });
    await offline.waitFor({ timeout: 5000 });

    // roll call: the admin marks the first person safe; the guard's console follows
    const alarm = alarmOf(admin);
    const first = `${people[0]!.name} (${people[0]!.userNo})`;
    await alarm.getByRole('button', { name: `${text('en-US', 'emergency.markSafe')}: ${first}` }).click();
    await alarm.getByRole('button', { name: `${text('en-US', 'emergency.unmarkSafe')}: ${first}` }).waitFor();
    await alarmOf(guard).locator('[data-safe="true"]').filter({ hasText: first }).waitFor({ timeout: 10_000 });

    for (const [page, lang] of [[admin, 'en-US'], [guard, 'zh-CN']] as const) {
      await page.setViewportSize(viewports.desktop);
      await screenshot(page, `emergency-drill-${lang}-1440`);
      await page.setViewportSize(viewports.mobile);
      await screenshot(page, `emergency-drill-${lang}-375`);
    }
    await admin.setViewportSize(viewports.desktop);

    // End stays reachable with the notice up: nothing else is at its centre, and a person's click reaches it
    const end = alarm.getByRole('button', { name: text('en-US', 'emergency.endDrill') });
    const box = (await end.boundingBox())!;
    expect(await admin.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest('button')?.textContent ?? null, [box.x + box.width / 2, box.y + box.height / 2])).toBe(text('en-US', 'emergency.endDrill'));
    await end.click();
    const endConfirm = admin.locator('.ant-popover').filter({ hasText: text('en-US', 'emergency.endDrillConfirm') });
    await endConfirm.getByRole('button', { name: text('en-US', 'emergency.endDrill') }).click();
    await alarmOf(admin).waitFor({ state: 'detached', timeout: 5000 });
    await alarmOf(guard).waitFor({ state: 'detached', timeout: 5000 });

    // the office controller comes back: its notice leaves by itself
    await office.start();
    await offline.waitFor({ state: 'detached', timeout: 10_000 });

    // the report: start and end, who, the doors, the roll call
    const row = admin.locator('.ant-table-row').filter({ hasText: text('en-US', 'emergency.reports.drill') }).first();
    await row.getByRole('button', { name: text('en-US', 'emergency.reports.view') }).click();
    const report = admin.getByTestId('emergency-report');
    await report.waitFor();
    await report.getByText(text('en-US', 'emergency.report.missing')).first().waitFor();
    const content = await report.textContent();
    expect(content).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} · admin.*\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} · admin/);
    expect(content).toContain('East exit, Stairwell B');
    expect(content).toContain(first);
    expect(content).toContain(text('en-US', 'emergency.rollCallSummary', { safe: '1', count: String(people.length) }));
    await screenshot(admin, 'emergency-report-en-US-1440');
    await admin.setViewportSize(viewports.mobile);
    await screenshot(admin, 'emergency-report-en-US-375');
    await admin.setViewportSize(viewports.desktop);
    const zh = await consoleOf('zh-CN', 'admin', '/device/emergency');
    await zh.locator('.ant-table-row').filter({ hasText: text('zh-CN', 'emergency.reports.drill') }).first().getByRole('button', { name: text('zh-CN', 'emergency.reports.view') }).click();
    await zh.getByTestId('emergency-report').getByText(text('zh-CN', 'emergency.report.missing')).first().waitFor();
    await screenshot(zh, 'emergency-report-zh-CN-1440');
    await zh.setViewportSize(viewports.mobile);
    await screenshot(zh, 'emergency-report-zh-CN-375');

    // the drill is in the operation log as a drill
    const logs = await session.call<PageOf<{ logContent: string }>>('GET', '/sys/log/list?logType=2&pageNo=1&pageSize=50');
    const lines = logs.records.map((r) => r.logContent);
    for (const line of ['Drill: started by admin, 2 egress doors held open', `Drill: ${first} marked safe`, 'Drill: the drill started by admin is ended']) expect(lines.some((l) => l.startsWith(line)), line).toBe(true);
  });
});
