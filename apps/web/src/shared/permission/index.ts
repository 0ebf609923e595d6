export { Authorized } from './authorized.tsx';
export { hasPermission } from './has-permission.ts';
export { usePermission, usePermissionCheck } from './use-permission.ts';
export { TENANT_CHOOSER, useTenantChooser } from './tenant-chooser.ts';
