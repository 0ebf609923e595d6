// The browser tests run the console as `npm start` does: the built console and the compiled server, built first
// when a source is newer than its build (npm test builds before its suites, so there this finds nothing to do).
// Then one first start of that server seeds a data folder, which every file's server starts from a copy of
// (harness.ts `SEEDED_DATA_DIR`): a first start migrates and seeds the database, seconds each time.
import { rmSync } from 'node:fs';
import { ensureBuilt } from '../scripts/ensure-built.mjs';
import { SEEDED_DATA_DIR, makeSeededDataDir } from './harness.ts';

export default async function setup(): Promise<() => void> {
  if (!(await ensureBuilt())) throw new Error('the console did not build');
  const seeded = await makeSeededDataDir();
  // the test files run in workers started after this, which inherit the environment
  process.env[SEEDED_DATA_DIR] = seeded;
  return () => rmSync(seeded, { recursive: true, force: true });
}
