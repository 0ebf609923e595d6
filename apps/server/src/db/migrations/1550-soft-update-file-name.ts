import type { Migration } from 'kysely';
import type { AnyDb } from './table-helpers.ts';

/** The stored name is `<32 hex>_<the uploaded name, made safe>` (platform/files.ts storeUpload). */
const STORED_NAME = /^[0-9a-f]{32}_(.+)$/;

/**
 * A software package's list shows the name of the file a person uploaded, not where the server keeps it. Packages
 * uploaded before this release get the name their stored file was given from it.
 */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_soft_update').addColumn('file_name', 'varchar(255)').execute();
  const rows = await db.selectFrom('sys_soft_update').select(['id', 'apk_file']).execute();
  for (const row of rows) {
    const base = String(row.apk_file).split('/').pop() ?? '';
    await db.updateTable('sys_soft_update').set({ file_name: STORED_NAME.exec(base)?.[1] ?? base }).where('id', '=', row.id).execute();
  }
}

export const softUpdateFileName: Migration = { up };
