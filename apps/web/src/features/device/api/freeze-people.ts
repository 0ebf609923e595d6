import { PeoplePath, type Envelope } from '@isps/contract';
import { http, unwrap } from '../../../shared/api/index.ts';

/** Freezes (status 2) or thaws (status 1) people: PUT /sysPeople/frozenPeople. */
export async function setPeopleStatus({ ids, status }: { ids: string[]; status: 1 | 2 }): Promise<Envelope<{ count: number }>> {
  const envelope = await http.put<{ count: number }>(PeoplePath.frozenPeople, { ids: ids.join(','), status });
  unwrap(envelope);
  return envelope;
}
