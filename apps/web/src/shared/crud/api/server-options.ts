import type { ServerOption } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../api/index.ts';

export async function getServerOptions(path: string): Promise<ServerOption[]> {
  return unwrap(await http.get<ServerOption[]>(path));
}

export const serverOptionsQuery = (path: string) => queryOptions({ queryKey: ['server-options', path], queryFn: () => getServerOptions(path), staleTime: 5 * 60_000 });

/** The choices the server offers at `path` (a field's `optionsFrom`), texts in the reader's language. */
export function useServerOptions(path: string) {
  return useQuery(serverOptionsQuery(path));
}
