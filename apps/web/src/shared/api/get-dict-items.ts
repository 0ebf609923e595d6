import { dictItemsPath, type DictOption } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from './client.ts';

export async function getDictItems(code: string): Promise<DictOption[]> {
  return unwrap(await http.get<DictOption[]>(dictItemsPath(code)));
}

export const dictItemsQuery = (code: string) =>
  queryOptions({ queryKey: ['dict-items', code], queryFn: () => getDictItems(code), staleTime: 5 * 60_000 });

/** The options of dictionary `code` (e.g. 'sex'), shared by every select that shows it. */
export function useDictItems(code: string) {
  return useQuery(dictItemsQuery(code));
}
