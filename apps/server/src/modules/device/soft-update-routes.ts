import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import {
  AlarmState,
  DEVICE_KEY_HEADER,
  DEVICE_SN_HEADER,
  DeviceCommandKind,
  DeviceEventKind,
  deviceRunLogEntity,
  ID_PATTERN,
  RealtimeCmd,
  SOFT_UPDATE_EXTENSIONS,
  SOFT_UPDATE_MAX_BYTES,
  SoftUpdatePath,
  SoftUpdatePerm,
  SoftUpdateState,
  fileExtension,
  softUpdateEntity,
  softUpdatePushBody,
  textSchema,
  type DeviceAck,
  type DeviceEvent,
  type SoftUpdateCommandPayload,
  type SoftUpdateNotice,
  type SoftUpdatePushRow,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { checkTenantQuota, countUpload, tooManyUploads, uploadRoutes } from '../../platform/uploads.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { approvedDeviceCode } from '../../gateway/device-keys.ts';
import type { DerivedRows } from '../../gateway/index.ts';
import { tenantUsersHolding } from '../../gateway/permission-holders.ts';
import { callerOf } from '../../platform/access.ts';
import { OperationType, writeCallerLog } from '../../platform/audit-log.ts';
import { registerEntity } from '../../platform/crud/index.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { findStoredFile, PACKAGE_TYPES, storeUpload, uploadRoot } from '../../platform/files.ts';
import { tenantScoped, writeTenant } from '../../platform/tenancy.ts';
import { fileDigest, isSoftwarePackage } from './package-check.ts';

const tags = ['device'];
const idQuery = z.object({ id: z.string().regex(ID_PATTERN) });
const NOTICE_WINDOW_MS = 200;
const PACKAGE_FOLDER = 'softUpdate';

function fieldValue(fields: Record<string, unknown>, name: string): string | undefined {
  const entry = fields[name] as { type?: string; value?: unknown } | undefined;
  return entry && entry.type === 'field' && typeof entry.value === 'string' && entry.value.trim() !== '' ? entry.value.trim() : undefined;
}

function clip(value: unknown, max: number): string | null {
  return typeof value === 'string' || typeof value === 'number' ? String(value).slice(0, max) : null;
}

/**
 * Push progress reaches the tenant's holders of the soft update screen as `softUpdate` messages, gathered over a short
 * window per tenant so a fleet reporting at once sends one message per window.
 */
class SoftUpdateNotifier {
  private readonly waiting = new Map<string, Map<string, SoftUpdatePushRow>>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly app: FastifyInstance) {}

  changed(tenantId: string | null, push: SoftUpdatePushRow): void {
    if (tenantId === null) return;
    const pushes = this.waiting.get(tenantId) ?? new Map<string, SoftUpdatePushRow>();
    pushes.set(push.id, push);
    this.waiting.set(tenantId, pushes);
    this.timer ??= setTimeout(() => void this.flush(), NOTICE_WINDOW_MS);
  }

  /** one sending at a time, so a push's final state never overtakes its progress */
  private sending: Promise<void> = Promise.resolve();

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const waiting = [...this.waiting];
    this.waiting.clear();
    this.sending = this.sending.then(() => this.send(waiting));
    return this.sending;
  }

  private async send(waiting: Array<[string, Map<string, SoftUpdatePushRow>]>): Promise<void> {
    for (const [tenantId, pushes] of waiting) {
      try {
        const users = await tenantUsersHolding(this.app.db, tenantId, [SoftUpdatePerm.list]);
        const data: SoftUpdateNotice = { pushes: [...pushes.values()] };
        await this.app.realtime.sendToUsers(users, { cmd: RealtimeCmd.softUpdate, msgId: data.pushes[0]?.updateId, data });
      } catch (error) {
        this.app.log.error({ err: error }, 'soft update notice failed');
      }
    }
  }
}

async function pushRow(db: Kysely<Database>, where: { commandId: string }): Promise<(SoftUpdatePushRow & { tenantId: string | null }) | null> {
  const row = await db
    .selectFrom('sys_soft_update_push as p')
    .leftJoin('sys_device as d', 'd.id', 'p.device_id')
    .select(['p.id', 'p.update_id', 'p.device_id', 'p.progress', 'p.state', 'p.error', 'p.tenant_id', 'd.device_name'])
    .where('p.command_id', '=', where.commandId)
    .executeTakeFirst();
  if (!row) return null;
  return { id: row.id, updateId: row.update_id, deviceId: row.device_id, deviceName: row.device_name ?? '', progress: row.progress, state: row.state as SoftUpdateState, error: row.error, tenantId: row.tenant_id };
}

/**
 * What devices report besides presence: softUpdate progress events move a push's bar (never backwards, never after it
 * ended), the command's acknowledgement ends it (ok or failed), runError events become device run log entries and
 * alarm events alarms (each event once, by device and sequence number).
 */
function observeDevices(app: FastifyInstance, notifier: SoftUpdateNotifier): void {
  const now = () => new Date(app.clock()).toISOString();
  app.deviceGateway.observe({
    // in the transaction that stores the events (on its handle)
    store: async (db, device, events, derived) => {
      for (const event of events) if (event.kind === DeviceEventKind.softUpdate) await progressed(db, device.id, event);
      storeRunErrors(derived, device, events);
      storeAlarms(derived, device, events);
    },
    ack: async (device, ack) => finished(device.id, ack),
  });

  async function progressed(db: Kysely<Database>, deviceId: string, event: DeviceEvent): Promise<void> {
    const { command, progress } = event.data as { command?: unknown; progress?: unknown };
    if (typeof command !== 'string' || typeof progress !== 'number' || !Number.isFinite(progress)) return;
    const value = Math.max(0, Math.min(100, Math.round(progress)));
    const result = await db
      .updateTable('sys_soft_update_push')
      .set({ progress: value, state: SoftUpdateState.running, update_time: now() })
      .where('command_id', '=', command)
      .where('device_id', '=', deviceId)
      .where('state', 'in', [SoftUpdateState.queued, SoftUpdateState.running])
      .where('progress', '<=', value)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return;
    const row = await pushRow(db, { commandId: command });
    if (row) notifier.changed(row.tenantId, row);
  }

  async function finished(deviceId: string, ack: DeviceAck): Promise<void> {
    const error = ack.ok ? null : clip((ack.result as { error?: unknown } | undefined)?.error, 255) ?? 'failed';
    const result = await app.db
      .updateTable('sys_soft_update_push')
      .set({ state: ack.ok ? SoftUpdateState.ok : SoftUpdateState.failed, ...(ack.ok ? { progress: 100 } : {}), error, finish_time: now(), update_time: now() })
      .where('command_id', '=', ack.id)
      .where('device_id', '=', deviceId)
      .where('state', 'in', [SoftUpdateState.queued, SoftUpdateState.running])
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return;
    const row = await pushRow(app.db, { commandId: ack.id });
    if (row) notifier.changed(row.tenantId, row);
  }

  function storeRunErrors(derived: DerivedRows, device: { id: string; tenantId: string | null }, events: readonly DeviceEvent[]): void {
    for (const event of events) {
      if (event.kind !== DeviceEventKind.runError) continue;
      const data = event.data as { type?: unknown; code?: unknown; content?: unknown; ip?: unknown };
      derived.add('sys_device_run_log', device, {
        event_seq: event.seq,
        error_type: clip(data.type, 64) ?? 'unknown',
        content: clip(data.content, 2000),
        code: clip(data.code, 64),
        report_ip: clip(data.ip, 64),
        state: 0,
        error_time: new Date(event.time).toISOString(),
      });
    }
  }

  function storeAlarms(derived: DerivedRows, device: { id: string; tenantId: string | null }, events: readonly DeviceEvent[]): void {
    for (const event of events) {
      if (event.kind !== DeviceEventKind.alarm) continue;
      const data = event.data as { code?: unknown; level?: unknown };
      derived.add('sys_device_alarm', device, {
        event_seq: event.seq,
        code: clip(data.code, 64) ?? 'unknown',
        level: data.level === 'H' || data.level === 'M' ? data.level : 'L',
        state: AlarmState.open,
        alarm_time: new Date(event.time).toISOString(),
        handled_by: null,
        handled_time: null,
      });
    }
  }
}

/**
 * Soft update: a software package (APK or tar, checked on its content) is uploaded with its version, pushed to chosen
 * devices as one softUpdate command each, downloaded by each device with its device key, and followed live. Beside it
 * the device run log and the alarms, both filled from device events.
 */
export const softUpdateRoutes: FastifyPluginAsyncZod = async (app) => {
  const notifier = new SoftUpdateNotifier(app);
  observeDevices(app, notifier);
  app.addHook('preClose', () => notifier.flush());

  registerEntity(app, softUpdateEntity, {
    deleteLinked: async (trx, ids) => {
      await trx.deleteFrom('sys_soft_update_push').where('update_id', 'in', ids).execute();
    },
    routes: (routes, registered) => {
      uploadRoutes(routes, (uploads) => {
        uploads.post(
          SoftUpdatePath.upload,
          { schema: { tags, summary: 'Add a software package: fields version, deviceModel, updateLog, then the APK or tar as file' }, config: { permission: SoftUpdatePerm.add } },
          async (request, reply) => {
            const caller = callerOf(request);
            if (!(await countUpload(app, request, caller, SOFT_UPDATE_MAX_BYTES))) return tooManyUploads(app, request, reply);
            const part = request.isMultipart() ? await request.file({ limits: { fileSize: SOFT_UPDATE_MAX_BYTES } }) : undefined;
            if (!part) throw new AppError('badRequest', 'upload.noFile');
            const fields = part.fields as Record<string, unknown>;
            const version = fieldValue(fields, 'version');
            const deviceModel = fieldValue(fields, 'deviceModel') ?? null;
            const updateLog = fieldValue(fields, 'updateLog') ?? null;
            const name = part.filename.split(/[/\\]/).pop()?.slice(0, 120) || '?';
            if (!(SOFT_UPDATE_EXTENSIONS as readonly string[]).includes(fileExtension(part.filename))) {
              part.file.resume();
              refuse('softUpdate.notPackage', { name });
            }
            if (!version || !textSchema(64).safeParse(version).success || (deviceModel && deviceModel.length > 100) || (updateLog && updateLog.length > 2000)) {
              part.file.resume();
              throw new AppError('badRequest', 'validation.required', { field: 'version' });
            }
            const taken = await registered
              .scoped(caller)
              .select('id')
              .where('version', '=', version)
              .where((eb) => (deviceModel === null ? eb('device_model', 'is', null) : eb('device_model', '=', deviceModel)))
              .executeTakeFirst();
            if (taken) {
              part.file.resume();
              refuse('duplicate.softUpdateVersion');
            }
            const stored = await storeUpload(app.settings.dataDir, part, PACKAGE_FOLDER, app.clock(), {
              types: PACKAGE_TYPES,
              maxBytes: SOFT_UPDATE_MAX_BYTES,
              admit: (bytes) => checkTenantQuota(app, writeTenant(caller), bytes),
              verify: async (path) => {
                if (!(await isSoftwarePackage(path, part.filename))) refuse('softUpdate.notPackage', { name });
                return true;
              },
            });
            const { sha256, size } = await fileDigest(`${uploadRoot(app.settings.dataDir)}/${stored}`);
            const id = randomUUID();
            await app.db
              .insertInto('sys_soft_update')
              .values({ id, create_by: caller.username, create_time: new Date(app.clock()).toISOString(), update_by: null, update_time: null, version, device_model: deviceModel, apk_file: stored, file_name: name, file_size: size, checksum: sha256, update_log: updateLog, tenant_id: writeTenant(caller) })
              .execute();
            await writeCallerLog(reply, caller, { key: 'log.softUpdateUploaded', params: { entity: softUpdateEntity.title, version, name } }, OperationType.add);
            return reply.ok({ id, fileName: name, fileSize: size, checksum: sha256 }, 'crud.added');
          },
        );
      });

      routes.post(
        SoftUpdatePath.push,
        { schema: { tags, summary: 'Push a package to devices: one softUpdate command per device', body: softUpdatePushBody }, config: { permission: SoftUpdatePerm.push } },
        async (request, reply) => {
          const caller = callerOf(request);
          const body = request.body as z.infer<typeof softUpdatePushBody>;
          const update = await registered.findById(caller, body.id);
          if (!update) refuse('crud.notFound');
          const deviceIds = [...new Set(body.deviceIds)];
          const devices = await tenantScoped(app.db.selectFrom('sys_device').select(['id', 'device_name', 'tenant_id']), caller).where('id', 'in', deviceIds).execute();
          if (devices.length !== deviceIds.length) refuse('door.deviceMissing');
          const path = `${SoftUpdatePath.download}?id=${String(update.id)}`;
          // devices send their key to this URL: it comes from configuration only, never from the request's Host header
          const { publicUrl, apiPrefix } = app.settings;
          const payload: SoftUpdateCommandPayload = { updateId: String(update.id), version: String(update.version), path, ...(publicUrl ? { url: `${publicUrl}${apiPrefix}${path}` } : {}), size: Number(update.file_size), sha256: String(update.checksum) };
          const pushes: SoftUpdatePushRow[] = [];
          for (const device of devices) {
            const id = randomUUID();
            const at = new Date(app.clock()).toISOString();
            // the push row exists before the command can be delivered, so the first progress finds it
            const commandId = randomUUID();
            await app.db
              .insertInto('sys_soft_update_push')
              .values({ id, create_by: caller.username, create_time: at, update_by: null, update_time: null, update_id: String(update.id), device_id: device.id, command_id: commandId, progress: 0, state: SoftUpdateState.queued, error: null, finish_time: null, tenant_id: device.tenant_id })
              .execute();
            await app.deviceGateway.enqueueCommand(device.id, DeviceCommandKind.softUpdate, payload, caller.username, commandId);
            pushes.push({ id, updateId: String(update.id), deviceId: device.id, deviceName: device.device_name, progress: 0, state: SoftUpdateState.queued, error: null });
          }
          await writeCallerLog(reply, caller, { key: 'log.softUpdatePushed', params: { entity: softUpdateEntity.title, version: String(update.version), devices: devices.map((d) => d.device_name).join(', ').slice(0, 500) } });
          return reply.ok(pushes, 'softUpdate.pushed', { count: pushes.length });
        },
      );

      routes.get(SoftUpdatePath.pushes, { schema: { tags, summary: 'Every push of a package with its progress', querystring: idQuery }, config: { permission: SoftUpdatePerm.list } }, async (request, reply) => {
        const caller = callerOf(request);
        const update = await registered.findById(caller, (request.query as z.infer<typeof idQuery>).id);
        if (!update) refuse('crud.notFound');
        const rows = await app.db
          .selectFrom('sys_soft_update_push as p')
          .leftJoin('sys_device as d', 'd.id', 'p.device_id')
          .select(['p.id', 'p.device_id', 'p.progress', 'p.state', 'p.error', 'd.device_name'])
          .where('p.update_id', '=', String(update.id))
          .orderBy('d.device_name')
          .orderBy('p.create_time')
          .limit(5000)
          .execute();
        return reply.ok(rows.map((r): SoftUpdatePushRow => ({ id: r.id, updateId: String(update.id), deviceId: r.device_id, deviceName: r.device_name ?? '', progress: r.progress, state: r.state as SoftUpdateState, error: r.error })));
      });
    },
  });

  // devices, not people, fetch packages: signed with the device's serial number and key, for a package pushed to it
  app.get(SoftUpdatePath.download, { schema: { tags, summary: 'A pushed package, for the device it was pushed to (X-Device-Sn, X-Device-Key)', querystring: idQuery }, exposeHeadRoute: true, config: { permission: 'public' } }, async (request, reply) => {
    const sn = request.headers[DEVICE_SN_HEADER];
    const key = request.headers[DEVICE_KEY_HEADER];
    const code = typeof sn === 'string' && typeof key === 'string' ? await approvedDeviceCode(app.db, sn, key) : null;
    if (!code) throw new AppError('unauthorized', 'error.unauthorized');
    const id = (request.query as z.infer<typeof idQuery>).id;
    const found = await app.db
      .selectFrom('sys_soft_update_push as p')
      .innerJoin('sys_device as d', 'd.id', 'p.device_id')
      .innerJoin('sys_soft_update as u', 'u.id', 'p.update_id')
      .select(['u.apk_file'])
      .where('p.update_id', '=', id)
      .where('d.sn', '=', sn as string)
      .executeTakeFirst();
    const file = found ? await findStoredFile(app.settings.dataDir, found.apk_file, PACKAGE_TYPES) : null;
    if (!file) throw new AppError('notFound', 'error.notFound');
    return reply.header('content-type', file.contentType).header('content-length', String(file.size)).header('x-content-type-options', 'nosniff').send(createReadStream(file.absolutePath));
  });

  registerEntity(app, deviceRunLogEntity, {});
};
