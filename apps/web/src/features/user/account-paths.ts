/** The public account pages besides login (SPEC section 2); kept apart from their routes so the shell decides without loading them. */
export const ACCOUNT_PATHS = ['/user/register', '/user/register-result', '/user/alteration', '/user/apilogin', '/user/active'] as const;

export type AccountPath = (typeof ACCOUNT_PATHS)[number];

export function isAccountPath(pathname: string): boolean {
  return (ACCOUNT_PATHS as readonly string[]).includes(pathname.replace(/\/+$/, ''));
}
