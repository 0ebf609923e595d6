import type { AuthItem } from '@isps/contract';

/**
 * SPEC section 6: a button is shown when the system list switches its rule off (status '0'),
 * otherwise only when the user's own list grants it; type '2' entries take no part.
 */
export function hasPermission(code: string, auth: readonly AuthItem[], allAuth: readonly AuthItem[]): boolean {
  const ruleOff = allAuth.some((item) => item.type !== '2' && item.action === code && item.status === '0');
  if (ruleOff) return true;
  return auth.some((item) => item.type !== '2' && item.action === code);
}
