import { Limits } from '@isps/contract';

/** Every key the console writes lives under this prefix (SPEC section 9). */
export const STORAGE_PREFIX = 'pro__';

export const StorageKey = {
  token: 'Access-Token',
  userInfo: 'Login_Userinfo',
  language: 'lang',
  /** the tenant a system administrator chose to work in ('0' or none: his own) */
  tenant: 'TENANT_ID',
} as const;

interface Stored<T> {
  value: T;
  expire: number | null;
}

/**
 * Writes `{value, expire}`; expireMs null keeps the value until it is removed.
 * False when the browser refused it (private mode or a full quota): the value then lasts only for this page.
 */
export function setStored<T>(key: string, value: T, expireMs: number | null = Limits.tokenLifetimeMs): boolean {
  const entry: Stored<T> = { value, expire: expireMs === null ? null : Date.now() + expireMs };
  try {
    localStorage.setItem(STORAGE_PREFIX + key, JSON.stringify(entry));
    return true;
  } catch {
    return false;
  }
}

function isStored(value: unknown): value is Stored<unknown> {
  return typeof value === 'object' && value !== null && 'value' in value && 'expire' in value;
}

/** The stored value, or null once expired; a bare value written by another tool is read as it is. */
export function getStored<T>(key: string): T | null {
  const raw = localStorage.getItem(STORAGE_PREFIX + key);
  if (raw === null) return null;
  let entry: unknown;
  try {
    entry = JSON.parse(raw);
  } catch {
    return raw as T;
  }
  if (!isStored(entry)) return entry as T;
  if (typeof entry.expire === 'number' && entry.expire <= Date.now()) {
    localStorage.removeItem(STORAGE_PREFIX + key);
    return null;
  }
  return entry.value as T;
}

export function removeStored(key: string): void {
  localStorage.removeItem(STORAGE_PREFIX + key);
}
