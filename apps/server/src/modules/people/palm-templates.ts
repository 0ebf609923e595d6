import { randomUUID } from 'node:crypto';
import type { PalmHand } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

const flagColumn = { left: 'palm_left', right: 'palm_right' } as const;

/**
 * Stores (or replaces) the palm-vein template of one hand of a person and marks that hand registered. Templates are
 * read by the device sync alone: no list, export, log or console message carries them.
 */
export async function storePalmTemplate(app: FastifyInstance, peopleId: string, hand: PalmHand, template: string, by: string): Promise<void> {
  await app.db.transaction().execute((trx) => writePalmTemplate(trx, new Date(app.clock()).toISOString(), peopleId, hand, template, by));
}

/** storePalmTemplate inside a transaction the caller holds (with what else must commit together with it). */
export async function writePalmTemplate(trx: Kysely<Database>, now: string, peopleId: string, hand: PalmHand, template: string, by: string): Promise<void> {
  await trx.deleteFrom('sys_people_palm').where('people_id', '=', peopleId).where('hand', '=', hand).execute();
  await trx.insertInto('sys_people_palm').values({ id: randomUUID(), people_id: peopleId, hand, template, create_by: by, create_time: now, update_by: null, update_time: null }).execute();
  await trx.updateTable('sys_people').set({ [flagColumn[hand]]: 1, update_by: by, update_time: now }).where('id', '=', peopleId).execute();
}

/** Removes the templates of people leaving the database. */
export async function removePalmTemplates(trx: Kysely<Database>, peopleIds: string[]): Promise<void> {
  if (peopleIds.length > 0) await trx.deleteFrom('sys_people_palm').where('people_id', 'in', peopleIds).execute();
}
