/** Starts the real server (built console + compiled API) on a free port with a fresh data folder, and Debian's Chromium. */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page, type Response } from 'playwright-core';
import { AccountPath, Limits } from '../packages/contract/src/index.ts';
import { freePort } from '../apps/server/src/test/free-port.ts';
import { SHELL_MARK } from '../apps/web/src/features/user/login-shell.ts';
import { STORAGE_PREFIX, StorageKey } from '../apps/web/src/shared/storage/local-store.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const screenshotDir = join(root, 'e2e', 'screenshots');
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ADMIN_PASSWORD = 'Initial#Pass1';

export { freePort };

export interface RunningServer {
  url: string;
  dataDir: string;
  output: () => string;
  stop: () => Promise<void>;
}

export interface StartOptions {
  /** listen here instead of a free port (a restart that clients must find at the same address) */
  port?: number;
  /** a first start on an empty data folder, not on a copy of the run's seeded one (`SEEDED_DATA_DIR`) */
  fresh?: boolean;
}

/**
 * The environment variable naming a data folder as a first start leaves it (migrated, seeded, its secrets made):
 * global-setup.ts makes one per run, and every server started without a folder of its own starts from a copy of it.
 * A first start migrates and seeds some 375 tables, seconds of a busy machine's time; a start on a copy skips that,
 * and adds nothing to it (its rows are those of the first start).
 */
export const SEEDED_DATA_DIR = 'ISPS_E2E_SEEDED_DATA_DIR';

/** Makes the seeded data folder `global-setup.ts` hands every file: one first start of the server, then stopped. */
export async function makeSeededDataDir(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'isps-e2e-seeded-'));
  const server = await startServer({}, dir, { fresh: true });
  await server.stop();
  return dir;
}

/** A new data folder: a copy of the run's seeded one when there is one, else empty (the server's first start). */
function newDataDir(fresh: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'isps-e2e-'));
  const seeded = process.env[SEEDED_DATA_DIR];
  if (!fresh && seeded && existsSync(join(seeded, 'isps.db'))) cpSync(seeded, dir, { recursive: true });
  return dir;
}

export async function startServer(env: Record<string, string> = {}, dataDir?: string, options: StartOptions = {}): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  // a database in PostgreSQL or MariaDB is not in the folder: a copy would hold secrets that do not fit it
  const dir = dataDir ?? newDataDir(Boolean(options.fresh) || Boolean(env.DATABASE_URL));
  let output = '';
  // the compiled server, as `npm start` runs it (global-setup.ts has built what was stale)
  const child: ChildProcess = spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      MQTT_PORT: '0',
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD,
      LOGIN_CAPTCHA: 'off',
      DATABASE_URL: '',
      REDIS_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    if (await fetch(`${url}/api/health`).then((r) => r.ok, () => false)) {
      // another process may hold the port (taken after freePort(), or a given port not yet released): the health
      // answer then came from it, and ours exits with EADDRINUSE
      await new Promise((r) => setTimeout(r, 300));
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
      break;
    }
    if (Date.now() > deadline) throw new Error(`server did not become ready:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    dataDir: dir,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const viewports = {
  desktop: { width: 1440, height: 900 },
  mobile: { width: 375, height: 812 },
} as const;

/** A browser's storage as Playwright saves and restores it (`newContext`'s `signedIn`). */
export type SignedInState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

/**
 * The browser storage of a console signed in as `username`: one API login kept the way the login page keeps its
 * answer (the token and the user, each `{ value, expire }`). A file signs in once and opens every context with it;
 * the login form itself has browser tests of its own (auth-flow, account-flows, the login shots).
 */
export async function signedInState(server: { url: string }, username: string, password: string): Promise<SignedInState> {
  const answer = await apiLogin(server, username, password);
  if (!answer.success) throw new Error(`${username} cannot sign in: ${answer.message}`);
  const expire = Date.now() + Limits.tokenLifetimeMs;
  const kept = (key: string, value: unknown) => ({ name: STORAGE_PREFIX + key, value: JSON.stringify({ value, expire }) });
  return {
    cookies: [],
    origins: [{ origin: new URL(server.url).origin, localStorage: [kept(StorageKey.token, answer.result.token), kept(StorageKey.userInfo, answer.result.userInfo)] }],
  };
}

/** Writes a signed-in state into a page already open on its origin, for a session that starts in the middle of a test. */
export async function restoreSignedIn(page: Page, state: SignedInState): Promise<void> {
  const origin = new URL(page.url()).origin;
  const stored = state.origins.find((o) => o.origin === origin);
  if (!stored) throw new Error(`the signed-in state holds nothing for ${origin}`);
  await page.evaluate((entries) => {
    for (const { name, value } of entries) window.localStorage.setItem(name, value);
  }, stored.localStorage);
}

/**
 * A fresh browser context with the console's language preset the way the console stores it. The system asks for
 * reduced motion, which the console honours, so steps need not wait for animations on two busy cores; `motion`
 * gives a context with animations, as most people see the console; `timezoneId` a browser in another time zone;
 * `signedIn` a browser already signed in (`signedInState`).
 */
export async function newContext(
  browser: Browser,
  options: { lang?: string; viewport?: keyof typeof viewports; motion?: boolean; timezoneId?: string; locale?: string; signedIn?: SignedInState } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: viewports[options.viewport ?? 'desktop'],
    ...(options.signedIn ? { storageState: options.signedIn } : {}),
    // a browser in Chinese, as the console's people use it: a first visit follows the browser's language; `locale`
    // gives a browser in another one
    locale: options.locale ?? 'zh-CN',
    reducedMotion: options.motion ? 'no-preference' : 'reduce',
    // the machine's zone unless a test reads times as someone elsewhere does
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
  });
  if (options.lang) {
    const lang = options.lang;
    await context.addInitScript((value) => {
      if (!window.localStorage.getItem('pro__lang')) window.localStorage.setItem('pro__lang', value);
    }, JSON.stringify({ value: lang, expire: null }));
  }
  return context;
}

/**
 * Opens the login page and waits until the console has drawn it: a first visit shows the page drawn at build time
 * before the console's script has run (its slider and button work only once the console has taken over), and starts
 * that script when the person first presses a key (here Shift, which types nothing), points or types.
 */
export async function openLoginPage(page: Page, url: string, search = ''): Promise<void> {
  await page.goto(`${url}/user/login${search}`);
  await page.keyboard.press('Shift');
  await page.locator(`#root:not([${SHELL_MARK}]) input[name=password]`).waitFor();
}

/** Waits until no finite animation runs (dialogs, drawers and popovers have finished opening or closing). */
export async function animationsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity));
}

/** A shot of the window as a person sees it once animations have settled. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  await animationsSettled(page);
  const file = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

interface Answer<T> {
  success: boolean;
  code: number;
  message: string;
  result: T;
}

/**
 * The response the next steps will cause, waited for from now. If a step fails before it comes, the wait ends
 * quietly with the test instead of as an unhandled rejection that fails the whole run.
 */
export function responseTo(page: Page, matches: (response: Response) => boolean): Promise<Response> {
  const waiting = page.waitForResponse(matches);
  waiting.catch(() => undefined);
  return waiting;
}

/** Calls the API like a device or script would: JSON in, envelope out. */
export async function api<T = unknown>(
  server: { url: string },
  method: string,
  path: string,
  options: { token?: string; body?: unknown; lang?: string } = {},
): Promise<{ status: number; body: Answer<T> }> {
  const headers: Record<string, string> = { lang: options.lang ?? 'en-US' };
  if (options.token) headers['X-Access-Token'] = options.token;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${server.url}/api${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: res.status, body: (await res.json()) as Answer<T> };
}

export async function apiLogin(server: { url: string }, username: string, password: string): Promise<Answer<{ token: string; userInfo: unknown }>> {
  const { body } = await api<{ token: string; userInfo: unknown }>(server, 'POST', '/sys/login', {
    body: { username, password, captcha: 'none', checkKey: 'e2e' },
  });
  return body;
}

/** Replaces the initial admin password through the API, for tests that start after the first login. */
export async function changeAdminPassword(server: { url: string }, from: string, to: string): Promise<void> {
  const login = await apiLogin(server, 'admin', from);
  if (!login.success) throw new Error(`login failed: ${login.message}`);
  const { body } = await api(server, 'POST', '/sys/user/updatePassword', {
    token: login.result.token,
    body: { username: 'admin', oldpassword: from, password: to, confirmpassword: to },
  });
  if (!body.success) throw new Error(`password change failed: ${body.message}`);
}

/** A started server whose administrator password is `password`, with the administrator's API token. */
export interface AdminSession {
  server: RunningServer;
  token: string;
  /** an API call as the administrator: its result, or an error naming the refusal */
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
}

/** Starts a server, replaces the first-login password with `password` and signs the administrator in through the API. */
export async function startAsAdmin(password: string): Promise<AdminSession> {
  return adminSessionOn(await startServer(), password);
}

/** On a fresh server: replaces the first-login password with `password` and signs the administrator in through the API. */
export async function adminSessionOn(server: RunningServer, password: string): Promise<AdminSession> {
  await changeAdminPassword(server, ADMIN_PASSWORD, password);
  const token = (await apiLogin(server, 'admin', password)).result.token;
  return {
    server,
    token,
    async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
      const { body: answer } = await api<T>(server, method, path, { token, body });
      if (!answer.success) throw new Error(`${method} ${path}: ${answer.message}`);
      return answer.result;
    },
  };
}

/**
 * Drags the login form's slider captcha to the end the way a hand does: pressed, several moves, released. Call it
 * once the form is filled in; a form without a slider (an older build) is left alone, account-flows checks it exists.
 */
export async function passSliderCaptcha(page: Page): Promise<void> {
  const track = page.getByTestId('slider-captcha').filter({ visible: true });
  if ((await track.count()) === 0) return;
  // the console shows the slider until the server's login settings arrive (asked anew when the page is reached inside
  // the console) and takes it away when they say the captcha is off: the page's own fetch of them, routes included,
  // tells which it will be
  const settings = await page.evaluate(async (path) => ((await (await fetch(path)).json()) as { result?: { captcha?: boolean } }).result, `/api${AccountPath.loginSettings}`);
  if (settings?.captcha === false) {
    await track.waitFor({ state: 'hidden' });
    return;
  }
  // a handle still sliding back from an earlier try is not where its box says
  await animationsSettled(page);
  const handle = track.getByRole('slider');
  const [from, box] = await Promise.all([handle.boundingBox(), track.boundingBox()]);
  if (!from || !box) throw new Error('no slider captcha on the page');
  const y = from.y + from.height / 2;
  await page.mouse.move(from.x + from.width / 2, y);
  await page.mouse.down();
  const startX = from.x + from.width / 2;
  const endX = box.x + box.width + 5;
  for (let i = 1; i <= 8; i++) {
    await page.mouse.move(startX + ((endX - startX) * i) / 8, y);
    await page.waitForTimeout(25);
  }
  await page.mouse.up();
  await handle.and(page.locator('[aria-valuenow="100"]')).waitFor();
}
