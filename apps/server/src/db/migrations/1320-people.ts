import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * People (the persons doors and palm-vein readers let through) and their palm-vein templates. The templates sit in a
 * table of their own so that no list, export or log of people can read them; a person row keeps only whether each
 * hand is registered. The full card number is kept for the devices; rows show its masked form.
 */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_people'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('id_card', 'varchar(18)')
    .addColumn('card_no', 'varchar(32)')
    .addColumn('card_no_masked', 'varchar(32)')
    .addColumn('user_no', 'varchar(64)')
    .addColumn('sex', 'integer')
    .addColumn('depart_id', 'varchar(36)')
    .addColumn('picture', 'varchar(255)')
    .addColumn('palm_left', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('palm_right', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('password', 'varchar(255)')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('del_flag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tenant_id', 'varchar(36)')
    .execute();
  await db.schema.createIndex('idx_sys_people_card_no').on('sys_people').columns(['tenant_id', 'card_no']).execute();
  await db.schema.createIndex('idx_sys_people_depart').on('sys_people').column('depart_id').execute();

  await audited(db.schema.createTable('sys_people_palm'))
    .addColumn('people_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('hand', 'varchar(8)', (c) => c.notNull())
    .addColumn('template', 'text', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_people_palm', ['people_id', 'hand'])
    .execute();
}

export const peopleTables: Migration = { up };
