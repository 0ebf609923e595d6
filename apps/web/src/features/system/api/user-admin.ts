import { UserAdminPath, type ChangeUserPasswordBody, type Envelope } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

/** Freezes (status 2) or thaws (status 1) users; freezing ends their sessions. */
export async function setUserStatus({ ids, status }: { ids: string[]; status: 1 | 2 }): Promise<Envelope<{ count: number }>> {
  const envelope = await http.put<{ count: number }>(UserAdminPath.frozenBatch, { ids: ids.join(','), status });
  unwrap(envelope);
  return envelope;
}

export function useSetUserStatus() {
  return useMutation({ mutationFn: setUserStatus });
}

/** An administrator sets a user's password (the user replaces it at the next sign-in). */
export async function changeUserPassword(body: ChangeUserPasswordBody): Promise<Envelope<null>> {
  const envelope = await http.put<null>(UserAdminPath.changePassword, body);
  unwrap(envelope);
  return envelope;
}

export function useChangeUserPassword() {
  return useMutation({ mutationFn: changeUserPassword });
}
