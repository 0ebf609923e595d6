import * as z from 'zod';
import { phoneField } from './account.ts';

/** Visitor area paths below API_PREFIX; visitors hold their own kind of token, never a staff session. */
export const VisitorPath = {
  register: '/vistor/register',
  login: '/vistor/login',
  logout: '/vistor/logout',
  info: '/vistor/info',
  /** GET: the signed-in visitor's own visits, newest first (MyVisit[]) */
  myVisits: '/vistor/myVisit/list',
  /** GET `?name=`: the hosts the visitor may ask (users of his tenant, by name; a short list) */
  hosts: '/vistor/myVisit/hosts',
  /** POST VisitRequestBody: ask for a visit, which waits for the host */
  askVisit: '/vistor/myVisit/ask',
  /** PUT `{ id }`: withdraw one's own request while it still waits */
  cancelVisit: '/vistor/myVisit/cancel',
  /** GET: the visitor's messages, newest first, and how many are unread (VisitorMessages) */
  messages: '/vistor/message/list',
  /** PUT `{ id? }`: mark one message (or, without id, all) read */
  readMessages: '/vistor/message/read',
} as const;

/** Where a visit stands (dictionary visit_state): asked by the visitor and waiting, approved by the host, refused. */
export const VisitState = { requested: 'requested', approved: 'approved', refused: 'refused' } as const;
export type VisitStateValue = (typeof VisitState)[keyof typeof VisitState];
export const VISIT_STATES = [VisitState.requested, VisitState.approved, VisitState.refused] as const;

/**
 * A visitor's request: the host, the window (wire times; the end after the start, the start not past) and why. The
 * server checks each part and answers in the reader's language, naming the field; doors are the host's to choose.
 */
export const visitRequestBody = z.object({
  hostId: z.string().max(36).optional(),
  startTime: z.string().trim().max(40).optional(),
  endTime: z.string().trim().max(40).optional(),
  remark: z.string().trim().max(500).optional(),
});
export type VisitRequestBody = z.infer<typeof visitRequestBody>;

export const visitIdBody = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,36}$/, { error: 'validation.invalid' }) });

/** The host's approval: the doors the visit opens (ids joined by commas, as the visit form writes them). */
export const visitApproveBody = visitIdBody.extend({ doorIds: z.string().max(33_000).optional() });
export const visitRefuseBody = visitIdBody.extend({ reason: z.string().trim().max(500).optional() });
export const visitorReadBody = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,36}$/, { error: 'validation.invalid' }).optional() });

/** One of the visitor's own visits as the visitor area shows it. */
export interface MyVisit {
  id: string;
  state: VisitStateValue;
  startTime: string;
  endTime: string;
  hostName: string;
  doorNames: string[];
  remark: string | null;
  refuseReason: string | null;
  firstOpenTime: string | null;
  createTime: string | null;
}

export interface VisitHost {
  id: string;
  realname: string;
}

/** A message to a visitor (the host's decision), in the reader's language. */
export interface VisitorMessage {
  id: string;
  title: string;
  content: string;
  read: boolean;
  visitId: string | null;
  createTime: string | null;
}

export interface VisitorMessages {
  records: VisitorMessage[];
  unread: number;
}

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

/** The first 17 characters of a resident ID card number with its check character (GB 11643) appended. */
export function withIdCheck(body: string): string {
  const sum = ID_WEIGHTS.reduce((acc, weight, i) => acc + weight * Number(body[i]), 0);
  return body + ID_CHECK[sum % 11];
}

/** A legal resident ID card number (GB 11643): 18 characters with a valid birth date and check character, or the old 15-digit form. */
export function isValidIdCard(value: string): boolean {
  const id = value.trim().toUpperCase();
  if (/^\d{15}$/.test(id)) {
    return validBirthDate(1900 + Number(id.slice(6, 8)), Number(id.slice(8, 10)), Number(id.slice(10, 12)));
  }
  if (!/^\d{17}[\dX]$/.test(id)) return false;
  if (!validBirthDate(Number(id.slice(6, 10)), Number(id.slice(10, 12)), Number(id.slice(12, 14)))) return false;
  return withIdCheck(id.slice(0, 17)) === id;
}

/** The kind of an ID number (dictionary id_type): resident ID card, passport, other. */
export const IdType = { resident: '1', passport: '2', other: '3' } as const;
export type IdTypeValue = (typeof IdType)[keyof typeof IdType];
export const ID_TYPES = [IdType.resident, IdType.passport, IdType.other] as const;
/** the longest ID number of any kind */
export const ID_NUMBER_MAX = 32;

/**
 * Is `value` an ID number of `type`: a resident ID card passes `resident` (the GB 11643 check of the screen), a
 * passport is 5 to 20 letters or digits, another document any printable text up to ID_NUMBER_MAX characters.
 */
export function isValidIdNumber(type: string | null | undefined, value: string, resident: (value: string) => boolean = isValidIdCard): boolean {
  const id = value.trim();
  if (type === IdType.passport) return /^[A-Za-z0-9]{5,20}$/.test(id);
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  if (type === IdType.other) return id.length > 0 && id.length <= ID_NUMBER_MAX && !/[\u0000-\u001f\u007f]/.test(id);
  return resident(id);
}

/** The visitor area's own refusal of an ID number of `type` (its form names no field). */
export function visitorIdRefusal(type: string | null | undefined): 'visitor.idCardInvalid' | 'visitor.passportInvalid' | 'visitor.idOtherInvalid' {
  return type === IdType.passport ? 'visitor.passportInvalid' : type === IdType.other ? 'visitor.idOtherInvalid' : 'visitor.idCardInvalid';
}

/** The message that refuses an ID number of `type`. */
export function idNumberRefusal(type: string | null | undefined): 'validation.idCard' | 'validation.passport' | 'validation.idOther' {
  return type === IdType.passport ? 'validation.passport' : type === IdType.other ? 'validation.idOther' : 'validation.idCard';
}

/**
 * The refusal of a row's ID number against its ID type (`values` as written, `existing` the stored row on an edit), or
 * null when it fits; `resident` is the screen's check of a resident ID card.
 */
export function idNumberProblem(
  values: Record<string, unknown>,
  existing: { id_type?: unknown; id_card?: unknown } | null,
  resident: (value: string) => boolean = isValidIdCard,
): ReturnType<typeof idNumberRefusal> | null {
  const type = String(values.idType ?? existing?.id_type ?? IdType.resident);
  const number = values.idCard ?? existing?.id_card;
  if (typeof number !== 'string' || number === '') return null;
  return isValidIdNumber(type, number, resident) ? null : idNumberRefusal(type);
}

/** The form's and server's check of an ID number against the row's ID type (`resident`: the screen's resident ID rule). */
export function idNumberCrossCheck(resident: (value: string) => boolean = isValidIdCard) {
  return {
    field: 'idType',
    problem: (value: string, type: unknown) => {
      const kind = typeof type === 'string' || typeof type === 'number' ? String(type) : IdType.resident;
      return isValidIdNumber(kind, value, resident) ? null : idNumberRefusal(kind);
    },
  };
}

/** An ID number of any kind, as a field's own check: the server checks it against the row's ID type. */
export const idNumberSchema = z
  .string()
  .trim()
  .toUpperCase()
  .refine((value) => ID_TYPES.some((type) => isValidIdNumber(type, value)), { error: 'validation.idOther' });

export const visitorRegisterBody = z.object({
  name: z.string().trim().min(1).max(100),
  /** resident ID card when absent (the origin's clients send none) */
  idType: z.enum(ID_TYPES).optional(),
  idCard: z.string().trim().max(ID_NUMBER_MAX),
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

/** SPEC section 5: people (and visitor) passwords are 6 to 8 digits, what door keypads accept. */
export const visitorPasswordSchema = z.string().regex(/^\d{6,8}$/, { error: 'validation.visitorPassword' });
