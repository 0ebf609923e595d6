/**
 * web-login: what it costs to open the login page of the built console (`npm run build`), served by the production
 * server (`node apps/server/dist/main.js`, precompressed assets) in Debian's Chromium:
 * - web-login-js: the gzip size of every JavaScript file the page loads until the network is quiet after its password
 *   field shows, and how many files (target <= 250 KB);
 * - web-login-time: the median time from navigation to a visible password field against a blank React page (one
 *   password field) built by Vite and served by the same static file plugin in the same run with the security
 *   headers the console's pages carry (target <= 1.5x);
 * - web-login-lighthouse-desktop / -mobile: Lighthouse 12 performance scores (targets 98 and 90);
 * - web-analysis-js: the gzip size of every JavaScript file the home page (/dashboard/analysis, with its charts) loads
 *   for a signed-in administrator until its charts show and the network is quiet, the signed-in shell's included
 *   (the frame, its header and menu icons, antd's context, one language's console messages, entity labels and server
 *   messages; not what loads on first use: the header's dialogs and drawer, the bell's popover, the menu search's
 *   select, the emergency overlay, the screen declarations) (target <= 600 KB); web-analysis-page-js: those of them a
 *   plain page of the shell (the clock) does not load, the home page's own with its charts' library (target <=
 *   200 KB). The login page's figure above shows that library is not among the login page's files.
 * Each page opens in a fresh browser context (cold cache).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { chromium, type Browser, type Response } from 'playwright-core';
import { build } from 'vite';
import { precompressBuild } from '../scripts/precompress.mjs';
import { staticConsole } from '../apps/server/src/platform/static-console.ts';
import { finish, report } from './support.ts';
import { freePort, inTurns, median, root } from './start-support.ts';
import { SHELL_MARK } from '../apps/web/src/features/user/login-shell.ts';
import { STORAGE_PREFIX, StorageKey } from '../apps/web/src/shared/storage/local-store.ts';
import { Limits } from '../packages/contract/src/index.ts';

const TARGET_KB = 250;
const TARGET_ANALYSIS_KB = 600;
const TARGET_ANALYSIS_OWN_KB = 200;
const ADMIN_PASSWORD = 'Bench#Login1';
const TARGET_RATIO = 1.5;
const TARGET_DESKTOP = 98;
const TARGET_MOBILE = 90;
const RUNS = 11;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD_FIELD = 'input[type=password]';

/** The production server on a fresh data folder, until its health answers. */
async function startConsoleServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'isps-web-login-'));
  const child = spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], {
    cwd: dataDir,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ADMIN_PASSWORD, LOGIN_CAPTCHA: 'off', MQTT_PORT: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  while (!(await fetch(`${url}/api/health`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error('the console server did not start (run `npm run build` first)');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, stop };
}

/** What a response's headers hold besides its security headers (its body's type, size, encoding, cache and connection). */
const NOT_SECURITY = /^(content-(type|length|encoding)|date|connection|keep-alive|transfer-encoding|etag|last-modified|accept-ranges|vary|cache-control)$/;

/**
 * The security headers the console sends with its login page. The blank page gets them too, so that it is served the
 * same way: Cross-Origin-Opener-Policy alone makes Chromium open the page in a renderer process of its own (a fresh
 * tab's first one is kept for a page without it), which a person's navigation from any other page pays as well;
 * without it the baseline measured a shortcut no visitor takes (about 100 ms on this machine kind).
 */
async function consolePageHeaders(url: string): Promise<Record<string, string>> {
  const response = await fetch(`${url}/user/login`);
  await response.arrayBuffer();
  return Object.fromEntries([...response.headers].filter(([name]) => !NOT_SECURITY.test(name)));
}

/** A blank React page (one password field) built by Vite like the console and served by the console's static plugin. */
async function startBlankReact(headers: Record<string, string>): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'isps-blank-react-'));
  const src = join(dir, 'src');
  mkdirSync(src);
  writeFileSync(
    join(src, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><meta name="viewport" content="width=device-width, initial-scale=1.0" />' +
      '<title>Blank</title></head><body><div id="root"></div><script type="module" src="./main.js"></script></body></html>',
  );
  writeFileSync(
    join(src, 'main.js'),
    "import { createElement, StrictMode } from 'react';\nimport { createRoot } from 'react-dom/client';\n" +
      "createRoot(document.getElementById('root')).render(createElement(StrictMode, null, createElement('input', { type: 'password', 'aria-label': 'Password' })));\n",
  );
  const out = join(dir, 'dist');
  await build({
    root: src,
    logLevel: 'silent',
    configFile: false,
    resolve: { alias: { react: join(root, 'node_modules/react'), 'react-dom': join(root, 'node_modules/react-dom') } },
    build: { outDir: out, emptyOutDir: true },
  });
  precompressBuild(out);
  const app = Fastify();
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  await app.register(staticConsole, { root: out, apiPrefix: '/api' });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    stop: async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface Visit {
  ms: number;
  scripts: { url: string; gzip: number }[];
}

/** Opens `url` in a fresh context; the time until the password field shows, and every script loaded until the network is quiet. */
async function visit(browser: Browser, url: string): Promise<Visit> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  // the scripts' bodies are read and compressed once the time is taken: done while the page loads, that work of the
  // bench's own (the entry alone is 400 KB to gzip) held back its noticing the field, the more the more scripts
  const responses: Response[] = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type === 'script' || /\.m?js(\?|$)/.test(response.url())) responses.push(response);
  });
  const started = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  await page.locator(PASSWORD_FIELD).first().waitFor({ state: 'visible', timeout: 60_000 });
  const ms = performance.now() - started;
  // the scripts counted are those of a login page that can sign in: the console's page replaces the drawn one when the
  // person starts using it (a key pressed here), and its scripts count as much as the drawn page's
  await page.keyboard.press('Shift');
  await page.locator(`#root:not([${SHELL_MARK}]) ${PASSWORD_FIELD}`).first().waitFor({ state: 'visible', timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  const scripts = (
    await Promise.all(responses.map((response) => response.body().then((body) => ({ url: response.url(), gzip: gzipSync(body, { level: 9 }).length }), () => null)))
  ).filter((s) => s !== null);
  await context.close();
  return { ms, scripts };
}

/** Signs the administrator in through the API (replacing a first-login password): the token and user the console keeps. */
async function adminLogin(url: string): Promise<{ token: string; userInfo: { mustChangePassword?: boolean } }> {
  const login = async (password: string) => {
    const response = await fetch(`${url}/api/sys/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password, captcha: 'none', checkKey: 'bench' }) });
    const body = (await response.json()) as { success: boolean; message: string; result: { token: string; userInfo: { mustChangePassword?: boolean } } };
    if (!body.success) throw new Error(`the administrator cannot sign in: ${body.message}`);
    return body.result;
  };
  const first = await login(ADMIN_PASSWORD);
  if (!first.userInfo.mustChangePassword) return first;
  const changed = `${ADMIN_PASSWORD}x`;
  await fetch(`${url}/api/sys/user/updatePassword`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-Access-Token': first.token },
    body: JSON.stringify({ username: 'admin', oldpassword: ADMIN_PASSWORD, password: changed, confirmpassword: changed }),
  });
  return login(changed);
}

/** Opens `path` signed in, in a fresh context: every script loaded until `ready` shows and the network is quiet. */
async function visitSignedIn(browser: Browser, url: string, session: { token: string; userInfo: unknown }, path: string, ready: string): Promise<Visit['scripts']> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const expire = Date.now() + Limits.tokenLifetimeMs;
  const kept = { [STORAGE_PREFIX + StorageKey.token]: JSON.stringify({ value: session.token, expire }), [STORAGE_PREFIX + StorageKey.userInfo]: JSON.stringify({ value: session.userInfo, expire }) };
  await context.addInitScript((entries: Record<string, string>) => {
    for (const [name, value] of Object.entries(entries)) if (!window.localStorage.getItem(name)) window.localStorage.setItem(name, value);
  }, kept);
  const page = await context.newPage();
  const responses: Response[] = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type === 'script' || /\.m?js(\?|$)/.test(response.url())) responses.push(response);
  });
  await page.goto(`${url}${path}`, { waitUntil: 'commit' });
  await page.locator(ready).first().waitFor({ state: 'visible', timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  const scripts = (
    await Promise.all(responses.map((response) => response.body().then((body) => ({ url: response.url(), gzip: gzipSync(body, { level: 9 }).length }), () => null)))
  ).filter((s) => s !== null);
  await context.close();
  return scripts;
}

/** Chromium with its DevTools port open, for Lighthouse. */
async function debuggableChromium(): Promise<{ port: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), 'isps-lighthouse-'));
  const child = spawn(CHROMIUM, ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, 'about:blank'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    // Chromium's helper processes may still be writing the profile as the browser exits
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  };
  const deadline = Date.now() + 30_000;
  while (!(await fetch(`http://127.0.0.1:${port}/json/version`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error('Chromium did not open its DevTools port');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { port, stop };
}

/** Lighthouse 12 performance score (0-100) of `url` with the desktop or the default (mobile) settings. */
async function lighthouseScore(url: string, preset: 'desktop' | 'mobile'): Promise<number | null> {
  try {
    const { default: lighthouse } = await import('lighthouse');
    const { default: desktopConfig } = await import('lighthouse/core/config/desktop-config.js');
    const chrome = await debuggableChromium();
    try {
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] }, preset === 'desktop' ? desktopConfig : undefined);
      const score = result?.lhr.categories.performance?.score;
      if (process.env.BENCH_VERBOSE && result) {
        const metrics = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'speed-index', 'cumulative-layout-shift'];
        console.log(`  ${preset}: ${metrics.map((id) => `${id} ${result.lhr.audits[id]?.displayValue ?? '-'} (${result.lhr.audits[id]?.score ?? '-'})`).join(', ')}`);
      }
      return typeof score === 'number' ? Math.round(score * 100) : null;
    } finally {
      await chrome.stop();
    }
  } catch (error) {
    console.error(`lighthouse (${preset}) could not run: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

const server = await startConsoleServer();
const pageHeaders = await consolePageHeaders(server.url);
if (!pageHeaders['content-security-policy']) throw new Error('the console sent its login page without its security headers');
const blank = await startBlankReact(pageHeaders);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
try {
  const loginUrl = `${server.url}/user/login`;
  // one unmeasured visit each warms the servers and the disk cache
  await visit(browser, loginUrl);
  await visit(browser, blank.url);
  let scripts: Visit['scripts'] = [];
  let blankScripts: Visit['scripts'] = [];
  const [loginTimes, blankTimes] = (await inTurns(RUNS, [
    async () => {
      const login = await visit(browser, loginUrl);
      scripts = login.scripts;
      return login.ms;
    },
    async () => {
      const bare = await visit(browser, blank.url);
      blankScripts = bare.scripts;
      return bare.ms;
    },
  ])) as [number[], number[]];
  if (process.env.BENCH_VERBOSE) {
    for (const s of [...scripts].sort((a, b) => b.gzip - a.gzip)) console.log(`  ${(s.gzip / 1024).toFixed(1).padStart(7)} KB  ${new URL(s.url).pathname}`);
  }
  const kb = scripts.reduce((sum, s) => sum + s.gzip, 0) / 1024;
  const blankKb = blankScripts.reduce((sum, s) => sum + s.gzip, 0) / 1024;
  report('web-login-js', `${kb.toFixed(0)}KB/${scripts.length}files`, `${blankKb.toFixed(0)}KB/${blankScripts.length}files`, kb / blankKb, `<=${TARGET_KB}KB`, kb <= TARGET_KB);
  if (process.env.BENCH_VERBOSE) console.log(`  login ${loginTimes.map((t) => t.toFixed(0)).join(" ")}\n  blank ${blankTimes.map((t) => t.toFixed(0)).join(" ")}`);
  const loginMs = median(loginTimes);
  const blankMs = median(blankTimes);
  report('web-login-time', `${loginMs.toFixed(0)}ms`, `${blankMs.toFixed(0)}ms`, loginMs / blankMs, `<=${TARGET_RATIO}x`, loginMs / blankMs <= TARGET_RATIO);
  const admin = await adminLogin(server.url);
  const analysis = await visitSignedIn(browser, server.url, admin, '/dashboard/analysis', '[data-testid=chart-access]');
  const shell = new Set((await visitSignedIn(browser, server.url, admin, '/dashboard/clock', 'time')).map((s) => new URL(s.url).pathname));
  const own = analysis.filter((s) => !shell.has(new URL(s.url).pathname));
  if (process.env.BENCH_VERBOSE) {
    for (const s of [...analysis].sort((a, b) => b.gzip - a.gzip)) console.log(`  ${(s.gzip / 1024).toFixed(1).padStart(7)} KB  ${new URL(s.url).pathname}${shell.has(new URL(s.url).pathname) ? '' : ' (home page only)'}`);
  }
  const kbOf = (scripts: Visit['scripts']) => scripts.reduce((sum, s) => sum + s.gzip, 0) / 1024;
  const analysisKb = kbOf(analysis);
  const ownKb = kbOf(own);
  report('web-analysis-js', `${analysisKb.toFixed(0)}KB/${analysis.length}files`, `${blankKb.toFixed(0)}KB/${blankScripts.length}files`, analysisKb / blankKb, `<=${TARGET_ANALYSIS_KB}KB`, analysisKb <= TARGET_ANALYSIS_KB);
  report('web-analysis-page-js', `${ownKb.toFixed(0)}KB/${own.length}files`, `${blankKb.toFixed(0)}KB/${blankScripts.length}files`, ownKb / blankKb, `<=${TARGET_ANALYSIS_OWN_KB}KB`, ownKb <= TARGET_ANALYSIS_OWN_KB);
} finally {
  await browser.close();
}
try {
  const desktop = await lighthouseScore(`${server.url}/user/login`, 'desktop');
  report('web-login-lighthouse-desktop', desktop === null ? 'not-run' : String(desktop), '-', null, `>=${TARGET_DESKTOP}`, desktop !== null && desktop >= TARGET_DESKTOP);
  const mobile = await lighthouseScore(`${server.url}/user/login`, 'mobile');
  report('web-login-lighthouse-mobile', mobile === null ? 'not-run' : String(mobile), '-', null, `>=${TARGET_MOBILE}`, mobile !== null && mobile >= TARGET_MOBILE);
} finally {
  await blank.stop();
  await server.stop();
}
finish();
