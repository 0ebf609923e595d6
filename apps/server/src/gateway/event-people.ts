import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The person a device's event names (a cabinet opening, a key taken): by id when the device gave one of its tenant,
 * else the holder of the card shown; null when neither is a person of the device's tenant.
 */
export async function personOfEvent(db: Kysely<Database>, device: { tenantId: string | null }, data: { peopleId?: string | undefined; cardNo?: string | undefined }): Promise<string | null> {
  const people = () => {
    const query = db.selectFrom('sys_people').select('id').where('del_flag', '=', 0);
    return device.tenantId === null ? query.where('tenant_id', 'is', null) : query.where('tenant_id', '=', device.tenantId);
  };
  if (data.peopleId) {
    const person = await people().where('id', '=', data.peopleId).executeTakeFirst();
    if (person) return person.id;
  }
  if (data.cardNo) {
    const person = await people().where('card_no', '=', data.cardNo).executeTakeFirst();
    if (person) return person.id;
  }
  return null;
}
