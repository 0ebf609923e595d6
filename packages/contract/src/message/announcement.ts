/**
 * Announcements and system messages (SPEC sections 3, 4, 5, 7). Spellings `titile`, `annountCement` and
 * `doReovkeData` are a contract with existing callers.
 */
import * as z from 'zod';
import { parseTime } from '../crud/fields.ts';
import { splitIds } from '../ids.ts';
import type { MessageKey } from '../messages/index.ts';

export const AnnouncementPath = {
  list: '/sys/annountCement/list',
  add: '/sys/annountCement/add',
  edit: '/sys/annountCement/edit',
  delete: '/sys/annountCement/delete',
  deleteBatch: '/sys/annountCement/deleteBatch',
  queryById: '/sys/annountCement/queryById',
  /** GET ?id= : release to all users or the chosen ones, pushes `topic` / `user` to each recipient */
  release: '/sys/annountCement/doReleaseData',
  /** GET ?id= : revoke, hides it from recipients and pushes a reload */
  revoke: '/sys/annountCement/doReovkeData',
  /** GET : the bell's summary of the caller's unread notices */
  listByUser: '/sys/annountCement/listByUser',
  /** POST or PUT {anntId} : the caller has read it */
  markRead: '/sys/sysAnnouncementSend/editByAnntIdAndUserId',
  /** GET paged: the caller's announcements, read and unread (/isps/userAnnouncement) */
  myList: '/sys/sysAnnouncementSend/getMyAnnouncementSend',
  /** PUT : mark every notice of the caller read */
  readAll: '/sys/sysAnnouncementSend/readAll',
} as const;

/** Button permissions of the announcement screen (seeded under system/announcement). */
export const AnnouncementPerm = {
  list: 'system:announcement:list',
  add: 'system:announcement:add',
  edit: 'system:announcement:edit',
  delete: 'system:announcement:delete',
  release: 'system:announcement:release',
  revoke: 'system:announcement:revoke',
} as const;

/** L normal (blue), M important (orange), H urgent (red). */
export const PRIORITIES = ['L', 'M', 'H'] as const;
export type Priority = (typeof PRIORITIES)[number];
export const PriorityColor: Record<Priority, string> = { L: 'blue', M: 'orange', H: 'red' };

/** '1' announcement, '2' system message (in-app messages of the message center arrive as '2'). */
export const MsgCategory = { announcement: '1', systemMessage: '2' } as const;
export type MsgCategory = (typeof MsgCategory)[keyof typeof MsgCategory];

/** Recipients: every user, or the users listed in `userIds`. */
export const MsgType = { all: 'ALL', user: 'USER' } as const;
export type MsgType = (typeof MsgType)[keyof typeof MsgType];

export const SendStatus = { draft: '0', released: '1', revoked: '2' } as const;
export type SendStatus = (typeof SendStatus)[keyof typeof SendStatus];

/** Delivery channels of an announcement: in-app (the bell and a push) and e-mail. */
export const ANNOUNCEMENT_CHANNELS = ['system', 'email'] as const;
export type AnnouncementChannel = (typeof ANNOUNCEMENT_CHANNELS)[number];

/** The channels an announcement goes through: the chosen ones, every one when none is chosen (SPEC section 5). */
export function announcementChannels(channels: string | null | undefined): ReadonlySet<AnnouncementChannel> {
  const chosen = splitIds(channels ?? '').filter((c): c is AnnouncementChannel => (ANNOUNCEMENT_CHANNELS as readonly string[]).includes(c));
  return new Set(chosen.length > 0 ? chosen : ANNOUNCEMENT_CHANNELS);
}

/** An announcement's validity as its author sees it (SPEC section 4): no window, inside it, or past its end. */
export type AnnouncementValidity = 'unspecified' | 'inEffect' | 'expired';

/** 'component' opens a console page, 'url' shows a handle button that navigates to `openPage`. */
export const OPEN_TYPES = ['component', 'url'] as const;
export type OpenType = (typeof OPEN_TYPES)[number];

export const ANNOUNCEMENT_TYPES = ['word', 'video'] as const;
export type AnnouncementType = (typeof ANNOUNCEMENT_TYPES)[number];

const optionalText = (max: number) => z.string().max(max).nullish();
/** a console path or an http(s) address: never a javascript: or data: URL the console would navigate to */
const SAFE_URL = /^(\/(?!\/)|https?:\/\/)/i;
const optionalUrl = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => v === '' || v.split(',').every((part) => part.trim() === '' || SAFE_URL.test(part.trim())), { error: 'validation.format' })
    .nullish();
const optionalTime = z
  .string()
  .refine((v) => v === '' || parseTime(v) !== null, { error: 'validation.dateTime' })
  .nullish();

/**
 * The body of add and edit. Shapes only: the rules whose messages people read (SPEC section 5) are in
 * `announcementProblem`, so they come back localised.
 */
export const announcementInput = z.object({
  titile: optionalText(200),
  msgContent: z.string().max(200_000).nullish(),
  /** plain text; when none is written the answer carries the beginning of the content's text */
  msgAbstract: optionalText(500),
  startTime: optionalTime,
  endTime: optionalTime,
  sender: optionalText(100),
  priority: z.enum(PRIORITIES).nullish(),
  msgCategory: z.enum([MsgCategory.announcement, MsgCategory.systemMessage]).nullish(),
  msgType: z.enum([MsgType.all, MsgType.user]).nullish(),
  /** comma-separated user ids (trailing comma tolerated) when msgType is USER */
  userIds: optionalText(20_000),
  openType: z.enum(OPEN_TYPES).nullish().or(z.literal('')),
  openPage: optionalUrl(255),
  busId: optionalText(64),
  type: z.enum(ANNOUNCEMENT_TYPES).nullish(),
  theme: optionalText(64),
  /** comma-separated channel codes (ANNOUNCEMENT_CHANNELS); blank means every channel */
  channels: optionalText(255).refine((v) => !v || splitIds(v).every((c) => (ANNOUNCEMENT_CHANNELS as readonly string[]).includes(c)), { error: 'validation.invalid' }),
  backgroundImage: optionalUrl(500),
  /** comma-separated file URLs */
  attachments: optionalUrl(4000),
  video: optionalUrl(500),
});
export type AnnouncementInput = z.infer<typeof announcementInput>;
export const announcementEditInput = announcementInput.extend({ id: z.string().min(1).max(64) });

function blank(value: string | null | undefined): boolean {
  return !value || !value.trim();
}

/** Content that shows nothing (an empty editor leaves `<p></p>`) counts as no content. */
/** The abstract an answer carries: the author's, or the first 100 characters of the content's text. */
export function abstractOf(written: string | null | undefined, html: string | null | undefined): string {
  if (written && written.trim()) return written.trim();
  const text = (html ?? '').replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ').replace(/\s+/g, ' ').trim();
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

export function isBlankHtml(html: string | null | undefined): boolean {
  if (!html) return true;
  if (/<(img|video|iframe|audio)\b/i.test(html)) return false;
  return html.replace(/<[^>]*>/g, '').replace(/&nbsp;/g, ' ').trim() === '';
}

/** The first rule of SPEC section 5 an announcement breaks, or null. The console and the server both use it. */
export function announcementProblem(input: AnnouncementInput): MessageKey | null {
  if (blank(input.titile)) return 'announcement.titleRequired';
  if (blank(input.msgCategory)) return 'announcement.categoryRequired';
  if (blank(input.msgType)) return 'announcement.msgTypeRequired';
  if (input.msgType === MsgType.user && splitIds(input.userIds).length === 0) return 'announcement.usersRequired';
  if (blank(input.backgroundImage) && isBlankHtml(input.msgContent)) return 'announcement.contentRequired';
  if (input.type === 'video' && blank(input.video)) return 'announcement.videoRequired';
  const start = input.startTime ? parseTime(input.startTime) : null;
  const end = input.endTime ? parseTime(input.endTime) : null;
  if (start && end && end.getTime() <= start.getTime()) return 'validation.endBeforeStart';
  return null;
}

/** An announcement as the server returns it (admin list, queryById). `msgContent` is always sanitised HTML. */
export interface Announcement {
  id: string;
  titile: string;
  msgContent: string | null;
  msgAbstract: string;
  startTime: string | null;
  endTime: string | null;
  sender: string | null;
  priority: Priority;
  msgCategory: MsgCategory;
  msgType: MsgType;
  userIds: string | null;
  sendStatus: SendStatus;
  sendTime: string | null;
  cancelTime: string | null;
  openType: OpenType | null;
  openPage: string | null;
  busId: string | null;
  type: AnnouncementType;
  theme: string | null;
  channels: string | null;
  backgroundImage: string | null;
  attachments: string | null;
  video: string | null;
  createBy: string | null;
  createTime: string | null;
  updateBy: string | null;
  updateTime: string | null;
  /** only for a recipient (queryById by a non-administrator, user lists): 1 read, 0 unread */
  readFlag?: 0 | 1;
  /** the authors' list: whether it is in effect now */
  validity?: AnnouncementValidity;
}

/** One notice of the caller (bell lists, /isps/userAnnouncement rows). `id` is the announcement id. */
export interface UserNotice {
  id: string;
  /** the same as id, named as the origin console's callers read it */
  anntId: string;
  /** the caller's send row */
  sendId: string;
  /** the id the real-time channel's messages of it carry (`msgId`): the announcement's */
  msgId: string;
  titile: string;
  msgContent: string | null;
  msgAbstract: string;
  sender: string | null;
  sendTime: string | null;
  priority: Priority;
  msgCategory: MsgCategory;
  openType: OpenType | null;
  openPage: string | null;
  busId: string | null;
  /** addresses of uploaded files, as on the announcement (attachments comma-separated) */
  backgroundImage: string | null;
  attachments: string | null;
  video: string | null;
  readFlag: 0 | 1;
  readTime: string | null;
  createTime: string | null;
}

/** GET listByUser: unread notices, recent first; the lists hold at most `NOTICE_LIST_LIMIT` entries, totals count all. */
export interface NoticeSummary {
  anntMsgList: UserNotice[];
  anntMsgTotal: number;
  sysMsgList: UserNotice[];
  sysMsgTotal: number;
}
export const NOTICE_LIST_LIMIT = 50;

/** Query of getMyAnnouncementSend: pageNo, pageSize, and optional filters. */
export const myNoticeQuery = z.object({
  pageNo: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(10),
  titile: z.string().max(200).optional(),
  msgCategory: z.enum([MsgCategory.announcement, MsgCategory.systemMessage]).optional(),
  readFlag: z.enum(['0', '1']).optional(),
});

/** Query of the admin list: pageNo, pageSize, and optional filters (`titile` contains). */
export const announcementListQuery = z.object({
  pageNo: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(10),
  titile: z.string().max(200).optional(),
  msgCategory: z.enum([MsgCategory.announcement, MsgCategory.systemMessage]).optional(),
  sendStatus: z.enum([SendStatus.draft, SendStatus.released, SendStatus.revoked]).optional(),
  priority: z.enum(PRIORITIES).optional(),
});

export const markReadBody = z.object({ anntId: z.string().min(1).max(64) });
