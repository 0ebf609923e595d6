export { deviceRoutes } from './routes.ts';
export { doorRoutes } from './door-routes.ts';
