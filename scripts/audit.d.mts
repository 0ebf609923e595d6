export interface AllowedAdvisory {
  id: string;
  reason: string;
}
/** The blocking advisories of an `npm audit --json` report that the allow-list does not name, and malformed entries. */
export function auditFindings(report: unknown, allowList: readonly AllowedAdvisory[]): string[];
