import { SoftUpdatePath, type Envelope, type SoftUpdatePushRow } from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';
import { softUpdatePushesKey } from './soft-update-pushes.ts';

/** POST /sysSoftUpdate/push: one softUpdate command per chosen device; answers the queued pushes. */
export function pushSoftUpdate(id: string, deviceIds: string[]): Promise<Envelope<SoftUpdatePushRow[]>> {
  return http.post<SoftUpdatePushRow[]>(SoftUpdatePath.push, { id, deviceIds });
}

export function usePushSoftUpdate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, deviceIds }: { id: string; deviceIds: string[] }) => pushSoftUpdate(id, deviceIds),
    onSuccess: (_envelope, { id }) => client.invalidateQueries({ queryKey: softUpdatePushesKey(id) }),
  });
}
