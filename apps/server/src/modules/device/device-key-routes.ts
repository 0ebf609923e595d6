import { DEVICE_KEY_GRACE_MS, DeviceAuditStatus, DeviceCommandKind, DeviceCommandStatus, deviceEntity, DevicePath, ID_PATTERN, permissionCode, type RotateKeyPayload } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { DEVICE_REVOKED, issueDeviceKey } from '../../gateway/index.ts';
import { callerOf, type CurrentUser } from '../../platform/access.ts';
import { writeCallerLog } from '../../platform/audit-log.ts';
import { AppError, refuse } from '../../platform/envelope.ts';

const tags = ['device'];
const idBody = z.object({ id: z.string().regex(ID_PATTERN) });

/** The caller's device with the approved code of its tenant that holds its key; refused when there is none. */
async function deviceWithKey(app: FastifyInstance, caller: CurrentUser, id: string) {
  const device = await app.crudEntities.get('sys_device')?.findById(caller, id);
  if (!device) throw new AppError('notFound', 'crud.notFound');
  const tenantId = (device.tenant_id as string | null) ?? null;
  const code = await app.db
    .selectFrom('sys_device_code')
    .select(['id', 'device_key_hash', 'previous_key_hash', 'previous_key_until'])
    .where('sn', '=', String(device.sn))
    .where((eb) => (tenantId === null ? eb('tenant_id', 'is', null) : eb('tenant_id', '=', tenantId)))
    .where('audit_status', '=', DeviceAuditStatus.agree)
    .executeTakeFirst();
  if (!code?.device_key_hash) refuse('device.noKey');
  return { device: { id: String(device.id), sn: String(device.sn), online: Number(device.online) }, code: { ...code, device_key_hash: code.device_key_hash } };
}

/**
 * Device keys from the device screen: a rotation sends the device a new key over the link (the old one works until the
 * device acknowledges it, at most DEVICE_KEY_GRACE_MS); a revocation ends the key at once and disconnects the device.
 */
export const deviceKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const now = () => new Date(app.clock()).toISOString();

  /** Rotations not taken yet are withdrawn: never delivered, and their keys no longer stored. */
  const withdrawRotations = (deviceId: string, by: string) =>
    app.db
      .updateTable('sys_device_command')
      .set({ status: DeviceCommandStatus.failed, next_try: null, payload: 'null', update_by: by, update_time: now() })
      .where('device_id', '=', deviceId)
      .where('kind', '=', DeviceCommandKind.rotateKey)
      .where('status', 'in', [DeviceCommandStatus.pending, DeviceCommandStatus.sent])
      .execute();

  // the device took its new key: the old one stops working, and the new one is no longer kept in the queue
  app.deviceGateway.observe({
    ack: async (device, ack) => {
      const command = await app.db.selectFrom('sys_device_command').select('id').where('id', '=', ack.id).where('device_id', '=', device.id).where('kind', '=', DeviceCommandKind.rotateKey).executeTakeFirst();
      if (!command) return;
      await app.db.updateTable('sys_device_command').set({ payload: 'null' }).where('id', '=', command.id).execute();
      if (!ack.ok) return;
      let taken = app.db.updateTable('sys_device_code').set({ previous_key_hash: null, previous_key_until: null }).where('sn', '=', device.sn);
      taken = device.tenantId === null ? taken.where('tenant_id', 'is', null) : taken.where('tenant_id', '=', device.tenantId);
      await taken.execute();
    },
  });

  app.post(DevicePath.rotateKey, { schema: { tags, summary: 'Send a device a new key over the link (the old one works until the device confirms)', body: idBody }, config: { permission: permissionCode(deviceEntity, 'rotateKey') } }, async (request, reply) => {
    const caller = callerOf(request);
    const { device, code } = await deviceWithKey(app, caller, request.body.id);
    // the key goes over the link: a device that is not there cannot take it
    if (device.online !== 1) refuse('device.disconnected');
    const issued = issueDeviceKey();
    // a rotation still waiting keeps the key the device really holds as the previous one
    const pending = code.previous_key_hash !== null && code.previous_key_until !== null && code.previous_key_until > new Date().toISOString();
    await withdrawRotations(device.id, caller.username);
    await app.db
      .updateTable('sys_device_code')
      .set({
        device_key_hash: issued.hash,
        key_issued_time: now(),
        previous_key_hash: pending ? code.previous_key_hash : code.device_key_hash,
        previous_key_until: new Date(Date.now() + DEVICE_KEY_GRACE_MS).toISOString(),
        update_by: caller.username,
        update_time: now(),
      })
      .where('id', '=', code.id)
      .execute();
    const payload: RotateKeyPayload = { key: issued.key };
    await app.deviceGateway.enqueueCommand(device.id, DeviceCommandKind.rotateKey, payload, caller.username);
    await writeCallerLog(reply, caller, { key: 'log.deviceKeyRotated', params: { entity: deviceEntity.title, sn: device.sn } });
    return reply.ok(null, 'device.keyRotating');
  });

  app.post(DevicePath.revokeKey, { schema: { tags, summary: 'Revoke a device key at once: the device is disconnected and cannot sign in', body: idBody }, config: { permission: permissionCode(deviceEntity, 'revokeKey') } }, async (request, reply) => {
    const caller = callerOf(request);
    const { device, code } = await deviceWithKey(app, caller, request.body.id);
    await app.db
      .updateTable('sys_device_code')
      .set({ device_key_hash: null, key_issued_time: null, previous_key_hash: null, previous_key_until: null, update_by: caller.username, update_time: now() })
      .where('id', '=', code.id)
      .execute();
    await withdrawRotations(device.id, caller.username);
    // its presence messages are no longer read once the key is gone: the console marks it offline itself
    await app.db.updateTable('sys_device').set({ online: 0 }).where('id', '=', device.id).execute();
    // this server at once, every other one through the bus (with Redis lost, when it returns)
    app.deviceGateway.revokeDevice(device.sn);
    await app.eventBus.publish(DEVICE_REVOKED, { sn: device.sn });
    await writeCallerLog(reply, caller, { key: 'log.deviceKeyRevoked', params: { entity: deviceEntity.title, sn: device.sn } });
    return reply.ok(null, 'device.keyRevoked');
  });
};
