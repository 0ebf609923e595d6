import { DeviceAuditStatus, deviceCodeAddBody, deviceCodeAuditBody, deviceCodeScreen, DeviceCodePath, DevicePerm, ID_PATTERN, splitIds } from '@isps/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { callerOf } from '../../platform/access.ts';
import { OperationType, writeCallerLog } from '../../platform/audit-log.ts';
import { refuse } from '../../platform/envelope.ts';
import { deviceEntityRoutes } from './entity-routes.ts';
import { floorPlanRoutes } from './floor-plan-routes.ts';
import { softUpdateRoutes } from './soft-update-routes.ts';
import { alarmRoutes } from './alarm-routes.ts';
import { deviceExtraRoutes } from './device-extra-routes.ts';
import { logFileRoutes } from './log-file-routes.ts';
import { deviceKeyRoutes } from './device-key-routes.ts';
import { addDeviceCode, auditDeviceCode, deviceCodeRow, deviceCodes } from './service.ts';

const tags = ['device'];

const listQuery = z.object({
  pageNo: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(10),
  sn: z.string().max(64).optional(),
  auditStatus: z.enum(['0', '1', '2']).transform(Number).optional(),
});
const idQuery = z.object({ id: z.string().regex(ID_PATTERN) });
/** the console's batch delete: at most 1000 ids, comma separated */
const idsQuery = z.object({
  ids: z
    .string()
    .transform(splitIds)
    .pipe(z.array(z.string().regex(ID_PATTERN)).min(1).max(1000)),
});

/** Device codes: an activation code per serial number, audited; the approval issues the device's MQTT key. */
export const deviceRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(deviceEntityRoutes);
  await app.register(floorPlanRoutes);
  await app.register(softUpdateRoutes);
  await app.register(alarmRoutes);
  await app.register(deviceExtraRoutes);
  await app.register(logFileRoutes);
  await app.register(deviceKeyRoutes);

  app.get(DeviceCodePath.list, { schema: { tags, summary: 'List device codes', querystring: listQuery }, config: { permission: DevicePerm.codeList } }, async (request, reply) => {
    const { pageNo, pageSize, sn, auditStatus } = request.query;
    let query = deviceCodes(app, callerOf(request));
    if (sn) query = query.where('sn', '=', sn);
    if (auditStatus !== undefined) query = query.where('audit_status', '=', auditStatus);
    const { total } = await query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
    const rows = await query.selectAll().orderBy('create_time', 'desc').orderBy('id').limit(pageSize).offset((pageNo - 1) * pageSize).execute();
    const count = Number(total);
    return reply.ok({ records: rows.map(deviceCodeRow), total: count, size: pageSize, current: pageNo, pages: Math.ceil(count / pageSize) });
  });

  app.get(DeviceCodePath.queryById, { schema: { tags, summary: 'One device code', querystring: idQuery }, config: { permission: DevicePerm.codeList } }, async (request, reply) => {
    const row = await deviceCodes(app, callerOf(request)).selectAll().where('id', '=', request.query.id).executeTakeFirst();
    if (!row) refuse('crud.notFound');
    return reply.ok(deviceCodeRow(row));
  });

  app.post(DeviceCodePath.add, { schema: { tags, summary: 'Issue an activation code for a serial number', body: deviceCodeAddBody }, config: { permission: DevicePerm.codeAdd } }, async (request, reply) => {
    const caller = callerOf(request);
    const row = await addDeviceCode(app, caller, request.body);
    await writeCallerLog(reply, caller, { key: 'log.deviceCodeIssued', params: { entity: deviceCodeScreen.title, sn: row.sn } }, OperationType.add);
    return reply.ok(row, 'crud.added');
  });

  app.put(DeviceCodePath.audit, { schema: { tags, summary: 'Agree (issues the device key, answered once) or disagree', body: deviceCodeAuditBody }, config: { permission: DevicePerm.codeAudit } }, async (request, reply) => {
    const { id, auditStatus } = request.body;
    const caller = callerOf(request);
    const { row, deviceKey } = await auditDeviceCode(app, caller, id, auditStatus);
    await writeCallerLog(reply, caller, { key: auditStatus === DeviceAuditStatus.agree ? 'log.deviceCodeApproved' : 'log.deviceCodeRefused', params: { entity: deviceCodeScreen.title, sn: row.sn } });
    return reply.ok({ ...row, deviceKey }, 'deviceCode.audited');
  });

  app.delete(DeviceCodePath.delete, { schema: { tags, summary: 'Delete a device code (its device can no longer connect)', querystring: idQuery }, config: { permission: DevicePerm.codeDelete } }, async (request, reply) => {
    const caller = callerOf(request);
    const row = await deviceCodes(app, caller).select(['id', 'sn']).where('id', '=', request.query.id).executeTakeFirst();
    if (!row) refuse('crud.notFound');
    await app.db.deleteFrom('sys_device_code').where('id', '=', row.id).execute();
    await writeCallerLog(reply, caller, { key: 'log.deviceCodeDeleted', params: { entity: deviceCodeScreen.title, sns: row.sn } }, OperationType.delete);
    return reply.ok(null, 'crud.deleted');
  });

  app.delete(DeviceCodePath.deleteBatch, { schema: { tags, summary: 'Delete several device codes (their devices can no longer connect)', querystring: idsQuery }, config: { permission: DevicePerm.codeDelete } }, async (request, reply) => {
    const caller = callerOf(request);
    // only the caller's own codes: ids of another tenant's are not there for him
    const rows = await deviceCodes(app, caller).select(['id', 'sn']).where('id', 'in', request.query.ids).execute();
    if (rows.length === 0) refuse('crud.notFound');
    await app.db.deleteFrom('sys_device_code').where('id', 'in', rows.map((r) => r.id)).execute();
    await writeCallerLog(reply, caller, { key: 'log.deviceCodeDeleted', params: { entity: deviceCodeScreen.title, sns: rows.map((r) => r.sn).join(',') } }, OperationType.delete);
    return reply.ok({ count: rows.length }, 'crud.deleted');
  });
};
