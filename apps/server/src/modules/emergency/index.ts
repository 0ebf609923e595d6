export { emergencyRoutes } from './routes.ts';
