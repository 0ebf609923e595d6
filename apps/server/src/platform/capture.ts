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
  peopleEntity,
  readIdCardResult,
  visitorEntity,
  type EnrollFailure,
  type Enrollment,
  type EnrollPalmPayload,
  type PalmHand,
  type PalmHolder,
} from '@isps/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { callerOf, type CurrentUser } from './access.ts';
import { OperationType, writeCallerLog, writeOperationLog } from './audit-log.ts';
import { AppError, refuse } from './envelope.ts';
import { writePalmTemplate } from './person-credentials.ts';
import { tenantScoped } from './tenancy.ts';

// Palm-vein enrollment and ID card reading at a capture device (docs/device-protocol.md, "Capture device"), for people
// and visitors alike: both carry one set of credentials (person-credentials.ts), so both enroll the same way.

const WAITING: string[] = [DeviceCommandStatus.pending, DeviceCommandStatus.sent];
const ID_CARD_POLL_MS = 100;

/** The holders' tables and the screen titles their log entries name. */
const HOLDER_TABLE = { people: 'sys_people', visitor: 'sys_visitor' } as const;
const HOLDER_TITLE = { people: peopleEntity.title, visitor: visitorEntity.title } as const;

const holderOf = (payload: EnrollPalmPayload): PalmHolder => (payload.holder === 'visitor' ? 'visitor' : 'people');

interface CaptureDevice {
  id: string;
  sn: string;
  device_name: string;
  online: number;
  tenant_id: string | null;
}

/** The capture device a call names, or the caller's tenant's current one; refused when there is none or it is offline. */
export async function captureDevice(app: FastifyInstance, caller: CurrentUser, deviceId: string | undefined): Promise<CaptureDevice> {
  let query = tenantScoped(app.db.selectFrom('sys_device').select(['id', 'sn', 'device_name', 'online', 'tenant_id']), caller);
  query = deviceId ? query.where('id', '=', deviceId) : query.where('capture', '=', 1);
  const device = await query.executeTakeFirst();
  if (!device) refuse(deviceId ? 'crud.notFound' : 'people.noCaptureDevice');
  if (device.online !== 1) refuse('people.captureOffline', { device: device.device_name });
  return device;
}

/**
 * Reads the ID card on the capture device (the named one, else the tenant's current one) and answers its number in
 * capitals; refused with 'No ID card detected' when none lies on the reader or the device does not answer in time.
 * The read is logged under the screen's title, never the number it answers.
 */
export async function readIdCardAt(app: FastifyInstance, reply: FastifyReply, caller: CurrentUser, deviceId: string | undefined, entityTitle: string): Promise<string> {
  const device = await captureDevice(app, caller, deviceId);
  const id = await app.deviceGateway.enqueueCommand(device.id, CaptureCommandKind.readIdCard, {}, caller.username);
  await writeCallerLog(reply, caller, { key: 'log.idCardRead', params: { entity: entityTitle, device: device.device_name } });
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
  return idCard;
}

/** The routes of one kind of palm holder: where they live, what they need, and how a holder of the caller is found. */
export interface PalmEnrollmentRoutes {
  holder: PalmHolder;
  tags: string[];
  paths: { enroll: string; enrollStatus: string; enrollCancel: string };
  permission: string;
  /** the holder the caller may reach (his tenant's, not deleted), or undefined */
  find: (caller: CurrentUser, id: string) => Promise<{ id: string; name: string; tenantId: string | null } | undefined>;
}

function failureOf(result: string | null): EnrollFailure {
  const reason = result === null ? undefined : (JSON.parse(result) as { reason?: unknown } | null)?.reason;
  return (ENROLL_FAILURES as readonly unknown[]).includes(reason) ? (reason as EnrollFailure) : 'quality';
}

/**
 * Palm-vein enrollment of one kind of holder at a capture device. The enrollment is the device's enrollPalm command:
 * its row in the command queue is the enrollment's state, so any server of the console answers how it goes. Templates
 * go from the enroll topic to writePalmTemplate and nowhere else.
 */
export function palmEnrollmentRoutes(app: FastifyInstance, spec: PalmEnrollmentRoutes): void {
  const now = () => new Date(app.clock()).toISOString();
  const { tags, paths, permission } = spec;

  /** An enrollment of the caller's tenant and of this kind of holder; a waiting one past its time is ended as timed out. */
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
    const payload = JSON.parse(row?.payload ?? '{}') as EnrollPalmPayload;
    if (!row || holderOf(payload) !== spec.holder) refuse('people.enrollNotFound');
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

  async function logStarted(request: FastifyRequest, caller: CurrentUser, params: Record<string, string>, started: number) {
    await writeOperationLog(app, {
      operateType: OperationType.edit,
      userId: caller.id,
      username: caller.username,
      tenantId: caller.tenantScope ?? caller.tenantId,
      ip: request.ip,
      content: { key: 'log.palmEnrollStarted', params: { entity: HOLDER_TITLE[spec.holder], ...params } },
      costMs: performance.now() - started,
    });
  }

  app.post(paths.enroll, { schema: { tags, summary: `Enroll a palm of a ${spec.holder === 'people' ? 'person' : 'visitor'} at a capture device`, body: enrollBody }, config: { permission } }, async (request, reply) => {
    const started = performance.now();
    const caller = callerOf(request);
    const body = request.body as z.infer<typeof enrollBody>;
    const holder = await spec.find(caller, body.id);
    if (!holder) throw new AppError('notFound', 'crud.notFound');
    const device = await captureDevice(app, caller, body.deviceId);
    if ((device.tenant_id ?? null) !== holder.tenantId) refuse('people.captureTenant');
    // one enrollment at a time per device: a new one replaces the one it was waiting for
    const previous = await app.db.selectFrom('sys_device_command').select('id').where('device_id', '=', device.id).where('kind', '=', CaptureCommandKind.enrollPalm).where('status', 'in', WAITING).execute();
    await cancelWaiting(
      previous.map((p) => p.id),
      caller.username,
    );
    const payload: EnrollPalmPayload = { peopleId: holder.id, hand: body.hand, timeoutMs: ENROLL_CAPTURE_MS, ...(spec.holder === 'visitor' ? { holder: 'visitor' as const } : {}) };
    const id = await app.deviceGateway.enqueueCommand(device.id, CaptureCommandKind.enrollPalm, payload, caller.username);
    await logStarted(request, caller, { name: holder.name, hand: body.hand, device: device.device_name }, started);
    return reply.ok(await enrollmentOf(caller, id), 'people.enrollStarted');
  });

  app.get(paths.enrollStatus, { schema: { tags, summary: 'How an enrollment goes (never its template)', querystring: enrollmentIdSchema }, config: { permission } }, async (request, reply) =>
    reply.ok(await enrollmentOf(callerOf(request), (request.query as z.infer<typeof enrollmentIdSchema>).id)),
  );

  app.post(paths.enrollCancel, { schema: { tags, summary: 'Cancel a waiting enrollment', body: enrollmentIdSchema }, config: { permission } }, async (request, reply) => {
    const caller = callerOf(request);
    const { id } = request.body as z.infer<typeof enrollmentIdSchema>;
    const before = await enrollmentOf(caller, id);
    if (before.status !== EnrollmentStatus.waiting || (await cancelWaiting([id], caller.username)) === 0) refuse('people.enrollEnded');
    return reply.ok(await enrollmentOf(caller, id), 'people.enrollCancelled');
  });

  observeEnrollUploads(app);
}

/** The gateways whose enroll uploads are observed already: people's and visitors' routes share one observer. */
const observed = new WeakSet<object>();

/**
 * Templates uploaded on `isps/{sn}/up/enroll`: taken only from the device the enrollPalm command went to, while it
 * waits, for the holder and hand it named, and for a holder of the device's own tenant; stored, then audited.
 */
function observeEnrollUploads(app: FastifyInstance): void {
  if (observed.has(app.deviceGateway)) return;
  observed.add(app.deviceGateway);
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
      const kind = holderOf(payload);
      const holder = await app.db.selectFrom(HOLDER_TABLE[kind]).select(['id', 'name', 'tenant_id']).where('id', '=', peopleId).where('del_flag', '=', 0).executeTakeFirst();
      const answers = payload.peopleId === peopleId && payload.hand === hand;
      const sameTenant = holder !== undefined && (holder.tenant_id ?? null) === (device.tenantId ?? null);
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
        if (taken) await writePalmTemplate(trx, at, kind, peopleId, hand as PalmHand, template, by);
        return true;
      });
      if (!claimed) return;
      if (!taken) {
        app.log.warn({ sn: device.sn, command: commandId }, 'enroll upload refused: another holder, hand or tenant than the command named');
        return;
      }
      const operator = await app.db.selectFrom('sys_user').select('id').where('username', '=', by).executeTakeFirst();
      await writeOperationLog(app, {
        operateType: OperationType.edit,
        userId: operator?.id ?? '',
        username: by,
        tenantId: command.tenant_id,
        ip: '',
        content: { key: 'log.palmEnrolled', params: { entity: HOLDER_TITLE[kind], name: holder!.name, hand, device: device.sn } },
        costMs: 0,
      });
    },
  });
}
