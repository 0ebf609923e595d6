import { MonitorLimits, type TraceEntry } from '@isps/contract';

/** Query names whose values are never kept (tokens, passwords, card numbers, keys, codes, personal data). */
const SECRET_NAME = /token|pass|pwd|secret|key|card|auth|session|cookie|sign|ticket|code|captcha|otp|phone|mobile|mail|id_?no|idcard|credential|salt|hash/i;
/** A value kept only when it looks like a page number, a sort column or a flag: a short number, or a word without
 * digits (a value mixing letters and digits could be a token, a code or an id). */
const SAFE_VALUE = /^(\d{1,5}|[A-Za-z_.,-]{0,24})$/;
const MAX_PATH = 200;
const MASK = '***';

/**
 * What the trace keeps of a request's address: the route template when a route answered (so ids and file names in
 * the path stay out), the raw path otherwise (bounded), and each query parameter's name with its value only when
 * the name is not secret-looking and the value is short and plain; never a header, cookie or body.
 */
export function tracedPath(rawUrl: string, routeUrl: string | undefined): string {
  const queryAt = rawUrl.indexOf('?');
  const rawPath = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
  const path = (routeUrl ?? maskPath(rawPath)).slice(0, MAX_PATH);
  if (queryAt === -1) return path;
  const params = new URLSearchParams(rawUrl.slice(queryAt + 1));
  const shown: string[] = [];
  let count = 0;
  for (const [name, value] of params) {
    if (++count > 20) break;
    const safeName = /^[A-Za-z0-9_.[\]-]{1,40}$/.test(name) ? name : MASK;
    const keep = safeName !== MASK && !SECRET_NAME.test(name) && SAFE_VALUE.test(value);
    shown.push(`${safeName}=${keep ? value : MASK}`);
  }
  return shown.length > 0 ? `${path}?${shown.join('&')}` : path;
}

/** An unknown path keeps only its word-like segments (letters, '-', '_', '.', up to 24): one with a digit, an
 * escape or more length could be an id, a token or a card number and is masked. */
function maskPath(path: string): string {
  return path
    .split('/')
    .map((segment) => (segment === '' || /^[A-Za-z_.-]{1,24}$/.test(segment) ? segment : MASK))
    .join('/');
}

interface Finished {
  time: number;
  status: number;
  durationMs: number;
}

/** Keeps the last requests (newest first) and the figures of the web server screen over the last minute. */
export class RequestTrace {
  private readonly entries: TraceEntry[] = [];
  /** the last minute's requests, for rates and latency percentiles */
  private readonly recent: Finished[] = [];
  private readonly statuses = new Map<string, number>();
  total = 0;

  constructor(
    private readonly now: () => number,
    private readonly size: number = MonitorLimits.traceSize,
  ) {}

  record(entry: TraceEntry): void {
    this.entries.unshift(entry);
    if (this.entries.length > this.size) this.entries.length = this.size;
    this.total += 1;
    const group = `${Math.floor(entry.status / 100)}xx`;
    this.statuses.set(group, (this.statuses.get(group) ?? 0) + 1);
    this.recent.push({ time: entry.time, status: entry.status, durationMs: entry.durationMs });
    this.prune();
  }

  list(): TraceEntry[] {
    return this.entries.slice();
  }

  private prune(): void {
    const since = this.now() - 60_000;
    let drop = 0;
    while (drop < this.recent.length && (this.recent[drop] as Finished).time < since) drop += 1;
    if (drop > 0) this.recent.splice(0, drop);
    // a burst keeps at most this many for the percentiles
    if (this.recent.length > 20_000) this.recent.splice(0, this.recent.length - 20_000);
  }

  figures(): { requestsPerSecond: number; totalRequests: number; statusCounts: Record<string, number>; latencyMs: { p50: number; p95: number; p99: number } } {
    this.prune();
    const durations = this.recent.map((r) => r.durationMs).sort((a, b) => a - b);
    const at = (q: number) => (durations.length === 0 ? 0 : round((durations[Math.min(durations.length - 1, Math.ceil(q * durations.length) - 1)] as number)));
    return {
      requestsPerSecond: round(this.recent.length / 60),
      totalRequests: this.total,
      statusCounts: Object.fromEntries([...this.statuses].sort(([a], [b]) => a.localeCompare(b))),
      latencyMs: { p50: at(0.5), p95: at(0.95), p99: at(0.99) },
    };
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
