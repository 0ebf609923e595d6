/** The answer shape of every API call (DESIGN section 5). */
export interface Envelope<T = unknown> {
  success: boolean;
  message: string;
  code: number;
  result: T;
  timestamp: number;
}

/** A page of list results. */
export interface Page<T> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages: number;
}

/** Envelope `code` values and the HTTP status each travels with. */
export const ResultCode = {
  ok: 200,
  refused: 500,
  badRequest: 400,
  unauthorized: 401,
  forbidden: 510,
  notFound: 404,
  internal: 500,
} as const;

export const HttpStatusFor = {
  ok: 200,
  refused: 200,
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  internal: 500,
} as const;

export type ResultKind = keyof typeof ResultCode;
