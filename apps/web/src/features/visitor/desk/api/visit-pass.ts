import { VisitorDeskPath, type VisitPass } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../../shared/api/index.ts';

export async function getVisitPass(visitId: string): Promise<VisitPass> {
  return unwrap(await http.get<VisitPass>(VisitorDeskPath.pass, { visitId }));
}

export const visitPassQuery = (visitId: string | null) => queryOptions({ queryKey: ['visitor', 'desk', 'pass', visitId], queryFn: () => getVisitPass(visitId as string), enabled: visitId !== null });

/** GET /vistor/desk/pass: what the visit's pass shows. */
export function useVisitPass(visitId: string | null) {
  return useQuery(visitPassQuery(visitId));
}
