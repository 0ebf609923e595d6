import type { VisitorInfo } from '@isps/contract';
import { getStored, removeStored, setStored } from '../../shared/storage/index.ts';

/** Visitor sessions are kept apart from the staff token, so a visitor is never taken for a signed-in user. */
const VISITOR_TOKEN = 'Visitor-Token';
const VISITOR_INFO = 'Visitor-Info';

export function visitorToken(): string | null {
  return getStored<string>(VISITOR_TOKEN);
}

export function hasVisitorToken(): boolean {
  return visitorToken() !== null;
}

export function storeVisitorSession(token: string, visitor: VisitorInfo): void {
  setStored(VISITOR_TOKEN, token);
  setStored(VISITOR_INFO, visitor);
}

export function clearVisitorSession(): void {
  removeStored(VISITOR_TOKEN);
  removeStored(VISITOR_INFO);
}

/** The visitor token replaces any staff token on visitor calls. */
export function visitorHeaders(): Record<string, string> {
  const token = visitorToken();
  return token ? { 'X-Access-Token': token } : {};
}
