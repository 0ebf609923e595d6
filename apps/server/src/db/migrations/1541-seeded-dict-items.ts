import { seededDictionaries } from '@isps/contract';
import { randomUUID } from 'node:crypto';
import type { Migration } from 'kysely';
import type { AnyDb } from './table-helpers.ts';

/** Dictionaries and items this release seeds: status 3 "awaiting approval" of users, and the ID types. */
const ADDED: ReadonlyArray<{ code: string; values: readonly string[] }> = [
  { code: 'user_status', values: ['3'] },
  { code: 'id_type', values: ['1', '2', '3'] },
];

/**
 * An installed console gets what a fresh one seeds . Rows carry the seed's author, so they are shown in the reader's language.
 */
async function up(db: AnyDb): Promise<void> {
  // a fresh database has no users yet: the seed writes every dictionary after the migrations (0002 added some of its own)
  const seeded = await db.selectFrom('sys_user').select('id').limit(1).executeTakeFirst();
  if (!seeded) return;
  const now = new Date().toISOString();
  const audit = { create_by: 'system', create_time: now, update_by: null, update_time: null };
  for (const added of ADDED) {
    const declared = seededDictionaries.find((d) => d.code === added.code);
    if (!declared) continue;
    let dict = await db.selectFrom('sys_dict').select('id').where('dict_code', '=', added.code).executeTakeFirst();
    if (!dict) {
      dict = { id: randomUUID() };
      await db.insertInto('sys_dict').values({ ...audit, id: dict.id, dict_name: declared.name, dict_code: declared.code, description: declared.name, del_flag: 0 }).execute();
    }
    const present = new Set((await db.selectFrom('sys_dict_item').select('item_value').where('dict_id', '=', dict.id).execute()).map((r) => String(r.item_value)));
    for (const value of added.values) {
      const index = declared.items.findIndex(([v]) => v === value);
      const item = declared.items[index];
      if (!item || present.has(value)) continue;
      await db
        .insertInto('sys_dict_item')
        .values({ ...audit, id: randomUUID(), dict_id: dict.id, item_text: item[1], item_value: value, description: null, sort_order: index + 1, status: 1 })
        .execute();
    }
  }
}

export const seededDictItems: Migration = { up };
