// `npm run bench`: runs every bench/*.bench.ts in its own process; each prints its ratio against a same-run baseline.
// `npm run bench -- NAME [NAME ...]` runs only the named ones: NAME.bench.ts, or NAME.long.ts, the long benches (the
// soak) that the default run leaves out and that run only when named.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const files = readdirSync(here);
const names = process.argv.slice(2);
let chosen = files.filter((name) => name.endsWith('.bench.ts')).sort();
if (names.length > 0) {
  const unknown = names.filter((name) => !files.includes(`${name}.bench.ts`) && !files.includes(`${name}.long.ts`));
  if (unknown.length > 0) {
    const known = files.filter((name) => /\.(bench|long)\.ts$/.test(name)).map((name) => name.replace(/\.(bench|long)\.ts$/, ''));
    console.error(`no bench named ${unknown.join(', ')}; the benches are: ${known.sort().join(', ')}`);
    process.exit(2);
  }
  chosen = names.map((name) => (files.includes(`${name}.bench.ts`) ? `${name}.bench.ts` : `${name}.long.ts`));
}
let failed = false;
for (const file of chosen) {
  console.log(`== ${file}`);
  const run = spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), join(here, file)], { stdio: 'inherit' });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
