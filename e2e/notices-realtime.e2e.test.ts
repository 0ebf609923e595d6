import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text, type UiLanguage } from './catalogues.ts';
import { ADMIN_PASSWORD, api, apiLogin, changeAdminPassword, launchBrowser, newContext, screenshot, signedInState, startServer, type RunningServer, type SignedInState, type viewports } from './harness.ts';

// No user-create route exists yet (issue 3 registration needs an SMS code), so announcements go to ALL and the
// admin's own consoles receive them: one in English, one in Chinese.
const PASSWORD = 'Notice#Pass2';
/** issue 3 acceptance 2: an open console shows a release within 1 s of the release call's answer */
const PUSH_DEADLINE_MS = 1000;
/** SPEC section 9: the bell also reloads every 6 s */
const NOTICE_REFRESH_MS = 6000;
const NOTICE_LOAD = '/sys/annountCement/listByUser';

let server: RunningServer;

let port: number;
const dataDir = mkdtempSync(join(tmpdir(), 'isps-notices-'));
let browser: Browser;
let token: string;

async function call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const { body: answer } = await api<T>(server, method, path, { token, body });
  if (!answer.success) throw new Error(`${method} ${path}: ${answer.message}`);
  return answer.result;
}

async function writeAnnouncement(titile: string, msgContent: string, extra: Record<string, unknown> = {}): Promise<string> {
  await call('POST', '/sys/annountCement/add', { titile, msgContent, msgCategory: '1', msgType: 'ALL', priority: 'H', type: 'word', ...extra });
  const page = await call<{ records: { id: string; titile: string }[] }>('GET', `/sys/annountCement/list?titile=${encodeURIComponent(titile)}`);
  const row = page.records.find((r) => r.titile === titile);
  if (!row) throw new Error(`announcement ${titile} not found`);
  return row.id;
}

interface Console {
  context: BrowserContext;
  page: Page;
  sockets: number;
  /** when each of the page's sockets closed, seen from outside the page */
  closedAt: number[];
  frames: string[];
  alerts: string[];
  /** the console's notice loads, in the order the page asked for them, with how many frames had arrived by then */
  loads: { at: number; framesBefore: number; request: Request }[];
  /** with `relay`: sends a frame to the page as if the server had (the real socket carries everything else) */
  toPage?: (message: Record<string, unknown>) => void;
}

/** Opens the home page of a console signed in with `signedIn` (the administrator's state unless given another). */
async function openConsole(lang: UiLanguage, options: { signedIn?: SignedInState; viewport?: keyof typeof viewports; relay?: boolean } = {}): Promise<Console> {
  const context = await newContext(browser, { lang, viewport: options.viewport, signedIn: options.signedIn ?? admin });
  const page = await context.newPage();
  const con: Console = { context, page, sockets: 0, closedAt: [], frames: [], alerts: [], loads: [] };
  if (options.relay) {
    // the page's socket still goes to the real hub, both ways untouched; the test may add server frames
    await page.routeWebSocket(/\/websocket\//, (ws) => {
      ws.connectToServer();
      con.toPage = (message) => ws.send(JSON.stringify(message));
    });
  }
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith(NOTICE_LOAD)) con.loads.push({ at: Date.now(), framesBefore: con.frames.length, request });
  });
  page.on('websocket', (ws) => {
    con.sockets++;
    ws.on('framereceived', (frame) => con.frames.push(String(frame.payload)));
    ws.on('close', () => con.closedAt.push(Date.now()));
  });
  page.on('dialog', (dialog) => {
    con.alerts.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(`${server.url}/dashboard/analysis`);
  await page.waitForURL((url) => url.pathname === '/dashboard/analysis');
  await bell(page).waitFor();
  for (const deadline = Date.now() + 10_000; con.sockets === 0; await page.waitForTimeout(100)) {
    if (Date.now() > deadline) throw new Error('the console opened no websocket');
  }
  return con;
}

const bell = (page: Page) => page.getByTestId('notice-bell');
const count = async (page: Page) => Number(await bell(page).getAttribute('data-count'));
const popover = (page: Page) => page.getByTestId('notice-popover');
const detail = (page: Page) => page.locator('.announcement-detail-modal .ant-modal');

/** Polls the bell for `expected` and fails unless it shows within `ms` of `since`. */
async function countWithin(page: Page, expected: number, since: number, ms = PUSH_DEADLINE_MS): Promise<number> {
  for (;;) {
    if ((await count(page)) === expected) return Date.now() - since;
    if (Date.now() - since > ms) throw new Error(`bell shows ${await count(page)} instead of ${expected} ${ms} ms after the call`);
    await page.waitForTimeout(50);
  }
}


const pushOf = (frame: string | undefined): { cmd?: string; msgId?: string } => {
  try {
    return JSON.parse(frame ?? '{}') as { cmd?: string; msgId?: string };
  } catch {
    return {};
  }
};

/**
 * Releases announcement `id` and proves that `con` shows it through the socket, not through its 6 s reload: the
 * release is made right after one of the console's reloads has answered (the timer restarts with each load, so it
 * is not due for 6 s), the bell must show `expected` within 1 s of the release call's answer, and the load that
 * brought the new count must have been asked for after the `topic`/`user` frame for this announcement arrived.
 */
async function releaseSeenThroughPush(con: Console, id: string, expected: number): Promise<{ answered: number; took: number }> {
  const isLoad = (r: { url: () => string }) => new URL(r.url()).pathname.endsWith(NOTICE_LOAD);
  await con.page.waitForResponse(isLoad, { timeout: NOTICE_REFRESH_MS + 5000 });
  const reloaded = Date.now();
  const framesBefore = con.frames.length;
  const loadsBefore = con.loads.length;
  await call('GET', `/sys/annountCement/doReleaseData?id=${id}`);
  const answered = Date.now();
  const took = await countWithin(con.page, expected, answered);
  const pushAt = con.frames.findIndex((f, i) => i >= framesBefore && ['topic', 'user'].includes(pushOf(f).cmd ?? '') && pushOf(f).msgId === id);
  expect(pushAt, `a topic/user frame for ${id}`).toBeGreaterThanOrEqual(0);
  let shown: Console['loads'][number] | undefined;
  for (const load of con.loads.slice(loadsBefore)) {
    const summary = (await (await load.request.response())?.json()) as { result?: { anntMsgTotal: number; sysMsgTotal: number } };
    if ((summary.result?.anntMsgTotal ?? 0) + (summary.result?.sysMsgTotal ?? 0) === expected) {
      shown = load;
      break;
    }
  }
  expect(shown, 'the load that brought the new count').toBeDefined();
  expect(shown!.framesBefore, 'that load was asked for after the push arrived').toBeGreaterThan(pushAt);
  expect(shown!.at - reloaded, 'and before the 6 s timer was due').toBeLessThan(NOTICE_REFRESH_MS);
  return { answered, took };
}

/** The open dialog names the announcement, its sender and when it was sent (local time, to the second). */
async function expectDetailHeading(page: Page, lang: UiLanguage, title: string, sender: string, releasedAt: number) {
  const box = detail(page);
  await box.getByRole('heading', { name: title, exact: true }).waitFor();
  const meta = await box.getByText(`${text(lang, 'notices.sender')}: ${sender} · ${text(lang, 'notices.sendTime')}: `).innerText();
  const sent = /(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(meta.trim());
  expect(sent, meta).not.toBeNull();
  const [, y, mo, d, h, mi, sec] = sent!.map(Number);
  // the browser and this process share the machine's time zone
  expect(Math.abs(new Date(y!, mo! - 1, d, h, mi, sec).getTime() - releasedAt)).toBeLessThan(5000);
}

/** Nothing on the page is wider than the window. */
async function fitsWindow(page: Page) {
  const widths = await page.evaluate(() => {
    const wide = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).split(' ').slice(0, 2).join('.')}`);
    return { scroll: document.documentElement.scrollWidth, window: window.innerWidth, wide };
  });
  expect(widths.scroll, JSON.stringify(widths)).toBeLessThanOrEqual(widths.window);
  const box = await popover(page).boundingBox();
  if (box) expect(box.x >= 0 && box.x + box.width <= (page.viewportSize()?.width ?? 0)).toBe(true);
}

async function closeDetail(page: Page, lang: UiLanguage) {
  await detail(page).locator('.ant-modal-footer').getByRole('button', { name: text(lang, 'notices.close'), exact: true }).click();
}

async function openPopover(page: Page) {
  if (!(await popover(page).isVisible())) await bell(page).click();
  await popover(page).waitFor();
}

/** A bare HTTP server on the console's port that refuses every websocket upgrade and notes when it came. */
async function standIn(port: number): Promise<{ attempts: { at: number; protocol: string }[]; close: () => Promise<void> }> {
  const attempts: { at: number; protocol: string }[] = [];
  const stand = createServer((_request, response) => response.writeHead(503).end());
  stand.on('upgrade', (request: IncomingMessage, socket: Duplex) => {
    attempts.push({ at: Date.now(), protocol: String(request.headers['sec-websocket-protocol'] ?? '') });
    socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    stand.once('error', reject);
    stand.listen(port, '127.0.0.1', resolve);
  });
  return {
    attempts,
    close: () =>
      new Promise<void>((resolve) => {
        stand.closeAllConnections();
        stand.close(() => resolve());
      }),
  };
}

/** the administrator signed in once for the file: the consoles open with it */
let admin: SignedInState;
let en: Console;
let zh: Console;

beforeAll(async () => {
  server = await startServer({}, dataDir);
  // the restart below comes back at this address, where the open consoles look for it
  port = Number(new URL(server.url).port);
  await changeAdminPassword(server, ADMIN_PASSWORD, PASSWORD);
  token = (await apiLogin(server, 'admin', PASSWORD)).result.token;
  admin = await signedInState(server, 'admin', PASSWORD);
  browser = await launchBrowser();
  en = await openConsole('en-US');
  // a session of its own: the restart test tells the two consoles' reconnection attempts apart by their tokens
  zh = await openConsole('zh-CN', { signedIn: await signedInState(server, 'admin', PASSWORD) });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('notices over the real-time channel', () => {
  it('a release shows in the open consoles within 1 s through the socket, opening it marks it read, revoking removes it', async () => {
    expect(await count(en.page)).toBe(0);
    const id = await writeAnnouncement('Maintenance tonight', '<p>The <b>north gate</b> closes at 22:00.</p>', { sender: 'admin' });

    const { answered, took } = await releaseSeenThroughPush(en, id, 1);
    await countWithin(zh.page, 1, answered);
    console.log(`bell rose ${took} ms after the release`);

    // zh-CN screenshots: popover and detail
    await openPopover(zh.page);
    await zh.page.getByTestId('notice-item').first().waitFor();
    await screenshot(zh.page, 'notices-popover-zh-CN');

    await openPopover(en.page);
    await expect.poll(() => en.page.getByTestId('notice-item').count()).toBe(1);
    expect(await en.page.getByTestId('notice-item').first().innerText()).toContain('Maintenance tonight');
    expect(await popover(en.page).evaluate((el) => getComputedStyle(el).width)).toBe('300px');
    await screenshot(en.page, 'notices-popover-en-US');
    await en.page.getByTestId('notice-item').first().click();
    await detail(en.page).waitFor();
    expect(await detail(en.page).innerText()).toContain('north gate');
    await screenshot(en.page, 'notices-detail-en-US');
    await expect.poll(() => count(en.page), { timeout: 3000 }).toBe(0);
    // the other console learns of the read mark through the push (the reader's own notice list is per user)
    await closeDetail(en.page, 'en-US');
    await detail(en.page).waitFor({ state: 'hidden' });

    // a second one, then revoke it: it disappears from the bell without waiting for the poll
    const second = await writeAnnouncement('Fire drill', '<p>Drill at 10:00</p>');
    const t1 = Date.now();
    await call('GET', `/sys/annountCement/doReleaseData?id=${second}`);
    await countWithin(en.page, 1, t1);
    const t2 = Date.now();
    await call('GET', `/sys/annountCement/doReovkeData?id=${second}`);
    await countWithin(en.page, 0, t2);
    await openPopover(en.page);
    expect(await en.page.getByTestId('notice-item').count()).toBe(0);
    await en.page.keyboard.press('Escape');
  });

  it('the detail dialog in zh-CN: full-screen toggle and close', async () => {
    await expect.poll(() => count(zh.page), { timeout: 8000 }).toBe(0);
    const id = await writeAnnouncement('门禁系统升级通知', '<p>本周六 <b>02:00</b> 起门禁系统升级,请提前做好准备。</p>', { sender: '管理员', priority: 'M' });
    const t0 = Date.now();
    await call('GET', `/sys/annountCement/doReleaseData?id=${id}`);
    await countWithin(zh.page, 1, t0);
    await openPopover(zh.page);
    await zh.page.getByTestId('notice-item').first().click();
    await detail(zh.page).waitFor();
    await expectDetailHeading(zh.page, 'zh-CN', '门禁系统升级通知', '管理员', t0);
    // a notice without a page to open has nothing to handle
    expect(await detail(zh.page).getByRole('button', { name: text('zh-CN', 'notices.handle') }).count()).toBe(0);
    // 60% of the 1440 px window once the opening animation has finished
    await expect.poll(async () => Math.round((await detail(zh.page).boundingBox())?.width ?? 0)).toBe(864);
    await screenshot(zh.page, 'notices-detail-zh-CN');
    await detail(zh.page).getByRole('button', { name: text('zh-CN', 'notices.fullScreen') }).click();
    await expect.poll(async () => (await detail(zh.page).boundingBox())?.width ?? 0).toBeGreaterThan(1400);
    await closeDetail(zh.page, 'zh-CN');
    await detail(zh.page).waitFor({ state: 'hidden' });
    await expect.poll(() => count(zh.page), { timeout: 3000 }).toBe(0);
  });

  it("an announcement that opens a page: the detail names title, sender and time, and 'Handle' goes to the page while it is unread", async () => {
    await expect.poll(() => count(en.page), { timeout: 8000 }).toBe(0);
    const title = 'Badge audit this week';
    const id = await writeAnnouncement(title, '<p>Please check the badge list.</p>', { sender: 'Security office', openType: 'url', openPage: '/isps/userAnnouncement' });
    const t0 = Date.now();
    await call('GET', `/sys/annountCement/doReleaseData?id=${id}`);
    await countWithin(en.page, 1, t0);
    await openPopover(en.page);
    await en.page.getByTestId('notice-item').filter({ hasText: title }).click();
    await detail(en.page).waitFor();
    await expectDetailHeading(en.page, 'en-US', title, 'Security office', t0);
    await detail(en.page).getByRole('button', { name: text('en-US', 'notices.handle'), exact: true }).click();
    await en.page.waitForURL((url) => url.pathname === '/isps/userAnnouncement');
    await detail(en.page).waitFor({ state: 'hidden' });
    await expect.poll(() => count(en.page), { timeout: 3000 }).toBe(0);
    // read now: opened again from the user's list it has nothing left to handle
    const row = en.page.locator('.ant-table-row').filter({ hasText: title });
    await row.getByText(text('en-US', 'notices.read'), { exact: true }).waitFor();
    await row.getByRole('button', { name: text('en-US', 'notices.open'), exact: true }).click();
    await detail(en.page).waitFor();
    await expectDetailHeading(en.page, 'en-US', title, 'Security office', t0);
    expect(await detail(en.page).getByRole('button', { name: text('en-US', 'notices.handle') }).count()).toBe(0);
    await closeDetail(en.page, 'en-US');
    await detail(en.page).waitFor({ state: 'hidden' });
    await en.page.goBack();
    await en.page.waitForURL((url) => url.pathname === '/dashboard/analysis');
  });

  it.each(['zh-CN', 'en-US'] as const)('on a 375 px phone in %s: the notice popover, the detail and the user announcement list fit the window', async (lang) => {
    const phone = await openConsole(lang, { viewport: 'mobile' });
    try {
      await expect.poll(() => count(phone.page), { timeout: 8000 }).toBe(0);
      const [title, sender] = lang === 'zh-CN' ? ['地下停车场周五临时封闭', '物业服务中心'] : ['Underground car park closed on Friday', 'Facilities desk'];
      const id = await writeAnnouncement(title, lang === 'zh-CN' ? '<p>周五 <b>08:00–18:00</b> 地面划线施工，请改停东侧停车场。</p>' : '<p>Line painting on Friday <b>08:00–18:00</b>: please park on the east side.</p>', { sender, priority: 'M' });
      const t0 = Date.now();
      await call('GET', `/sys/annountCement/doReleaseData?id=${id}`);
      await countWithin(phone.page, 1, t0);
      await openPopover(phone.page);
      await phone.page.getByTestId('notice-item').filter({ hasText: title }).waitFor();
      await screenshot(phone.page, `notices-popover-${lang}-mobile`);
      await fitsWindow(phone.page);
      await phone.page.getByTestId('notice-item').filter({ hasText: title }).click();
      await detail(phone.page).waitFor();
      await expectDetailHeading(phone.page, lang, title, sender, t0);
      await screenshot(phone.page, `notices-detail-${lang}-mobile`);
      await fitsWindow(phone.page);
      await closeDetail(phone.page, lang);
      await detail(phone.page).waitFor({ state: 'hidden' });
      await expect.poll(() => count(phone.page), { timeout: 3000 }).toBe(0);
      await openPopover(phone.page);
      await popover(phone.page).getByRole('button', { name: text(lang, 'notices.viewMore'), exact: true }).click();
      await phone.page.waitForURL((url) => url.pathname === '/isps/userAnnouncement');
      await phone.page.locator('.ant-table-row').filter({ hasText: title }).getByText(text(lang, 'notices.read'), { exact: true }).waitFor();
      await screenshot(phone.page, `notices-user-list-${lang}-mobile`);
      await fitsWindow(phone.page);
    } finally {
      await phone.context.close();
    }
  });

  it('announcement HTML with script, event handlers and javascript: URLs is shown sanitised', async () => {
    const html =
      '<p id="safe">visible text</p><script>window.__xss = 1; alert(1)</script>' +
      '<img src="x" onerror="window.__xss = 2; alert(2)"><a id="jslink" href="javascript:alert(3)">click</a>' +
      '<p onclick="alert(4)" onmouseover="alert(5)">hover</p>';
    const id = await writeAnnouncement('Sanitised content', html);
    const t0 = Date.now();
    await call('GET', `/sys/annountCement/doReleaseData?id=${id}`);
    await countWithin(en.page, 1, t0);
    await openPopover(en.page);
    await en.page.getByTestId('notice-item').first().click();
    await detail(en.page).waitFor();
    const content = en.page.getByTestId('announcement-content');
    await content.getByText('visible text').waitFor();
    await content.getByText('click').click({ timeout: 2000 });
    await en.page.getByText('hover').hover();
    await en.page.waitForTimeout(300);
    const inner = await content.innerHTML();
    expect(inner).not.toMatch(/<script/i);
    expect(inner).not.toMatch(/onerror|onclick|onmouseover/i);
    expect(inner).not.toMatch(/javascript:/i);
    expect(await en.page.locator('[onerror], [onclick], [onmouseover], a[href^="javascript"]').count()).toBe(0);
    expect(await en.page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(en.alerts).toEqual([]);
    await closeDetail(en.page, 'en-US');
  });

  it("an announcement to one chosen user reaches that user's open console within 1 s, and no one else's", async () => {
    const first = 'Nora#First12';
    // a second administrator: a console with the home page and the bell, but another user
    const adminRole = (await call<{ records: { id: string; roleCode: string }[] }>('GET', '/sys/role/list?roleCode=admin')).records.find((r) => r.roleCode === 'admin')?.id;
    const noraRow = async () => (await call<{ records: { id: string }[] }>('GET', '/sys/user/list?username=nora')).records[0]?.id;
    // a retry finds her from the try before, her password already changed
    if (!(await noraRow())) {
      await call('POST', '/sys/user/add', { username: 'nora', realname: 'Nora Reader', password: first, selectedroles: adminRole });
      const noraToken = (await apiLogin(server, 'nora', first)).result.token;
      const { body: changed } = await api(server, 'POST', '/sys/user/updatePassword', { token: noraToken, body: { username: 'nora', oldpassword: first, password: PASSWORD, confirmpassword: PASSWORD } });
      expect(changed.success).toBe(true);
    }
    const noraId = (await noraRow()) ?? '';
    const title = `Your badge is ready ${Date.now().toString(36)}`;
    const nora = await openConsole('en-US', { signedIn: await signedInState(server, 'nora', PASSWORD) });
    try {
      const adminBefore = await count(en.page);
      // her bell first shows what she already has (the announcements to everyone): wait for that, not a 0 before it loads
      const noraSummary = await api<{ anntMsgTotal: number; sysMsgTotal: number }>(server, 'GET', '/sys/annountCement/listByUser', { token: (await apiLogin(server, 'nora', PASSWORD)).result.token });
      const noraBefore = noraSummary.body.result.anntMsgTotal + noraSummary.body.result.sysMsgTotal;
      await expect.poll(() => count(nora.page)).toBe(noraBefore);
      const id = await writeAnnouncement(title, '<p>Collect it at the front desk.</p>', { msgType: 'USER', userIds: `${noraId},` });
      console.log(`her bell rose ${(await releaseSeenThroughPush(nora, id, noraBefore + 1)).took} ms after the release`);
      await openPopover(nora.page);
      await nora.page.getByTestId('notice-item').filter({ hasText: title }).waitFor();
      // the administrator's consoles were not told
      await en.page.waitForTimeout(1000);
      expect(await count(en.page)).toBe(adminBefore);
      await openPopover(en.page);
      expect(await en.page.getByTestId('notice-item').filter({ hasText: title }).count()).toBe(0);
      await en.page.keyboard.press('Escape');
    } finally {
      await nora.context.close();
    }
  });

  it.each(['zh-CN', 'en-US'] as const)("in %s devices back online are told briefly, devices offline stay told until 'got it' or until they are back", async (lang) => {
    // the server sends these once devices report in (the device gateway); here the test adds them to the real socket
    const device = await openConsole(lang, { relay: true });
    try {
      const send = device.toPage;
      if (!send) throw new Error('the console opened no routed websocket');
      const notices = device.page.locator('.ant-notification-notice');
      const gate = lang === 'zh-CN' ? '东门闸机 (ISPS-GATE-0001)' : 'East gate (ISPS-GATE-0001)';
      send({ cmd: 'deviceConnect', msgId: 'ISPS-GATE-0001', msgTxt: gate });
      const online = notices.filter({ hasText: text(lang, 'realtime.devicesConnected', { count: '1' }) });
      await online.getByText(gate, { exact: true }).waitFor();
      // with no text the serial number stands alone; two devices dropping are one notice with a count
      send({ cmd: 'deviceDisConnect', msgId: 'ISPS-CAM-0007' });
      const offlineOne = notices.filter({ hasText: text(lang, 'realtime.devicesDisconnected', { count: '1' }) });
      await offlineOne.getByText('ISPS-CAM-0007', { exact: true }).waitFor();
      send({ cmd: 'deviceDisConnect', msgId: 'ISPS-CAM-0008' });
      const offline = notices.filter({ hasText: text(lang, 'realtime.devicesDisconnected', { count: '2' }) });
      await offline.getByText('ISPS-CAM-0007, ISPS-CAM-0008', { exact: true }).waitFor();
      await screenshot(device.page, `notices-device-${lang}`);
      // the devices back leave after 4.5 s; the devices offline wait for the person
      await online.waitFor({ state: 'detached', timeout: 8000 });
      expect(await notices.count()).toBe(1);
      // one coming back leaves the other named; the last one back takes the notice away by itself
      send({ cmd: 'deviceConnect', msgId: 'ISPS-CAM-0008' });
      await notices.filter({ hasText: text(lang, 'realtime.devicesDisconnected', { count: '1' }) }).getByText('ISPS-CAM-0007', { exact: true }).waitFor();
      send({ cmd: 'deviceConnect', msgId: 'ISPS-CAM-0007' });
      await expect.poll(() => notices.filter({ hasText: text(lang, 'realtime.devicesDisconnected', { count: '1' }) }).count()).toBe(0);
      // a device dropping again is told again, and 'got it' takes it away
      send({ cmd: 'deviceDisConnect', msgId: 'ISPS-GATE-0001', msgTxt: gate });
      const again = notices.filter({ hasText: text(lang, 'realtime.devicesDisconnected', { count: '1' }) });
      await again.getByText(gate, { exact: true }).waitFor();
      await again.getByRole('button', { name: text(lang, 'realtime.gotIt'), exact: true }).click();
      await again.waitFor({ state: 'detached' });
      await expect.poll(() => notices.filter({ hasText: text(lang, 'realtime.devicesDisconnected', { count: '1' }) }).count()).toBe(0);
    } finally {
      await device.context.close();
    }
  });

  it('with the server gone the consoles retry after 3 s, 6 s, 9 s… and recover when it returns', { timeout: 120_000 }, async () => {
    await expect.poll(() => count(en.page), { timeout: 8000 }).toBe(0);
    const consoles = [en, zh];
    const tokens = await Promise.all(consoles.map((c) => c.page.evaluate(() => (JSON.parse(localStorage.getItem('pro__Access-Token') ?? '{}') as { value?: string }).value ?? '')));
    const dropsBefore = consoles.map((c) => c.closedAt.length);
    await server.stop();
    // something else answers at the address meanwhile and refuses every upgrade, noting when each one was tried
    const stand = await standIn(port);
    const attemptsOf = (i: number) => stand.attempts.filter((a) => a.protocol === tokens[i]).map((a) => a.at);
    await expect.poll(() => Math.min(attemptsOf(0).length, attemptsOf(1).length), { timeout: 40_000, interval: 250 }).toBeGreaterThanOrEqual(3);
    await stand.close();
    const framesBefore = en.frames.length;
    server = await startServer({}, dataDir, { port });

    consoles.forEach((c, i) => {
      const dropped = c.closedAt[dropsBefore[i] ?? 0];
      expect(dropped, 'the live socket closed with the server').toBeDefined();
      const [first, second, third] = attemptsOf(i);
      const gaps = [first! - dropped!, second! - first!, third! - second!];
      console.log(`console ${i}: retries after ${gaps.join(' ms, ')} ms`);
      gaps.forEach((gap, n) => expect(Math.abs(gap - 3000 * (n + 1)), `gap ${n + 1} was ${gap} ms`).toBeLessThanOrEqual(1000));
    });

    // the next retry (12 s after the third) finds the server: the socket opens and the idle heartbeat is answered
    await expect.poll(() => en.frames.slice(framesBefore).some((f) => f.includes('"heartcheck"')), { timeout: 40_000, interval: 250 }).toBe(true);
    const id = await writeAnnouncement('After restart', '<p>Back again</p>');
    const t0 = Date.now();
    await call('GET', `/sys/annountCement/doReleaseData?id=${id}`);
    await countWithin(en.page, 1, t0);
    await countWithin(zh.page, 1, t0);
  });
});
