export { monitorPlugin } from './plugin.ts';
export { monitorRoutes } from './routes.ts';
