export { Authorized } from './authorized.tsx';
export { hasPermission } from './has-permission.ts';
export { usePermission } from './use-permission.ts';
