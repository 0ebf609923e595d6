import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../apps/server/src/test/free-port.ts';
import { ensureBuilt } from './ensure-built.mjs';
import { root } from './build-server.mjs';

const dataDirs: string[] = [];
const leftovers: number[] = [];

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The processes under `pid`, all generations (npm → its shell → node). */
function descendants(pid: number): { pid: number; args: string }[] {
  const rows = spawnSync('ps', ['-e', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' }).stdout.trim().split('\n');
  const table = rows.map((row) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(row)).filter((m) => m !== null).map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] as string }));
  const found: { pid: number; args: string }[] = [];
  const walk = (parent: number) => {
    for (const row of table.filter((r) => r.ppid === parent)) {
      found.push(row);
      walk(row.pid);
    }
  };
  walk(pid);
  return found;
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !alive(pid);
}

/** Starts the console as a user does (`command` in the repository) on a free port and a fresh data folder, until its banner. */
async function startConsole(command: string, args: string[]): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'isps-start-'));
  dataDirs.push(dataDir);
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(await freePort()), MQTT_PORT: '0', LOGIN_CAPTCHA: 'off' };
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const open = /Open:\s+(\S+)[\s\S]*first login\./.exec(output);
      if (open) resolve(open[1] as string);
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`the console ended (${code}) before it was up:\n${output}`)));
  });
  return { child, url, output: () => output };
}

beforeAll(async () => {
  // npm test builds before its suites: this finds nothing to do there
  expect(await ensureBuilt()).toBe(true);
}, 600_000);

afterAll(() => {
  for (const pid of leftovers) if (alive(pid)) process.kill(pid, 'SIGKILL');
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('SIGTERM to npm ends the server too: no orphan keeps the port', async () => {
    const { child, url } = await startConsole('npm', ['start']);
    const server = descendants(child.pid as number).find((p) => p.args.includes('scripts/start.mjs') && p.args.startsWith('node'));
    expect(server, 'the server process under npm').toBeDefined();
    const pid = (server as { pid: number }).pid;
    leftovers.push(pid);
    expect((await fetch(`${url}api/health`)).status).toBe(200);

    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    expect(await gone(pid, 10_000), 'the server process is gone').toBe(true);
    await expect(fetch(`${url}api/health`)).rejects.toThrow();
  });

  it('node scripts/start.mjs stops on SIGTERM and exits with the server’s code', async () => {
    const { child, output } = await startConsole(process.execPath, ['scripts/start.mjs']);
    leftovers.push(child.pid as number);
    const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(`${code} ${signal}`)));
    // at once after the banner: the server handles the signal from then on (closes and exits 0, not killed by it)
    child.kill('SIGTERM');
    expect(await exited, output()).toBe('0 null');
  });
});
