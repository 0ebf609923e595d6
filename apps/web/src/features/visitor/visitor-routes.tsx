import { Suspense, lazy, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { FullPageSpin } from '../../shared/ui/index.ts';
import { VisitorLayout } from './components/visitor-layout.tsx';
import { hasVisitorToken } from './visitor-session.ts';

const VisitorLoginPage = lazy(() => import('./pages/login.tsx'));
const VisitorRegisterPage = lazy(() => import('./pages/reg.tsx'));
const VisitorMainPage = lazy(() => import('./pages/main.tsx'));
const VisitorPanelPage = lazy(() => import('./pages/panel.tsx'));

/** Visitor main needs a visitor token; without one it leads to the visitor login (SPEC section 2). */
function RequireVisitor({ children }: { children: ReactNode }) {
  return hasVisitorToken() ? children : <Navigate to="/vistor/login" replace />;
}

/** The visitor area's own pages, drawn in the visitor layout, with or without a staff session. */
export function VisitorRoutes() {
  return (
    <VisitorLayout>
      <Suspense fallback={<FullPageSpin />}>
        <Routes>
          <Route path="/vistor/login" element={<VisitorLoginPage />} />
          <Route path="/vistor/reg" element={<VisitorRegisterPage />} />
          <Route path="/vistor/panel" element={<VisitorPanelPage />} />
          <Route
            path="/vistor/user/main"
            element={
              <RequireVisitor>
                <VisitorMainPage />
              </RequireVisitor>
            }
          />
          <Route path="*" element={<Navigate to="/vistor/login" replace />} />
        </Routes>
      </Suspense>
    </VisitorLayout>
  );
}

export { isVisitorPath } from './visitor-paths.ts';
