export { doorSchedulePlugin, type DoorScheduleOptions } from './plugin.ts';
export { doorScheduleRoutes } from './routes.ts';
export { DoorScheduleSync } from './schedule-sync.ts';
