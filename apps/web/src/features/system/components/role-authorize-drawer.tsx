import { useTranslation } from 'react-i18next';
import { usePermissionTree, useRolePermissionIds, useSaveRolePermissions } from '../api/role-permissions.ts';
import { PermissionTreeDrawer } from './permission-tree-drawer.tsx';

/** The menus and buttons of a role, chosen from the whole tree. */
export function RoleAuthorizeDrawer({ roleId, roleName, onClose }: { roleId: string; roleName: string; onClose: () => void }) {
  const { t } = useTranslation();
  const tree = usePermissionTree();
  const granted = useRolePermissionIds(roleId);
  const save = useSaveRolePermissions();
  return (
    <PermissionTreeDrawer
      title={t('role.authorizeTitle', { name: roleName })}
      tree={tree}
      granted={granted}
      saving={save.isPending}
      onSave={(permissionIds) => save.mutateAsync({ roleId, permissionIds, lastIds: granted.data ?? [] })}
      onClose={onClose}
    />
  );
}
