import { KeyPath, type KeyHistoryRow } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export const keyHistoryKey = ['keys', 'history'] as const;

export async function getKeyHistory(id: string): Promise<KeyHistoryRow[]> {
  return unwrap(await http.get<KeyHistoryRow[]>(KeyPath.history, { id }));
}

export const keyHistoryQuery = (id: string) => queryOptions({ queryKey: [...keyHistoryKey, id], queryFn: () => getKeyHistory(id) });

/** GET /ks/key/history: a key's takes and returns, newest first. */
export function useKeyHistory(id: string) {
  return useQuery(keyHistoryQuery(id));
}
