import { VisitorAdminPath, type Envelope } from '@isps/contract';
import { http, unwrap } from '../../../shared/api/index.ts';

/** Freezes (status 2) or thaws (status 1) visitors; freezing ends their sessions. */
export async function setVisitorStatus({ ids, status }: { ids: string[]; status: 1 | 2 }): Promise<Envelope<{ count: number }>> {
  const envelope = await http.put<{ count: number }>(VisitorAdminPath.frozenBatch, { ids: ids.join(','), status });
  unwrap(envelope);
  return envelope;
}
