import { randomUUID } from 'node:crypto';
import { seededDictionaries } from '@isps/contract';
import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * Visitors ask for visits (issue 30): a visit has a state (dictionary visit_state: requested, approved, refused; visits
 * stored before, and those staff make, are approved) and the reason of a refusal; visitors, who have no console inbox,
 * get their own messages (the host's decisions), stored as message keys and parameters so each is read in the
 * reader's language.
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_visit').addColumn('state', 'varchar(16)', (c) => c.notNull().defaultTo('approved')).execute();
  await db.schema.alterTable('sys_visit').addColumn('refuse_reason', 'varchar(500)').execute();
  await db.schema.createIndex('idx_sys_visit_state').on('sys_visit').columns(['tenant_id', 'state']).execute();

  await audited(db.schema.createTable('sys_visitor_message'))
    .addColumn('visitor_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('visit_id', 'varchar(36)')
    .addColumn('title_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('body_key', 'varchar(64)', (c) => c.notNull())
    // the parameters of both texts, as JSON (names, times, doors, a reason up to 500 characters)
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('read_flag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_visitor_message_visitor').on('sys_visitor_message').columns(['visitor_id', 'create_time']).execute();

  // an installed console gets the dictionary a fresh one seeds (a fresh database is seeded after the migrations)
  const seeded = await db.selectFrom('sys_user').select('id').limit(1).executeTakeFirst();
  if (!seeded) return;
  const declared = seededDictionaries.find((d) => d.code === 'visit_state');
  if (!declared || (await db.selectFrom('sys_dict').select('id').where('dict_code', '=', declared.code).executeTakeFirst())) return;
  const audit = { create_by: 'system', create_time: new Date().toISOString(), update_by: null, update_time: null };
  const dictId = randomUUID();
  await db.insertInto('sys_dict').values({ ...audit, id: dictId, dict_name: declared.name, dict_code: declared.code, description: declared.name, del_flag: 0 }).execute();
  for (const [index, [value, text]] of declared.items.entries()) {
    await db.insertInto('sys_dict_item').values({ ...audit, id: randomUUID(), dict_id: dictId, item_text: text, item_value: value, description: null, sort_order: index + 1, status: 1 }).execute();
  }
}

export const visitRequestTables: Migration = { up };
