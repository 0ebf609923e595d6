import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { refuse } from '../../platform/envelope.ts';

/*
 * A serial number belongs to the tenant whose device code names it (one code per serial number, whatever the tenant).
 * The gateway gives a connecting device only to the row of its code's tenant (gateway.ts, deviceOf): a row of another
 * tenant holding the number would never get the device, and is refused here so the operator is told why.
 */

/** Refuses a device row in `tenantId` (added, imported, edited or moved) for a serial number another tenant's code names. */
export async function refuseSerialNumberOfOtherTenant(db: Kysely<Database>, sn: string, tenantId: string | null): Promise<void> {
  const code = await db.selectFrom('sys_device_code').select('tenant_id').where('sn', '=', sn).executeTakeFirst();
  if (code && code.tenant_id !== tenantId) refuse('device.snOfOtherTenant');
}

/** Refuses a device code in `tenantId` for a serial number a device row of another tenant holds: the code would never reach it. */
export async function refuseCodeForOtherTenantsDevice(db: Kysely<Database>, sn: string, tenantId: string | null): Promise<void> {
  const row = await db.selectFrom('sys_device').select('tenant_id').where('sn', '=', sn).executeTakeFirst();
  if (row && row.tenant_id !== tenantId) refuse('deviceCode.snOfOtherTenant');
}
