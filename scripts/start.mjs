// `npm start`: builds the console and the server when their builds are missing or older than their sources, then
// runs the compiled server in this very process (one Node process, plain JavaScript, nothing transpiled at start).
// package.json runs it with --max-semi-space-size=2: the burst of the start (route and schema compilation) otherwise
// grows V8's young generation to 2 x 16 MB, which then stays resident though nearly empty (the server's memory after
// the first login went from about 139 to 115 MB), and the start spent more CPU with it, not less.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'apps/web/dist/index.html');
const sources = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/contract/src'].map((p) => join(root, p));
const serverMain = join(root, 'apps/server/dist/main.js');
const serverSources = ['apps/server/src', 'packages/contract/src', 'scripts/build-server.mjs', 'scripts/server-entry.mjs'].map((p) => join(root, p));

// runs at every start over some 700 files: one stat per file, directories known from their listing
function newestChange(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(child) : statSync(child).mtimeMs);
  }
  return newest;
}

const builtAt = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);

if (builtAt(bundle) < Math.max(...sources.map(newestChange))) {
  console.log('Building the console (apps/web) ...');
  const build = spawnSync('npm', ['run', 'build', '--workspace', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

if (builtAt(serverMain) < Math.max(...serverSources.map(newestChange))) {
  console.log('Building the server (apps/server) ...');
  const { buildServer } = await import('./build-server.mjs');
  await buildServer();
}

// The server keeps the caller's working directory, so DATA_DIR=./data lands where `npm start` was run, and it handles
// SIGINT and SIGTERM itself. Source maps sit beside the build; NODE_OPTIONS=--enable-source-maps makes stack traces
// name the TypeScript sources (it costs about 80 MB, so it is not on by default).
await import(pathToFileURL(serverMain).href);
