export { reportPlugin } from './plugin.ts';
export { reportRoutes } from './routes.ts';
