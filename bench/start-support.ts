/**
 * What the start benchmarks share: `npm start`'s script (or the bare baseline server) started from a folder of its
 * own on a free port of 127.0.0.1, timed until the administrator's first successful login, then stopped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../apps/server/src/test/free-port.ts';
export { freePort } from '../apps/server/src/test/free-port.ts';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const START_SCRIPT = join(root, 'scripts/start.mjs');
export const BARE_SERVER = join(root, 'bench/bare-server.mjs');
const PASSWORD = 'Bench#Start1';

/** The Node options `npm start` gives its script (package.json's `start`: `node <options> scripts/start.mjs`). */
export const START_NODE_OPTIONS: string[] = (() => {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = scripts.start.trim().split(/\s+/);
  if (words[0] !== 'node' || words.at(-1) !== 'scripts/start.mjs') throw new Error(`npm start is no longer "node [options] scripts/start.mjs": ${scripts.start}`);
  return words.slice(1, -1);
})();

/** A data folder of its own, reused by every start of one installation. */
export function installation(): string {
  return mkdtempSync(join(tmpdir(), 'isps-start-bench-'));
}

export interface Started {
  child: ChildProcess;
  /** milliseconds from the spawn to the first successful login */
  readyMs: number;
  stop(): Promise<void>;
}

/** Runs `node script` in `dataDir` (with `npm start`'s Node options for its script) and signs in as admin until that succeeds. */
export async function startAndSignIn(script: string, dataDir: string, timeoutMs = 120_000): Promise<Started> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...(script === START_SCRIPT ? START_NODE_OPTIONS : []), script], {
    cwd: dataDir,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ADMIN_PASSWORD: PASSWORD, LOGIN_CAPTCHA: 'off', MQTT_PORT: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  while (performance.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/sys/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: PASSWORD }),
      });
      if (((await response.json()) as { success?: boolean }).success) return { child, readyMs: performance.now() - started, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await stop();
  throw new Error(`${script} did not let the administrator sign in within ${timeoutMs} ms`);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/**
 * Takes each of `measures` (what is measured and its baseline) once per round, in turns, each going first every
 * other round, so that a busy moment of the machine weighs on all alike; answers each one's figures by round.
 */
export async function inTurns(rounds: number, measures: ReadonlyArray<() => Promise<number>>): Promise<number[][]> {
  const figures = measures.map((): number[] => []);
  for (let round = 0; round < rounds; round += 1) {
    const order = measures.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) (figures[i] as number[]).push(await (measures[i] as () => Promise<number>)());
  }
  return figures;
}
