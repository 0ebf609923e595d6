import { Suspense, lazy, type ComponentType, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { isAccountPath } from '../features/user/account-paths.ts';
import { isVisitorPath } from '../features/visitor/visitor-paths.ts';
import { useSession } from '../shared/session/session-store.ts';
import { FullPageSpin } from '../shared/ui/full-page-spin.tsx';
import { UserLayout } from './layouts/user-layout.tsx';
import { LOGIN_PATH, guard } from './route-guard.ts';
import { STANDALONE_PATHS } from './static-routes.ts';

// The shell holds only what the login page needs; every other screen is a chunk loaded by its route (index.html
// asks for the login page's chunk beside the entry). The screens after login show entity titles and field labels,
// added to the catalogues when the first of them loads.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as React.lazy itself: any props
function later<T extends ComponentType<any>>(load: () => Promise<T>) {
  return lazy(async () => {
    const [component, labels] = await Promise.all([load(), import('../shared/i18n/entity-labels.ts')]);
    labels.addEntityLabels();
    return { default: component };
  });
}

const LoginPage = lazy(() => import('../features/user/pages/login.tsx'));
const NotFoundPage = later(() => import('./not-found-page.tsx').then((m) => m.NotFoundPage));
const PanelPage = later(() => import('./pages/panel-page.tsx').then((m) => m.PanelPage));
const ResultPage = later(() => import('./pages/result-page.tsx').then((m) => m.ResultPage));
const VisitorRoutes = later(() => import('../features/visitor/visitor-routes.tsx').then((m) => m.VisitorRoutes));
const AccountRoutes = later(() => import('../features/user/account-routes.tsx').then((m) => m.AccountRoutes));
const ForcedPasswordChange = later(() => import('./signed-in-routes.tsx').then((m) => m.ForcedPasswordChange));
const SignedInRoutes = later(() => import('./signed-in-routes.tsx').then((m) => m.SignedInRoutes));

function PublicRoutes() {
  return (
    <Routes>
      <Route element={<UserLayout />}>
        <Route
          path={LOGIN_PATH}
          element={
            <Suspense fallback={<FullPageSpin />}>
              <LoginPage />
            </Suspense>
          }
        />
      </Route>
      {/* Other public screens arrive with later issues; until then they are not found. */}
      <Route path="*" element={<NotFoundPage />} />
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
  return (
    <Suspense key={kind} fallback={<FullPageSpin />}>
      {page}
    </Suspense>
  );
}

/** SPEC section 2 guard, then either the public pages or the signed-in console. */
export function AppRoutes() {
  return <Page />;
}
