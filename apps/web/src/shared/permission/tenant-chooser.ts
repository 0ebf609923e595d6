import { permissionCode, tenantEntity } from '@isps/contract';
import { usePermission } from './use-permission.ts';

/** Whoever administers tenants may choose the tenant he works in and place rows in one (the server honours both for system administrators only). */
export const TENANT_CHOOSER = permissionCode(tenantEntity, 'list');

export function useTenantChooser(): boolean {
  return usePermission(TENANT_CHOOSER);
}
