export { visitorRoutes } from './routes.ts';
