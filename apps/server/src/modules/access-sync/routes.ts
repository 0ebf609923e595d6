import { accessEventEntity, accessResyncBody, AccessSyncPath, AccessSyncPerm, alignNowBody, deviceEntity, doorEventEntity, syncStatusQuery, SyncStatus, type DeviceSyncStatusRow } from '@isps/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql, type SqlBool } from 'kysely';
import { callerOf } from '../../platform/access.ts';
import { writeCallerLog } from '../../platform/audit-log.ts';
import { registerEntity } from '../../platform/crud/index.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { tenantScoped } from '../../platform/tenancy.ts';

const tags = ['device'];

/**
 * A compare-and-align of one device on demand (the device list's sync button), the access and door events (list,
 * export), and the sync status page: each device's status, and a whole access list queued again on demand.
 */
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

  app.get(
    AccessSyncPath.status,
    { schema: { tags, summary: 'Each device of the tenant with the sync status of its access list', querystring: syncStatusQuery }, config: { permission: AccessSyncPerm.statusView } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { pageNo, pageSize, syncState, deviceName } = request.query;
      let query = tenantScoped(app.db.selectFrom('sys_device'), caller);
      if (syncState) query = query.where('sync_state', '=', syncState);
      if (deviceName) {
        // the name or the serial number contains it ('!' escapes LIKE's wildcards on all three engines)
        const pattern = `%${deviceName.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
        query = query.where((eb) => eb.or([sql<SqlBool>`lower(${eb.ref('device_name')}) like ${pattern} escape '!'`, sql<SqlBool>`lower(${eb.ref('sn')}) like ${pattern} escape '!'`]));
      }
      const total = Number((await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await query
        .select(['id', 'device_name', 'sn', 'online', 'sync_state', 'sync_pending', 'sync_reason', 'sync_aligned_time'])
        // the devices that need a look first: failed, then pending, then the rest by name
        .orderBy((eb) => eb.case().when('sync_state', '=', SyncStatus.failed).then(0).when('sync_state', '=', SyncStatus.pending).then(1).else(2).end())
        .orderBy('device_name')
        .orderBy('id')
        .limit(pageSize)
        .offset((pageNo - 1) * pageSize)
        .execute();
      const records: DeviceSyncStatusRow[] = rows.map((r) => ({
        id: r.id,
        deviceName: r.device_name,
        sn: r.sn,
        online: Number(r.online) === 1,
        syncState: (r.sync_state ?? SyncStatus.inSync) as DeviceSyncStatusRow['syncState'],
        syncPending: Number(r.sync_pending ?? 0),
        syncReason: r.sync_reason ?? null,
        syncAlignedTime: r.sync_aligned_time ?? null,
      }));
      return reply.ok({ records, total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) });
    },
  );

  app.post(
    AccessSyncPath.align,
    { schema: { tags, summary: 'Queue a device’s whole access list again (a clear, then everyone); it waits for an offline device', body: alignNowBody }, config: { permission: AccessSyncPerm.align } },
    async (request, reply) => {
      const caller = callerOf(request);
      // only a device of the caller's tenant
      const device = await app.crudEntities.get('sys_device')?.findById(caller, request.body.id);
      if (!device) throw new AppError('notFound', 'crud.notFound');
      await app.accessSync.alignNow(device.id as string);
      await writeCallerLog(reply, caller, { key: 'log.deviceResynced', params: { entity: deviceEntity.title, name: String(device.device_name), mode: 'full' } });
      return reply.ok(null, Number(device.online) === 1 ? 'device.alignQueued' : 'device.alignQueuedOffline');
    },
  );
};
