import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppRoutes } from './app-routes.tsx';
import { RouteError } from './route-error.tsx';

// Menu routes change at runtime after login, so one catch-all data route hands over to <AppRoutes>.
const router = createBrowserRouter([{ path: '*', element: <AppRoutes />, errorElement: <RouteError /> }]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
