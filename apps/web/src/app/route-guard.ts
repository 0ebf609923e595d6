/** SPEC section 2: paths that need no token. */
export const PUBLIC_PATHS = [
  '/user/login',
  '/user/apilogin',
  '/vistor/login',
  '/vistor/reg',
  '/vistor/panel',
  '/user/register',
  '/user/register-result',
  '/user/alteration',
  '/user/active',
  '/panel',
  '/result',
] as const;

export const LOGIN_PATH = '/user/login';
export const HOME_PATH = '/dashboard/analysis';

const normalise = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

export function isPublicPath(path: string): boolean {
  return (PUBLIC_PATHS as readonly string[]).includes(normalise(path));
}

export type GuardDecision = { kind: 'allow' } | { kind: 'redirect'; to: string };

/** Where a visit goes before any page renders; the menu-dependent part follows once the token is known. */
export function guard(pathname: string, search: string, hash: string, hasToken: boolean): GuardDecision {
  const path = normalise(pathname);
  if (!hasToken) {
    if (isPublicPath(path)) return { kind: 'allow' };
    if (path.startsWith('/vistor/user/main')) return { kind: 'redirect', to: '/vistor/login' };
    const wanted = `${pathname}${search}${hash}`;
    return { kind: 'redirect', to: path === '/' ? LOGIN_PATH : `${LOGIN_PATH}?redirect=${encodeURIComponent(wanted)}` };
  }
  if (path === LOGIN_PATH) return { kind: 'redirect', to: HOME_PATH };
  return { kind: 'allow' };
}
