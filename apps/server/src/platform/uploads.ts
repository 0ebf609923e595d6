import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ANNOUNCEMENT_UPLOAD_BIZ, AnnouncementPerm, UPLOAD_MAX_BYTES, entityDeclarations, permissionCode, userEntity } from '@isps/contract';
import type { CurrentUser } from './access.ts';
import { AppError, envelope, refuse } from './envelope.ts';

/** Spreadsheet imports and uploads: one file per request, bounded. */
const UPLOAD_LIMITS = { files: 1, fileSize: UPLOAD_MAX_BYTES, fields: 10 };

/**
 * Registers routes that read a multipart body (uploads, imports) in a context of their own with @fastify/multipart:
 * its body parser, request helpers and the hooks it runs around each request belong to these routes only, so every
 * other request (a dictionary, a list) goes without them. Elsewhere a multipart body is refused as an unsupported type.
 */
export function uploadRoutes<App extends FastifyInstance>(app: App, routes: (uploads: App) => void): void {
  app.register(async (uploads) => {
    await uploads.register(multipart, { limits: UPLOAD_LIMITS });
    routes(uploads as unknown as App);
  });
}

/** Whether the request is a multipart upload to one of those routes (false on every other route). */
export function isMultipartUpload(request: FastifyRequest): boolean {
  // the request helper exists only in the contexts of uploadRoutes
  return typeof (request as { isMultipart?: unknown }).isMultipart === 'function' && request.isMultipart();
}

/** Rich-text editors' images: the announcement editor here, the origin's JEditor (`jeditor`). */
const EDITOR_PURPOSES = [ANNOUNCEMENT_UPLOAD_BIZ, 'jeditor'];
/** The console's form fields that take a file (a device's floor image, a person's picture, a plugin's file, …). */
const FORM_FIELD_PURPOSE = 'device';

/** Who may add or edit the rows of the declared entities with an image or file field: a form upload is for them. */
function formFieldUploaders(): string[] {
  const takesFile = entityDeclarations.filter((e) => Object.values(e.fields).some((f) => f.widget?.kind === 'image' || f.widget?.kind === 'file'));
  return takesFile.flatMap((e) => [permissionCode(e, 'add'), permissionCode(e, 'edit')]);
}

/**
 * The permissions that justify an upload for a purpose (the origin's `biz` field, DESIGN section 5): an editor's
 * image needs the announcement editing ones, a form field's file those of the forms that take files, and any other
 * folder (the origin's default `temp`, an avatar) one of them or the user editing ones.
 */
export function uploadPurposeCodes(biz: string): string[] {
  const editors = [AnnouncementPerm.add, AnnouncementPerm.edit];
  if (EDITOR_PURPOSES.includes(biz)) return editors;
  if (biz === FORM_FIELD_PURPOSE) return formFieldUploaders();
  return [...editors, ...formFieldUploaders(), permissionCode(userEntity, 'add'), permissionCode(userEntity, 'edit')];
}

/** Refuses a caller who holds none of the permissions of the upload's purpose. */
export function checkUploadPurpose(caller: CurrentUser, biz: string): void {
  if (!uploadPurposeCodes(biz).some((code) => caller.permissions.has(code))) throw new AppError('forbidden', 'upload.purposeRefused', { biz });
}

const RATE_WINDOW_MS = 60_000;
/** check-and-count of one user's window, one at a time on this instance (the cache has no atomic increment) */
const rateTurns = new Map<string, Promise<unknown>>();

/**
 * Counts an upload against its user's limits per minute (files, and bytes as the request declares them, the most
 * a file may be otherwise) in the shared cache, so the limits hold across instances. False when over them.
 */
export async function countUpload(app: FastifyInstance, request: FastifyRequest, caller: CurrentUser, maxBytes = UPLOAD_MAX_BYTES): Promise<boolean> {
  const { perMinute, mbPerMinute } = app.settings.uploads;
  const key = `upload-rate:${caller.id}`;
  const declared = Number(request.headers['content-length']);
  const bytes = Number.isFinite(declared) && declared > 0 ? declared : maxBytes;
  const turn = (rateTurns.get(key) ?? Promise.resolve()).then(async () => {
    const now = app.clock();
    const raw = await app.cache.get(key);
    const stored = raw ? (JSON.parse(raw) as { count: number; bytes: number; since: number }) : null;
    const window = stored && now - stored.since < RATE_WINDOW_MS ? stored : { count: 0, bytes: 0, since: now };
    if (window.count >= perMinute || window.bytes + bytes > mbPerMinute * 1024 * 1024) return false;
    await app.cache.set(key, JSON.stringify({ count: window.count + 1, bytes: window.bytes + bytes, since: window.since }), window.since + RATE_WINDOW_MS - now);
    return true;
  });
  const settled = turn.catch(() => false);
  rateTurns.set(key, settled);
  void settled.then(() => rateTurns.get(key) === settled && rateTurns.delete(key));
  return turn;
}

/** The answer to an upload over its user's rate: 429, as the other rate limits answer. */
export function tooManyUploads(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { perMinute, mbPerMinute } = app.settings.uploads;
  return reply.code(429).send({ ...envelope(request.lang, 'badRequest', null, 'upload.tooManyUploads', { count: perMinute, mb: mbPerMinute }), code: 429 });
}

/** The bytes a tenant keeps: its uploads and its software packages. */
export async function tenantStoredBytes(app: FastifyInstance, tenantId: string | null): Promise<number> {
  const sum = async (table: 'sys_file' | 'sys_soft_update') => {
    const row = await app.db
      .selectFrom(table)
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('file_size'), eb.val(0)).as('bytes'))
      .where((eb) => (tenantId === null ? eb('tenant_id', 'is', null) : eb('tenant_id', '=', tenantId)))
      .executeTakeFirst();
    return Number(row?.bytes ?? 0);
  };
  return (await sum('sys_file')) + (await sum('sys_soft_update'));
}

/** Refuses a file of `bytes` that would take its tenant past its storage quota (TENANT_UPLOAD_QUOTA_MB). */
export async function checkTenantQuota(app: FastifyInstance, tenantId: string | null, bytes: number): Promise<void> {
  const quota = app.settings.uploads.tenantQuotaMb * 1024 * 1024;
  const used = await tenantStoredBytes(app, tenantId);
  const mb = (n: number) => Math.ceil(n / 1024 / 1024);
  if (used + bytes > quota) refuse('upload.quotaExceeded', { used: mb(used), quota: mb(quota) });
}
