import { ApiPath, type Envelope } from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export async function refreshDictCache(): Promise<Envelope<null>> {
  const envelope = await http.get<null>(ApiPath.dictRefreshCache);
  unwrap(envelope);
  return envelope;
}

/** Reloads the server's dictionary cache, then the console's dictionary options. */
export function useRefreshDictCache() {
  const client = useQueryClient();
  return useMutation({ mutationFn: refreshDictCache, onSuccess: () => client.invalidateQueries({ queryKey: ['dict-items'] }) });
}
