import type { PalmHand } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { writePalmTemplate } from '../../platform/person-credentials.ts';

/**
 * Stores (or replaces) the palm-vein template of one hand of a person and marks that hand registered. Templates are
 * read by the device sync alone: no list, export, log or console message carries them.
 */
export async function storePalmTemplate(app: FastifyInstance, peopleId: string, hand: PalmHand, template: string, by: string): Promise<void> {
  await app.db.transaction().execute((trx) => writePalmTemplate(trx, new Date(app.clock()).toISOString(), 'people', peopleId, hand, template, by));
}
