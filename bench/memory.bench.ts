/**
 * memory: the resident memory of the server `npm start`'s script leaves running on SQLite, after the administrator's
 * first login on an installed console, against a bare node:http + better-sqlite3 server; and the Node processes it
 * keeps alive (the server alone). Targets: <= 120 MB and one process.
 */
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { finish, report } from './support.ts';
import { BARE_SERVER, START_SCRIPT, installation, startAndSignIn } from './start-support.ts';

const TARGET_MB = 120;

/** VmRSS of a process in MB (Linux). */
function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/** The process and all its descendants that run node. */
function nodeProcesses(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const parent = Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree: number[] = [];
  const visit = (p: number) => {
    tree.push(p);
    for (const child of children.get(p) ?? []) visit(child);
  };
  visit(pid);
  return tree.filter((p) => {
    try {
      return /(^|\/)node$/.test(readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0')[0] ?? '');
    } catch {
      return false;
    }
  });
}

async function measure(script: string): Promise<{ rss: number; processes: number }> {
  const dataDir = installation();
  try {
    // the first start installs (and builds what is stale); the measured one starts an installed console
    await (await startAndSignIn(script, dataDir, 600_000)).stop();
    const run = await startAndSignIn(script, dataDir);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const pid = run.child.pid as number;
    const processes = nodeProcesses(pid);
    const rss = processes.reduce((sum, p) => sum + rssMb(p), 0);
    await run.stop();
    return { rss, processes: processes.length };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const baseline = await measure(BARE_SERVER);
const value = await measure(START_SCRIPT);
report('memory rss', `${value.rss.toFixed(0)}MB`, `${baseline.rss.toFixed(0)}MB`, value.rss / baseline.rss, `<=${TARGET_MB}MB`, value.rss <= TARGET_MB);
report('memory processes', String(value.processes), String(baseline.processes), value.processes / baseline.processes, '1', value.processes === 1);
finish();
