import { spawn, type ChildProcess } from 'node:child_process';
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
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), MQTT_PORT: '0', LOG_LEVEL: 'warn' };
  for (const name of ['DATA_DIR', 'DATABASE_URL', 'REDIS_URL', 'ADMIN_PASSWORD', 'LOGIN_CAPTCHA', 'MQTT_URL']) delete env[name];
  env.LOGIN_CAPTCHA = 'off';
  const child = spawn(process.execPath, [join(root, 'scripts/start.mjs')], { cwd: workDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output}`);
    const ready = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
    if (ready) return { child, output: () => output, url };
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`npm start did not become ready:\n${output}`);
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

describe('npm start on a fresh installation', () => {
  it('seeds once, prints the first-login password once, and keeps data across restarts', async () => {
    const port = await freePort();
    const first = await npmStart(port);
    try {
      const printed = /Password:\s+(\S+)/.exec(first.output());
      expect(printed, first.output()).not.toBeNull();
      const initial = printed![1]!;
      expect(first.output()).toContain('User name: admin');
      expect(existsSync(join(workDir, 'data', 'isps.db'))).toBe(true);

      // The console itself is served at /.
      const page = await fetch(`${first.url}/user/login`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');

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
    } finally {
      await stop(second.child);
    }
  });
});
