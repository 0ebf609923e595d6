import type { Migration } from 'kysely';
import type { AnyDb } from './table-helpers.ts';

/** A stored path `biz/yyyyMMdd/<32 hex>_<name>`: the name after the random part, and its extension. */
function storedNameOf(path: string): { name: string; type: string } {
  const last = path.split('/').pop() ?? path;
  const name = /^[0-9a-f]{32}_/.test(last) ? last.slice(33) : last;
  const dot = name.lastIndexOf('.');
  return { name: name.slice(0, 255), type: dot > 0 ? name.slice(dot + 1).toLowerCase().slice(0, 16) : '' };
}

/** The file storage list (SPEC section 2, 'message'): each stored file's name and type, searched by name. */
async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sys_file').addColumn('file_name', 'varchar(255)').execute();
  await db.schema.alterTable('sys_file').addColumn('file_type', 'varchar(16)').execute();
  const rows = (await db.selectFrom('sys_file').select(['id', 'file_path']).execute()) as Array<{ id: string; file_path: string }>;
  for (const row of rows) {
    const { name, type } = storedNameOf(row.file_path);
    await db.updateTable('sys_file').set({ file_name: name, file_type: type }).where('id', '=', row.id).execute();
  }
}

export const fileNames: Migration = { up };
