export { storagePlugin, type StorageOptions } from './plugin.ts';
export { storageRoutes } from './routes.ts';
export { CabinetSync } from './cabinet-sync.ts';
