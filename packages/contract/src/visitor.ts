import * as z from 'zod';
import { phoneField } from './account.ts';

/** Visitor area paths below API_PREFIX; visitors hold their own kind of token, never a staff session. */
export const VisitorPath = {
  register: '/vistor/register',
  login: '/vistor/login',
  logout: '/vistor/logout',
  info: '/vistor/info',
} as const;

/** SPEC section 3: visitor categories include police and armed police. */
export const VISITOR_CATEGORIES = ['general', 'police', 'armedPolice', 'contractor'] as const;
export type VisitorCategory = (typeof VISITOR_CATEGORIES)[number];

export const VisitorStatus = { normal: 1, frozen: 2 } as const;

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

function validBirthDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day && date.getTime() <= Date.now();
}

/** A legal resident ID card number (GB 11643): 18 characters with a valid birth date and check character, or the old 15-digit form. */
export function isValidIdCard(value: string): boolean {
  const id = value.trim().toUpperCase();
  if (/^\d{15}$/.test(id)) {
    return validBirthDate(1900 + Number(id.slice(6, 8)), Number(id.slice(8, 10)), Number(id.slice(10, 12)));
  }
  if (!/^\d{17}[\dX]$/.test(id)) return false;
  if (!validBirthDate(Number(id.slice(6, 10)), Number(id.slice(10, 12)), Number(id.slice(12, 14)))) return false;
  const sum = ID_WEIGHTS.reduce((acc, weight, i) => acc + weight * Number(id[i]), 0);
  return ID_CHECK[sum % 11] === id[17];
}

export const visitorRegisterBody = z.object({
  name: z.string().trim().min(1).max(100),
  idCard: z.string().trim().max(18),
  phone: phoneField,
  password: z.string().min(1).max(200),
  confirmPassword: z.string().min(1).max(200),
  category: z.enum(VISITOR_CATEGORIES),
});
export type VisitorRegisterBody = z.infer<typeof visitorRegisterBody>;

/** `account` is the phone number or the ID card number. */
export const visitorLoginBody = z.object({ account: z.string().trim().min(1).max(45), password: z.string().min(1).max(200) });
export type VisitorLoginBody = z.infer<typeof visitorLoginBody>;

export interface VisitorInfo {
  id: string;
  name: string;
  /** only the last four characters are shown back */
  idCardMasked: string;
  phone: string;
  category: VisitorCategory;
  status: number;
  linkedUsername: string | null;
}

export interface VisitorLoginResult {
  token: string;
  visitor: VisitorInfo;
}
