import { accessEventEntity, accessResyncBody, AccessSyncPath, AccessSyncPerm, deviceEntity, doorEventEntity } from '@isps/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf } from '../../platform/access.ts';
import { writeCallerLog } from '../../platform/audit-log.ts';
import { registerEntity } from '../../platform/crud/index.ts';
import { AppError, refuse } from '../../platform/envelope.ts';

const tags = ['device'];

/** A compare-and-align of one device on demand (the device list's sync button), and the access events (list, export). */
export const accessSyncRoutes: FastifyPluginAsyncZod = async (app) => {
  registerEntity(app, accessEventEntity);
  registerEntity(app, doorEventEntity);
  app.post(
    AccessSyncPath.resync,
    { schema: { tags, summary: 'Align the people a device holds with its access list', body: accessResyncBody }, config: { permission: AccessSyncPerm.resync } },
    async (request, reply) => {
      const caller = callerOf(request);
      // only a device of the caller's tenant
      const device = await app.crudEntities.get('sys_device')?.findById(caller, request.body.id);
      if (!device) throw new AppError('notFound', 'crud.notFound');
      if (Number(device.online) !== 1) refuse('device.disconnected');
      const commandId = await app.accessSync.resync(device.id as string, request.body.mode);
      await writeCallerLog(reply, caller, { key: 'log.deviceResynced', params: { entity: deviceEntity.title, name: String(device.device_name), mode: request.body.mode ?? String(device.sync_mode ?? 'increment') } });
      return reply.ok({ commandId }, 'device.syncStarted');
    },
  );
};
