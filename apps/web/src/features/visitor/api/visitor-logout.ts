import { VisitorPath } from '@isps/contract';
import { http } from '../../../shared/api/index.ts';
import { clearVisitorSession, visitorHeaders } from '../visitor-session.ts';

/** Ends the session locally whatever the server answers. */
export async function visitorLogout(): Promise<void> {
  const headers = visitorHeaders();
  clearVisitorSession();
  await http.post(VisitorPath.logout, {}, { headers, silent: true }).catch(() => undefined);
}
