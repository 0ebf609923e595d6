export { accessSyncPlugin } from './plugin.ts';
export { accessSyncRoutes } from './routes.ts';
export { AccessSync, type AccessSyncOptions } from './service.ts';
