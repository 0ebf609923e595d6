/** Header and storage names shared by the console, the server and device clients. */
export const TOKEN_HEADER = 'X-Access-Token';
export const LANG_HEADER = 'lang';
/** The tenant a system administrator chose to work in (`0` or absent: his own); other callers' value is ignored. */
export const TENANT_HEADER = 'tenant-id';
/** The dictionary whose options are the tenants (`tenantId` fields of users, roles and groups). */
export const TENANT_DICT = 'sys_tenant';
export const API_PREFIX_DEFAULT = '/api';

export const LANGUAGES = ['zh-CN', 'en-US', 'ja-JP'] as const;
export type Language = (typeof LANGUAGES)[number];
/** The console starts in Chinese (SPEC section 1). */
export const DEFAULT_UI_LANGUAGE: Language = 'zh-CN';
/** The language of an answer to a caller that names none in `lang` or Accept-Language: the product's own. */
export const DEFAULT_SERVER_LANGUAGE: Language = 'zh-CN';

/**
 * The console language of a first visit (no stored choice): the first of the browser's languages
 * (navigator.languages) the console speaks, matched by its primary subtag (`ja`, `en-GB`, `zh-Hant-TW`), else zh-CN.
 * Self-contained on purpose: index.html's first scripts run its source before the console has loaded.
 */
export function browserLanguage(tags: readonly string[] | null | undefined): Language {
  const ours: readonly Language[] = ['zh-CN', 'en-US', 'ja-JP'];
  for (const tag of tags ?? []) {
    const primary = String(tag).trim().split(/[-_]/)[0]?.toLowerCase() ?? '';
    const found = ours.find((language) => language.slice(0, 2) === primary);
    if (found) return found;
  }
  return 'zh-CN';
}

/** One of ours for a language tag (`ja`, `en-GB`, `zh-Hans-CN`), or null. */
function matchLanguage(tag: string): Language | null {
  const exact = LANGUAGES.find((l) => l.toLowerCase() === tag.toLowerCase());
  if (exact) return exact;
  const prefix = tag.slice(0, 2).toLowerCase();
  return LANGUAGES.find((l) => l.startsWith(prefix)) ?? null;
}

/**
 * The language of an answer: the `lang` header, then the first of Accept-Language's choices (by weight) that the
 * product speaks, then the product's default.
 */
export function answerLanguage(lang: string | undefined | null, acceptLanguage: string | undefined | null): Language {
  const named = lang?.trim() ? matchLanguage(lang.trim()) : null;
  if (named) return named;
  const choices = (acceptLanguage ?? '')
    .slice(0, 1000)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), weight: q === undefined ? 1 : Number(q), index };
    })
    .filter((c) => c.tag && c.tag !== '*' && c.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const choice of choices) {
    const language = matchLanguage(choice.tag);
    if (language) return language;
  }
  return DEFAULT_SERVER_LANGUAGE;
}

export function toLanguage(value: string | undefined | null, fallback: Language = DEFAULT_SERVER_LANGUAGE): Language {
  if (!value) return fallback;
  const exact = LANGUAGES.find((l) => l.toLowerCase() === value.toLowerCase());
  if (exact) return exact;
  const prefix = value.slice(0, 2).toLowerCase();
  return LANGUAGES.find((l) => l.startsWith(prefix)) ?? fallback;
}

/** SPEC section 9 constants. */
export const Limits = {
  tokenLifetimeMs: 604_800_000,
  apiTimeoutMs: 9000,
  longPostTimeoutMs: 60_000,
  chunkLoadTimeoutMs: 120_000,
  captchaLifetimeMs: 60_000,
  loginFailureWindowMs: 10 * 60_000,
  loginFailureLimit: 5,
  loginLockMs: 10 * 60_000,
  passwordMinLength: 8,
} as const;
