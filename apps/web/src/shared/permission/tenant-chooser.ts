import { permissionCode } from '@isps/contract';
import { usePermission } from './use-permission.ts';

/**
 * Whoever administers tenants may choose the tenant he works in and place rows in one (the server honours both for
 * system administrators only). The tenant declaration's prefix is written out: the frame's header asks this, and the
 * declarations (with their zod and pattern engine) load only with the screens drawn from them (tenant-chooser.test.ts
 * keeps it the declaration's).
 */
export const TENANT_CHOOSER = permissionCode({ permissionPrefix: 'system:tenant' }, 'list');

export function useTenantChooser(): boolean {
  return usePermission(TENANT_CHOOSER);
}
