import { randomUUID } from 'node:crypto';
import {
  abstractOf,
  announcementChannels,
  AnnouncementPerm,
  MsgCategory,
  MsgType,
  NOTICE_LIST_LIMIT,
  RealtimeCmd,
  SendStatus,
  announcementProblem,
  splitIds,
  type Announcement,
  type AnnouncementInput,
  type AnnouncementValidity,
  type NoticeSummary,
  type Page,
  type RealtimeMessage,
  type UserNotice,
  type announcementListQuery,
  type myNoticeQuery,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Insertable, Selectable } from 'kysely';
import type { CurrentUser } from '../../platform/access.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { tenantScoped, writeTenant } from '../../platform/tenancy.ts';
import { requireWireTime } from '../../platform/wire-time.ts';
import type { Database, SysAnnouncement } from '../../db/schema.ts';
import { contains, pageOf } from './list-helpers.ts';
import { sanitizeRichText } from './sanitize.ts';
import { sendMail } from './mailer.ts';

type Row = Selectable<SysAnnouncement>;

function nowIso(app: FastifyInstance): string {
  return new Date(app.clock()).toISOString();
}

/** Times are kept as UTC ISO strings (DESIGN section 8): given as `yyyy-MM-dd HH:mm:ss` in TIME_ZONE or with an offset. */
function storedTime(value: string | null | undefined, timeZone: string, name: string): string | null {
  if (!value?.trim()) return null;
  return requireWireTime(value, timeZone, 'datetime', name);
}

function blankToNull(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === '' ? null : value;
}

export function toAnnouncement(row: Row, readFlag?: 0 | 1): Announcement {
  return {
    id: row.id,
    titile: row.titile,
    // sanitised when stored and again when served: rows written before a sanitiser change stay safe
    msgContent: sanitizeRichText(row.msg_content),
    msgAbstract: abstractOf(row.msg_abstract, row.msg_content),
    startTime: row.start_time,
    endTime: row.end_time,
    sender: row.sender,
    priority: row.priority as Announcement['priority'],
    msgCategory: row.msg_category as Announcement['msgCategory'],
    msgType: row.msg_type as Announcement['msgType'],
    userIds: row.user_ids,
    sendStatus: row.send_status as Announcement['sendStatus'],
    sendTime: row.send_time,
    cancelTime: row.cancel_time,
    openType: (row.open_type as Announcement['openType']) ?? null,
    openPage: row.open_page,
    busId: row.bus_id,
    type: row.type as Announcement['type'],
    theme: row.theme,
    channels: row.channels,
    backgroundImage: row.background_image,
    attachments: row.attachments,
    video: row.video,
    createBy: row.create_by,
    createTime: row.create_time,
    updateBy: row.update_by,
    updateTime: row.update_time,
    ...(readFlag === undefined ? {} : { readFlag }),
  };
}

/** The authored columns of an input that passed `announcementProblem`. */
function authoredColumns(input: AnnouncementInput) {
  // the times were made stored ones by `validate`
  const msgType = input.msgType as string;
  return {
    titile: (input.titile as string).trim(),
    msg_content: sanitizeRichText(input.msgContent ?? null),
    msg_abstract: blankToNull(input.msgAbstract)?.trim() ?? null,
    start_time: input.startTime || null,
    end_time: input.endTime || null,
    priority: input.priority ?? 'L',
    msg_category: input.msgCategory as string,
    msg_type: msgType,
    user_ids: msgType === MsgType.user ? splitIds(input.userIds).join(',') : null,
    open_type: blankToNull(input.openType),
    open_page: blankToNull(input.openPage),
    bus_id: blankToNull(input.busId),
    type: input.type ?? 'word',
    theme: blankToNull(input.theme),
    channels: blankToNull(input.channels),
    background_image: blankToNull(input.backgroundImage),
    attachments: blankToNull(input.attachments),
    video: blankToNull(input.video),
  };
}

/** The input with its times as stored, once it keeps every rule. */
function validate(input: AnnouncementInput, timeZone: string): AnnouncementInput {
  const stored = { ...input, startTime: storedTime(input.startTime, timeZone, 'startTime'), endTime: storedTime(input.endTime, timeZone, 'endTime') };
  const problem = announcementProblem(stored);
  if (problem) throw new AppError('badRequest', problem);
  return stored;
}

/** The caller's announcements (their tenant's), not deleted. */
function announcementsOf(app: FastifyInstance, caller: CurrentUser) {
  return tenantScoped(app.db.selectFrom('sys_announcement'), caller).where('del_flag', '=', 0);
}

async function findLive(app: FastifyInstance, caller: CurrentUser, id: string): Promise<Row> {
  const row = await announcementsOf(app, caller).selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) refuse('crud.notFound');
  return row;
}

export async function listAnnouncements(app: FastifyInstance, caller: CurrentUser, query: z.infer<typeof announcementListQuery>): Promise<Page<Announcement>> {
  let base = announcementsOf(app, caller);
  if (query.titile) base = base.where(contains('titile', query.titile));
  if (query.msgCategory) base = base.where('msg_category', '=', query.msgCategory);
  if (query.sendStatus) base = base.where('send_status', '=', query.sendStatus);
  if (query.priority) base = base.where('priority', '=', query.priority);
  const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  const total = Number(counted?.n ?? 0);
  const rows = await base
    .selectAll()
    .orderBy('create_time', 'desc')
    .orderBy('id')
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize)
    .execute();
  const now = nowIso(app);
  return pageOf(rows.map((r) => ({ ...toAnnouncement(r), validity: validityOf(r, now) })), total, query.pageNo, query.pageSize);
}

/** Unspecified without a start or end time; expired once the end has passed; in effect from the start to the end (stored times are UTC ISO text). */
export function validityOf(row: Pick<Row, 'start_time' | 'end_time'>, now: string): AnnouncementValidity {
  if (!row.start_time && !row.end_time) return 'unspecified';
  if (row.end_time && row.end_time <= now) return 'expired';
  if (row.start_time && row.start_time > now) return 'unspecified';
  return 'inEffect';
}

export async function addAnnouncement(app: FastifyInstance, caller: CurrentUser, input: AnnouncementInput): Promise<Announcement> {
  const row: Insertable<Database['sys_announcement']> = {
    ...authoredColumns(validate(input, app.settings.timeZone)),
    id: randomUUID(),
    sender: blankToNull(input.sender) ?? caller.username,
    send_status: SendStatus.draft,
    send_time: null,
    cancel_time: null,
    del_flag: 0,
    tenant_id: writeTenant(caller),
    create_by: caller.username,
    create_time: nowIso(app),
    update_by: null,
    update_time: null,
  };
  await app.db.insertInto('sys_announcement').values(row).execute();
  return toAnnouncement(await findLive(app, caller, row.id));
}

export async function editAnnouncement(app: FastifyInstance, caller: CurrentUser, id: string, input: AnnouncementInput): Promise<Announcement> {
  const existing = toAnnouncement(await findLive(app, caller, id));
  const given = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const merged = { ...existing, ...given } as AnnouncementInput;
  await tenantScoped(app.db.updateTable('sys_announcement'), caller)
    .set({ ...authoredColumns(validate(merged, app.settings.timeZone)), sender: blankToNull(merged.sender) ?? existing.sender, update_by: caller.username, update_time: nowIso(app) })
    .where('id', '=', id)
    .execute();
  return toAnnouncement(await findLive(app, caller, id));
}

/** Who receives a released announcement's notices: the send rows, or null for everyone of its tenant. */
async function recipientsOf(app: FastifyInstance, row: Row): Promise<string[] | null> {
  if (row.msg_type === MsgType.all) return null;
  const sends = await app.db.selectFrom('sys_announcement_send').select('user_id').where('annt_id', '=', row.id).execute();
  return sends.map((s) => s.user_id);
}

/** Pushes to the recipients, or for everyone to every active user of the announcement's tenant (never other tenants). */
async function notify(app: FastifyInstance, row: Row, recipients: string[] | null, message: RealtimeMessage): Promise<void> {
  if (recipients === null) await app.realtime.sendToUsers(await activeUserIds(app, row.tenant_id), { ...message, cmd: RealtimeCmd.topic });
  else await app.realtime.sendToUsers(recipients, { ...message, cmd: RealtimeCmd.user });
}

export async function deleteAnnouncements(app: FastifyInstance, caller: CurrentUser, ids: string[]): Promise<void> {
  const rows = await announcementsOf(app, caller).selectAll().where('id', 'in', ids).execute();
  if (rows.length === 0) refuse('crud.notFound');
  await tenantScoped(app.db.updateTable('sys_announcement'), caller).set({ del_flag: 1, update_by: caller.username, update_time: nowIso(app) }).where('id', 'in', rows.map((r) => r.id)).execute();
  for (const row of rows.filter((r) => r.send_status === SendStatus.released)) {
    await notify(app, row, await recipientsOf(app, row), { cmd: RealtimeCmd.user, msgId: row.id, msgTxt: row.titile, data: { action: 'delete' } });
  }
}

/** Send rows carry their announcement's tenant. */
async function insertSendRows(app: FastifyInstance, anntId: string, tenantId: string | null, userIds: string[], by: string, readFlag = 0): Promise<void> {
  const existing = new Set(
    (await app.db.selectFrom('sys_announcement_send').select('user_id').where('annt_id', '=', anntId).execute()).map((r) => r.user_id),
  );
  const now = nowIso(app);
  const missing = userIds.filter((u) => !existing.has(u));
  for (let i = 0; i < missing.length; i += 200) {
    const values = missing.slice(i, i + 200).map((userId) => ({
      id: randomUUID(),
      annt_id: anntId,
      user_id: userId,
      read_flag: readFlag,
      read_time: readFlag ? now : null,
      tenant_id: tenantId,
      create_by: by,
      create_time: now,
      update_by: null,
      update_time: null,
    }));
    await app.db.insertInto('sys_announcement_send').values(values).execute();
  }
}

/** Active users of a tenant (an announcement reaches only its own tenant's users). */
async function activeUserIds(app: FastifyInstance, tenantId: string | null, only?: string[]): Promise<string[]> {
  if (only && only.length === 0) return [];
  let query = tenantScoped(app.db.selectFrom('sys_user'), { tenantScope: tenantId }).select('id').where('del_flag', '=', 0).where('status', '=', 1);
  if (only) query = query.where('id', 'in', only);
  return (await query.execute()).map((r) => r.id);
}

/** Release (SPEC section 7 doReleaseData): send rows for every recipient, then a notice to each within the request. */
export async function releaseAnnouncement(app: FastifyInstance, caller: CurrentUser, id: string): Promise<void> {
  const row = await findLive(app, caller, id);
  if (row.send_status === SendStatus.released) refuse('announcement.alreadyReleased');
  const everyone = row.msg_type === MsgType.all;
  const recipients = await activeUserIds(app, row.tenant_id, everyone ? undefined : splitIds(row.user_ids));
  await app.db
    .updateTable('sys_announcement')
    .set({ send_status: SendStatus.released, send_time: nowIso(app), cancel_time: null, update_by: caller.username, update_time: nowIso(app) })
    .where('id', '=', id)
    .execute();
  const channels = announcementChannels(row.channels);
  if (channels.has('system')) {
    await insertSendRows(app, id, row.tenant_id, recipients, caller.username);
    await notify(app, row, everyone ? null : recipients, { cmd: RealtimeCmd.user, msgId: id, msgTxt: row.titile, data: { action: 'release', msgCategory: row.msg_category } });
  }
  if (channels.has('email')) await mailAnnouncement(app, row, recipients);
}

/**
 * The e-mail channel: the announcement to each recipient with an e-mail address. Without SMTP there is no such
 * channel; a mail the server refuses is logged and the release stands (the in-app channel does not wait for mail).
 */
async function mailAnnouncement(app: FastifyInstance, row: Row, recipients: string[]): Promise<void> {
  if (!app.settings.smtp.url || recipients.length === 0) return;
  const addresses = (await app.db.selectFrom('sys_user').select('email').where('id', 'in', recipients).where('email', 'is not', null).execute()).map((u) => u.email as string).filter((e) => e.includes('@'));
  const html = sanitizeRichText(row.msg_content) ?? '';
  for (const to of addresses) {
    try {
      await sendMail(app.settings.smtp, { to, subject: row.titile, html });
    } catch (error) {
      app.log.warn({ err: error, announcement: row.id }, 'announcement mail not sent');
    }
  }
}

/** Revoke (doReovkeData): recipients no longer see it, and their consoles reload their notices. */
export async function revokeAnnouncement(app: FastifyInstance, caller: CurrentUser, id: string): Promise<void> {
  const row = await findLive(app, caller, id);
  if (row.send_status !== SendStatus.released) refuse('announcement.notReleased');
  await app.db
    .updateTable('sys_announcement')
    .set({ send_status: SendStatus.revoked, cancel_time: nowIso(app), update_by: caller.username, update_time: nowIso(app) })
    .where('id', '=', id)
    .execute();
  await notify(app, row, await recipientsOf(app, row), { cmd: RealtimeCmd.user, msgId: id, msgTxt: row.titile, data: { action: 'revoke' } });
}

/** An announcement for everyone (of the caller's tenant) released before this user existed still reaches them: their send rows are added on read. */
async function ensureEveryoneRows(app: FastifyInstance, caller: CurrentUser): Promise<void> {
  const userId = caller.id;
  const missing = await tenantScoped(app.db.selectFrom('sys_announcement as a'), caller, 'a.tenant_id')
    .select(['a.id', 'a.tenant_id', 'a.channels'])
    .where('a.msg_type', '=', MsgType.all)
    .where('a.send_status', '=', SendStatus.released)
    .where('a.del_flag', '=', 0)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('sys_announcement_send as s').select('s.id').whereRef('s.annt_id', '=', 'a.id').where('s.user_id', '=', userId))),
    )
    .execute();
  for (const { id, tenant_id, channels } of missing) {
    // an announcement sent by e-mail only has no in-app notices
    if (!announcementChannels(channels).has('system')) continue;
    try {
      await insertSendRows(app, id, tenant_id, [userId], 'system');
    } catch {
      // a concurrent request of the same user inserted it first (unique annt_id + user_id)
    }
  }
}

/** The caller's visible notices (of the tenant worked in): released, not deleted, in effect now, with their send row. */
function visibleNotices(app: FastifyInstance, caller: CurrentUser) {
  const now = nowIso(app);
  return tenantScoped(app.db.selectFrom('sys_announcement_send as s'), caller, 's.tenant_id')
    .innerJoin('sys_announcement as a', 'a.id', 's.annt_id')
    .where('s.user_id', '=', caller.id)
    .where('a.send_status', '=', SendStatus.released)
    .where('a.del_flag', '=', 0)
    .where((eb) => eb.or([eb('a.start_time', 'is', null), eb('a.start_time', '<=', now)]))
    .where((eb) => eb.or([eb('a.end_time', 'is', null), eb('a.end_time', '>', now)]));
}

const noticeColumns = [
  'a.id',
  's.id as send_id',
  'a.titile',
  'a.msg_content',
  'a.msg_abstract',
  'a.sender',
  'a.send_time',
  'a.priority',
  'a.msg_category',
  'a.open_type',
  'a.open_page',
  'a.bus_id',
  'a.background_image',
  'a.attachments',
  'a.video',
  'a.create_time',
  's.read_flag',
  's.read_time',
] as const;

type NoticeRow = {
  id: string;
  send_id: string;
  titile: string;
  msg_content: string | null;
  msg_abstract: string | null;
  sender: string | null;
  send_time: string | null;
  priority: string;
  msg_category: string;
  open_type: string | null;
  open_page: string | null;
  bus_id: string | null;
  background_image: string | null;
  attachments: string | null;
  video: string | null;
  create_time: string | null;
  read_flag: number;
  read_time: string | null;
};

function toNotice(row: NoticeRow): UserNotice {
  return {
    id: row.id,
    anntId: row.id,
    sendId: row.send_id,
    msgId: row.id,
    titile: row.titile,
    msgContent: sanitizeRichText(row.msg_content),
    msgAbstract: abstractOf(row.msg_abstract, row.msg_content),
    sender: row.sender,
    sendTime: row.send_time,
    priority: row.priority as UserNotice['priority'],
    msgCategory: row.msg_category as UserNotice['msgCategory'],
    openType: (row.open_type as UserNotice['openType']) ?? null,
    openPage: row.open_page,
    busId: row.bus_id,
    backgroundImage: row.background_image,
    attachments: row.attachments,
    video: row.video,
    readFlag: Number(row.read_flag) === 1 ? 1 : 0,
    readTime: row.read_time,
    createTime: row.create_time,
  };
}

/** listByUser: the bell's unread notices, recent first. */
export async function noticeSummary(app: FastifyInstance, caller: CurrentUser): Promise<NoticeSummary> {
  await ensureEveryoneRows(app, caller);
  const unread = (category: string) => visibleNotices(app, caller).where('s.read_flag', '=', 0).where('a.msg_category', '=', category);
  const part = async (category: string) => {
    const rows = await unread(category).select(noticeColumns).orderBy('a.send_time', 'desc').orderBy('a.id').limit(NOTICE_LIST_LIMIT).execute();
    const counted = await unread(category).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    return { list: rows.map((r) => toNotice(r as NoticeRow)), total: Number(counted?.n ?? 0) };
  };
  const [annt, sys] = [await part(MsgCategory.announcement), await part(MsgCategory.systemMessage)];
  return { anntMsgList: annt.list, anntMsgTotal: annt.total, sysMsgList: sys.list, sysMsgTotal: sys.total };
}

/** getMyAnnouncementSend: the caller's notices, read and unread, paged. */
export async function myNotices(app: FastifyInstance, caller: CurrentUser, query: z.infer<typeof myNoticeQuery>): Promise<Page<UserNotice>> {
  await ensureEveryoneRows(app, caller);
  let base = visibleNotices(app, caller);
  if (query.titile) base = base.where(contains('a.titile', query.titile));
  if (query.msgCategory) base = base.where('a.msg_category', '=', query.msgCategory);
  if (query.readFlag) base = base.where('s.read_flag', '=', Number(query.readFlag));
  const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  const total = Number(counted?.n ?? 0);
  const rows = await base
    .select(noticeColumns)
    .orderBy('s.read_flag')
    .orderBy('a.send_time', 'desc')
    .orderBy('a.id')
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize)
    .execute();
  return pageOf(rows.map((r) => toNotice(r as NoticeRow)), total, query.pageNo, query.pageSize);
}

/** queryById: administrators see any announcement; anyone else only one they received (with their read flag). */
export async function announcementForCaller(app: FastifyInstance, caller: CurrentUser, id: string): Promise<Announcement> {
  if (caller.permissions.has(AnnouncementPerm.list)) return toAnnouncement(await findLive(app, caller, id));
  await ensureEveryoneRows(app, caller);
  const notice = await visibleNotices(app, caller).select('s.read_flag').where('a.id', '=', id).executeTakeFirst();
  if (!notice) refuse('crud.notFound');
  return toAnnouncement(await findLive(app, caller, id), Number(notice.read_flag) === 1 ? 1 : 0);
}

/** editByAnntIdAndUserId: the caller has read this notice. */
export async function markNoticeRead(app: FastifyInstance, caller: CurrentUser, anntId: string): Promise<void> {
  await ensureEveryoneRows(app, caller);
  const notice = await visibleNotices(app, caller).select('s.id').where('a.id', '=', anntId).executeTakeFirst();
  if (!notice) refuse('crud.notFound');
  await app.db.updateTable('sys_announcement_send').set({ read_flag: 1, read_time: nowIso(app), update_by: caller.username, update_time: nowIso(app) }).where('id', '=', notice.id).where('read_flag', '=', 0).execute();
  // the caller's other open consoles refresh their bells too
  await app.realtime.sendToUser(caller.id, { cmd: RealtimeCmd.user, msgId: anntId, data: { action: 'read' } });
}

export async function markAllNoticesRead(app: FastifyInstance, caller: CurrentUser): Promise<void> {
  await ensureEveryoneRows(app, caller);
  await tenantScoped(app.db.updateTable('sys_announcement_send'), caller).set({ read_flag: 1, read_time: nowIso(app), update_by: caller.username, update_time: nowIso(app) }).where('user_id', '=', caller.id).where('read_flag', '=', 0).execute();
  await app.realtime.sendToUser(caller.id, { cmd: RealtimeCmd.user, data: { action: 'read' } });
}

/** An in-app message of the message center: a released system message to one user, pushed to their consoles. */
export async function deliverSystemMessage(app: FastifyInstance, by: string, tenantId: string | null, userId: string, title: string, html: string, busId: string): Promise<string> {
  const id = randomUUID();
  const now = nowIso(app);
  await app.db
    .insertInto('sys_announcement')
    .values({
      id,
      titile: title.slice(0, 200),
      msg_content: sanitizeRichText(html),
      msg_abstract: null,
      start_time: null,
      end_time: null,
      sender: by,
      priority: 'L',
      msg_category: MsgCategory.systemMessage,
      msg_type: MsgType.user,
      user_ids: userId,
      send_status: SendStatus.released,
      send_time: now,
      cancel_time: null,
      open_type: null,
      open_page: null,
      bus_id: busId,
      type: 'word',
      theme: null,
      channels: null,
      background_image: null,
      attachments: null,
      video: null,
      del_flag: 0,
      tenant_id: tenantId,
      create_by: by,
      create_time: now,
      update_by: null,
      update_time: null,
    })
    .execute();
  await insertSendRows(app, id, tenantId, [userId], by);
  await app.realtime.sendToUser(userId, { cmd: RealtimeCmd.user, msgId: id, msgTxt: title, data: { action: 'release', msgCategory: MsgCategory.systemMessage } });
  return id;
}
