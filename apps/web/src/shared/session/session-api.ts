import { ApiPath, TOKEN_HEADER, type PermissionResult } from '@isps/contract';
import { http, unwrap } from '../api/client.ts';
import { queryClient } from '../api/query-client.ts';
import { i18n } from '../i18n/i18n.ts';
import { setSiteTimeZone } from '../time/index.ts';
import { useSession } from './session-store.ts';

/** The menu tree and button permissions of the signed-in user; fails on an empty menu (SPEC section 7). */
export async function fetchUserPermissions(): Promise<PermissionResult> {
  const result = unwrap(await http.get<PermissionResult>(ApiPath.userPermission));
  if (!result || !Array.isArray(result.menu) || result.menu.length === 0) throw new EmptyMenuError();
  // the zone of the wire's times, so they are shown and picked in the reader's own
  setSiteTimeZone(result.timeZone);
  return result;
}

export class EmptyMenuError extends Error {
  constructor() {
    super('empty menu');
    this.name = 'EmptyMenuError';
  }
}

/**
 * SPEC section 4: the local session goes first, the server is told afterwards; logging out goes on whatever it
 * answers. A refusal or failure is returned as its message (SPEC section 8: a failed logout shows it), else null.
 */
export async function logout({ tellServer = true }: { tellServer?: boolean } = {}): Promise<string | null> {
  const token = useSession.getState().token;
  useSession.getState().clear();
  queryClient.clear();
  if (!token || !tellServer) return null;
  try {
    const answer = await http.post(ApiPath.logout, undefined, {
      silent: true,
      // The token was just removed from storage, so it is sent explicitly this once.
      headers: { [TOKEN_HEADER]: token },
    });
    return answer.success ? null : answer.message || i18n.t('request.failed');
  } catch (error) {
    return error instanceof Error && error.message ? error.message : i18n.t('request.failed');
  }
}
