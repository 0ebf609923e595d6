import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The person a device's event names (a cabinet opening, a key taken): by id when the device gave one of its tenant,
 * else the holder of the card shown, else the person of the user number given (a punch); null when none is a person of
 * the device's tenant.
 */
export async function personOfEvent(db: Kysely<Database>, device: { tenantId: string | null }, data: { peopleId?: string | undefined; cardNo?: string | undefined; userNo?: string | undefined }): Promise<string | null> {
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
  if (data.userNo) {
    const person = await people().where('user_no', '=', data.userNo).executeTakeFirst();
    if (person) return person.id;
  }
  return null;
}

/**
 * The card holders of a device's tenant among `cards`, by card number: people, and visitors (SPEC section 3: a visitor
 * carries a card as a person does, and the two never share a number within a tenant).
 */
export async function cardHoldersOf(db: Kysely<Database>, tenantId: string | null, cards: readonly string[]): Promise<Map<string, string>> {
  const holders = new Map<string, string>();
  if (cards.length === 0) return holders;
  for (const table of ['sys_visitor', 'sys_people'] as const) {
    let query = db.selectFrom(table).select(['id', 'card_no']).where('card_no', 'in', [...cards]).where('del_flag', '=', 0);
    query = tenantId === null ? query.where('tenant_id', 'is', null) : query.where('tenant_id', '=', tenantId);
    for (const p of await query.execute()) if (p.card_no) holders.set(p.card_no, p.id);
  }
  return holders;
}

/** The visitor a device's event names (by id, else by the card shown), of the device's tenant; null when none. */
export async function visitorOfEvent(db: Kysely<Database>, device: { tenantId: string | null }, data: { peopleId?: unknown; cardNo?: unknown }): Promise<string | null> {
  let query = db.selectFrom('sys_visitor').select('id').where('del_flag', '=', 0);
  query = device.tenantId === null ? query.where('tenant_id', 'is', null) : query.where('tenant_id', '=', device.tenantId);
  if (typeof data.peopleId === 'string' && data.peopleId !== '') {
    const visitor = await query.where('id', '=', data.peopleId).executeTakeFirst();
    if (visitor) return visitor.id;
  }
  if (typeof data.cardNo === 'string' && data.cardNo !== '' && data.cardNo.length <= 32) {
    const visitor = await query.where('card_no', '=', data.cardNo).executeTakeFirst();
    if (visitor) return visitor.id;
  }
  return null;
}
