import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { takeWelcome, welcomeBack } from '../features/user/greeting.ts';
import { ApiError, feedback } from '../shared/api/index.ts';
import { EmptyMenuError, fetchUserPermissions, logout, useSession } from '../shared/session/index.ts';
import { FullPageSpin } from '../shared/ui/index.ts';
import { isConsolePage, keepAlivePaths, menuRoutes } from './menu-model.tsx';
import type { ExceptionStatus } from './pages/exception-page.tsx';
import { HOME_PATH, LOGIN_PATH } from './route-guard.ts';
import { STATIC_ROUTES } from './static-routes.ts';
import { MenuPage } from './tabs/page-host.tsx';

// The signed-in console: loaded by the shell once there is a session, so the login page downloads none of it
// (the menu model, the page registry and the screens' declarations).

// The signed-in frame (and ProLayout with it) loads only once the menu is in.
const BasicLayout = lazy(() => import('./layouts/basic-layout.tsx').then((m) => ({ default: m.BasicLayout })));
// the testers' list of static routes draws a table no page of the frame needs
const TestHomePage = lazy(() => import('./pages/test-home-page.tsx').then((m) => ({ default: m.TestHomePage })));
// the exception pages draw antd's Result with its illustrations, which the home page does not need
const LazyExceptionPage = lazy(() => import('./pages/exception-page.tsx').then((m) => ({ default: m.ExceptionPage })));

function ExceptionPage({ status }: { status: ExceptionStatus }) {
  return (
    <Suspense fallback={<FullPageSpin />}>
      <LazyExceptionPage status={status} />
    </Suspense>
  );
}

/** An address no route of this user's menu takes: a console page they do not hold is denied (403), anything else not found. */
function UnheldOrUnknown() {
  const { pathname } = useLocation();
  return <Navigate to={isConsolePage(pathname.replace(/\/+$/, '')) ? '/exception/403' : '/404'} replace />;
}

/** Fetches the menu once per token, then registers its routes inside the basic layout. */
export function SignedInRoutes() {
  const token = useSession((s) => s.token);
  const menu = useSession((s) => s.menu);
  const setPermissions = useSession((s) => s.setPermissions);
  const navigate = useNavigate();
  const { t } = useTranslation();
  const permissions = useQuery({
    queryKey: ['user-permission', token],
    queryFn: fetchUserPermissions,
    enabled: menu === null,
    staleTime: Infinity,
  });

  useEffect(() => {
    if (permissions.data) setPermissions(permissions.data.menu, permissions.data.auth, permissions.data.allAuth);
  }, [permissions.data, setPermissions]);

  useEffect(() => {
    if (!permissions.isError) return;
    const error = permissions.error;
    // The request layer has already explained HTTP failures; an empty or refused menu is explained here.
    if (error instanceof EmptyMenuError || (error instanceof ApiError && error.status === 200)) {
      feedback().notify('error', t('request.systemNotice'), error instanceof EmptyMenuError ? t('permission.emptyMenu') : error.message, 4);
    } else if (!(error instanceof ApiError)) {
      feedback().notify('error', t('request.systemNotice'), t('permission.loadFailed'), 4);
    }
    takeWelcome();
    void logout().then(() => navigate(LOGIN_PATH, { replace: true }));
  }, [permissions.isError, permissions.error, navigate, t]);

  useEffect(() => {
    if (menu && takeWelcome()) welcomeBack(t);
  }, [menu, t]);

  // Static routes win over a menu item of the same path (the seeded exception items, for one).
  const routes = useMemo(() => (menu ? menuRoutes(menu).filter((r) => !STATIC_ROUTES.some((s) => s.path === r.path)) : []), [menu]);
  const keepAlive = useMemo(() => {
    const paths = menu ? keepAlivePaths(menu) : new Set<string>();
    return new Map(routes.flatMap((r) => (r.kind === 'page' && paths.has(r.path) ? [[r.path, r.component] as const] : [])));
  }, [menu, routes]);

  if (!menu) return <FullPageSpin />;
  return (
    <Routes>
      <Route path="/" element={<Navigate to={HOME_PATH} replace />} />
      <Route
        element={
          <Suspense fallback={<FullPageSpin />}>
            <BasicLayout menu={menu} keepAlive={keepAlive} />
          </Suspense>
        }
      >
        {routes.map((route) =>
          route.kind === 'redirect' ? (
            <Route key={route.path} path={route.path} element={<Navigate to={route.to} replace />} />
          ) : route.kind === 'page' ? (
            <Route key={route.path} path={route.path} element={<MenuPage component={route.component} />} />
          ) : (
            // a menu item whose page is not built is not found, like any unknown address
            <Route key={route.path} path={route.path} element={<Navigate to="/404" replace />} />
          ),
        )}
        <Route path="/404" element={<ExceptionPage status="404" />} />
        <Route path="/exception/403" element={<ExceptionPage status="403" />} />
        <Route path="/exception/404" element={<ExceptionPage status="404" />} />
        <Route path="/exception/500" element={<ExceptionPage status="500" />} />
        <Route
          path="/test/home"
          element={
            <Suspense fallback={<FullPageSpin />}>
              <TestHomePage />
            </Suspense>
          }
        />
        <Route path="/isps/userAnnouncement" element={<MenuPage component="message/userAnnouncement" />} />
        <Route path="*" element={<UnheldOrUnknown />} />
      </Route>
    </Routes>
  );
}
