export { dashboardRoutes } from './routes.ts';
