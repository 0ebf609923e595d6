import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../apps/server/src/test/free-port.ts';
import { buildServer, root } from './build-server.mjs';

// inside the repository, so the built server finds the npm packages as apps/server/dist does
const outdir = join(root, '.tmp', `server-build-${randomBytes(4).toString('hex')}`);
const work = mkdtempSync(join(tmpdir(), 'isps-build-'));

// records every module specifier the server resolves: ESM imports through the hooks, require() calls (the bundle is
// CommonJS) in the probe
const hooks = `
import { appendFileSync } from 'node:fs';
let file;
export function initialize(data) { file = data.file; }
export async function resolve(specifier, context, next) {
  appendFileSync(file, specifier + '\\n');
  return next(specifier, context);
}`;
const probe = (log: string) => `
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import util from 'node:util';
register(${JSON.stringify(pathToFileURL(join(work, 'hooks.mjs')).href)}, { data: { file: ${JSON.stringify(log)} } });
const load = Module._load;
Module._load = function (request, ...rest) {
  appendFileSync(${JSON.stringify(log)}, request + '\\n');
  return load.call(this, request, ...rest);
};
// and each function compiled from text, as new-function:<parameters>
globalThis.Function = new Proxy(Function, {
  construct(target, args) {
    appendFileSync(${JSON.stringify(log)}, 'new-function:' + args.slice(0, -1).join(',') + '\\n');
    return Reflect.construct(target, args);
  },
});
// and each debug logger made, as debuglog:<section>
const debuglog = util.debuglog;
util.debuglog = function (section, ...rest) {
  appendFileSync(${JSON.stringify(log)}, 'debuglog:' + section + '\\n');
  return debuglog.call(this, section, ...rest);
};`;

beforeAll(async () => {
  await buildServer(outdir);
  writeFileSync(join(work, 'hooks.mjs'), hooks);
}, 60_000);

afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});


/** Starts the built server with plain node until it is ready, signs in as admin, stops it; answers what it loaded. */
async function startAndSignIn(env: Record<string, string>, nodeOptions: string[] = []): Promise<{ loaded: string[]; signedIn: boolean; exitCode: number | null }> {
  const dataDir = join(work, `data-${randomBytes(3).toString('hex')}`);
  mkdirSync(dataDir);
  const log = join(work, `loaded-${randomBytes(3).toString('hex')}.txt`);
  writeFileSync(log, '');
  writeFileSync(join(work, 'probe.mjs'), probe(log));
  const child = spawn(process.execPath, [...nodeOptions, '--import', pathToFileURL(join(work, 'probe.mjs')).href, join(outdir, 'main.js')], {
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: 'Build#Pass1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.on('exit', () => reject(new Error(`the built server exited:\n${output}`)));
  });
  const answer = (await (
    await fetch(`${url}/api/sys/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'Build#Pass1' }) })
  ).json()) as { success: boolean };
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  const exitCode = await exited;
  return { loaded: readFileSync(log, 'utf8').split('\n').filter(Boolean), signedIn: answer.success, exitCode };
}

describe('the built server', { timeout: 60_000 }, () => {
  it('runs on plain node and, on SQLite without Redis, MQTT or mail, loads no driver or library it does not use', async () => {
    const run = await startAndSignIn({ LOGIN_CAPTCHA: 'off', MQTT_PORT: '0' });
    expect(run.signedIn).toBe(true);
    expect(run.exitCode).toBe(0);
    expect(run.loaded).toContain('better-sqlite3');
    expect(run.loaded).toContain('@node-rs/argon2');
    for (const unused of ['pg', 'mysql2', 'mysql2/promise', 'ioredis', 'exceljs', 'svg-captcha', 'nodemailer', 'mqtt', 'aedes', 'tsx', '@fastify/swagger-ui']) expect(run.loaded).not.toContain(unused);
    // nor the node modules of HTTPS, HTTP/2 and websocket clients that fastify and ws require as they load
    for (const unused of ['https', 'node:https', 'http2', 'node:http2', 'tls', 'node:tls']) expect(run.loaded).not.toContain(unused);
    // fastify's plugin loader reports to no debug logger: its thousands of calls at start are plain no-ops
    expect(run.loaded).not.toContain('debuglog:avvio');
    // nor does fastify's router compile a function for each node of its tree
    expect(run.loaded).not.toContain('new-function:path,i');
  });

  it('still reports the steps of the plugin loader when NODE_DEBUG asks for them', async () => {
    const run = await startAndSignIn({ LOGIN_CAPTCHA: 'off', MQTT_PORT: '0', NODE_DEBUG: 'avvio' });
    expect(run.signedIn).toBe(true);
    expect(run.loaded).toContain('debuglog:avvio');
  });

  it('loads the embedded broker when MQTT_PORT opens one, and no MQTT client: the gateway reads it in process', async () => {
    const run = await startAndSignIn({ LOGIN_CAPTCHA: 'off', MQTT_PORT: String(await freePort()) });
    expect(run.signedIn).toBe(true);
    expect(run.loaded).toContain('aedes');
    expect(run.loaded).not.toContain('mqtt');
    expect(run.loaded).not.toContain('pg');
  });

  it('starts with the code cache an earlier start wrote beside the bundle, and without it when source maps are on', async () => {
    const caches = () => readdirSync(outdir).filter((name) => name.endsWith('.v8cache'));
    expect((await startAndSignIn({ LOGIN_CAPTCHA: 'off', MQTT_PORT: '0' })).signedIn).toBe(true);
    const [cache] = caches();
    expect(cache).toMatch(/^server\.cjs\..+\.v8cache$/);
    const written = statSync(join(outdir, cache!)).mtimeMs;
    // a cache V8 refused would be written again at exit
    const cached = await startAndSignIn({ LOGIN_CAPTCHA: 'off', MQTT_PORT: '0' });
    expect(cached.signedIn).toBe(true);
    expect(cached.exitCode).toBe(0);
    expect(caches()).toEqual([cache]);
    expect(statSync(join(outdir, cache!)).mtimeMs).toBe(written);
    const mapped = await startAndSignIn({ LOGIN_CAPTCHA: 'off', MQTT_PORT: '0' }, ['--enable-source-maps']);
    expect(mapped.signedIn).toBe(true);
    expect(mapped.loaded).toContain(join(outdir, 'server.cjs'));
  });
});
