import { readlinkSync } from 'node:fs';
import { AppError } from './envelope.ts';

/**
 * Times on the wire (DESIGN section 5): `yyyy-MM-dd HH:mm:ss` in the site's TIME_ZONE both ways, ISO 8601 with an
 * offset also accepted on input; stored as UTC ISO strings. A date (a birthday) is a calendar day, `yyyy-MM-dd`,
 * the same in every zone.
 */
export type TimeKind = 'datetime' | 'date';

/** What the server stores (`Date#toISOString`) and what ISO 8601 with an offset looks like: an instant, never user text. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const ISO_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
/** `yyyy-MM-dd`, `yyyy-MM-dd HH:mm` or `yyyy-MM-dd HH:mm:ss` (a `T` is tolerated): a wall-clock time in the site zone */
const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
export const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/**
 * The IANA names of UTC itself: their offset is always 0, so no Intl is needed for them (its first use loads the
 * time zone data, about 10 ms of a start on a small machine, where servers commonly run in UTC).
 */
const UTC_NAMES = new Set(['UTC', 'Etc/UTC', 'UCT', 'Etc/UCT', 'Universal', 'Etc/Universal', 'Zulu', 'Etc/Zulu', 'GMT', 'Etc/GMT', 'GMT0', 'Etc/GMT0', 'GMT+0', 'Etc/GMT+0', 'GMT-0', 'Etc/GMT-0', 'Greenwich', 'Etc/Greenwich']);

/** Whether Intl knows the IANA zone name (TIME_ZONE is checked with it at start). */
export function isTimeZone(name: string): boolean {
  if (UTC_NAMES.has(name)) return true;
  if (!/^[A-Za-z0-9_+\-/]{1,64}$/.test(name)) return false;
  try {
    formatterOf(name);
    return true;
  } catch {
    return false;
  }
}

/** The machine's zone, or UTC where the runtime cannot name it. */
export function machineTimeZone(): string {
  if (machineRunsOnUtc()) return 'UTC';
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isTimeZone(zone) ? zone : 'UTC';
}

/** Whether TZ, or where it is unset the zone file /etc/localtime links to, names UTC (false when neither tells). */
function machineRunsOnUtc(): boolean {
  const tz = process.env.TZ;
  if (tz) return UTC_NAMES.has(tz.replace(/^:/, ''));
  if (tz === '') return false;
  try {
    return UTC_NAMES.has(readlinkSync('/etc/localtime').replace(/^.*\/zoneinfo\//, ''));
  } catch {
    return false;
  }
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function formattedWallClock(ms: number, zone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(zone).formatToParts(new Date(ms))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour! % 24, minute: parts.minute!, second: parts.second! };
}

/** The zone's offset from UTC at an instant, in milliseconds, as the zone's rules say (slow: formats the instant). */
function formattedOffsetAt(ms: number, zone: string): number {
  const w = formattedWallClock(ms, zone);
  const whole = ms - (((ms % 1000) + 1000) % 1000);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - whole;
}

// zones change their offset on quarter hours: one offset per zone and quarter hour, when its start and end agree
const QUARTER_MS = 15 * 60_000;
const offsets = new Map<string, number | null>();

/** The zone's offset from UTC at an instant, in milliseconds; a page of a hundred times formats about one. */
function offsetAt(ms: number, zone: string): number {
  if (UTC_NAMES.has(zone)) return 0;
  const quarter = Math.floor(ms / QUARTER_MS);
  const key = `${zone}|${quarter}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    const start = formattedOffsetAt(quarter * QUARTER_MS, zone);
    offset = start === formattedOffsetAt((quarter + 1) * QUARTER_MS - 1000, zone) ? start : null;
    if (offsets.size >= 100_000) offsets.clear();
    offsets.set(key, offset);
  }
  return offset ?? formattedOffsetAt(ms, zone);
}

function wallClockAt(ms: number, zone: string): WallClock {
  const local = new Date(ms + offsetAt(ms, zone));
  return { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate(), hour: local.getUTCHours(), minute: local.getUTCMinutes(), second: local.getUTCSeconds() };
}

/**
 * The instant a wall-clock time of the zone names. Twice-lived times (clocks going back) take the earlier one; times
 * skipped by clocks going forward move forward by the gap, as java.time does.
 */
function instantOf(w: WallClock, zone: string): number {
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  const before = offsetAt(asUtc - DAY_MS, zone);
  const after = offsetAt(asUtc + DAY_MS, zone);
  const candidates = [...new Set([before, after])].map((offset) => asUtc - offset).filter((ms) => asUtc - ms === offsetAt(ms, zone));
  if (candidates.length > 0) return Math.min(...candidates);
  return asUtc - before;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function wallText(w: WallClock): string {
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
}

function validDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function wallClockOf(match: RegExpExecArray): WallClock | null {
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(match[i] ?? 0)) as [number, number, number, number, number, number];
  if (!validDay(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  return { year, month, day, hour, minute, second };
}

/** An instant given on the wire (wall clock in the zone, or ISO 8601 with an offset), in epoch milliseconds; null when it is none. */
export function parseWireInstant(text: string, zone: string): number | null {
  const trimmed = text.trim();
  const wall = WALL_CLOCK.exec(trimmed);
  if (wall) {
    const w = wallClockOf(wall);
    return w ? instantOf(w, zone) : null;
  }
  const iso = ISO_WITH_OFFSET.exec(trimmed);
  if (!iso || !wallClockOf(iso)) return null;
  const offset = iso[8] as string;
  if (offset !== 'Z' && (Number(offset.slice(1, 3)) > 23 || Number(offset.slice(-2)) > 59)) return null;
  const ms = Date.parse(trimmed);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * A time given on the wire as it is stored: a UTC ISO string for a datetime, `yyyy-MM-dd` for a date (a full time
 * given for a date counts as its day in the zone). Null when the text is neither form.
 */
export function parseWireTime(text: string, zone: string, kind: TimeKind = 'datetime'): string | null {
  const trimmed = text.trim();
  if (kind === 'date') {
    if (DATE_ONLY.test(trimmed)) return wallClockOf(WALL_CLOCK.exec(trimmed) as RegExpExecArray) ? trimmed : null;
    const ms = parseWireInstant(trimmed, zone);
    return ms === null ? null : wallText(wallClockAt(ms, zone)).slice(0, 10);
  }
  const ms = parseWireInstant(trimmed, zone);
  return ms === null ? null : new Date(ms).toISOString();
}

/** As parseWireTime, but a text that is no time is a 400 envelope naming the parameter. */
export function requireWireTime(text: string, zone: string, kind: TimeKind, name: string): string {
  const stored = parseWireTime(text, zone, kind);
  if (stored === null) {
    throw new AppError('badRequest', kind === 'date' ? 'validation.date' : 'validation.dateTime', { field: name });
  }
  return stored;
}

/** A stored instant as the wire shows it: `yyyy-MM-dd HH:mm:ss` in the zone. */
export function formatWireTime(value: Date | string | number, zone: string): string {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  return wallText(wallClockAt(ms, zone));
}

/** Whether a value is a stored instant (an ISO string with Z or an offset, or a Date), which the wire rewrites. */
export function isStoredInstant(value: unknown): value is Date | string {
  if (value instanceof Date) return !Number.isNaN(value.getTime());
  // most strings of an answer are names: the shape's dashes and T rule them out before the pattern runs
  if (typeof value !== 'string' || value.length < 20 || value.length > 35) return false;
  if (value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45 || value.charCodeAt(10) !== 84) return false;
  return INSTANT.test(value) && !Number.isNaN(Date.parse(value));
}

/** Stored instants already written for the wire, by zone: a list page shows the same rows' times to every reader. */
const wireTexts = new Map<string, Map<string, string>>();
const WIRE_TEXTS_KEPT = 20_000;

/** formatWireTime of a stored instant's text, remembered. */
function wireTextOf(value: string, zone: string): string {
  let texts = wireTexts.get(zone);
  if (!texts) {
    texts = new Map();
    wireTexts.set(zone, texts);
  }
  let text = texts.get(value);
  if (text === undefined) {
    text = formatWireTime(value, zone);
    if (texts.size >= WIRE_TEXTS_KEPT) texts.clear();
    texts.set(value, text);
  }
  return text;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * A copy of an answer's data with every stored instant in the wire format; anything else (numbers such as the
 * envelope's timestamp, dates, user text) is kept. Only arrays and plain objects are entered.
 */
export function toWire<T>(value: T, zone: string, depth = 0): T {
  if (isStoredInstant(value)) return (typeof value === 'string' ? wireTextOf(value, zone) : formatWireTime(value, zone)) as T;
  if (value === null || typeof value !== 'object' || depth > 32) return value;
  // copied only where an instant is rewritten: an answer without times (options, trees of names) leaves as it is
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const wired = toWire(item, zone, depth + 1);
      if (out) out.push(wired);
      else if (wired !== item) out = [...value.slice(0, i), wired];
    }
    return (out ?? value) as T;
  }
  if (!isPlainObject(value)) return value;
  let out: Record<string, unknown> | null = null;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = value[key];
    const wired = toWire(item, zone, depth + 1);
    if (wired === item) continue;
    out ??= Object.fromEntries(Object.entries(value));
    out[key] = wired;
  }
  return (out ?? value) as T;
}

function isEnvelope(payload: unknown): payload is { result: unknown } {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return false;
  const candidate = payload as Record<string, unknown>;
  return typeof candidate.success === 'boolean' && typeof candidate.timestamp === 'number' && 'result' in candidate;
}

/** The envelope with its result on the wire; the envelope's own timestamp stays the epoch number. Other payloads pass. */
export function envelopeToWire<T>(payload: T, zone: string): T {
  if (!isEnvelope(payload) || payload.result === null || payload.result === undefined) return payload;
  return { ...payload, result: toWire(payload.result, zone) };
}
