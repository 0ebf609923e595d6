import * as z from 'zod';
import { LANGUAGES, Limits, type Language } from './http.ts';

export const loginBody = z.object({
  username: z.string().trim().min(1).max(100),
  password: z.string().min(1).max(200),
  captcha: z.string().trim().max(16).optional(),
  // the origin console sends the captcha's key as the timestamp number it asked the image with
  checkKey: z.preprocess((value) => (typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value), z.string().trim().max(64)).optional(),
});
export type LoginBody = z.infer<typeof loginBody>;

/** SPEC section 5: at least 8 characters with upper and lower case letters, digits and special symbols. */
export function isStrongPassword(password: string): boolean {
  return (
    password.length >= Limits.passwordMinLength &&
    /[a-z]/.test(password) &&
    /[A-Z]/.test(password) &&
    /\d/.test(password) &&
    /[^A-Za-z0-9]/.test(password)
  );
}

export const updatePasswordBody = z.object({
  username: z.string().trim().min(1).max(100),
  oldpassword: z.string().min(1).max(200),
  password: z.string().min(1).max(200),
  confirmpassword: z.string().min(1).max(200),
});
export type UpdatePasswordBody = z.infer<typeof updatePasswordBody>;

export const selectDepartBody = z.object({
  orgCode: z.string().trim().min(1).max(64),
  username: z.string().trim().max(100).optional(),
});
export type SelectDepartBody = z.infer<typeof selectDepartBody>;

export interface UserInfo {
  id: string;
  username: string;
  realname: string;
  nickname: string | null;
  orgCode: string | null;
  avatar: string | null;
  birthday: string | null;
  phone: string | null;
  email: string | null;
  sex: number | null;
  workNo: string | null;
  status: number;
  /** true while the user still has to replace an initial or reset password */
  mustChangePassword: boolean;
  /** the console language the user chose while signed in (ours): the console switches to it at sign-in; null until chosen */
  lang?: Language | null;
}

/** PUT /sys/user/language */
export const userLanguageBody = z.object({ lang: z.enum(LANGUAGES) });
export type UserLanguageBody = z.infer<typeof userLanguageBody>;

export interface Depart {
  id: string;
  orgCode: string;
  departName: string;
  parentId: string | null;
}

export interface DictOption {
  value: string;
  text: string;
  label: string;
  title: string;
}

export interface TenantSummary {
  id: string;
  name: string;
}

export interface LoginResult {
  token: string;
  userInfo: UserInfo;
  departs: Depart[];
  multi_depart: 0 | 1 | 2;
  sysAllDictItems: Record<string, DictOption[]>;
  tenantList: TenantSummary[];
}

export interface CurrentUserDeparts {
  list: Depart[];
  orgCode: string | null;
}

/** Menu item as the console turns it into routes (SPEC section 3). */
export interface MenuMeta {
  /** the title in the reader's language (the origin console shows it as it comes) */
  title: string;
  /** the title as stored (a menu title key for seeded menus): our console translates it itself, so a language switch retitles */
  titleKey?: string;
  /** our page key; `component` names the origin console's view where it has one (ORIGIN_VIEWS) */
  pageKey?: string;
  icon?: string | null;
  url?: string | null;
  target?: string | null;
  keepAlive: boolean;
  internalOrExternal: boolean;
  permissionList?: AuthItem[];
  permission?: string[];
  componentName?: string;
}

export interface MenuItem {
  id: string;
  path: string;
  name: string;
  component: string;
  hidden: boolean;
  alwaysShow: boolean;
  redirect?: string | null;
  /** '0' means: do not register a route for this item */
  route: '0' | '1';
  meta: MenuMeta;
  children?: MenuItem[];
}

/**
 * A button permission (SPEC section 6). type '2' is excluded from checks. In `allAuth`, status '0' means the
 * button is not enforced and shows for everyone; '1' means it shows only for users whose `auth` holds it.
 */
export interface AuthItem {
  action: string;
  describe: string;
  type: '1' | '2';
  status?: '0' | '1';
}

export interface PermissionResult {
  menu: MenuItem[];
  auth: AuthItem[];
  allAuth: AuthItem[];
  /** the site's TIME_ZONE: the zone of every `yyyy-MM-dd HH:mm:ss` time on the wire (the console converts to the reader's) */
  timeZone?: string;
}

export interface CaptchaResult {
  /** data URL of an SVG image */
  image: string;
}
