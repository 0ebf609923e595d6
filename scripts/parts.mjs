// Runs the parts of a check side by side, a few at a time, each with its output held and printed whole when it ends
// (two interleaved compilers' errors cannot be read). Used by `npm test` and `npm run typecheck`.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * Runs `parts` ({ title, command, args }) at most `lanes` at a time, the first ones first (put the longest first);
 * answers each part's title, exit status and milliseconds in the given order.
 */
export async function runParts(parts, { cwd, lanes = availableParallelism(), env = process.env } = {}) {
  const results = new Array(parts.length);
  let next = 0;
  async function lane() {
    while (next < parts.length) {
      const index = next++;
      const { title, command, args } = parts[index];
      const started = Date.now();
      const { status, output } = await new Promise((resolve) => {
        const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        child.on('error', (error) => resolve({ status: 1, output: `${output}${error.message}\n` }));
        child.on('close', (code) => resolve({ status: code ?? 1, output }));
      });
      const ms = Date.now() - started;
      process.stdout.write(`\n== ${title} (${(ms / 1000).toFixed(0)} s${status === 0 ? '' : ', failed'})\n${output}`);
      results[index] = { title, status, ms };
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, parts.length)) }, lane));
  return results;
}
