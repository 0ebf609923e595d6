import { entityActions, permissionCode, type CrudAction, type EntityDeclaration } from '@isps/contract';
import { usePermission } from '../permission/index.ts';

/** Which of the screen's actions the user may use: declared for the entity and granted as a button permission. */
export function useCrudPermissions(entity: EntityDeclaration): Record<CrudAction, boolean> {
  const declared = new Set(entityActions(entity));
  const granted = {
    list: usePermission(permissionCode(entity, 'list')),
    add: usePermission(permissionCode(entity, 'add')),
    edit: usePermission(permissionCode(entity, 'edit')),
    delete: usePermission(permissionCode(entity, 'delete')),
    export: usePermission(permissionCode(entity, 'export')),
    import: usePermission(permissionCode(entity, 'import')),
    recycleBin: usePermission(permissionCode(entity, 'recycleBin')),
  };
  return Object.fromEntries(Object.entries(granted).map(([action, ok]) => [action, ok && declared.has(action as CrudAction)])) as Record<CrudAction, boolean>;
}
