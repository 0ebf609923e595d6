/**
 * API keys (issue 32): how another system calls the API without a user session. An administrator creates a key for
 * an integration with permission codes (never more than he holds), a tenant and an expiry; the key is shown once and
 * only a peppered hash is kept. The caller sends it in the `X-Api-Key` header. A key acts with its codes as far as
 * its creator still holds them, in its own tenant only; routes that serve a signed-in user's own identity refuse it.
 */
import * as z from 'zod';
import { ID_PATTERN } from './ids.ts';

/** The header a key is sent in (DESIGN section 5). */
export const API_KEY_HEADER = 'X-Api-Key';

export const ApiKeyPath = {
  /** GET: the keys of the caller's tenant (every tenant's for a system administrator), never their secrets */
  list: '/sys/apiKey/list',
  /** POST ApiKeyAddBody: answers the new key with its secret, the only time it is shown */
  add: '/sys/apiKey/add',
  /** PUT { id }: the key is refused from now on */
  revoke: '/sys/apiKey/revoke',
  /** POST ApiKeyRotateBody: a successor key (its secret shown once); the old one is valid until the overlap ends */
  rotate: '/sys/apiKey/rotate',
  /** DELETE ?id=: removes the key's row (it is refused from then on) */
  delete: '/sys/apiKey/delete',
} as const;

export const ApiKeyPerm = {
  list: 'system:apiKey:list',
  add: 'system:apiKey:add',
  revoke: 'system:apiKey:revoke',
  rotate: 'system:apiKey:rotate',
  delete: 'system:apiKey:delete',
} as const;

export const API_KEY_NAME_MAX = 48;
/** A key expires at most this long after it is made. */
export const API_KEY_MAX_LIFETIME_DAYS = 731;
/** A rotated key stays valid beside its successor for this many hours unless the administrator picks another overlap. */
export const API_KEY_DEFAULT_OVERLAP_HOURS = 24;
export const API_KEY_MAX_OVERLAP_HOURS = 7 * 24;
/** The most permission codes one key holds. */
export const API_KEY_MAX_CODES = 500;

export const apiKeyAddBody = z.object({
  name: z.string().trim().min(1).max(API_KEY_NAME_MAX),
  tenantId: z.string().regex(ID_PATTERN),
  permCodes: z.array(z.string().min(1).max(100)).min(1).max(API_KEY_MAX_CODES),
  /** `yyyy-MM-dd HH:mm:ss` (or ISO 8601 with an offset); in the future, at most API_KEY_MAX_LIFETIME_DAYS away */
  expiresAt: z.string().min(1).max(40),
});
export type ApiKeyAddBody = z.infer<typeof apiKeyAddBody>;

export const apiKeyRotateBody = z.object({
  id: z.string().regex(ID_PATTERN),
  overlapHours: z.number().int().min(0).max(API_KEY_MAX_OVERLAP_HOURS).optional(),
});
export type ApiKeyRotateBody = z.infer<typeof apiKeyRotateBody>;

export const apiKeyIdBody = z.object({ id: z.string().regex(ID_PATTERN) });

export const apiKeyListQuery = z.object({
  pageNo: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(10),
  /** part of the key's name */
  name: z.string().max(API_KEY_NAME_MAX).optional(),
});

/** active; overlap: rotated, valid until its overlap ends; superseded: rotated and past it; revoked; expired */
export const API_KEY_STATUSES = ['active', 'overlap', 'superseded', 'revoked', 'expired'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

/** A key as lists show it: never its secret nor its hash. */
export interface ApiKeyRow {
  id: string;
  name: string;
  /** the first part of the key, shown so an administrator recognises which key a caller holds */
  prefix: string;
  tenantId: string;
  tenantName: string | null;
  permCodes: string[];
  permCount: number;
  expiresAt: string;
  revokedAt: string | null;
  /** set on a rotated key: the end of its overlap with its successor */
  validUntil: string | null;
  rotatedFrom: string | null;
  status: ApiKeyStatus;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
  createBy: string | null;
  createTime: string | null;
}

/** What creating or rotating a key answers: the key's row and, this once, the key itself. */
export interface ApiKeyCreated extends ApiKeyRow {
  secret: string;
}
