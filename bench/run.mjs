// `npm run bench`: runs every bench/*.bench.ts in its own process; each prints its ratio against a same-run baseline.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
let failed = false;
for (const file of readdirSync(here).filter((name) => name.endsWith('.bench.ts')).sort()) {
  console.log(`== ${file}`);
  const run = spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), join(here, file)], { stdio: 'inherit' });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
