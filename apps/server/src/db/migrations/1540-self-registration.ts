import type { Migration } from 'kysely';
import type { AnyDb } from './table-helpers.ts';

/**
 * Each tenant's self-registration on the login page: 0 off (every tenant, existing ones included: strangers never
 * get in unasked), 1 open, 2 with an administrator's approval.
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_tenant').addColumn('self_register', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export const selfRegistration: Migration = { up };
