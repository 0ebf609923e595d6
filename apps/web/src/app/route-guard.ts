import { HOME_PATH, LOGIN_PATH, redirectTarget } from '../shared/session/redirect-target.ts';

export { HOME_PATH, LOGIN_PATH } from '../shared/session/redirect-target.ts';

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

/** The parent of the login, registration and activation pages. */
const USER_AREA_PATH = '/user';

const normalise = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

export function isPublicPath(path: string): boolean {
  return (PUBLIC_PATHS as readonly string[]).includes(normalise(path));
}

export type GuardDecision = { kind: 'allow' } | { kind: 'redirect'; to: string };

/** Where a visit goes before any page renders; the menu-dependent part follows once the token is known. */
export function guard(pathname: string, search: string, hash: string, hasToken: boolean): GuardDecision {
  const path = normalise(pathname);
  // SPEC section 2: /user is the login page's parent and redirects to it; with a session the login page goes on home
  if (path === USER_AREA_PATH) return { kind: 'redirect', to: LOGIN_PATH };
  if (!hasToken) {
    if (isPublicPath(path)) return { kind: 'allow' };
    if (path.startsWith('/vistor/user/main')) return { kind: 'redirect', to: '/vistor/login' };
    // '/' is the home page, so that is what the login page is asked to return to.
    const wanted = path === '/' ? HOME_PATH : `${pathname}${search}${hash}`;
    return { kind: 'redirect', to: `${LOGIN_PATH}?redirect=${encodeURIComponent(wanted)}` };
  }
  // Right after login the page is still /user/login?redirect=…: both this guard and the login page go there.
  if (path === LOGIN_PATH) return { kind: 'redirect', to: redirectTarget(search) };
  return { kind: 'allow' };
}
