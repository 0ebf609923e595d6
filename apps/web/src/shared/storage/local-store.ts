import { Limits } from '@isps/contract';

/** Every key the console writes lives under this prefix (SPEC section 9). */
export const STORAGE_PREFIX = 'pro__';

export const StorageKey = {
  token: 'Access-Token',
  userInfo: 'Login_Userinfo',
  language: 'lang',
} as const;

interface Stored<T> {
  value: T;
  expire: number | null;
}

/** Writes `{value, expire}`; expireMs null keeps the value until it is removed. */
export function setStored<T>(key: string, value: T, expireMs: number | null = Limits.tokenLifetimeMs): void {
  const entry: Stored<T> = { value, expire: expireMs === null ? null : Date.now() + expireMs };
  try {
    localStorage.setItem(STORAGE_PREFIX + key, JSON.stringify(entry));
  } catch {
    // Private mode or a full quota: the session then lasts only for this page.
  }
}

export function getStored<T>(key: string): T | null {
  const raw = localStorage.getItem(STORAGE_PREFIX + key);
  if (raw === null) return null;
  try {
    const entry = JSON.parse(raw) as Stored<T>;
    if (entry.expire !== null && entry.expire <= Date.now()) {
      localStorage.removeItem(STORAGE_PREFIX + key);
      return null;
    }
    return entry.value;
  } catch {
    localStorage.removeItem(STORAGE_PREFIX + key);
    return null;
  }
}

export function removeStored(key: string): void {
  localStorage.removeItem(STORAGE_PREFIX + key);
}
