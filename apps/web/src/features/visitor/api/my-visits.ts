import { VisitorPath, type MyVisit, type VisitHost, type VisitRequestBody } from '@isps/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';
import { visitorHeaders } from '../visitor-session.ts';

/** The signed-in visitor's own visits, newest first. */
export async function getMyVisits(): Promise<MyVisit[]> {
  return unwrap(await http.get<MyVisit[]>(VisitorPath.myVisits, undefined, { headers: visitorHeaders() }));
}

export const myVisitsQuery = queryOptions({ queryKey: ['visitor-area', 'visits'], queryFn: getMyVisits });

export function useMyVisits() {
  return useQuery(myVisitsQuery);
}

/** The hosts the visitor may ask, found by name (a short list). */
export async function getVisitHosts(name: string): Promise<VisitHost[]> {
  return unwrap(await http.get<VisitHost[]>(VisitorPath.hosts, name ? { name } : undefined, { headers: visitorHeaders() }));
}

export function useVisitHosts(name: string) {
  return useQuery({ queryKey: ['visitor-area', 'hosts', name], queryFn: () => getVisitHosts(name), staleTime: 30_000 });
}

/** Asks for a visit; the answer's message says who was asked. */
export async function askVisit(body: VisitRequestBody) {
  const envelope = await http.post<{ id: string }>(VisitorPath.askVisit, body, { headers: visitorHeaders() });
  unwrap(envelope);
  return envelope;
}

export async function cancelVisit(id: string) {
  const envelope = await http.put<null>(VisitorPath.cancelVisit, { id }, { headers: visitorHeaders() });
  unwrap(envelope);
  return envelope;
}

/** A change to the visitor's visits reads them again. */
export function useVisitChange<A>(run: (args: A) => Promise<{ message: string }>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => client.invalidateQueries({ queryKey: myVisitsQuery.queryKey }) });
}
