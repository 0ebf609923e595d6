export { keysPlugin, type KeysOptions } from './plugin.ts';
export { keyRoutes } from './routes.ts';
export { KeySync } from './key-sync.ts';
