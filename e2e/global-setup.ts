// The browser tests run the console as `npm start` does: the built console and the compiled server, built first
// when a source is newer than its build (npm test builds before its suites, so there this finds nothing to do).
import { ensureBuilt } from '../scripts/ensure-built.mjs';

export default async function setup(): Promise<void> {
  if (!(await ensureBuilt())) throw new Error('the console did not build');
}
