import { AnnouncementPath, type NoticeSummary } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

/** SPEC section 9: the bell reloads every 6 s. */
export const NOTICE_REFRESH_MS = 6000;
export const noticeKeys = { all: ['notices'] as const, summary: ['notices', 'summary'] as const, mine: ['notices', 'mine'] as const };

export async function listByUser(): Promise<NoticeSummary> {
  // silent: a failing poll must not flood the screen with notices; it only stops the timer
  return unwrap(await http.get<NoticeSummary>(AnnouncementPath.listByUser, undefined, { silent: true }));
}

export const noticeSummaryQuery = () =>
  queryOptions({
    queryKey: noticeKeys.summary,
    queryFn: listByUser,
    retry: false,
    // a load error stops the timer silently (SPEC section 4); a push or a reopen loads again
    refetchInterval: (query) => (query.state.status === 'error' ? false : NOTICE_REFRESH_MS),
    refetchIntervalInBackground: true,
  });

export function useNoticeSummary(enabled: boolean) {
  return useQuery({ ...noticeSummaryQuery(), enabled });
}
