export { visitorRoutes } from './routes.ts';
export { visitorAdminRoutes } from './admin-routes.ts';
