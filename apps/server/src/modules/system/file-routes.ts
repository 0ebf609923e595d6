import send from '@fastify/send';
import { z } from 'zod';
import { FilePath } from '@isps/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, envelope } from '../../platform/envelope.ts';
import { contentDisposition, findStoredFile, storeUpload, uploadRoot } from '../../platform/files.ts';

const tags = ['system'];

/** Upload and read back files (announcement images, attachments, videos). */
export const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    FilePath.upload,
    {
      schema: { tags, summary: 'Upload one file (multipart field `file`, optional `biz` sub-folder before it); message and result are its stored path' },
      config: { permission: 'authenticated' },
    },
    async (request, reply) => {
      const part = request.isMultipart() ? await request.file() : undefined;
      if (!part) throw new AppError('badRequest', 'upload.noFile');
      const biz = part.fields.biz;
      const folder = biz && !Array.isArray(biz) && biz.type === 'field' ? String(biz.value) : undefined;
      const stored = await storeUpload(app.settings.dataDir, part, folder, app.clock());
      return { ...reply.ok(stored), message: stored };
    },
  );

  app.get(
    FilePath.static,
    {
      schema: { tags, summary: 'A stored file, by the path its upload answered', params: z.object({ '*': z.string().max(400) }) },
      // An <img src> in announcement HTML cannot send the X-Access-Token header, so reading is public. What keeps
      // files private is that a stored name carries 128 random bits (see storeUpload) and nothing lists a folder:
      // only someone who was shown the path can fetch it, as with the announcement that links it.
      config: { permission: 'public' },
    },
    async (request, reply) => {
      const stored = request.params['*'];
      const file = await findStoredFile(app.settings.dataDir, stored);
      if (!file) throw new AppError('notFound', 'error.notFound');
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
