import { DepartRolePath, type Envelope } from '@isps/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';
import type { PermissionTree } from './role-permissions.ts';

/** The menus and buttons a group holds: all its roles may be given. */
export function useDepartRolePermissionTree(departId: string) {
  return useQuery({ queryKey: ['depart-role-tree', departId], queryFn: async () => unwrap(await http.get<PermissionTree>(DepartRolePath.queryTreeListForDeptRole, { departId })) });
}

export function useDepartRolePermissionIds(roleId: string) {
  return useQuery({ queryKey: ['depart-role-permissions', roleId], queryFn: async () => unwrap(await http.get<string[]>(DepartRolePath.queryDeptRolePermission, { roleId })) });
}

export async function saveDepartRolePermissions({ roleId, permissionIds, lastIds }: { roleId: string; permissionIds: string[]; lastIds: string[] }): Promise<Envelope<null>> {
  const envelope = await http.post<null>(DepartRolePath.saveDeptRolePermission, { roleId, permissionIds: permissionIds.join(','), lastpermissionIds: lastIds.join(',') });
  unwrap(envelope);
  return envelope;
}

export function useSaveDepartRolePermissions() {
  const client = useQueryClient();
  return useMutation({ mutationFn: saveDepartRolePermissions, onSuccess: (_data, { roleId }) => client.invalidateQueries({ queryKey: ['depart-role-permissions', roleId] }) });
}
