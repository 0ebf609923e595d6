import { AccessSyncPath, type DeviceSyncStatusRow, type Envelope, type Page, type SyncStatus } from '@isps/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export interface SyncStatusFilter {
  pageNo: number;
  pageSize: number;
  syncState?: SyncStatus;
  deviceName?: string;
}

export async function getSyncStatus(filter: SyncStatusFilter): Promise<Page<DeviceSyncStatusRow>> {
  const params: Record<string, string | number> = { pageNo: filter.pageNo, pageSize: filter.pageSize };
  if (filter.syncState) params.syncState = filter.syncState;
  if (filter.deviceName) params.deviceName = filter.deviceName;
  return unwrap(await http.get<Page<DeviceSyncStatusRow>>(AccessSyncPath.status, params));
}

export const syncStatusKey = ['device', 'syncStatus'] as const;

/** the page is read again this often, so pending devices are seen to finish */
export const SYNC_STATUS_REFRESH_MS = 5000;

export const syncStatusQuery = (filter: SyncStatusFilter) =>
  queryOptions({ queryKey: [...syncStatusKey, filter], queryFn: () => getSyncStatus(filter), placeholderData: keepPreviousData, refetchInterval: SYNC_STATUS_REFRESH_MS });

/** GET /sysDevice/syncStatus: each device of the tenant with the sync status of its access list, filtered and paged. */
export function useSyncStatus(filter: SyncStatusFilter) {
  return useQuery(syncStatusQuery(filter));
}

/** POST /sysDevice/alignNow: queues the device's whole access list again. */
export function alignNow(id: string): Promise<Envelope<null>> {
  return http.post<null>(AccessSyncPath.align, { id });
}

export function useAlignNow() {
  const client = useQueryClient();
  return useMutation({ mutationFn: alignNow, onSettled: () => void client.invalidateQueries({ queryKey: syncStatusKey }) });
}
