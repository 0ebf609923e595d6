export { deviceRoutes } from './routes.ts';
export { doorRoutes } from './door-routes.ts';
export { deviceRoleRoutes } from './device-role-routes.ts';
