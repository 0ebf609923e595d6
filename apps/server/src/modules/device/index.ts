export { deviceRoutes } from './routes.ts';
