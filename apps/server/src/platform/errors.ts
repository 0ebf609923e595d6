import fp from 'fastify-plugin';
import { UPLOAD_MAX_BYTES } from '@isps/contract';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { FastifyError } from 'fastify';
import { isDatabaseUnreachable } from '../db/database.ts';
import { AppError, envelope, httpStatusOf } from './envelope.ts';
import { isMultipartUpload } from './uploads.ts';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
}

function describeValidation(context: string | undefined, issues: ValidationIssue[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => {
      const path = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
      return `${context ?? 'request'}${path ? `.${path}` : ''}: ${issue.message ?? 'invalid'}`;
    })
    .join('; ');
}

/** Maps every failure to the envelope of DESIGN section 5; internals are logged, never answered. */
export const errorsPlugin = fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
      const lang = request.lang;
      if (error instanceof AppError) {
        return reply.status(httpStatusOf(error.kind)).send(envelope(lang, error.kind, null, error.key, error.params));
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const detail = describeValidation(error.validationContext, error.validation);
        return reply.status(400).send(envelope(lang, 'badRequest', null, 'error.badRequest', { detail }));
      }
      const status = error.statusCode ?? 500;
      if (status === 429) {
        return reply.status(429).send({ ...envelope(lang, 'badRequest', null, 'error.tooManyRequests'), code: 429 });
      }
      if (error.code === 'FST_REQ_FILE_TOO_LARGE') {
        return reply.status(400).send(envelope(lang, 'badRequest', null, 'upload.tooLarge', { max: UPLOAD_MAX_BYTES / 1024 / 1024 }));
      }
      // busboy's own failures (a truncated or malformed multipart body) carry no status: bad input, not a fault
      if (error.statusCode === undefined && isMultipartUpload(request) && /multipart|boundary/i.test(error.message)) {
        return reply.status(400).send(envelope(lang, 'badRequest', null, 'upload.malformed'));
      }
      if (status >= 400 && status < 500) {
        const detail = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? 'malformed JSON body' : (error.code ?? 'invalid request');
        return reply.status(400).send(envelope(lang, 'badRequest', null, 'error.badRequest', { detail }));
      }
      if (isDatabaseUnreachable(error)) {
        request.log.warn({ err: error, reqId: request.id }, 'database unreachable');
        return reply.status(503).send({ ...envelope(lang, 'internal', null, 'error.serviceUnavailable'), code: 503 });
      }
      request.log.error({ err: error, reqId: request.id }, 'unexpected failure');
      return reply.status(500).send(envelope(lang, 'internal', null, 'error.internal', { requestId: request.id }));
    });

    app.setNotFoundHandler((request, reply) => {
      return reply.status(404).send(envelope(request.lang, 'notFound', null, 'error.notFound'));
    });
  },
  { name: 'errors', dependencies: ['i18n'] },
);
