// `npm start`: builds the console when its bundle is missing or older than its sources, then runs the server.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'apps/web/dist/index.html');
const sources = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/contract/src'].map((p) => join(root, p));

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stat.mtimeMs);
}

const bundleTime = existsSync(bundle) ? statSync(bundle).mtimeMs : 0;
if (bundleTime < Math.max(...sources.map(newestChange))) {
  console.log('Building the console (apps/web) ...');
  const build = spawnSync('npm', ['run', 'build', '--workspace', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// The server keeps the caller's working directory, so DATA_DIR=./data lands where `npm start` was run.
const server = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), join(root, 'apps/server/src/main.ts')], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
