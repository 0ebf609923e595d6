import send from '@fastify/send';
import * as z from 'zod';
import { DEFAULT_UPLOAD_BIZ, FilePath, fileStorageEntity } from '@isps/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import { callerOf, optionalCaller } from '../../platform/access.ts';
import { registerEntity } from '../../platform/crud/index.ts';
import { storedFileDeleteHooks } from '../../platform/crud/stored-file-hooks.ts';
import { AppError, envelope } from '../../platform/envelope.ts';
import { tenantScoped, writeTenant } from '../../platform/tenancy.ts';
import { contentDisposition, findStoredFile, storedFileColumns, storeUpload, uploadRoot } from '../../platform/files.ts';
import { checkTenantQuota, checkUploadPurpose, countUpload, tooManyUploads, uploadRoutes } from '../../platform/uploads.ts';

const tags = ['system'];
const uploadListQuery = z.object({ pageNo: z.coerce.number().int().min(1).default(1), pageSize: z.coerce.number().int().min(1).max(200).default(10) });

/** Upload and read back files (announcement images, attachments, videos). */
export const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  // the file storage list: deleting a row removes the stored file, and the device log file naming it
  registerEntity(app, fileStorageEntity, storedFileDeleteHooks(app, 'sys_device_log_file'));

  uploadRoutes(app, (uploads) => {
    uploads.post(
      FilePath.upload,
      {
        schema: { tags, summary: 'Upload one file (multipart field `file`, optional `biz` purpose and sub-folder before it); message and result are its stored path. Needs a permission of its purpose; limited per user a minute and per tenant in storage' },
        config: { permission: 'authenticated' },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        if (!(await countUpload(app, request, caller))) return tooManyUploads(app, request, reply);
        const part = request.isMultipart() ? await request.file() : undefined;
        if (!part) throw new AppError('badRequest', 'upload.noFile');
        const biz = part.fields.biz;
        const folder = biz && !Array.isArray(biz) && biz.type === 'field' ? String(biz.value) : undefined;
        try {
          checkUploadPurpose(caller, folder?.trim() || DEFAULT_UPLOAD_BIZ);
        } catch (error) {
          part.file.resume();
          throw error;
        }
        // every upload belongs to the tenant it was uploaded in, and counts against its storage
        const tenantId = writeTenant(caller);
        let size = 0;
        const stored = await storeUpload(app.settings.dataDir, part, folder, app.clock(), {
          admit: async (bytes) => {
            await checkTenantQuota(app, tenantId, bytes);
            size = bytes;
          },
        });
        await app.db
          .insertInto('sys_file')
          .values({ id: randomUUID(), file_path: stored, ...storedFileColumns(stored, part.filename), file_size: size, tenant_id: tenantId, create_by: caller.username, create_time: new Date(app.clock()).toISOString(), update_by: null, update_time: null })
          .execute();
        return { ...reply.ok(stored), message: stored };
      },
    );
  });

  app.get(
    FilePath.list,
    { schema: { tags, summary: 'Uploads of the caller\'s tenant, recent first', querystring: uploadListQuery }, config: { permission: 'authenticated' } },
    async (request, reply) => {
      const { pageNo, pageSize } = request.query;
      const base = tenantScoped(app.db.selectFrom('sys_file'), callerOf(request));
      const counted = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
      const total = Number(counted?.n ?? 0);
      const rows = await base.select(['id', 'file_path', 'create_by', 'create_time']).orderBy('create_time', 'desc').orderBy('id').limit(pageSize).offset((pageNo - 1) * pageSize).execute();
      const records = rows.map((r) => ({ id: r.id, filePath: r.file_path, createBy: r.create_by, createTime: r.create_time }));
      return reply.ok({ records, total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) });
    },
  );

  app.get(
    FilePath.static,
    {
      exposeHeadRoute: true,
      schema: { tags, summary: 'A stored file, by the path its upload answered', params: z.object({ '*': z.string().max(400) }) },
      // An <img src> in announcement HTML cannot send the X-Access-Token header, so reading is public. What keeps
      // files private is that a stored name carries 128 random bits (see storeUpload) and the listing shows only the
      // caller's tenant: only someone who was shown the path can fetch it, as with the announcement that links it.
      // A request that does carry a token reads only its tenant's uploads.
      config: { permission: 'public' },
    },
    async (request, reply) => {
      const stored = request.params['*'];
      const file = await findStoredFile(app.settings.dataDir, stored);
      if (!file) throw new AppError('notFound', 'error.notFound');
      const caller = await optionalCaller(app, request);
      if (caller) {
        const recorded = await app.db.selectFrom('sys_file').select('id').where('file_path', '=', stored).executeTakeFirst();
        const mine = recorded && (await tenantScoped(app.db.selectFrom('sys_file'), caller).select('id').where('id', '=', recorded.id).executeTakeFirst());
        // files stored before uploads were recorded stay readable by their path alone
        if (recorded && !mine) throw new AppError('notFound', 'error.notFound');
      }
      // @fastify/send answers byte ranges (206, or 416 with the size), which a video element needs to seek, and
      // conditional requests; the path was checked above and is looked up below the upload folder only
      const answer = await send(request.raw, stored.split('/').map(encodeURIComponent).join('/'), {
        root: uploadRoot(app.settings.dataDir),
        contentType: false,
        cacheControl: false,
        dotfiles: 'deny',
        index: false,
      });
      if (answer.type === 'error') {
        if (answer.statusCode === 404) throw new AppError('notFound', 'error.notFound');
        // a range past the end: the status and Content-Range a player reads, the reason in the envelope
        const range = answer.statusCode === 416 ? { 'content-range': `bytes */${file.size}` } : {};
        const key = answer.statusCode === 416 ? 'upload.rangeNotSatisfiable' : 'error.badRequest';
        const refusal = envelope(request.lang, 'badRequest', null, key, { size: file.size, detail: String(answer.statusCode) });
        return reply.code(answer.statusCode).headers(range).send({ ...refusal, code: answer.statusCode });
      }
      return reply
        .code(answer.statusCode)
        .headers(answer.headers)
        .header('content-type', file.contentType)
        .header('content-disposition', contentDisposition(file))
        .header('x-content-type-options', 'nosniff')
        // a stored name is never reused for other bytes
        .header('cache-control', 'private, max-age=31536000, immutable')
        .send(answer.stream);
    },
  );
};
