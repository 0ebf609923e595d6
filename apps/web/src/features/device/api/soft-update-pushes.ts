import { RealtimeCmd, SoftUpdatePath, type SoftUpdateNotice, type SoftUpdatePushRow } from '@isps/contract';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';
import { useAppEvent } from '../../../shared/realtime/index.ts';

export const softUpdatePushesKey = (id: string) => ['device', 'softUpdatePushes', id] as const;

export async function getSoftUpdatePushes(id: string): Promise<SoftUpdatePushRow[]> {
  return unwrap(await http.get<SoftUpdatePushRow[]>(SoftUpdatePath.pushes, { id }));
}

export const softUpdatePushesQuery = (id: string) => queryOptions({ queryKey: softUpdatePushesKey(id), queryFn: () => getSoftUpdatePushes(id) });

/** The pushes with a notice's changes applied: a changed push replaces its row, a push not yet listed is added. */
export function applySoftUpdateNotice(rows: readonly SoftUpdatePushRow[], updateId: string, notice: SoftUpdateNotice): SoftUpdatePushRow[] {
  const changed = new Map(notice.pushes.filter((p) => p.updateId === updateId).map((p) => [p.id, p]));
  if (changed.size === 0) return rows as SoftUpdatePushRow[];
  const next = rows.map((row) => {
    const update = changed.get(row.id);
    changed.delete(row.id);
    return update ?? row;
  });
  return [...next, ...changed.values()];
}

/**
 * GET /sysSoftUpdate/pushes: every push of a package, kept current by the `softUpdate` real-time messages; read again
 * whenever the socket (re)opens, as messages sent while it was closed are lost.
 */
export function useSoftUpdatePushes(id: string) {
  const client = useQueryClient();
  const query = useQuery(softUpdatePushesQuery(id));
  useAppEvent('realtimeMessage', (message) => {
    if (message.cmd !== RealtimeCmd.softUpdate) return;
    const notice = message.data as SoftUpdateNotice | undefined;
    if (!notice || !Array.isArray(notice.pushes)) return;
    client.setQueryData<SoftUpdatePushRow[]>(softUpdatePushesKey(id), (rows) => (rows ? applySoftUpdateNotice(rows, id, notice) : rows));
  });
  useAppEvent('realtimeOpen', () => void client.invalidateQueries({ queryKey: softUpdatePushesKey(id) }));
  return query;
}
