import { StoragePath, type Page, type StorageUserInfo } from '@isps/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export interface UserInfoFilter {
  pageNo: number;
  pageSize: number;
  name?: string;
}

export async function getUserInfo(filter: UserInfoFilter): Promise<Page<StorageUserInfo>> {
  const params: Record<string, string | number> = { pageNo: filter.pageNo, pageSize: filter.pageSize };
  if (filter.name) params.name = filter.name;
  return unwrap(await http.get<Page<StorageUserInfo>>(StoragePath.userInfoList, params));
}

export const userInfoKey = ['storage', 'userInfo'] as const;

export const userInfoQuery = (filter: UserInfoFilter) => queryOptions({ queryKey: [...userInfoKey, filter], queryFn: () => getUserInfo(filter), placeholderData: keepPreviousData });

/** GET /cabinet/userInfo/list: people as the storage system knows them (cabinets held, last opening), by name, paged. */
export function useUserInfo(filter: UserInfoFilter) {
  return useQuery(userInfoQuery(filter));
}
