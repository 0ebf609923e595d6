import { describe, expect, it } from 'vitest';
import { auditFindings } from './audit.mjs';

const advisory = (severity: string, id: string) => ({ source: 1, name: 'some-lib', title: `a ${severity} flaw`, url: `https://example.invalid/advisories/${id}`, severity, range: '<2.0.0' });
const report = {
  vulnerabilities: {
    'some-lib': { severity: 'critical', via: [advisory('critical', 'GHSA-crit-0000-0001'), advisory('moderate', 'GHSA-mod0-0000-0002')] },
    'uses-lib': { severity: 'critical', via: ['some-lib'] },
    'other-lib': { severity: 'high', via: [advisory('high', 'GHSA-high-0000-0003')] },
  },
};

describe('npm audit gate', () => {
  it('fails on each high and critical advisory once, not on moderate ones or on packages that only depend on the flawed one', () => {
    const problems = auditFindings(report, []);
    expect(problems).toHaveLength(2);
    expect(problems.join('\n')).toContain('GHSA-crit-0000-0001');
    expect(problems.join('\n')).toContain('GHSA-high-0000-0003');
  });

  it('passes advisories the allow-list names with a reason, and refuses an entry without one', () => {
    const allowed = [
      { id: 'GHSA-crit-0000-0001', reason: 'only the CLI of this package is affected and we never run it' },
      { id: 'GHSA-high-0000-0003', reason: 'n/a' },
    ];
    const problems = auditFindings(report, allowed);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/needs an id and a reason/);
    expect(problems[1]).toContain('GHSA-high-0000-0003');
  });

  it('has nothing to say of a clean report', () => {
    expect(auditFindings({ vulnerabilities: {} }, [])).toEqual([]);
  });
});
