import { randomInt } from 'node:crypto';
import { translate, type Language } from '@isps/contract';
import * as z from 'zod';

/** The code generators a fill rule names (FILL_RULE_IMPLEMENTATIONS in the contract), each with its params. */
interface FillImplementation {
  params: z.ZodType<Record<string, unknown>>;
  generate(params: Record<string, unknown>, now: number): string;
}

const prefix = z.string().max(20).regex(/^[A-Za-z0-9_-]*$/).optional();
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function stamp(now: number, withTime: boolean): string {
  const iso = new Date(now).toISOString();
  const date = iso.slice(0, 10).replace(/-/g, '');
  return withTime ? date + iso.slice(11, 19).replace(/:/g, '') : date;
}

function randomDigits(count: number): string {
  return Array.from({ length: count }, () => String(randomInt(10))).join('');
}

/** looked up with Object.hasOwn only: a stored class name such as `toString` is no implementation */
const implementations: Record<string, FillImplementation> = {
  /** prefix + YYYYMMDD + `digits` random digits: order numbers */
  datedSerial: {
    params: z.object({ prefix, digits: z.number().int().min(1).max(10).optional() }),
    generate: (p, now) => `${(p.prefix as string | undefined) ?? ''}${stamp(now, false)}${randomDigits((p.digits as number | undefined) ?? 4)}`,
  },
  /** prefix + `length` characters without look-alikes (no 0/O, 1/I) */
  randomCode: {
    params: z.object({ prefix, length: z.number().int().min(4).max(32).optional() }),
    generate: (p) => `${(p.prefix as string | undefined) ?? ''}${Array.from({ length: (p.length as number | undefined) ?? 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')}`,
  },
  /** prefix + YYYYMMDDHHmmss (UTC) */
  prefixedTime: {
    params: z.object({ prefix }),
    generate: (p, now) => `${(p.prefix as string | undefined) ?? ''}${stamp(now, true)}`,
  },
};

function parseParams(text: string | null): Record<string, unknown> {
  if (!text) return {};
  const parsed = JSON.parse(text) as unknown;
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

/** Why these params do not suit the implementation, in the caller's language, or null. */
export function fillParamsProblem(lang: Language, implementation: string, params: string | null): string | null {
  const impl = implementationOf(implementation);
  if (!impl) return translate(lang, 'validation.unknownOption', { field: 'ruleClass', value: implementation });
  let parsed: Record<string, unknown>;
  try {
    parsed = parseParams(params);
  } catch {
    return translate(lang, 'validation.illegalJson', { field: 'ruleParams' });
  }
  const result = impl.params.safeParse(parsed);
  return result.success ? null : translate(lang, 'validation.invalid', { field: `ruleParams.${result.error.issues[0]?.path.join('.') ?? ''}` });
}

function implementationOf(name: string): FillImplementation | undefined {
  return Object.hasOwn(implementations, name) ? implementations[name] : undefined;
}

/** A generated value, or null when the stored rule names no implementation of this release. */
export function generateFillValue(implementation: string, params: string | null, now: number): string | null {
  const impl = implementationOf(implementation);
  if (!impl) return null;
  let given: Record<string, unknown> = {};
  try {
    given = parseParams(params);
  } catch {
    // stored params that are not JSON: the implementation's defaults
  }
  const parsed = impl.params.safeParse(given);
  return impl.generate(parsed.success ? parsed.data : {}, now);
}
