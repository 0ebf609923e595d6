import { AnnouncementPath, type Announcement } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export async function queryAnnouncement(id: string): Promise<Announcement> {
  return unwrap(await http.get<Announcement>(AnnouncementPath.queryById, { id }));
}

export const announcementQuery = (id: string) => queryOptions({ queryKey: ['announcement', id], queryFn: () => queryAnnouncement(id) });

export function useAnnouncement(id: string | null) {
  return useQuery({ ...announcementQuery(id ?? ''), enabled: !!id });
}
