import { VisitPath, type VisitDoorOption } from '@isps/contract';
import { useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

/** The host approves a visitor's request, opening the doors chosen (ids joined by commas). */
export async function approveVisit({ id, doorIds }: { id: string; doorIds: string[] }) {
  const envelope = await http.put<null>(VisitPath.approve, { id, doorIds: doorIds.join(',') });
  unwrap(envelope);
  return envelope;
}

export async function refuseVisit({ id, reason }: { id: string; reason: string }) {
  const envelope = await http.put<null>(VisitPath.refuse, { id, reason });
  unwrap(envelope);
  return envelope;
}

/** The doors the caller may open to a visitor. */
export function useApprovableDoors(enabled: boolean) {
  return useQuery({ queryKey: ['crud', 'door', 'approvableDoors'], queryFn: async () => unwrap(await http.get<VisitDoorOption[]>(VisitPath.approvableDoors)), enabled });
}
