import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DeviceAuditStatus } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** A new device key: 32 random bytes, base64url. Shown once, when its activation code is approved. */
export function issueDeviceKey(): { key: string; hash: string } {
  const key = randomBytes(32).toString('base64url');
  return { key, hash: hashDeviceKey(key) };
}

export function hashDeviceKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented key with a stored hash (both hashed to the same length first). */
export function deviceKeyMatches(presented: string, storedHash: string): boolean {
  const expected = Buffer.from(storedHash, 'hex');
  const actual = createHash('sha256').update(presented, 'utf8').digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** The device code that lets `sn` connect with `key`: approved, with a key issued, and that key presented. */
export async function approvedDeviceCode(db: Kysely<Database>, sn: string, key: string): Promise<{ id: string; tenantId: string | null } | null> {
  const code = await db
    .selectFrom('sys_device_code')
    .select(['id', 'tenant_id', 'device_key_hash', 'audit_status', 'previous_key_hash', 'previous_key_until'])
    .where('sn', '=', sn)
    .executeTakeFirst();
  if (!code || code.audit_status !== DeviceAuditStatus.agree || !code.device_key_hash) {
    // the same work either way, so a missing code answers no faster than a wrong key
    deviceKeyMatches(key, '0'.repeat(64));
    return null;
  }
  // a rotated-out key works until the device acknowledged the new one, at most until its grace ends
  const previousValid = code.previous_key_hash !== null && code.previous_key_until !== null && code.previous_key_until > new Date().toISOString();
  const matches = deviceKeyMatches(key, code.device_key_hash) || (previousValid && deviceKeyMatches(key, code.previous_key_hash!));
  return matches ? { id: code.id, tenantId: code.tenant_id } : null;
}
