import { AnnouncementPath, type Page, type UserNotice } from '@isps/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';
import { noticeKeys } from './list-by-user.ts';

export interface MyNoticeFilter {
  pageNo: number;
  pageSize: number;
  titile?: string;
  readFlag?: '0' | '1';
  msgCategory?: '1' | '2';
}

export async function getMyAnnouncements(filter: MyNoticeFilter): Promise<Page<UserNotice>> {
  return unwrap(await http.get<Page<UserNotice>>(AnnouncementPath.myList, { ...filter }));
}

export const myAnnouncementsQuery = (filter: MyNoticeFilter) =>
  queryOptions({ queryKey: [...noticeKeys.mine, filter], queryFn: () => getMyAnnouncements(filter), placeholderData: keepPreviousData });

export function useMyAnnouncements(filter: MyNoticeFilter) {
  return useQuery(myAnnouncementsQuery(filter));
}
