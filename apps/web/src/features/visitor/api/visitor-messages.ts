import { VisitorPath, type VisitorMessages } from '@isps/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';
import { visitorHeaders } from '../visitor-session.ts';

/** The visitor's messages (the hosts' decisions) in the reader's language, and how many are unread. */
export async function getVisitorMessages(): Promise<VisitorMessages> {
  return unwrap(await http.get<VisitorMessages>(VisitorPath.messages, undefined, { headers: visitorHeaders() }));
}

export const visitorMessagesQuery = queryOptions({ queryKey: ['visitor-area', 'messages'], queryFn: getVisitorMessages, refetchInterval: 30_000 });

export function useVisitorMessages() {
  return useQuery(visitorMessagesQuery);
}

/** Marks one message read (or all, without an id). */
export async function readVisitorMessages(id?: string): Promise<void> {
  unwrap(await http.put<null>(VisitorPath.readMessages, id ? { id } : {}, { headers: visitorHeaders() }));
}

export function useReadVisitorMessages() {
  const client = useQueryClient();
  return useMutation({ mutationFn: readVisitorMessages, onSuccess: () => client.invalidateQueries({ queryKey: visitorMessagesQuery.queryKey }) });
}
