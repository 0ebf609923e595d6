import {
  HttpStatusFor,
  ResultCode,
  translate,
  type Envelope,
  type Language,
  type MessageKey,
  type ResultKind,
} from '@isps/contract';

export type Params = Record<string, string | number>;

/** An expected failure that becomes an envelope of the given kind; thrown by services and hooks. */
export class AppError extends Error {
  constructor(
    readonly kind: ResultKind,
    readonly key: MessageKey,
    readonly params: Params = {},
  ) {
    super(key);
    this.name = 'AppError';
  }
}

/** A business rule refused the request: HTTP 200, code 500 (DESIGN section 5). */
export function refuse(key: MessageKey, params?: Params): never {
  throw new AppError('refused', key, params);
}

export function envelope<T>(lang: Language, kind: ResultKind, result: T, key: MessageKey, params?: Params): Envelope<T> {
  return {
    success: kind === 'ok',
    message: translate(lang, key, params),
    code: ResultCode[kind],
    result,
    timestamp: Date.now(),
  };
}

export function httpStatusOf(kind: ResultKind): number {
  return HttpStatusFor[kind];
}

/** What fastify sends a JSON answer as. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

const okPrefixes = new Map<Language, string>();

/**
 * The text of `envelope(lang, 'ok', result, 'common.ok')` as it leaves, from the result's JSON (its times already on
 * the wire): the same bytes, without building and serialising the envelope on every answer.
 */
export function okEnvelopeJson(lang: Language, resultJson: string): string {
  let prefix = okPrefixes.get(lang);
  if (prefix === undefined) {
    const head = JSON.stringify({ success: true, message: translate(lang, 'common.ok'), code: ResultCode.ok });
    prefix = `${head.slice(0, -1)},"result":`;
    okPrefixes.set(lang, prefix);
  }
  return `${prefix}${resultJson},"timestamp":${Date.now()}}`;
}
