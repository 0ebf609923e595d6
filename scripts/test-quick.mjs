// `npm run test:quick`: the type check, then the unit and API tests on SQLite with the in-process cache (no
// PostgreSQL, MariaDB, Redis or browser). The loop while working; `npm test` stays the whole.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, ISPS_TEST_QUICK: '1' };
// CI=true makes a missing engine fail the run; the quick loop asks for none
delete env.CI;
const started = Date.now();
for (const [title, command, args] of [
  ['type check', 'npm', ['run', 'typecheck']],
  ['unit and API tests (SQLite)', 'npx', ['vitest', 'run', ...process.argv.slice(2)]],
]) {
  console.log(`\n== ${title}`);
  const status = spawnSync(command, args, { cwd: root, stdio: 'inherit', env }).status ?? 1;
  if (status !== 0) process.exit(status);
}
console.log(`\nquick checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
