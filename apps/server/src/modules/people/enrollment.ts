import {
  CaptureCommandKind,
  DeviceCommandStatus,
  deviceEnrollUpload,
  ENROLL_CAPTURE_MS,
  ENROLL_FAILURES,
  ENROLL_WAIT_MS,
  EnrollmentStatus,
  enrollBody,
  enrollmentIdSchema,
  ID_CARD_WAIT_MS,
  PeoplePath,
  peopleEntity,
  permissionCode,
  readIdCardQuery,
  readIdCardResult,
  type EnrollFailure,
  type Enrollment,
  type EnrollPalmPayload,
  type PalmHand,
} from '@isps/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { callerOf, type CurrentUser } from '../../platform/access.ts';
import { OperationType, writeCallerLog, writeOperationLog } from '../../platform/audit-log.ts';
import type { RegisteredEntity } from '../../platform/crud/index.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { tenantScoped } from '../../platform/tenancy.ts';
import { writePalmTemplate } from './palm-templates.ts';

const tags = ['people'];
const WAITING: string[] = [DeviceCommandStatus.pending, DeviceCommandStatus.sent];
const ID_CARD_POLL_MS = 100;

interface CaptureDevice {
  id: string;
  sn: string;
  device_name: string;
  online: number;
  tenant_id: string | null;
}

/** The capture device a call names, or the caller's tenant's current one; refused when there is none or it is offline. */
async function captureDevice(app: FastifyInstance, caller: CurrentUser, deviceId: string | undefined): Promise<CaptureDevice> {
  let query = tenantScoped(app.db.selectFrom('sys_device').select(['id', 'sn', 'device_name', 'online', 'tenant_id']), caller);
  query = deviceId ? query.where('id', '=', deviceId) : query.where('capture', '=', 1);
  const device = await query.executeTakeFirst();
  if (!device) refuse(deviceId ? 'crud.notFound' : 'people.noCaptureDevice');
  if (device.online !== 1) refuse('people.captureOffline', { device: device.device_name });
  return device;
}

function failureOf(result: string | null): EnrollFailure {
  const reason = result === null ? undefined : (JSON.parse(result) as { reason?: unknown } | null)?.reason;
  return (ENROLL_FAILURES as readonly unknown[]).includes(reason) ? (reason as EnrollFailure) : 'quality';
}

async function logEntry(app: FastifyInstance, request: FastifyRequest, caller: CurrentUser, key: 'log.palmEnrollStarted', params: Record<string, string>, started: number) {
  await writeOperationLog(app, {
    operateType: OperationType.edit,
    userId: caller.id,
    username: caller.username,
    tenantId: caller.tenantScope ?? caller.tenantId,
    ip: request.ip,
    content: { key, params: { entity: peopleEntity.title, ...params } },
    costMs: performance.now() - started,
  });
}

/**
 * Palm-vein enrollment and ID card reading at a capture device (docs/device-protocol.md, "Capture device"). The
 * enrollment is the device's enrollPalm command: its row in the command queue is the enrollment's state, so any
 * server of the console answers how it goes. Templates go from the enroll topic to storePalmTemplate and nowhere else.
 */
export function enrollmentRoutes(app: FastifyInstance, people: RegisteredEntity): void {
  const now = () => new Date(app.clock()).toISOString();
  const enrollPermission = permissionCode(peopleEntity, 'enroll');

  /** An enrollment of the caller's tenant as the console follows it; a waiting one past its time is ended as timed out. */
  async function enrollmentOf(caller: CurrentUser, id: string): Promise<Enrollment> {
    const row = await tenantScoped(
      app.db
        .selectFrom('sys_device_command as c')
        .leftJoin('sys_device as d', 'd.id', 'c.device_id')
        .select(['c.id', 'c.device_id', 'c.payload', 'c.status', 'c.result', 'c.create_time', 'd.device_name']),
      caller,
      'c.tenant_id',
    )
      .where('c.id', '=', id)
      .where('c.kind', '=', CaptureCommandKind.enrollPalm)
      .executeTakeFirst();
    if (!row) refuse('people.enrollNotFound');
    const payload = JSON.parse(row.payload ?? '{}') as EnrollPalmPayload;
    let { status, result } = row;
    if (WAITING.includes(status) && app.clock() - Date.parse(row.create_time ?? '') > ENROLL_WAIT_MS) {
      result = JSON.stringify({ reason: 'timeout' });
      const ended = await app.db.updateTable('sys_device_command').set({ status: DeviceCommandStatus.failed, next_try: null, result }).where('id', '=', id).where('status', 'in', WAITING).executeTakeFirst();
      if (Number(ended.numUpdatedRows) > 0) status = DeviceCommandStatus.failed;
      else ({ status, result } = await app.db.selectFrom('sys_device_command').select(['status', 'result']).where('id', '=', id).executeTakeFirstOrThrow());
    }
    // an enrollment is done only when the server stored the template: an acknowledgement alone proves nothing
    const enrolled = status === DeviceCommandStatus.acked && (JSON.parse(result ?? 'null') as { enrolled?: unknown } | null)?.enrolled === true;
    const state = WAITING.includes(status) ? EnrollmentStatus.waiting : enrolled ? EnrollmentStatus.enrolled : EnrollmentStatus.failed;
    return {
      id: row.id,
      peopleId: payload.peopleId,
      hand: payload.hand,
      deviceId: row.device_id,
      deviceName: row.device_name ?? '',
      status: state,
      reason: state !== EnrollmentStatus.failed ? null : status === DeviceCommandStatus.acked ? 'refused' : status === DeviceCommandStatus.expired ? 'timeout' : failureOf(result),
    };
  }

  /** Ends waiting enrollments as cancelled and tells their devices to stop; answers how many ended. */
  async function cancelWaiting(ids: string[], by: string): Promise<number> {
    let count = 0;
    for (const id of ids) {
      const ended = await app.db
        .updateTable('sys_device_command')
        .set({ status: DeviceCommandStatus.failed, next_try: null, result: JSON.stringify({ reason: 'cancelled' }), update_by: by, update_time: now() })
        .where('id', '=', id)
        .where('status', 'in', WAITING)
        .executeTakeFirst();
      if (Number(ended.numUpdatedRows) === 0) continue;
      count += 1;
      const { device_id } = await app.db.selectFrom('sys_device_command').select('device_id').where('id', '=', id).executeTakeFirstOrThrow();
      await app.deviceGateway.enqueueCommand(device_id, CaptureCommandKind.cancelEnroll, { command: id }, by);
    }
    return count;
  }

  app.post(
    PeoplePath.enroll,
    { schema: { tags, summary: 'Enroll a palm of a person at a capture device', body: enrollBody }, config: { permission: enrollPermission } },
    async (request, reply) => {
      const started = performance.now();
      const caller = callerOf(request);
      const body = request.body as z.infer<typeof enrollBody>;
      const person = await people.findById(caller, body.id);
      if (!person) throw new AppError('notFound', 'crud.notFound');
      const device = await captureDevice(app, caller, body.deviceId);
      if ((device.tenant_id ?? null) !== ((person.tenant_id as string | null) ?? null)) refuse('people.captureTenant');
      // one enrollment at a time per device: a new one replaces the one it was waiting for
      const previous = await app.db.selectFrom('sys_device_command').select('id').where('device_id', '=', device.id).where('kind', '=', CaptureCommandKind.enrollPalm).where('status', 'in', WAITING).execute();
      await cancelWaiting(
        previous.map((p) => p.id),
        caller.username,
      );
      const payload: EnrollPalmPayload = { peopleId: String(person.id), hand: body.hand, timeoutMs: ENROLL_CAPTURE_MS };
      const id = await app.deviceGateway.enqueueCommand(device.id, CaptureCommandKind.enrollPalm, payload, caller.username);
      await logEntry(app, request, caller, 'log.palmEnrollStarted', { name: String(person.name), hand: body.hand, device: device.device_name }, started);
      return reply.ok(await enrollmentOf(caller, id), 'people.enrollStarted');
    },
  );

  app.get(
    PeoplePath.enrollStatus,
    { schema: { tags, summary: 'How an enrollment goes (never its template)', querystring: enrollmentIdSchema }, config: { permission: enrollPermission } },
    async (request, reply) => reply.ok(await enrollmentOf(callerOf(request), (request.query as z.infer<typeof enrollmentIdSchema>).id)),
  );

  app.post(
    PeoplePath.enrollCancel,
    { schema: { tags, summary: 'Cancel a waiting enrollment', body: enrollmentIdSchema }, config: { permission: enrollPermission } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { id } = request.body as z.infer<typeof enrollmentIdSchema>;
      const before = await enrollmentOf(caller, id);
      if (before.status !== EnrollmentStatus.waiting || (await cancelWaiting([id], caller.username)) === 0) refuse('people.enrollEnded');
      return reply.ok(await enrollmentOf(caller, id), 'people.enrollCancelled');
    },
  );

  app.get(
    PeoplePath.readIdCard,
    { schema: { tags, summary: 'Read the ID card on the capture device', querystring: readIdCardQuery }, config: { permission: permissionCode(peopleEntity, 'readIdCard') } },
    async (request, reply) => {
      const caller = callerOf(request);
      const device = await captureDevice(app, caller, (request.query as z.infer<typeof readIdCardQuery>).deviceId);
      const id = await app.deviceGateway.enqueueCommand(device.id, CaptureCommandKind.readIdCard, {}, caller.username);
      // the read is logged, never the number it answers
      await writeCallerLog(reply, caller, { key: 'log.idCardRead', params: { entity: peopleEntity.title, device: device.device_name } });
      // the answer may reach another server of the console: the command's row is where it is read
      const deadline = Date.now() + ID_CARD_WAIT_MS;
      let command = await app.db.selectFrom('sys_device_command').select(['status', 'result']).where('id', '=', id).executeTakeFirstOrThrow();
      while (WAITING.includes(command.status) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, ID_CARD_POLL_MS));
        command = await app.db.selectFrom('sys_device_command').select(['status', 'result']).where('id', '=', id).executeTakeFirstOrThrow();
      }
      // a read nobody waits for any more is not delivered later; the number read is not kept in the queue
      await app.db.updateTable('sys_device_command').set({ status: WAITING.includes(command.status) ? DeviceCommandStatus.failed : command.status, next_try: null, result: null }).where('id', '=', id).execute();
      const parsed = command.status === DeviceCommandStatus.acked ? readIdCardResult.safeParse(JSON.parse(command.result ?? 'null')) : null;
      const idCard = parsed?.success ? parsed.data.idCard?.toUpperCase() : null;
      if (!idCard) refuse('people.noIdCard');
      return reply.ok({ idCard }, 'people.idCardRead');
    },
  );

  observeEnrollUploads(app);
}

/**
 * Templates uploaded on `isps/{sn}/up/enroll`: taken only from the device the enrollPalm command went to, while it
 * waits, for the person and hand it named, and for a person of the device's own tenant; stored, then audited.
 */
function observeEnrollUploads(app: FastifyInstance): void {
  app.deviceGateway.observe({
    enroll: async (device, body) => {
      const upload = deviceEnrollUpload.safeParse(body);
      if (!upload.success) {
        app.log.warn({ sn: device.sn }, 'enroll upload is not valid');
        return;
      }
      const { command: commandId, peopleId, hand, template } = upload.data;
      const command = await app.db
        .selectFrom('sys_device_command')
        .select(['id', 'payload', 'status', 'create_by', 'tenant_id'])
        .where('id', '=', commandId)
        .where('device_id', '=', device.id)
        .where('kind', '=', CaptureCommandKind.enrollPalm)
        .executeTakeFirst();
      if (!command) {
        app.log.warn({ sn: device.sn, command: commandId }, 'enroll upload for a command this device was not sent');
        return;
      }
      if (!WAITING.includes(command.status)) return; // ended (cancelled, timed out) or a repeated upload
      const payload = JSON.parse(command.payload ?? '{}') as EnrollPalmPayload;
      const person = await app.db.selectFrom('sys_people').select(['id', 'name', 'tenant_id']).where('id', '=', peopleId).where('del_flag', '=', 0).executeTakeFirst();
      const answers = payload.peopleId === peopleId && payload.hand === hand;
      const sameTenant = person !== undefined && (person.tenant_id ?? null) === (device.tenantId ?? null);
      const at = new Date(app.clock()).toISOString();
      const taken = answers && sameTenant;
      const by = command.create_by ?? 'device';
      // the command ends and the template is stored in one transaction: whoever sees the enrollment done finds the hand registered
      const claimed = await app.db.transaction().execute(async (trx) => {
        const ended = await trx
          .updateTable('sys_device_command')
          .set({ status: taken ? DeviceCommandStatus.acked : DeviceCommandStatus.failed, acked_time: at, next_try: null, result: JSON.stringify(taken ? { enrolled: true } : { reason: 'refused' }) })
          .where('id', '=', command.id)
          .where('status', 'in', WAITING)
          .executeTakeFirst();
        if (Number(ended.numUpdatedRows) === 0) return false;
        if (taken) await writePalmTemplate(trx, at, peopleId, hand as PalmHand, template, by);
        return true;
      });
      if (!claimed) return;
      if (!taken) {
        app.log.warn({ sn: device.sn, command: commandId }, 'enroll upload refused: another person, hand or tenant than the command named');
        return;
      }
      const operator = await app.db.selectFrom('sys_user').select('id').where('username', '=', by).executeTakeFirst();
      await writeOperationLog(app, {
        operateType: OperationType.edit,
        userId: operator?.id ?? '',
        username: by,
        tenantId: command.tenant_id,
        ip: '',
        content: { key: 'log.palmEnrolled', params: { entity: peopleEntity.title, name: person!.name, hand, device: device.sn } },
        costMs: 0,
      });
    },
  });
}
