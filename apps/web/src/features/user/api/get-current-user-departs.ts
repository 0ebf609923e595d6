import { ApiPath, type CurrentUserDeparts } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export async function getCurrentUserDeparts(): Promise<CurrentUserDeparts> {
  return unwrap(await http.get<CurrentUserDeparts>(ApiPath.currentUserDeparts));
}

export const currentUserDepartsQuery = () =>
  queryOptions({ queryKey: ['current-user-departs'], queryFn: getCurrentUserDeparts, staleTime: 0 });

export function useCurrentUserDeparts(enabled: boolean) {
  return useQuery({ ...currentUserDepartsQuery(), enabled });
}
