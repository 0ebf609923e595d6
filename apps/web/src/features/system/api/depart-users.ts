import { UserAdminPath, type Envelope } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export async function addUsersToDepart({ depId, userIds }: { depId: string; userIds: string[] }): Promise<Envelope<{ count: number }>> {
  const envelope = await http.post<{ count: number }>(UserAdminPath.addUsersToDepart, { depId, userIdList: userIds.join(',') });
  unwrap(envelope);
  return envelope;
}

export async function removeUsersFromDepart({ depId, userIds }: { depId: string; userIds: string[] }): Promise<Envelope<{ count: number }>> {
  const envelope = await http.delete<{ count: number }>(UserAdminPath.removeUsersFromDepart, { depId, userIds: userIds.join(',') });
  unwrap(envelope);
  return envelope;
}

export function useAddUsersToDepart() {
  return useMutation({ mutationFn: addUsersToDepart });
}

export function useRemoveUsersFromDepart() {
  return useMutation({ mutationFn: removeUsersFromDepart });
}
