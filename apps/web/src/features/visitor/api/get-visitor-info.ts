import { VisitorPath, type VisitorInfo } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';
import { visitorHeaders } from '../visitor-session.ts';

/** Silent: a 401 here means the visitor session ended, which the page answers by going to the visitor login. */
export async function getVisitorInfo(): Promise<VisitorInfo> {
  return unwrap(await http.get<VisitorInfo>(VisitorPath.info, undefined, { headers: visitorHeaders(), silent: true }));
}

export const visitorInfoQuery = queryOptions({ queryKey: ['visitor-info'], queryFn: getVisitorInfo, retry: false });

export function useVisitorInfo() {
  return useQuery(visitorInfoQuery);
}
