import { AnnouncementPath, type Announcement, type AnnouncementInput, type Page } from '@isps/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

// The authoring screen's calls: list, save, delete, release, revoke (each a one-liner, so kept in one file).
export interface AnnouncementFilter {
  pageNo: number;
  pageSize: number;
  titile?: string;
  sendStatus?: '0' | '1' | '2';
  priority?: 'L' | 'M' | 'H';
}

const listKey = ['announcements'] as const;

export async function listAnnouncements(filter: AnnouncementFilter): Promise<Page<Announcement>> {
  return unwrap(await http.get<Page<Announcement>>(AnnouncementPath.list, { ...filter }));
}

export const announcementsQuery = (filter: AnnouncementFilter) =>
  queryOptions({ queryKey: [...listKey, filter], queryFn: () => listAnnouncements(filter), placeholderData: keepPreviousData });

export function useAnnouncements(filter: AnnouncementFilter) {
  return useQuery(announcementsQuery(filter));
}

export async function saveAnnouncement(input: AnnouncementInput & { id?: string }): Promise<string> {
  const envelope = input.id ? await http.put<unknown>(AnnouncementPath.edit, input) : await http.post<unknown>(AnnouncementPath.add, input);
  unwrap(envelope);
  return envelope.message;
}

export async function deleteAnnouncement(id: string): Promise<string> {
  const envelope = await http.delete<unknown>(AnnouncementPath.delete, { id });
  unwrap(envelope);
  return envelope.message;
}

export async function releaseAnnouncement(id: string): Promise<string> {
  const envelope = await http.get<unknown>(AnnouncementPath.release, { id });
  unwrap(envelope);
  return envelope.message;
}

export async function revokeAnnouncement(id: string): Promise<string> {
  const envelope = await http.get<unknown>(AnnouncementPath.revoke, { id });
  unwrap(envelope);
  return envelope.message;
}

/** A mutation that reloads the list (and the bell, which a release or revoke changes) when it settles. */
export function useAnnouncementAction<A>(action: (arg: A) => Promise<string>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: action,
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: listKey }), client.invalidateQueries({ queryKey: ['notices'] })]),
  });
}
