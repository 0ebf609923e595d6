import { create } from 'zustand';
import type { AuthItem, MenuItem, UserInfo } from '@isps/contract';
import { StorageKey, getStored, removeStored, setStored } from '../storage/index.ts';

/** Button permissions live per browser tab, as the origin console kept them. */
export const ButtonAuthKey = { user: 'LOGIN_USER_BUTTON_AUTH', system: 'SYS_BUTTON_AUTH' } as const;

export interface SessionState {
  token: string | null;
  userInfo: UserInfo | null;
  /** null until the permission list has been fetched for this token */
  menu: MenuItem[] | null;
  auth: AuthItem[];
  allAuth: AuthItem[];
  /** the login answered multi_depart 2: the user is asked for the current group once inside */
  departChoicePending: boolean;
  signIn(token: string, userInfo: UserInfo, departChoicePending?: boolean): void;
  setDepartChoicePending(pending: boolean): void;
  setUserInfo(userInfo: UserInfo): void;
  setPermissions(menu: MenuItem[], auth: AuthItem[], allAuth: AuthItem[]): void;
  clear(): void;
}

function readButtonAuth(key: string): AuthItem[] {
  try {
    return JSON.parse(sessionStorage.getItem(key) ?? '[]') as AuthItem[];
  } catch {
    return [];
  }
}

export const useSession = create<SessionState>()((set) => ({
  token: getStored<string>(StorageKey.token),
  userInfo: getStored<UserInfo>(StorageKey.userInfo),
  menu: null,
  auth: readButtonAuth(ButtonAuthKey.user),
  allAuth: readButtonAuth(ButtonAuthKey.system),
  departChoicePending: false,
  signIn(token, userInfo, departChoicePending = false) {
    setStored(StorageKey.token, token);
    setStored(StorageKey.userInfo, userInfo);
    set({ token, userInfo, menu: null, departChoicePending });
  },
  setDepartChoicePending(departChoicePending) {
    set({ departChoicePending });
  },
  setUserInfo(userInfo) {
    setStored(StorageKey.userInfo, userInfo);
    set({ userInfo });
  },
  setPermissions(menu, auth, allAuth) {
    sessionStorage.setItem(ButtonAuthKey.user, JSON.stringify(auth));
    sessionStorage.setItem(ButtonAuthKey.system, JSON.stringify(allAuth));
    set({ menu, auth, allAuth });
  },
  clear() {
    removeStored(StorageKey.token);
    removeStored(StorageKey.userInfo);
    // the next person to sign in starts in their own tenant
    removeStored(StorageKey.tenant);
    sessionStorage.removeItem(ButtonAuthKey.user);
    sessionStorage.removeItem(ButtonAuthKey.system);
    set({ token: null, userInfo: null, menu: null, auth: [], allAuth: [], departChoicePending: false });
  },
}));

/** The token as stored now; the request layer reads it on every call. */
export function currentToken(): string | null {
  return getStored<string>(StorageKey.token);
}
