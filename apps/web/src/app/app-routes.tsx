import { Suspense, lazy, type ComponentType, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { isAccountPath } from '../features/user/account-paths.ts';
import LoginPage from '../features/user/pages/login.tsx';
import { isVisitorPath } from '../features/visitor/visitor-paths.ts';
import { loadEntityLabels } from '../shared/i18n/entity-labels.ts';
import { storedLanguage } from '../shared/i18n/language.ts';
import { useSession } from '../shared/session/session-store.ts';
import { AntdScope } from '../shared/ui/antd-scope.tsx';
import { FullPageSpin } from '../shared/ui/full-page-spin.tsx';
import { UserLayout } from './layouts/user-layout.tsx';
import { LOGIN_PATH, guard } from './route-guard.ts';
import { STANDALONE_PATHS } from './static-routes.ts';

// The shell holds the login page and only what it needs, and no antd: every other screen is a chunk loaded by its
// route, inside antd's context loaded with it. The login page is no chunk of its own: a page that suspends on its
// first render is shown only after React's pause for revealing a boundary, some 300 ms after its fallback. The screens after login show entity titles and field labels,
// added to the catalogues when the first of them loads, with the server's messages in the active language (a switch
// reloads the page).
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as React.lazy itself: any props
function later<T extends ComponentType<any>>(load: () => Promise<T>) {
  return lazy(async () => {
    const [component] = await Promise.all([load(), loadEntityLabels(storedLanguage())]);
    return { default: component };
  });
}

const NotFoundPage = later(() => import('./not-found-page.tsx').then((m) => m.NotFoundPage));
const PanelPage = later(() => import('./pages/panel-page.tsx').then((m) => m.PanelPage));
const ResultPage = later(() => import('./pages/result-page.tsx').then((m) => m.ResultPage));
const VisitorRoutes = later(() => import('../features/visitor/visitor-routes.tsx').then((m) => m.VisitorRoutes));
const AccountRoutes = later(() => import('../features/user/account-routes.tsx').then((m) => m.AccountRoutes));
const ForcedPasswordChange = later(() => import('./forced-password-change.tsx').then((m) => m.ForcedPasswordChange));
const SignedInRoutes = later(() => import('./signed-in-routes.tsx').then((m) => m.SignedInRoutes));

function PublicRoutes() {
  return (
    <Routes>
      <Route element={<UserLayout />}>
        <Route path={LOGIN_PATH} element={<LoginPage />} />
      </Route>
      {/* Other public screens arrive with later issues; until then they are not found. */}
      <Route
        path="*"
        element={
          <AntdScope fallback={<FullPageSpin />}>
            <NotFoundPage />
          </AntdScope>
        }
      />
    </Routes>
  );
}

/** The page of an address and the kind it belongs to: the login page, or the chunk that draws it. */
function usePage(): [kind: string, page: ReactNode] {
  const location = useLocation();
  const token = useSession((s) => s.token);
  const mustChangePassword = useSession((s) => s.userInfo?.mustChangePassword ?? false);
  // Visitor and account pages are drawn with or without a staff session (a visitor is never a staff user).
  if (isVisitorPath(location.pathname)) return ['visitor', <VisitorRoutes />];
  if (isAccountPath(location.pathname)) return ['account', <AccountRoutes layout={UserLayout} />];
  const decision = guard(location.pathname, location.search, location.hash, !!token);
  if (decision.kind === 'redirect') return ['redirect', <Navigate to={decision.to} replace />];
  // /panel and /result are public pages of their own, the same with or without a session.
  if (location.pathname === STANDALONE_PATHS[0]) return ['panel', <PanelPage />];
  if (location.pathname === STANDALONE_PATHS[1]) return ['result', <ResultPage />];
  if (!token) return ['public', <PublicRoutes />];
  if (mustChangePassword) return ['password', <ForcedPasswordChange />];
  return ['console', <SignedInRoutes />];
}

/**
 * Each kind of page in a Suspense boundary of its own. Router navigations are transitions, and a transition keeps
 * an already visible boundary's old page on screen until the new page's chunks arrive: after "Forgot password" the
 * login form stayed, usable, under the new address, and what a person typed there was gone when the reset form
 * replaced it. A boundary new to the screen shows its spinner at once instead.
 */
function Page() {
  const [kind, page] = usePage();
  // the login page (and a redirect) draw without antd; every other kind of page inside antd's context
  const light = kind === 'public' || kind === 'redirect';
  return (
    <Suspense key={kind} fallback={<FullPageSpin />}>
      {light ? page : <AntdScope fallback={<FullPageSpin />}>{page}</AntdScope>}
    </Suspense>
  );
}

/** SPEC section 2 guard, then either the public pages or the signed-in console. */
export function AppRoutes() {
  return <Page />;
}
