// `npm audit --omit=dev` as a CI gate: fails on a high or critical advisory of a production dependency unless
// audit-allowlist.json names it with the reason it does not apply here.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const BLOCKING = new Set(['high', 'critical']);

/** The advisory id at the end of an advisory URL (`…/advisories/GHSA-xxxx-xxxx-xxxx`), else the URL itself. */
function advisoryId(url) {
  return String(url ?? '').split('/').pop();
}

/**
 * The blocking advisories of an `npm audit --json` report that the allow-list does not name, one line each, and the
 * allow-list entries that are malformed (an entry without a reason is no decision).
 */
export function auditFindings(report, allowList) {
  const problems = [];
  const allowed = new Set();
  for (const entry of allowList) {
    if (!entry?.id || typeof entry.reason !== 'string' || entry.reason.trim().length < 10) problems.push(`allow-list entry ${JSON.stringify(entry)} needs an id and a reason`);
    else allowed.add(entry.id);
  }
  const seen = new Set();
  for (const vulnerability of Object.values(report.vulnerabilities ?? {})) {
    for (const via of vulnerability.via ?? []) {
      // a string names another vulnerable package whose own entry carries the advisory
      if (typeof via !== 'object' || !BLOCKING.has(via.severity)) continue;
      const id = advisoryId(via.url);
      if (allowed.has(id) || seen.has(id)) continue;
      seen.add(id);
      problems.push(`${via.severity}: ${via.name} ${via.range ?? ''} ${via.title ?? ''} (${id})`);
    }
  }
  return problems;
}

function main() {
  const allowList = JSON.parse(readFileSync(join(root, 'audit-allowlist.json'), 'utf8'));
  const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  let report;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    report = null;
  }
  // npm answers `{ error: … }` (or nothing) when the registry has no audit endpoint: there is nothing to judge then
  if (!report || report.error || !report.vulnerabilities) {
    const why = report?.error?.summary || (report?.statusCode ? `HTTP ${report.statusCode}` : '') || run.stderr.split('\n').find((line) => line.includes('audit')) || 'no report';
    console.log(`npm audit: the registry gave no audit report (${why.trim()}); advisories were not checked`);
    return 0;
  }
  const problems = auditFindings(report, allowList);
  const counts = report.metadata?.vulnerabilities ?? {};
  console.log(`npm audit --omit=dev: ${JSON.stringify(counts)}`);
  for (const line of problems) console.log(`  ${line}`);
  if (problems.length > 0) console.log('Fix these, or add them to audit-allowlist.json with the reason they do not apply.');
  return problems.length > 0 ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(main());
