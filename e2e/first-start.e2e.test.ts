import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { api, apiLogin, freePort } from './harness.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const workDir = mkdtempSync(join(tmpdir(), 'isps-first-start-'));

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** Runs `npm start`'s script from a fresh folder with the embedded defaults, as a new installation would. */
async function npmStart(port: number): Promise<{ child: ChildProcess; output: () => string; url: string }> {
  let output = '';
  const child = spawn(process.execPath, [join(root, 'scripts/start.mjs')], { cwd: workDir, env: startEnv(port), stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output}`);
    const ready = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
    // ready once the start-up has ended, which the login banner closes on a first start
    if (ready) {
      await new Promise((r) => setTimeout(r, 300));
      return { child, output: () => output, url };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`npm start did not become ready:\n${output}`);
}

/** The environment `npm start` gets, without the caller's database, password or captcha settings. */
function startEnv(port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), MQTT_PORT: '0', LOG_LEVEL: 'warn' };
  for (const name of ['DATA_DIR', 'DATABASE_URL', 'REDIS_URL', 'ADMIN_PASSWORD', 'LOGIN_CAPTCHA', 'MQTT_URL']) delete env[name];
  env.LOGIN_CAPTCHA = 'off';
  return env;
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

describe('npm start on a fresh installation', () => {
  it('seeds once, prints the first-login password, keeps data across restarts, and resets the admin password on demand', async () => {
    const port = await freePort();
    let initial = '';
    const first = await npmStart(port);
    try {
      const printed = /Password:\s+(\S+)/.exec(first.output());
      expect(printed, first.output()).not.toBeNull();
      initial = printed![1]!;
      expect(first.output()).toContain('User name: admin');
      expect(first.output()).toContain('npm run reset-admin');
      // the banner comes after whatever the build printed
      const built = first.output().lastIndexOf('built in');
      expect(first.output().indexOf('User name: admin')).toBeGreaterThan(built);
      expect(existsSync(join(workDir, 'data', 'isps.db'))).toBe(true);

      // The console itself is served at /, to a browser and to `curl http://host:8080/` (which accepts */*) alike.
      const page = await fetch(`${first.url}/user/login`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      const curl = await fetch(`${first.url}/`, { headers: { accept: '*/*' } });
      expect(curl.status).toBe(200);
      expect(curl.headers.get('content-type')).toContain('text/html');
      expect(await curl.text()).toContain('<div id="root">');

      const login = await apiLogin(first, 'admin', initial);
      expect(login.success, login.message).toBe(true);
      const { body } = await api(first, 'POST', '/sys/user/updatePassword', {
        token: login.result.token,
        body: { username: 'admin', oldpassword: initial, password: 'Kept#Pass5', confirmpassword: 'Kept#Pass5' },
      });
      expect(body.success, body.message).toBe(true);
    } finally {
      await stop(first.child);
    }

    const second = await npmStart(port);
    try {
      // No second seed: nothing printed, and the changed password still holds.
      expect(second.output()).not.toMatch(/Password:/);
      expect((await apiLogin(second, 'admin', 'Kept#Pass5')).success).toBe(true);

      // `npm run reset-admin` beside the running server: a new one-time password, the old one and its sessions gone
      const before = (await apiLogin(second, 'admin', 'Kept#Pass5')).result.token;
      const reset = spawnSync(process.execPath, [join(root, 'scripts/reset-admin.mjs')], { cwd: workDir, env: startEnv(port), encoding: 'utf8' });
      expect(reset.status, reset.stderr).toBe(0);
      const renewed = /Password:\s+(\S+)/.exec(reset.stdout)?.[1] ?? '';
      expect(renewed).toMatch(/^\S{12,}$/);
      expect(renewed).not.toBe(initial);
      expect((await apiLogin(second, 'admin', 'Kept#Pass5')).success).toBe(false);
      expect((await api(second, 'GET', '/sys/user/getCurrentUserDeparts', { token: before })).status).toBe(401);
      const again = await apiLogin(second, 'admin', renewed);
      expect(again.success, again.message).toBe(true);
      expect(again.result.userInfo).toMatchObject({ mustChangePassword: true });
      const replaced = await api(second, 'POST', '/sys/user/updatePassword', {
        token: again.result.token,
        body: { username: 'admin', oldpassword: renewed, password: 'Kept#Pass6', confirmpassword: 'Kept#Pass6' },
      });
      expect(replaced.body.success, replaced.body.message).toBe(true);
      // the reset is in the operation log
      const token = (await apiLogin(second, 'admin', 'Kept#Pass6')).result.token;
      const { body: logs } = await api<{ records: Array<{ logContent?: string; content?: string }> }>(second, 'GET', '/sys/log/list?logType=2&pageSize=50', { token });
      expect(JSON.stringify(logs.result.records)).toContain('reset-admin');
    } finally {
      await stop(second.child);
    }
  });
});
