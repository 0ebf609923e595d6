import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  DEVICE_KEY_HEADER,
  DEVICE_LOG_EXTENSIONS,
  DEVICE_LOG_MAX_BYTES,
  DEVICE_LOG_UPLOAD_TTL_MS,
  DEVICE_SN_HEADER,
  DEVICE_UPLOAD_TOKEN_HEADER,
  DeviceLogFilePath,
  DeviceLogFilePerm,
  deviceLogFileEntity,
  fileExtension,
  idSchema,
  SEND_LOG_COMMAND,
  type SendLogCommandPayload,
} from '@isps/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { approvedDeviceCode } from '../../gateway/device-keys.ts';
import { callerOf } from '../../platform/access.ts';
import { OperationType, writeCallerLog } from '../../platform/audit-log.ts';
import { registerEntity } from '../../platform/crud/index.ts';
import { storedFileDeleteHooks } from '../../platform/crud/stored-file-hooks.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { storeUpload } from '../../platform/files.ts';
import { checkTenantQuota, uploadRoutes } from '../../platform/uploads.ts';
import { tenantScoped } from '../../platform/tenancy.ts';

const tags = ['device'];
const LOG_FOLDER = 'deviceLog';
const requestBody = z.object({ deviceId: idSchema });

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

function header(value: string | string[] | undefined): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * Device log files: the console asks a device for its log (a sendLog command carrying the upload path and a one-time
 * token), the device uploads it over HTTP with its serial number, key and that token, and the log file list shows,
 * downloads and deletes what came (deleting removes the stored file too).
 */
export const logFileRoutes: FastifyPluginAsyncZod = async (app) => {
  const now = () => new Date(app.clock()).toISOString();

  registerEntity(app, deviceLogFileEntity, {
    ...storedFileDeleteHooks(app, 'sys_file'),
    routes: (routes) => {
      routes.post(
        DeviceLogFilePath.request,
        { schema: { tags, summary: 'Ask a device for its log file: queues a sendLog command with a one-time upload token', body: requestBody }, config: { permission: DeviceLogFilePerm.request } },
        async (request, reply) => {
          const caller = callerOf(request);
          const { deviceId } = request.body as z.infer<typeof requestBody>;
          const device = await tenantScoped(app.db.selectFrom('sys_device').select(['id', 'device_name', 'tenant_id']), caller).where('id', '=', deviceId).executeTakeFirst();
          if (!device) refuse('door.deviceMissing');
          const token = randomBytes(24).toString('base64url');
          const commandId = randomUUID();
          const expiresAt = app.clock() + DEVICE_LOG_UPLOAD_TTL_MS;
          await app.db
            .insertInto('sys_device_log_request')
            .values({ id: randomUUID(), create_by: caller.username, create_time: now(), update_by: null, update_time: null, device_id: device.id, command_id: commandId, token_hash: tokenHash(token), expire_time: new Date(expiresAt).toISOString(), used_time: null, tenant_id: device.tenant_id })
            .execute();
          // devices send their key to this URL: it comes from configuration only, never from the request's Host header
          const { publicUrl, apiPrefix } = app.settings;
          const payload: SendLogCommandPayload = { path: DeviceLogFilePath.upload, ...(publicUrl ? { url: `${publicUrl}${apiPrefix}${DeviceLogFilePath.upload}` } : {}), token, expiresAt, maxBytes: DEVICE_LOG_MAX_BYTES };
          await app.deviceGateway.enqueueCommand(device.id, SEND_LOG_COMMAND, payload, caller.username, commandId);
          await writeCallerLog(reply, caller, { key: 'log.deviceLogRequested', params: { entity: deviceLogFileEntity.title, device: device.device_name } }, OperationType.edit);
          return reply.ok({ commandId }, 'deviceLogFile.requested');
        },
      );
    },
  });

  // devices, not people, upload their logs: signed with the device's serial number and key, with the token it was sent
  uploadRoutes(app, (uploads) => {
    uploads.post(
      DeviceLogFilePath.upload,
      { schema: { tags, summary: 'A device uploads the log it was asked for (multipart `file`; X-Device-Sn, X-Device-Key, X-Upload-Token)' }, config: { permission: 'public' } },
      async (request, reply) => {
        const sn = header(request.headers[DEVICE_SN_HEADER]);
        const key = header(request.headers[DEVICE_KEY_HEADER]);
        const token = header(request.headers[DEVICE_UPLOAD_TOKEN_HEADER]);
        const code = sn && key ? await approvedDeviceCode(app.db, sn, key) : null;
        const device = code && sn ? await app.db.selectFrom('sys_device').select(['id', 'tenant_id']).where('sn', '=', sn).executeTakeFirst() : undefined;
        if (!device) throw new AppError('unauthorized', 'error.unauthorized');
        const asked = token
          ? await app.db.selectFrom('sys_device_log_request').select(['id']).where('token_hash', '=', tokenHash(token)).where('device_id', '=', device.id).executeTakeFirst()
          : undefined;
        // once: the token is spent before the bytes are read, so two uploads with it never both land
        const spent = asked
          ? await app.db.updateTable('sys_device_log_request').set({ used_time: now(), update_time: now() }).where('id', '=', asked.id).where('used_time', 'is', null).where('expire_time', '>', now()).executeTakeFirst()
          : undefined;
        if (!spent || Number(spent.numUpdatedRows) !== 1) throw new AppError('forbidden', 'deviceLogFile.tokenRefused');
        const part = request.isMultipart() ? await request.file({ limits: { fileSize: DEVICE_LOG_MAX_BYTES } }) : undefined;
        if (!part) throw new AppError('badRequest', 'upload.noFile');
        const name = part.filename.split(/[/\\]/).pop()?.slice(0, 200) || 'device.log';
        const extension = fileExtension(name);
        if (!(DEVICE_LOG_EXTENSIONS as readonly string[]).includes(extension)) {
          part.file.resume();
          refuse('deviceLogFile.notLog', { name });
        }
        let size = 0;
        // a .log is stored as text, so the stored files' download answers it as such
        const stored = await storeUpload(app.settings.dataDir, { filename: extension === 'log' ? `${name}.txt` : name, file: part.file }, LOG_FOLDER, app.clock(), {
          maxBytes: DEVICE_LOG_MAX_BYTES,
          admit: async (bytes) => {
            await checkTenantQuota(app, device.tenant_id, bytes);
            size = bytes;
          },
        });
        const at = now();
        const id = randomUUID();
        await app.db.transaction().execute(async (trx) => {
          await trx.insertInto('sys_file').values({ id: randomUUID(), file_path: stored, file_name: name, file_type: extension, file_size: size, tenant_id: device.tenant_id, create_by: sn, create_time: at, update_by: null, update_time: null }).execute();
          await trx.insertInto('sys_device_log_file').values({ id, create_by: sn, create_time: at, update_by: null, update_time: null, device_id: device.id, file_name: name, file_path: stored, file_size: size, upload_time: at, tenant_id: device.tenant_id }).execute();
        });
        return reply.ok({ id, fileName: name, fileSize: size });
      },
    );
  });
};
