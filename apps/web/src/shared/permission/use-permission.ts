import { useSession } from '../session/session-store.ts';
import { hasPermission } from './has-permission.ts';

/** Whether the signed-in user may use the control guarded by `code` (e.g. 'system:user:add'). */
export function usePermission(code: string): boolean {
  const auth = useSession((s) => s.auth);
  const allAuth = useSession((s) => s.allAuth);
  return hasPermission(code, auth, allAuth);
}

/** A checker of several button permissions in one component: `const can = usePermissionCheck(); can('system:user:add')`. */
export function usePermissionCheck(): (code: string) => boolean {
  const auth = useSession((s) => s.auth);
  const allAuth = useSession((s) => s.allAuth);
  return (code) => hasPermission(code, auth, allAuth);
}
