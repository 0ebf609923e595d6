// Builds the console (apps/web) and the server (apps/server) when their builds are missing or older than their
// sources: `npm start` runs it before starting the compiled server, the browser tests before starting theirs.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'apps/web/dist/index.html');
const sources = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/contract/src'].map((p) => join(root, p));
export const serverMain = join(root, 'apps/server/dist/main.js');
const serverSources = ['apps/server/src', 'packages/contract/src', 'scripts/build-server.mjs', 'scripts/server-entry.mjs'].map((p) => join(root, p));

// runs at every start over some 500 files: one stat per file, directories known from their listing; tests are no
// part of a build, and a folder both builds read (the contract) is read once
const newest = new Map();
function newestChange(path) {
  if (newest.has(path)) return newest.get(path);
  const stat = statSync(path, { throwIfNoEntry: false });
  let found = stat?.mtimeMs ?? 0;
  if (stat?.isDirectory()) {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.isDirectory()) found = Math.max(found, newestChange(join(path, entry.name)));
      else if (!/\.test\.[cm]?[jt]sx?$/.test(entry.name)) found = Math.max(found, statSync(join(path, entry.name)).mtimeMs);
    }
  }
  newest.set(path, found);
  return found;
}

const builtAt = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);

/** Runs the console's build; a SIGTERM or SIGINT meanwhile ends the build too and then this process, with no orphan. */
async function buildConsole() {
  const { spawn } = await import('node:child_process');
  // a process group of its own, so a signal reaches npm's shell and the bundler under it, not npm alone; always a
  // production build: vite builds in an inherited NODE_ENV (a test runner's 'test' gave React's development build and
  // antd's fixed 'test-id' ids, which named every dialog after the page's first field)
  const build = spawn('npm', ['run', 'build', '--workspace', 'apps/web'], {
    cwd: root,
    stdio: 'inherit',
    detached: true,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const signals = ['SIGTERM', 'SIGINT'];
  const stop = (signal) => {
    process.kill(-build.pid, signal);
    build.once('exit', () => process.exit(128 + (signal === 'SIGINT' ? 2 : 15)));
  };
  for (const signal of signals) process.on(signal, stop);
  try {
    return await new Promise((resolve) => {
      build.once('error', () => resolve(1));
      build.once('exit', (code) => resolve(code ?? 1));
    });
  } finally {
    for (const signal of signals) process.off(signal, stop);
  }
}

/** Builds what is stale; false when the console's build failed (its output has said why). */
export async function ensureBuilt() {
  if (builtAt(bundle) < Math.max(...sources.map(newestChange))) {
    console.log('Building the console (apps/web) ...');
    if ((await buildConsole()) !== 0) return false;
  }
  if (builtAt(serverMain) < Math.max(...serverSources.map(newestChange))) {
    console.log('Building the server (apps/server) ...');
    const { buildServer } = await import('./build-server.mjs');
    await buildServer();
  }
  return true;
}
