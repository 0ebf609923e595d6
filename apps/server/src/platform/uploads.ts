import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UPLOAD_MAX_BYTES } from '@isps/contract';

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
