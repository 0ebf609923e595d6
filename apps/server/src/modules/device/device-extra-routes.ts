import { alarmPackageEntity, DEVICE_PACKAGE_MAX_BYTES, devicePluginEntity, pluginDataEntity } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerEntity } from '../../platform/crud/index.ts';
import { AppError } from '../../platform/envelope.ts';
import { findStoredFile } from '../../platform/files.ts';

/** A plugin's or alarm package's file names an uploaded file of at most DEVICE_PACKAGE_MAX_BYTES: the stored file is checked, not the client's word. */
function checkPackageFile(app: FastifyInstance, field: string) {
  return async (_ctx: unknown, values: Record<string, unknown>) => {
    const path = values[field];
    if (typeof path !== 'string' || path === '') return;
    const file = await findStoredFile(app.settings.dataDir, path);
    if (!file) throw new AppError('badRequest', 'upload.badPath');
    if (file.size > DEVICE_PACKAGE_MAX_BYTES) throw new AppError('badRequest', 'upload.tooLarge', { max: DEVICE_PACKAGE_MAX_BYTES / 1024 / 1024 });
  };
}

/** Device plugins, plugin data and alarm packages: declarations on the CRUD engine (log files: log-file-routes.ts). */
export const deviceExtraRoutes: FastifyPluginAsyncZod = async (app) => {
  const pluginFile = checkPackageFile(app, 'pluginFile');
  registerEntity(app, devicePluginEntity, { beforeAdd: pluginFile, beforeEdit: pluginFile });
  registerEntity(app, pluginDataEntity, {});
  const packageFile = checkPackageFile(app, 'packageFile');
  registerEntity(app, alarmPackageEntity, { beforeAdd: packageFile, beforeEdit: packageFile });
};
