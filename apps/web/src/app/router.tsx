import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppRoutes } from './app-routes.tsx';
import { followRouter } from './navigation.ts';
import { RouteError } from './route-error.tsx';

// Menu routes change at runtime after login, so one catch-all data route hands over to <AppRoutes>.
const router = createBrowserRouter([{ path: '*', element: <AppRoutes />, errorElement: <RouteError /> }]);
followRouter(router);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
