export { patrolPlugin, type PatrolOptions, type PatrolSweep } from './plugin.ts';
export { patrolRoutes } from './routes.ts';
