// `npm test`: lint, type checks, console build, unit + API integration tests, then browser tests; ends with one total line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runParts } from './parts.mjs';
import { typecheckParts } from './typecheck.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reports = join(root, '.tmp', 'test-reports');
const unhandledReporter = join(root, 'scripts', 'unhandled-errors-reporter.mjs');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

/** How long each part took, printed at the end beside the slowest files. */
const partTimes = [];
const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;

function run(title, command, args) {
  console.log(`\n== ${title}`);
  const started = Date.now();
  const status = spawnSync(command, args, { cwd: root, stdio: 'inherit' }).status ?? 1;
  partTimes.push([title, Date.now() - started]);
  return status;
}

// lint, the three type checks and the build share nothing: side by side on the machine's cores, the longest first
const checksStarted = Date.now();
const checks = await runParts(
  [
    typecheckParts[0],
    { title: 'lint', command: 'npm', args: ['run', 'lint'] },
    ...typecheckParts.slice(1),
    { title: 'console build', command: 'npm', args: ['run', 'build'] },
  ],
  { cwd: root },
);
partTimes.push(['lint, type checks and build, side by side', Date.now() - checksStarted], ...checks.map(({ title, ms }) => [`  ${title}`, ms]));
const failedCheck = checks.find((c) => c.status !== 0);
if (failedCheck) {
  console.log(`\n${failedCheck.title} failed`);
  process.exit(1);
}

const suites = [
  ['unit and API integration tests', []],
  ['browser tests', ['--config', 'e2e/vitest.config.ts']],
];
let failedRun = false;
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
const fileTimes = [];
for (const [index, [title, args]] of suites.entries()) {
  const output = join(reports, `suite-${index}.json`);
  const unhandledFile = join(reports, `unhandled-${index}.json`);
  process.env.ISPS_UNHANDLED_ERRORS_FILE = unhandledFile;
  const status = run(title, 'npx', ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--reporter=${unhandledReporter}`, `--outputFile.json=${output}`]);
  if (status !== 0) failedRun = true;
  const failuresBefore = failures.length;
  if (existsSync(unhandledFile)) {
    for (const error of JSON.parse(readFileSync(unhandledFile, 'utf8'))) {
      const where = error.testPath ? ` (while ${relative(root, error.testPath)}${error.testName ? ` > ${error.testName}` : ''} ran)` : '';
      failures.push(`${title}: unhandled ${error.message.split('\n')[0]}${where}`);
    }
  }
  if (!existsSync(output)) {
    failedRun = true;
    failures.push(`${title}: exited with status ${status} and wrote no report (see its output above)`);
    continue;
  }
  const report = JSON.parse(readFileSync(output, 'utf8'));
  totals.passed += report.numPassedTests ?? 0;
  totals.failed += report.numFailedTests ?? 0;
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A file that fails to load or whose setup throws has no failed test of its own and reports its tests as
  // skipped: each of them failed to run, so they count as failed, and such a file without tests counts as one.
  for (const file of report.testResults ?? []) {
    const tests = file.assertionResults ?? [];
    const where = file.name.startsWith(root) ? file.name.slice(root.length + 1) : file.name;
    if (typeof file.startTime === 'number' && typeof file.endTime === 'number') fileTimes.push([where, file.endTime - file.startTime]);
    for (const t of tests) if (t.status === 'failed') failures.push(`${where} > ${t.fullName ?? t.title}`);
    if (file.status === 'failed' && !tests.some((t) => t.status === 'failed')) failures.push(`${where} (did not run: ${String(file.message ?? '').split('\n')[0]})`);
    if (file.status !== 'failed' || tests.some((t) => t.status === 'failed')) continue;
    const notRun = tests.filter((t) => t.status !== 'passed').length;
    totals.skipped -= notRun;
    totals.failed += Math.max(notRun, 1);
  }
  if (status !== 0 && failures.length === failuresBefore) failures.push(`${title}: exited with status ${status} and named no failed test (see its output above)`);
}
if (failedRun && totals.failed === 0) totals.failed = 1;
console.log(`\ntime per part:\n${partTimes.map(([title, ms]) => `  ${seconds(ms).padStart(7)}  ${title}`).join('\n')}`);
const slowest = fileTimes.sort((a, b) => b[1] - a[1]).slice(0, 10);
console.log(`\nslowest files:\n${slowest.map(([where, ms]) => `  ${seconds(ms).padStart(7)}  ${where}`).join('\n')}`);
// The names of what failed close the output, where a truncated log still shows them.
if (failures.length > 0) console.log(`\nfailed:\n${failures.map((name) => `  ${name}`).join('\n')}`);
console.log(`\ntotal: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedRun ? 1 : 0);
