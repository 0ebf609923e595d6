import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppRoutes } from './app-routes.tsx';

// Menu routes change at runtime after login, so one catch-all data route hands over to <AppRoutes>.
const router = createBrowserRouter([{ path: '*', element: <AppRoutes /> }]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
