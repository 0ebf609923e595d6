import { randomBytes, randomUUID } from 'node:crypto';
import { DeviceAuditStatus, type DeviceCodeRow } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { SysDeviceCode } from '../../db/schema.ts';
import { issueDeviceKey } from '../../gateway/index.ts';
import type { CurrentUser } from '../../platform/access.ts';
import { refuse } from '../../platform/envelope.ts';
import { tenantScoped, writeTenant } from '../../platform/tenancy.ts';
import { refuseCodeForOtherTenantsDevice } from './serial-owner.ts';

/** An activation code as installers type it: 16 characters of an alphabet without look-alikes, in groups of four. */
function newActivationCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(16);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

export function deviceCodeRow(row: Selectable<SysDeviceCode>): DeviceCodeRow {
  return {
    id: row.id,
    sn: row.sn,
    activationCode: row.activation_code,
    authorizationCode: row.authorization_code,
    auditStatus: row.audit_status,
    auditBy: row.audit_by,
    auditTime: row.audit_time,
    keyIssued: row.device_key_hash !== null,
    remark: row.remark,
    tenantId: row.tenant_id,
    createBy: row.create_by,
    createTime: row.create_time,
  };
}

export function deviceCodes(app: FastifyInstance, caller: CurrentUser) {
  return tenantScoped(app.db.selectFrom('sys_device_code'), caller);
}

export async function addDeviceCode(app: FastifyInstance, caller: CurrentUser, input: { sn: string; authorizationCode?: string; remark?: string }): Promise<DeviceCodeRow> {
  // a serial number is one physical device, whichever tenant holds it
  const taken = await app.db.selectFrom('sys_device_code').select('id').where('sn', '=', input.sn).executeTakeFirst();
  if (taken) refuse('deviceCode.snTaken');
  await refuseCodeForOtherTenantsDevice(app.db, input.sn, writeTenant(caller));
  const now = new Date(app.clock()).toISOString();
  const row: Selectable<SysDeviceCode> = {
    id: randomUUID(),
    create_by: caller.username,
    create_time: now,
    update_by: null,
    update_time: null,
    sn: input.sn,
    activation_code: newActivationCode(),
    authorization_code: input.authorizationCode || null,
    audit_status: DeviceAuditStatus.pending,
    audit_by: null,
    audit_time: null,
    device_key_hash: null,
    key_issued_time: null,
    previous_key_hash: null,
    previous_key_until: null,
    remark: input.remark ?? null,
    tenant_id: writeTenant(caller),
  };
  await app.db.insertInto('sys_device_code').values(row).execute();
  return deviceCodeRow(row);
}

/**
 * Agree issues a new device key (answered this once, stored hashed; any earlier key stops working); disagree
 * withdraws the key, so the device can no longer connect.
 */
export async function auditDeviceCode(app: FastifyInstance, caller: CurrentUser, id: string, status: number): Promise<{ row: DeviceCodeRow; deviceKey: string | null }> {
  const existing = await deviceCodes(app, caller).selectAll().where('id', '=', id).executeTakeFirst();
  if (!existing) refuse('crud.notFound');
  const now = new Date(app.clock()).toISOString();
  const issued = status === DeviceAuditStatus.agree ? issueDeviceKey() : null;
  const changes = {
    audit_status: status,
    audit_by: caller.username,
    audit_time: now,
    device_key_hash: issued?.hash ?? null,
    key_issued_time: issued ? now : null,
    // a new approval ends any rotation: only the key issued now works
    previous_key_hash: null,
    previous_key_until: null,
    update_by: caller.username,
    update_time: now,
  };
  await app.db.updateTable('sys_device_code').set(changes).where('id', '=', id).execute();
  return { row: deviceCodeRow({ ...existing, ...changes }), deviceKey: issued?.key ?? null };
}
