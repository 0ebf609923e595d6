// `npm run typecheck`: the three TypeScript programs (tsconfig.json: everything on Node; apps/web: the console;
// packages/contract alone), side by side. Incremental: a second run checks only what changed (.tmp/tsc).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runParts } from './parts.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The type check's parts, the longest first. */
export const typecheckParts = [
  ['node', '.'],
  ['console', 'apps/web'],
  ['contract', 'packages/contract'],
].map(([name, project]) => ({
  title: `type check: ${name}`,
  command: process.execPath,
  args: [join(root, 'node_modules/typescript/bin/tsc'), '-p', project, '--incremental', '--tsBuildInfoFile', join(root, '.tmp/tsc', `${name}.tsbuildinfo`)],
}));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = await runParts(typecheckParts, { cwd: root });
  process.exit(results.every((r) => r.status === 0) ? 0 : 1);
}
