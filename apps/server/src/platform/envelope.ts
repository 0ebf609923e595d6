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
