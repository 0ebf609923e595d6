import { DepartRolePath, type DepartRoleHolder, type Envelope } from '@isps/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export function useDepartRoleHolders(roleId: string) {
  return useQuery({ queryKey: ['depart-role-users', roleId], queryFn: async () => unwrap(await http.get<DepartRoleHolder[]>(DepartRolePath.getDeptRoleUsers, { roleId })) });
}

/** Gives users a group role (`give`) or takes it back (`take`), as the origin console's deptRoleUserAdd does. */
export async function changeDepartRoleHolders({ roleId, userIds, change }: { roleId: string; userIds: string[]; change: 'give' | 'take' }): Promise<Envelope<null>> {
  const body = change === 'give' ? { userId: userIds.join(','), newRoleId: roleId, oldRoleId: '' } : { userId: userIds.join(','), newRoleId: '', oldRoleId: roleId };
  const envelope = await http.post<null>(DepartRolePath.deptRoleUserAdd, body);
  unwrap(envelope);
  return envelope;
}

export function useChangeDepartRoleHolders() {
  const client = useQueryClient();
  return useMutation({ mutationFn: changeDepartRoleHolders, onSuccess: (_data, { roleId }) => client.invalidateQueries({ queryKey: ['depart-role-users', roleId] }) });
}
