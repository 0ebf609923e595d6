import { randomUUID } from 'node:crypto';
import { fileExtension, maskCardNo, PEOPLE_PICTURE_MAX_BYTES, UploadKinds, type PalmHand, type PalmHolder } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError, refuse } from './envelope.ts';
import { findStoredFile } from './files.ts';

// People and visitors carry one set of credentials (SPEC section 3): a door card, a picture and palm-vein templates.
// A card reader cannot tell a person's card from a visitor's, so a card number is unique across both within a tenant.

type Values = Record<string, unknown>;

/** The tables of the card holders, each with its card number column. */
const HOLDERS = ['sys_people', 'sys_visitor'] as const;

/** A picture is an uploaded image under 1 MB (SPEC section 9): the stored file is checked, not the client's word. */
export async function checkPicture(app: FastifyInstance, values: Values): Promise<void> {
  const path = values.picture;
  if (typeof path !== 'string' || path === '') return;
  const file = await findStoredFile(app.settings.dataDir, path);
  const image = (UploadKinds.image as readonly string[]).includes(fileExtension(path));
  if (!file || !image) throw new AppError('badRequest', 'upload.badPath');
  if (file.size >= PEOPLE_PICTURE_MAX_BYTES) refuse('people.pictureTooLarge');
}

/**
 * The card number is write-only, so the engine's uniqueness check cannot read it: it is checked here, within the
 * row's tenant, across people and visitors and among deleted rows too (they can be restored). Rows keep its masked
 * form for lists and exports (`cardNoMasked`).
 */
export async function checkCardNo(app: FastifyInstance, values: Values, tenantId: string | null, exceptId: string | null): Promise<void> {
  const cardNo = values.cardNo;
  if (typeof cardNo !== 'string' || cardNo === '') return;
  for (const table of HOLDERS) {
    let query = app.db.selectFrom(table).select('id').where('card_no', '=', cardNo);
    query = tenantId === null ? query.where('tenant_id', 'is', null) : query.where('tenant_id', '=', tenantId);
    if (exceptId) query = query.where('id', '<>', exceptId);
    if (await query.executeTakeFirst()) refuse('duplicate.cardNo');
  }
  values.cardNoMasked = maskCardNo(cardNo);
}

/** Removes the palm-vein templates of card holders (people or visitors, by id) leaving the database. */
export async function removePalmTemplates(trx: Kysely<Database>, holderIds: string[]): Promise<void> {
  if (holderIds.length > 0) await trx.deleteFrom('sys_people_palm').where('people_id', 'in', holderIds).execute();
}

const holderTable = { people: 'sys_people', visitor: 'sys_visitor' } as const;
const flagColumn = { left: 'palm_left', right: 'palm_right' } as const;

/**
 * Stores (or replaces) the palm-vein template of one hand of a person or visitor, inside a transaction the caller
 * holds, and marks that hand registered. Templates are read by the device sync alone: no list, export, log or console
 * message carries them.
 */
export async function writePalmTemplate(trx: Kysely<Database>, now: string, holder: PalmHolder, holderId: string, hand: PalmHand, template: string, by: string): Promise<void> {
  await trx.deleteFrom('sys_people_palm').where('people_id', '=', holderId).where('hand', '=', hand).execute();
  await trx.insertInto('sys_people_palm').values({ id: randomUUID(), people_id: holderId, hand, template, create_by: by, create_time: now, update_by: null, update_time: null }).execute();
  await trx.updateTable(holderTable[holder]).set({ [flagColumn[hand]]: 1, update_by: by, update_time: now }).where('id', '=', holderId).execute();
}
