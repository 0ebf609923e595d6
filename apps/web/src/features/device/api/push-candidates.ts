import { crudPath, deviceEntity, type Page } from '@isps/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';
import { crudKeys, type CrudRow } from '../../../shared/crud/index.ts';

export interface PushCandidateFilter {
  pageNo: number;
  pageSize: number;
  /** part of the device name */
  keyword: string;
  /** the package's device model; null for every device */
  model: string | null;
}

/** The device list asked for the devices a package may go to: of its model, by name. */
export function pushCandidateParams({ pageNo, pageSize, keyword, model }: PushCandidateFilter): Record<string, string | number> {
  return {
    pageNo,
    pageSize,
    column: 'deviceName',
    order: 'asc',
    ...(keyword ? { deviceName: keyword } : {}),
    ...(model ? { superQueryParams: JSON.stringify([{ field: 'deviceModel', rule: 'eq', val: model }]), superQueryMatchType: 'and' } : {}),
  };
}

export async function listPushCandidates(filter: PushCandidateFilter): Promise<Page<CrudRow>> {
  return unwrap(await http.get<Page<CrudRow>>(crudPath(deviceEntity, 'list'), pushCandidateParams(filter)));
}

export const pushCandidatesQuery = (filter: PushCandidateFilter) =>
  queryOptions({ queryKey: crudKeys.list(deviceEntity, { pushCandidates: filter }), queryFn: () => listPushCandidates(filter), placeholderData: keepPreviousData });

/** GET /sysDevice/list for the push dialog's device picker. */
export function usePushCandidates(filter: PushCandidateFilter) {
  return useQuery(pushCandidatesQuery(filter));
}
