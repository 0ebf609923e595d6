import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../api/index.ts';

export async function getChoosableValues(path: string): Promise<string[] | null> {
  return unwrap(await http.get<string[] | null>(path));
}

// what one may grant changes with one's own roles: read again each time a form opens
export const choosableValuesQuery = (path: string) => queryOptions({ queryKey: ['choosable-values', path], queryFn: () => getChoosableValues(path), staleTime: 0 });

/**
 * The values the caller may pick at `path` (a field's `choosableFrom`): a set, or null when any is his to pick, or
 * when no path is declared.
 */
export function useChoosableValues(path: string | undefined): { choosable: ReadonlySet<string> | null; isLoading: boolean } {
  const answer = useQuery({ ...choosableValuesQuery(path ?? ''), enabled: Boolean(path) });
  return { choosable: path && answer.data ? new Set(answer.data) : null, isLoading: Boolean(path) && answer.isLoading };
}
