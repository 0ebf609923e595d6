import { areaEntity, DEVICE_IMAGE_MAX_BYTES, deviceEntity, DevicePath, deviceTypeEntity, ID_PATTERN, permissionCode, UploadKinds, fileExtension, type CaptureDeviceList } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { callerOf } from '../../platform/access.ts';
import { OperationType, writeCallerLog, writeOperationLog } from '../../platform/audit-log.ts';
import { registerEntity, type CrudContext } from '../../platform/crud/index.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { findStoredFile } from '../../platform/files.ts';
import { writeTenant } from '../../platform/tenancy.ts';
import { refuseSerialNumberOfOtherTenant } from './serial-owner.ts';

const tags = ['device'];

/** A background image is an uploaded image under 1 MB (SPEC section 3): the stored file is checked, not the client's word. */
async function checkBackgroundImage(app: FastifyInstance, values: Record<string, unknown>) {
  const path = values.backgroundImage;
  if (typeof path !== 'string' || path === '') return;
  const file = await findStoredFile(app.settings.dataDir, path);
  const image = (UploadKinds.image as readonly string[]).includes(fileExtension(path));
  if (!file || !image) throw new AppError('badRequest', 'upload.badPath');
  if (file.size >= DEVICE_IMAGE_MAX_BYTES) refuse('device.imageTooLarge');
}
const idQuery = z.object({ id: z.string().regex(ID_PATTERN) });

/** Device types, areas and devices: declarations on the CRUD engine, plus the capture device calls. */
export const deviceEntityRoutes: FastifyPluginAsyncZod = async (app) => {
  registerEntity(app, deviceTypeEntity);

  registerEntity(app, areaEntity, {
    // a device of a deleted area is in no area rather than in one that is gone
    deleteLinked: async (trx, ids) => {
      await trx.updateTable('sys_device').set({ area_id: null }).where('area_id', 'in', ids).execute();
      // its floor plan's places go with it
      await trx.deleteFrom('sys_floor_plan_item').where('area_id', 'in', ids).execute();
    },
  });

  // edits that switch a device's data sync mode, told in the operation log once the edit is stored
  const switchingMode = new WeakMap<CrudContext, { name: string; mode: string }>();
  const devices = registerEntity(app, deviceEntity, {
    beforeAdd: async (ctx, values) => {
      await checkBackgroundImage(app, values);
      await refuseSerialNumberOfOtherTenant(app.db, String(values.sn), (values.tenantId as string | undefined) || writeTenant(ctx.caller));
    },
    beforeEdit: async (ctx, values, existing) => {
      await checkBackgroundImage(app, values);
      const sn = String(values.sn ?? existing.sn);
      const tenantId = (values.tenantId as string | undefined) || ((existing.tenant_id as string | null) ?? null);
      if (sn !== existing.sn || tenantId !== existing.tenant_id) await refuseSerialNumberOfOtherTenant(app.db, sn, tenantId);
      const mode = values.syncMode as string | undefined;
      if (mode !== undefined && mode !== (existing.sync_mode ?? 'increment')) switchingMode.set(ctx, { name: String(values.deviceName ?? existing.device_name), mode });
    },
    afterEdit: async (ctx) => {
      const switched = switchingMode.get(ctx);
      if (!switched) return;
      const { caller, request } = ctx;
      const key = switched.mode === 'full' ? 'log.syncModeFull' : 'log.syncModeIncrement';
      await writeOperationLog(app, { operateType: OperationType.edit, userId: caller.id, username: caller.username, tenantId: caller.tenantScope ?? caller.tenantId, ip: request.ip, content: { key, params: { entity: deviceEntity.title, name: switched.name } }, costMs: 0 });
    },
    // SPEC section 5: deleting a device clears what was allocated on it (its doors with their allocations, its queue)
    deleteLinked: async (trx, ids) => {
      await trx.deleteFrom('sys_device_command').where('device_id', 'in', ids).execute();
      const doors = trx.selectFrom('sys_door').select('id').where('device_id', 'in', ids);
      await trx.deleteFrom('sys_door_depart').where('door_id', 'in', doors).execute();
      // its doors leave the device roles that bound them, as a door deleted on its own does
      await trx.deleteFrom('sys_device_role_door').where('door_id', 'in', doors).execute();
      await trx.deleteFrom('sys_door_schedule_door').where('door_id', 'in', doors).execute();
      await trx.deleteFrom('sys_door').where('device_id', 'in', ids).execute();
    },
  });

  app.get(DevicePath.captureList, { schema: { tags, summary: 'The devices a capture can come from, and the current one' }, config: { permission: permissionCode(deviceEntity, 'list') } }, async (request, reply) => {
    const rows = await devices.scoped(callerOf(request)).clearSelect().select(['id', 'device_name', 'sn', 'capture']).orderBy('device_name').orderBy('id').limit(1000).execute();
    const result: CaptureDeviceList = {
      records: rows.map((r) => ({ id: r.id as string, title: r.device_name as string, sn: r.sn as string })),
      capDevice: (rows.find((r) => Number(r.capture) === 1)?.id as string | undefined) ?? null,
    };
    return reply.ok(result);
  });

  app.get(DevicePath.setCapture, { schema: { tags, summary: 'Make a device the capture device of its tenant', querystring: idQuery }, config: { permission: permissionCode(deviceEntity, 'capture') } }, async (request, reply) => {
    const caller = callerOf(request);
    const device = await devices.findById(caller, request.query.id);
    if (!device) refuse('crud.notFound');
    // a capture comes from a connected device: an offline one cannot be the source
    if (Number(device.online) !== 1) refuse('device.disconnected');
    const now = new Date(app.clock()).toISOString();
    await app.db.transaction().execute(async (trx) => {
      const tenant = device.tenant_id as string | null;
      let others = trx.updateTable('sys_device').set({ capture: 0 }).where('capture', '=', 1);
      others = tenant === null ? others.where('tenant_id', 'is', null) : others.where('tenant_id', '=', tenant);
      await others.execute();
      await trx.updateTable('sys_device').set({ capture: 1, update_by: caller.username, update_time: now }).where('id', '=', device.id as string).execute();
    });
    await writeCallerLog(reply, caller, { key: 'log.captureDeviceSet', params: { entity: deviceEntity.title, name: String(device.device_name) } });
    return reply.ok(null, 'device.captureSet');
  });
};
