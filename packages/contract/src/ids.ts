import * as z from 'zod';

/** A record id as every call accepts it: letters, digits, '_' and '-', at most 64 characters. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const idSchema = z.string().regex(ID_PATTERN, { error: 'validation.invalid' });

/** The distinct, non-empty ids of a comma-separated list, in their first order. */
export function splitIds(text: string | null | undefined): string[] {
  return [...new Set((text ?? '').split(',').map((s) => s.trim()).filter(Boolean))];
}
