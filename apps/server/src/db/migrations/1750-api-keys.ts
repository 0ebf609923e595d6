import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';

/**
 * API keys (issue 32): a key is found by its prefix (unique) and checked against a peppered SHA-256 of the whole key;
 * its permission codes are a JSON list. When a key is used is kept in a table of its own, so that writing it (at most
 * once a minute per key) does not empty every instance's cache of the keys themselves.
 */
async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_api_key'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('key_prefix', 'varchar(32)', (c) => c.notNull())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('tenant_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('perm_codes', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(32)')
    .addColumn('valid_until', 'varchar(32)')
    .addColumn('rotated_from', 'varchar(36)')
    .addColumn('created_by_id', 'varchar(36)', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_api_key_prefix', ['key_prefix'])
    .execute();
  await db.schema.createIndex('idx_sys_api_key_tenant').on('sys_api_key').columns(['tenant_id', 'create_time']).execute();
  await audited(db.schema.createTable('sys_api_key_use'))
    .addColumn('last_used_at', 'varchar(32)')
    .addColumn('last_used_ip', 'varchar(64)')
    .execute();
}

export const apiKeyTables: Migration = { up };
