/** Header and storage names shared by the console, the server and device clients. */
export const TOKEN_HEADER = 'X-Access-Token';
export const LANG_HEADER = 'lang';
export const API_PREFIX_DEFAULT = '/api';

export const LANGUAGES = ['zh-CN', 'en-US', 'ja-JP'] as const;
export type Language = (typeof LANGUAGES)[number];
/** The console starts in Chinese; a caller that sends no `lang` header gets Japanese (SPEC section 1). */
export const DEFAULT_UI_LANGUAGE: Language = 'zh-CN';
export const DEFAULT_SERVER_LANGUAGE: Language = 'ja-JP';

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
