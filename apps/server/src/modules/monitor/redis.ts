import { MonitorLimits, RedisTerminalCommands, type RedisInfoSection } from '@isps/contract';
import type { Redis } from 'ioredis';
import { AppError, type Params } from '../../platform/envelope.ts';
import type { MessageKey } from '@isps/contract';

/** A refusal of the terminal: HTTP 200, code 500, with the localised reason (DESIGN section 5). */
function refused(key: MessageKey, params?: Params): AppError {
  return new AppError('refused', key, params);
}

/**
 * The commands the terminal runs: read-only ones that show neither values (no GET, no HGETALL, no DUMP) nor the
 * server's settings, each with its argument rule. Everything else (FLUSHALL, CONFIG, KEYS, EVAL, SCRIPT, DEBUG,
 * SHUTDOWN, every write) is refused by name.
 */
const ALLOWED: Record<(typeof RedisTerminalCommands)[number], { usage: string; check: (args: string[]) => string[] | null }> = {
  PING: { usage: 'PING [message]', check: (a) => (a.length <= 1 ? a : null) },
  INFO: { usage: 'INFO [section]', check: (a) => (a.length === 0 || (a.length === 1 && /^[A-Za-z_]{1,32}$/.test(a[0] as string)) ? a : null) },
  DBSIZE: { usage: 'DBSIZE', check: (a) => (a.length === 0 ? a : null) },
  TIME: { usage: 'TIME', check: (a) => (a.length === 0 ? a : null) },
  TYPE: { usage: 'TYPE key', check: oneKey },
  TTL: { usage: 'TTL key', check: oneKey },
  PTTL: { usage: 'PTTL key', check: oneKey },
  STRLEN: { usage: 'STRLEN key', check: oneKey },
  HLEN: { usage: 'HLEN key', check: oneKey },
  LLEN: { usage: 'LLEN key', check: oneKey },
  SCARD: { usage: 'SCARD key', check: oneKey },
  ZCARD: { usage: 'ZCARD key', check: oneKey },
  EXISTS: { usage: 'EXISTS key [key …] (at most 16)', check: (a) => (a.length >= 1 && a.length <= 16 ? a : null) },
  SCAN: { usage: `SCAN cursor [MATCH pattern] [COUNT n ≤ ${MonitorLimits.scanCountMax}] [TYPE type]`, check: scanArgs },
};

function oneKey(args: string[]): string[] | null {
  return args.length === 1 ? args : null;
}

/** SCAN with its options checked; COUNT is capped (a missing one is the default 10). */
function scanArgs(args: string[]): string[] | null {
  const [cursor, ...rest] = args;
  if (cursor === undefined || !/^\d{1,20}$/.test(cursor)) return null;
  const out = [cursor];
  for (let i = 0; i < rest.length; i += 2) {
    const option = rest[i]?.toUpperCase();
    const value = rest[i + 1];
    if (value === undefined) return null;
    if (option === 'MATCH' || option === 'TYPE') out.push(option, value);
    else if (option === 'COUNT' && /^\d{1,9}$/.test(value)) out.push(option, String(Math.min(Math.max(1, Number(value)), MonitorLimits.scanCountMax)));
    else return null;
  }
  return out;
}

/** Splits a typed line into words as redis-cli does: spaces separate, '…' and "…" quote (with \" and \\ inside). */
export function splitCommandLine(line: string): string[] | null {
  const words: string[] = [];
  let i = 0;
  while (i < line.length) {
    while (i < line.length && /\s/.test(line[i] as string)) i += 1;
    if (i >= line.length) break;
    let word = '';
    const quote = line[i] === '"' || line[i] === "'" ? line[i] : null;
    if (quote) {
      i += 1;
      while (i < line.length && line[i] !== quote) {
        if (line[i] === '\\' && quote === '"' && i + 1 < line.length) i += 1;
        word += line[i];
        i += 1;
      }
      if (i >= line.length) return null;
      i += 1;
      if (i < line.length && !/\s/.test(line[i] as string)) return null;
    } else {
      while (i < line.length && !/\s/.test(line[i] as string)) word += line[i++];
    }
    words.push(word);
  }
  return words;
}

/** The command to send for a typed line, or the refusal to answer. */
export function parseTerminalLine(line: string): { name: string; args: string[] } {
  if (line.length > MonitorLimits.terminalLineMax) throw refused('monitor.commandTooLong', { max: MonitorLimits.terminalLineMax });
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(line)) throw refused('monitor.commandUsage', { command: '?', usage: 'one line of text' });
  const words = splitCommandLine(line.trim());
  if (words === null) throw refused('monitor.commandUsage', { command: '?', usage: 'close every quote' });
  const [first, ...args] = words;
  if (!first) throw refused('monitor.commandEmpty');
  const name = first.toUpperCase();
  const shown = /^[A-Z_-]{1,32}$/.test(name) ? name : name.slice(0, 32).replace(/[^\x20-\x7e]/g, '?');
  const rule = (RedisTerminalCommands as readonly string[]).includes(name) ? ALLOWED[name as (typeof RedisTerminalCommands)[number]] : undefined;
  if (!rule) throw refused('monitor.commandRefused', { command: shown });
  const checked = rule.check(args);
  if (!checked) throw refused('monitor.commandUsage', { command: name, usage: rule.usage });
  return { name, args: checked };
}

/** An answer as redis-cli prints it. */
export function formatReply(reply: unknown, indent = ''): string {
  if (reply === null || reply === undefined) return '(nil)';
  if (typeof reply === 'number') return `(integer) ${reply}`;
  if (Buffer.isBuffer(reply)) return JSON.stringify(reply.toString('utf8'));
  if (Array.isArray(reply)) {
    if (reply.length === 0) return '(empty array)';
    return reply.map((item, index) => `${index === 0 ? '' : indent}${index + 1}) ${formatReply(item, `${indent}   `)}`).join('\n');
  }
  const text = String(reply);
  return text.includes('\n') ? text : JSON.stringify(text).slice(1, -1) === text ? text : JSON.stringify(text);
}

/** Runs an allowed command, bounded in time. */
export async function runTerminalCommand(redis: Redis, line: string): Promise<{ command: string; output: string }> {
  const { name, args } = parseTerminalLine(line);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(refused('monitor.commandTimeout', { command: name, seconds: MonitorLimits.terminalTimeoutMs / 1000 })), MonitorLimits.terminalTimeoutMs);
  });
  try {
    const reply = await Promise.race([redis.call(name, ...args), timeout]);
    return { command: [name, ...args].join(' '), output: formatReply(reply) };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw refused('monitor.commandFailed', { command: name, detail: (error as Error).message.slice(0, 200) });
  } finally {
    clearTimeout(timer);
  }
}

/** INFO's text as sections of key/value rows. */
export function parseInfo(text: string): RedisInfoSection[] {
  const sections: RedisInfoSection[] = [];
  let current: RedisInfoSection | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    if (line.startsWith('#')) {
      current = { name: line.slice(1).trim(), entries: [] };
      sections.push(current);
      continue;
    }
    const at = line.indexOf(':');
    if (at === -1) continue;
    if (!current) {
      current = { name: 'Server', entries: [] };
      sections.push(current);
    }
    current.entries.push({ key: line.slice(0, at), value: line.slice(at + 1) });
  }
  return sections;
}
