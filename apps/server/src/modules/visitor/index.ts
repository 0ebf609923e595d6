export { visitorRoutes } from './routes.ts';
export { visitorAdminRoutes } from './admin-routes.ts';
export { visitRoutes } from './visit-routes.ts';
export { visitsPlugin } from './plugin.ts';
