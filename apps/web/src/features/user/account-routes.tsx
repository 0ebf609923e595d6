import { Suspense, lazy, type ComponentType, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { FullPageSpin } from '../../shared/ui/index.ts';
import type { AccountPath } from './account-paths.ts';

const RegisterPage = lazy(() => import('./pages/register.tsx'));
const RegisterResultPage = lazy(() => import('./pages/register-result.tsx'));
const AlterationPage = lazy(() => import('./pages/alteration.tsx'));
const ApiLoginPage = lazy(() => import('./pages/apilogin.tsx'));
const ActivePage = lazy(() => import('./pages/active.tsx'));

/** The public account pages besides login (SPEC section 2); reachable with or without a session. */
export const ACCOUNT_PAGES: Record<AccountPath, ComponentType> = {
  '/user/register': RegisterPage,
  '/user/register-result': RegisterResultPage,
  '/user/alteration': AlterationPage,
  '/user/apilogin': ApiLoginPage,
  '/user/active': ActivePage,
};

export { isAccountPath } from './account-paths.ts';

/** Draws the account pages inside the layout the shell gives (the user layout: logo, page, copyright). */
export function AccountRoutes({ layout: Layout }: { layout: ComponentType<{ children?: ReactNode }> }) {
  return (
    <Routes>
      {Object.entries(ACCOUNT_PAGES).map(([path, Page]) => (
        <Route
          key={path}
          path={path}
          element={
            <Layout>
              <Suspense fallback={<FullPageSpin />}>
                <Page />
              </Suspense>
            </Layout>
          }
        />
      ))}
    </Routes>
  );
}
