import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './envelope.ts';
import { isMultipartUpload } from './uploads.ts';

/** true when a text anywhere in the value holds a NUL character (depth-bounded: bodies are at most 1 MB of JSON) */
function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 20 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((item) => holdsNul(item, depth + 1));
  for (const key in value) {
    if (Object.hasOwn(value, key) && (key.includes('\u0000') || holdsNul((value as Record<string, unknown>)[key], depth + 1))) return true;
  }
  return false;
}

/**
 * No text of this console holds a NUL character, and PostgreSQL refuses to store or compare one: a request carrying
 * one in its path, query or JSON body is bad input (400), not a database failure.
 */
export function refuseNulCharacters(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  if (holdsNul(request.params) || holdsNul(request.query) || (!isMultipartUpload(request) && holdsNul(request.body))) {
    return done(new AppError('badRequest', 'error.badRequest', { detail: 'NUL character' }));
  }
  done();
}
