import { DeviceCommandKind, DeviceSettingPath, DoorPath, DoorPerm, deviceSettingEntity, doorEntity, effectiveSettings, ID_PATTERN, permissionCode, shownSeededText, type DoorState, type DoorStatusRow } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { callerOf, type CurrentUser } from '../../platform/access.ts';
import { OperationType, writeOperationLog } from '../../platform/audit-log.ts';
import { registerEntity } from '../../platform/crud/index.ts';
import { refuse } from '../../platform/envelope.ts';
import { tenantScoped } from '../../platform/tenancy.ts';

const tags = ['device'];
const idBody = z.object({ id: z.string().regex(ID_PATTERN) });
const idQuery = z.object({ id: z.string().regex(ID_PATTERN) });
const doorIdQuery = z.object({ doorId: z.string().regex(ID_PATTERN) });
const deviceIdQuery = z.object({ deviceId: z.string().regex(ID_PATTERN) });

/** The caller's device by id (its tenant's), or a refusal: a door or setting never names another tenant's device. */
async function callersDevice(app: FastifyInstance, caller: CurrentUser, id: string) {
  const device = await tenantScoped(app.db.selectFrom('sys_device').select(['id', 'area_id', 'device_model', 'online']), caller).where('id', '=', id).executeTakeFirst();
  if (!device) refuse('door.deviceMissing');
  return device;
}

/**
 * Doors (a lock of a device, bound to groups) with remote opening through the device's command queue, the door
 * status page's list, and the device settings with the settings in force for a device.
 */
export const doorRoutes: FastifyPluginAsyncZod = async (app) => {
  registerEntity(app, doorEntity, {
    beforeAdd: async ({ app: a, caller }, values) => {
      const device = await callersDevice(a, caller, String(values.deviceId));
      // a door takes its device's area unless it is given one
      if (!values.areaId && device.area_id) values.areaId = device.area_id;
    },
    beforeEdit: async ({ app: a, caller }, values) => {
      if (values.deviceId !== undefined) await callersDevice(a, caller, String(values.deviceId));
    },
    deleteLinked: async (trx, ids) => {
      await trx.deleteFrom('sys_door_depart').where('door_id', 'in', ids).execute();
      // a deleted door leaves the door schedules that named it
      await trx.deleteFrom('sys_door_schedule_door').where('door_id', 'in', ids).execute();
    },
    routes: (routes, registered) => {
      routes.post(DoorPath.open, { schema: { tags, summary: 'Open a door remotely (an openDoor command to its online device, expiring after 10 s)', body: idBody }, config: { permission: DoorPerm.open } }, async (request, reply) => {
        const started = performance.now();
        const caller = callerOf(request);
        const door = await registered.findById(caller, (request.body as z.infer<typeof idBody>).id);
        if (!door) refuse('crud.notFound');
        const device = await callersDevice(app, caller, String(door.device_id));
        // a door opens now or not at all: nothing is queued for a device that cannot take it (its open would run later)
        if (device.online !== 1 || !app.deviceGateway.connected) refuse('door.deviceOffline');
        const commandId = await app.deviceGateway.enqueueCommand(String(door.device_id), DeviceCommandKind.openDoor, { door: Number(door.door_no) }, caller.username);
        await writeOperationLog(app, {
          operateType: OperationType.edit,
          userId: caller.id,
          username: caller.username,
          tenantId: caller.tenantId,
          ip: request.ip,
          content: { key: 'log.doorOpened', params: { entity: doorEntity.title, door: String(door.door_name), command: commandId } },
          costMs: performance.now() - started,
        });
        return reply.ok({ commandId }, 'door.openQueued');
      });

      routes.get(DoorPath.command, { schema: { tags, summary: 'The state of a queued door command', querystring: idQuery }, config: { permission: DoorPerm.open } }, async (request, reply) => {
        const caller = callerOf(request);
        const command = await tenantScoped(app.db.selectFrom('sys_device_command').select(['id', 'kind', 'status', 'attempts', 'sent_time', 'acked_time', 'result']), caller)
          .where('id', '=', (request.query as z.infer<typeof idQuery>).id)
          .executeTakeFirst();
        if (!command) refuse('door.commandNotFound');
        return reply.ok({ id: command.id, kind: command.kind, status: command.status, attempts: command.attempts, sentTime: command.sent_time, ackedTime: command.acked_time, result: command.result === null ? null : (JSON.parse(command.result) as unknown) });
      });

      routes.get(DoorPath.deptIdsByDoorId, { schema: { tags, summary: 'Ids of the groups a door is bound to', querystring: doorIdQuery }, config: { permission: DoorPerm.list } }, async (request, reply) => {
        const caller = callerOf(request);
        const door = await registered.findById(caller, (request.query as z.infer<typeof doorIdQuery>).doorId);
        if (!door) refuse('crud.notFound');
        const rows = await app.db.selectFrom('sys_door_depart').select('depart_id').where('door_id', '=', String(door.id)).orderBy('depart_id').execute();
        return reply.ok(rows.map((r) => r.depart_id));
      });

      routes.get(DoorPath.status, { schema: { tags, summary: 'Every door with its state and its device’s presence' }, config: { permission: DoorPerm.statusView } }, async (request, reply) => {
        const caller = callerOf(request);
        const rows = await tenantScoped(
          app.db
            .selectFrom('sys_door as door')
            .leftJoin('sys_device as device', 'device.id', 'door.device_id')
            .select(['door.id', 'door.door_name', 'door.door_no', 'door.device_id', 'door.area_id', 'door.state', 'door.state_time', 'door.create_by', 'device.device_name', 'device.online']),
          caller,
          'door.tenant_id',
        )
          .orderBy('door.door_name')
          .orderBy('door.id')
          .limit(5000)
          .execute();
        const doors: DoorStatusRow[] = rows.map((r) => ({
          id: r.id,
          // a door its device's hello named is read in the reader's language until the operator renames it
          doorName: String(shownSeededText(request.lang, 'door', 'door_name', r)),
          doorNo: r.door_no,
          deviceId: r.device_id,
          deviceName: r.device_name,
          deviceOnline: r.online === 1,
          areaId: r.area_id,
          state: r.state as DoorState,
          stateTime: r.state_time,
        }));
        return reply.ok(doors);
      });
    },
  });

  registerEntity(app, deviceSettingEntity, {
    beforeAdd: (_ctx, values) => checkWindow(values),
    beforeEdit: (_ctx, values, existing) => checkWindow({ effectiveTime: existing.effective_time, invalidTime: existing.invalid_time, ...values }),
    routes: (routes, registered) => {
      routes.get(DeviceSettingPath.effective, { schema: { tags, summary: 'The settings in force for a device', querystring: deviceIdQuery }, config: { permission: permissionCode(deviceSettingEntity, 'list') } }, async (request, reply) => {
        const caller = callerOf(request);
        const device = await callersDevice(app, caller, (request.query as z.infer<typeof deviceIdQuery>).deviceId);
        const rows = await registered.scoped(caller).limit(5000).execute();
        const settings = rows.map((r) => ({
          id: String(r.id),
          paramsTitle: String(r.params_title),
          fieldName: String(r.field_name),
          fieldValue: String(r.field_value),
          weight: Number(r.weight),
          areaId: (r.area_id as string | null) ?? null,
          deviceModel: (r.device_model as string | null) ?? null,
          listenValue: (r.listen_value as string | null) ?? null,
          effectiveTime: (r.effective_time as string | null) ?? null,
          invalidTime: (r.invalid_time as string | null) ?? null,
        }));
        return reply.ok(effectiveSettings(settings, { areaId: device.area_id, deviceModel: device.device_model }, new Date(app.clock()).toISOString()));
      });
    },
  });
};

/** An invalid time before the effective time leaves the setting never in force. */
function checkWindow(values: Record<string, unknown>): void {
  const { effectiveTime, invalidTime } = values;
  if (typeof effectiveTime === 'string' && typeof invalidTime === 'string' && effectiveTime !== '' && invalidTime !== '' && Date.parse(invalidTime) <= Date.parse(effectiveTime)) {
    refuse('validation.settingWindow');
  }
}
