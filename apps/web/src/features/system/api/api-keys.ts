import { ApiKeyPath, ApiPath, type ApiKeyAddBody, type ApiKeyCreated, type ApiKeyRotateBody, type ApiKeyRow, type Envelope } from '@isps/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export interface ApiKeyPage {
  records: ApiKeyRow[];
  total: number;
}

const KEYS = ['api-keys'] as const;

/** A page of the API keys the caller manages (never a secret). */
export function useApiKeys(pageNo: number, pageSize: number) {
  return useQuery({ queryKey: [...KEYS, pageNo, pageSize], queryFn: async () => unwrap(await http.get<ApiKeyPage>(ApiKeyPath.list, { pageNo, pageSize })) });
}

/** The tenants the caller may make a key for (his own; every enabled one for a system administrator). */
export function useKeyTenants() {
  return useQuery({ queryKey: ['api-key-tenants'], queryFn: async () => unwrap(await http.get<Array<{ id: string; name: string }>>(ApiPath.tenantQueryList)) });
}

function useKeyMutation<V, R>(call: (values: V) => Promise<Envelope<R>>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (values: V) => {
      const envelope = await call(values);
      unwrap(envelope);
      return envelope;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: KEYS }),
  });
}

/** Creates a key; the answer carries its secret, the only time it is shown. */
export const useAddApiKey = () => useKeyMutation((body: ApiKeyAddBody) => http.post<ApiKeyCreated>(ApiKeyPath.add, body));
/** A successor key (its secret answered once); the old key stays valid until the overlap ends. */
export const useRotateApiKey = () => useKeyMutation((body: ApiKeyRotateBody) => http.post<ApiKeyCreated>(ApiKeyPath.rotate, body));
export const useRevokeApiKey = () => useKeyMutation((id: string) => http.put<null>(ApiKeyPath.revoke, { id }));
export const useDeleteApiKey = () => useKeyMutation((id: string) => http.delete<null>(ApiKeyPath.delete, { id }));
