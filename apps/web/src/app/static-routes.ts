import type { MessageKey } from '../locales/en-US.ts';

export interface StaticRoute {
  path: string;
  /** an example address to open, when the page reads its query */
  example?: string;
  titleKey: MessageKey;
  access: 'public' | 'signedIn';
}

/** SPEC section 2 static routes: registered whatever the menu holds. /test/home lists them for testers. */
export const STATIC_ROUTES: readonly StaticRoute[] = [
  { path: '/user/login', titleKey: 'login.pageTitle', access: 'public' },
  { path: '/panel', titleKey: 'panel.title', access: 'public' },
  { path: '/result', example: '/result?status=success', titleKey: 'result.successTitle', access: 'public' },
  { path: '/result', example: '/result?status=error', titleKey: 'result.failureTitle', access: 'public' },
  { path: '/test/home', titleKey: 'testHome.title', access: 'signedIn' },
  { path: '/isps/userAnnouncement', titleKey: 'menu.system.userAnnouncement', access: 'signedIn' },
  { path: '/404', titleKey: 'exception.pageNotFound', access: 'signedIn' },
  { path: '/exception/403', titleKey: 'exception.accessDenied', access: 'signedIn' },
  { path: '/exception/404', titleKey: 'exception.pageNotFound', access: 'signedIn' },
  { path: '/exception/500', titleKey: 'exception.serverError', access: 'signedIn' },
];

/** Public pages drawn on their own, with or without a session. */
export const STANDALONE_PATHS = ['/panel', '/result'] as const;

export function staticTitleKey(pathname: string): MessageKey | undefined {
  return STATIC_ROUTES.find((route) => route.path === pathname)?.titleKey;
}
