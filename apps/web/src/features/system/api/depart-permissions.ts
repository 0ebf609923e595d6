import { DepartRolePath, type Envelope } from '@isps/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export function useDepartPermissionIds(departId: string) {
  return useQuery({ queryKey: ['depart-permissions', departId], queryFn: async () => unwrap(await http.get<string[]>(DepartRolePath.queryDepartPermission, { departId })) });
}

export async function saveDepartPermissions({ departId, permissionIds, lastIds }: { departId: string; permissionIds: string[]; lastIds: string[] }): Promise<Envelope<null>> {
  const envelope = await http.post<null>(DepartRolePath.saveDepartPermission, { departId, permissionIds: permissionIds.join(','), lastpermissionIds: lastIds.join(',') });
  unwrap(envelope);
  return envelope;
}

/** Saving a group's permissions also narrows what its roles hold and offer. */
export function useSaveDepartPermissions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveDepartPermissions,
    onSuccess: async (_data, { departId }) => {
      await client.invalidateQueries({ queryKey: ['depart-permissions', departId] });
      await client.invalidateQueries({ queryKey: ['depart-role-tree', departId] });
      await client.invalidateQueries({ queryKey: ['depart-role-permissions'] });
    },
  });
}
