import { RolePath, type Envelope, type PermissionTreeNode } from '@isps/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export interface PermissionTree {
  treeList: PermissionTreeNode[];
  ids: string[];
}

export function usePermissionTree() {
  return useQuery({ queryKey: ['permission-tree'], queryFn: async () => unwrap(await http.get<PermissionTree>(RolePath.permissionTree)) });
}

export function useRolePermissionIds(roleId: string) {
  return useQuery({ queryKey: ['role-permissions', roleId], queryFn: async () => unwrap(await http.get<string[]>(RolePath.queryRolePermission, { roleId })) });
}

/** `lastIds`: what the drawer loaded, so only this edit applies and another administrator's meanwhile stays. */
export async function saveRolePermissions({ roleId, permissionIds, lastIds }: { roleId: string; permissionIds: string[]; lastIds: string[] }): Promise<Envelope<null>> {
  const envelope = await http.post<null>(RolePath.saveRolePermission, { roleId, permissionIds: permissionIds.join(','), lastpermissionIds: lastIds.join(',') });
  unwrap(envelope);
  return envelope;
}

export function useSaveRolePermissions() {
  const client = useQueryClient();
  return useMutation({ mutationFn: saveRolePermissions, onSuccess: (_data, { roleId }) => client.invalidateQueries({ queryKey: ['role-permissions', roleId] }) });
}
