import type { FastifyInstance } from 'fastify';
import { removeStoredFile } from '../files.ts';
import type { CrudContext } from './index.ts';

/**
 * Hooks of an entity whose rows name a stored file (`file_path`): deleting rows removes their stored files once the
 * delete is committed, and the rows of `alsoFrom` that name the same files (a device log is a stored file too).
 */
export function storedFileDeleteHooks(app: FastifyInstance, alsoFrom: 'sys_file' | 'sys_device_log_file') {
  // the stored paths of the rows being deleted, removed from storage once the delete is committed
  const leaving = new WeakMap<CrudContext, string[]>();
  return {
    beforeDelete: (ctx: CrudContext, rows: readonly Record<string, unknown>[]) => {
      leaving.set(ctx, rows.map((r) => String(r.file_path ?? '')).filter((p) => p !== ''));
    },
    afterChange: async (ctx: CrudContext) => {
      const paths = leaving.get(ctx);
      if (!paths || paths.length === 0) return;
      leaving.delete(ctx);
      await app.db.deleteFrom(alsoFrom).where('file_path', 'in', paths).execute();
      for (const path of paths) await removeStoredFile(app.settings.dataDir, path);
    },
  };
}
