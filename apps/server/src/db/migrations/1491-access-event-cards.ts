import type { Migration } from 'kysely';
import type { AnyDb } from './table-helpers.ts';

/**
 * The card an access event names, masked (an unknown or refused card too), and no whole card number left in the stored
 * device events: those of earlier releases are masked where they are (last four characters kept).
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_access_event').addColumn('card_no_masked', 'varchar(32)').execute();
  // the mask of this release written out: a migration does not change with the code
  const stored = await db.selectFrom('sys_device_event').select(['id', 'payload']).where('payload', 'like', '%"cardNo"%').execute();
  for (const row of stored as Array<{ id: string; payload: string | null }>) {
    const data = JSON.parse(row.payload ?? '{}') as Record<string, unknown>;
    if (typeof data.cardNo !== 'string') continue;
    const cardNo = data.cardNo;
    data.cardNo = `${'*'.repeat(Math.max(0, cardNo.length - 4))}${cardNo.slice(-4)}`;
    await db.updateTable('sys_device_event').set({ payload: JSON.stringify(data) }).where('id', '=', row.id).execute();
  }
}

export const accessEventCards: Migration = { up };
