import { AnnouncementPath } from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';
import { noticeKeys } from './list-by-user.ts';

export async function readAll(): Promise<void> {
  unwrap(await http.put<unknown>(AnnouncementPath.readAll));
}

export function useReadAll() {
  const client = useQueryClient();
  return useMutation({ mutationFn: readAll, onSettled: () => client.invalidateQueries({ queryKey: noticeKeys.all }) });
}
