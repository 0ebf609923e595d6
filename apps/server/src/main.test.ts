import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Limits, translate } from '@isps/contract';

const main = join(dirname(fileURLToPath(import.meta.url)), 'main.ts');
const resetAdminScript = join(dirname(fileURLToPath(import.meta.url)), 'reset-admin.ts');
const children: ChildProcess[] = [];

/** Runs main.ts as `tsx` would, until it prints the marker or exits. */
function start(env: Record<string, string>, until?: RegExp): Promise<{ code: number | null; stdout: string; stderr: string; child: ChildProcess }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', main], { env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (until?.test(stdout)) resolve({ code: null, stdout, stderr, child });
    });
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr, child }));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

afterAll(async () => {
  for (const child of children) await stop(child);
});

// each test starts whole servers, a few seconds each on a loaded machine
describe('main', { timeout: 120_000 }, () => {
  it('exits non-zero naming a bad variable, without a stack trace', async () => {
    const run = await start({ PORT: 'eighty', LOGIN_CAPTCHA: 'sometimes' });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('PORT must be an integer from 0 to 65535');
    expect(run.stderr).toContain('LOGIN_CAPTCHA must be on or off');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('prints the one-time password at the end of every start until it is replaced', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'isps-main-'));
    try {
      // no embedded broker: its fixed default port (1884) may be another test's or program's at that moment
      const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOGIN_CAPTCHA: 'off', MQTT_PORT: '0' };
      const banner = /first login\.\n.*\n=+\n/;
      const first = await start(env, banner);
      expect(first.stdout).toContain('User name: admin');
      // the banner ends the start-up: the listening lines are above it
      expect(first.stdout.lastIndexOf('Server listening')).toBeLessThan(first.stdout.indexOf('User name: admin'));
      const url = /Open:\s+(http:\/\/\S+)/.exec(first.stdout)?.[1];
      const password = /Password:\s+(\S+)/.exec(first.stdout)?.[1] ?? '';
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(statSync(join(dataDir, 'initial-admin-password')).mode & 0o777).toBe(0o600);
      await stop(first.child);

      // not replaced yet: shown again
      const second = await start(env, banner);
      expect(/Password:\s+(\S+)/.exec(second.stdout)?.[1]).toBe(password);
      const secondUrl = /Open:\s+(http:\/\/\S+)/.exec(second.stdout)?.[1] ?? '';
      const post = (path: string, body: unknown, token?: string) =>
        fetch(`${secondUrl}api${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { 'x-access-token': token } : {}) }, body: JSON.stringify(body) }).then(
          (r) => r.json() as Promise<{ success: boolean; result: { token: string } }>,
        );
      const login = await post('/sys/login', { username: 'admin', password });
      expect(login.success).toBe(true);
      const changed = await post('/sys/user/updatePassword', { username: 'admin', oldpassword: password, password: 'Main#Pass9', confirmpassword: 'Main#Pass9' }, login.result.token);
      expect(changed.success).toBe(true);
      await stop(second.child);

      const third = await start(env, /Server listening/);
      expect(third.code).toBeNull();
      // the banner would follow the listening line at once
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(third.stdout).not.toContain('Password');
      // the replaced password is no longer kept
      expect(existsSync(join(dataDir, 'initial-admin-password'))).toBe(false);
      await stop(third.child);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('npm run reset-admin beside a running server lifts the lock of five wrong passwords: the new password works at once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'isps-main-'));
    try {
      // no embedded broker: its fixed default port (1884) may be another test's or program's at that moment
      const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOGIN_CAPTCHA: 'off', MQTT_PORT: '0' };
      const running = await start(env, /first login\.\n.*\n=+\n/);
      const url = /Open:\s+(http:\/\/\S+)/.exec(running.stdout)?.[1] ?? '';
      const signIn = (password: string) =>
        fetch(`${url}api/sys/login`, { method: 'POST', headers: { 'content-type': 'application/json', lang: 'en-US' }, body: JSON.stringify({ username: 'admin', password }) }).then(
          (r) => r.json() as Promise<{ success: boolean; message: string }>,
        );
      const answers: { success: boolean; message: string }[] = [];
      for (let i = 0; i < Limits.loginFailureLimit; i += 1) answers.push(await signIn(`Wrong#${i}abc`));
      expect(answers.at(-1)?.message).toBe(translate('en-US', 'login.locked', { minutes: Limits.loginLockMs / 60_000 }));

      // the reset runs in a process of its own: the server's in-process cache is out of its reach
      const reset = spawnSync(process.execPath, ['--import', 'tsx', resetAdminScript], { env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir }, encoding: 'utf8' });
      expect(reset.status, reset.stderr).toBe(0);
      const password = /Password:\s+(\S+)/.exec(reset.stdout)?.[1] ?? '';
      expect(password).not.toBe('');
      const signedIn = await signIn(password);
      expect(signedIn.success, signedIn.message).toBe(true);
      await stop(running.child);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
