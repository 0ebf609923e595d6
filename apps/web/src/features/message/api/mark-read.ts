import { AnnouncementPath } from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';
import { noticeKeys } from './list-by-user.ts';

export async function markRead(anntId: string): Promise<void> {
  unwrap(await http.put<unknown>(AnnouncementPath.markRead, { anntId }));
}

/** Marks one notice read, then reloads the bell and the user's list. */
export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({ mutationFn: markRead, onSettled: () => client.invalidateQueries({ queryKey: noticeKeys.all }) });
}
