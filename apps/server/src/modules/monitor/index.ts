export { monitorRoutes } from './routes.ts';
