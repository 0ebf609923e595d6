import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AccessSyncPath,
  AccessSyncPerm,
  alarmEntity,
  AlarmPath,
  DeviceAuditStatus,
  DeviceCodePath,
  DeviceEventKind,
  deviceEntity,
  DevicePath,
  DevicePerm,
  LogType,
  PeoplePath,
  peopleEntity,
  permissionCode,
  SoftUpdatePath,
  SoftUpdatePerm,
  type MessageKey,
} from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { buildLinkedApp, uniqueSn, until } from '../../gateway/test-support.ts';
import { createRoleWith } from '../../test/crud-helpers.ts';
import { uploadSoftUpdate } from '../../test/software-packages.ts';
import { adminToken, api, createTestUser, defaultTenantId, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

/** Every device operation an operator can do, each with the log entry that must tell it. */
const OPERATIONS = [
  'issue a device code',
  'approve a device code',
  'refuse a device code',
  'delete a device code',
  'upload a software package',
  'push a software package',
  'choose the capture device',
  'resync a device',
  'read an ID card',
  'acknowledge an alarm',
  'close an alarm',
  'rotate a device key',
  'revoke a device key',
] as const;
type Operation = (typeof OPERATIONS)[number];

const OPERATOR_CODES = [
  DevicePerm.codeAdd, DevicePerm.codeAudit, DevicePerm.codeDelete, DevicePerm.codeList, SoftUpdatePerm.add, SoftUpdatePerm.push,
  permissionCode(deviceEntity, 'capture'), AccessSyncPerm.resync, permissionCode(peopleEntity, 'readIdCard'), permissionCode(alarmEntity, 'handle'),
  permissionCode(deviceEntity, 'rotateKey'), permissionCode(deviceEntity, 'revokeKey'),
];

describe.each((await testDialects()).filter((d) => d !== 'mysql'))('the audit trail of device operations on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let operator: string;
  let operatorId: string;
  let tenantId: string;
  let sim: SimDevice | null = null;

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 600_000, offlineSweepMs: 3_600_000 } });
    await adminToken(t.app);
    await createRoleWith(t.app, 'device_operator', OPERATOR_CODES);
    await createTestUser(t.app, 'devoperator', { roles: ['device_operator'] });
    operator = await login(t.app, 'devoperator', USER_PASSWORD);
    operatorId = (await t.app.db.selectFrom('sys_user').select('id').where('username', '=', 'devoperator').executeTakeFirstOrThrow()).id;
    tenantId = await defaultTenantId(t.app);
  });
  afterAll(async () => {
    // a simulated device the broker disconnected may not end its client at once (mqtt.js): not waited for long
    if (sim) await Promise.race([sim.stop().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 2000))]);
    await t.close();
  });

  const call = async <T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: Record<string, unknown>) => {
    const answer = await injectAs<T>(t.app, operator, { method, url: api(t.app, path), payload });
    expect(answer.envelope.success, `${method} ${path}: ${answer.envelope.message}`).toBe(true);
    return answer.envelope.result;
  };

  it('writes each operation to the operation log with its operator, tenant and target', async () => {
    const sn = uniqueSn('AU');
    const refusedSn = uniqueSn('AR');
    const done = new Map<Operation, { key: MessageKey; target: string }>();

    const code = await call<{ id: string }>('POST', DeviceCodePath.add, { sn });
    done.set('issue a device code', { key: 'log.deviceCodeIssued', target: sn });
    const { deviceKey } = await call<{ deviceKey: string }>('PUT', DeviceCodePath.audit, { id: code.id, auditStatus: DeviceAuditStatus.agree });
    done.set('approve a device code', { key: 'log.deviceCodeApproved', target: sn });
    const other = await call<{ id: string }>('POST', DeviceCodePath.add, { sn: refusedSn });
    await call('PUT', DeviceCodePath.audit, { id: other.id, auditStatus: DeviceAuditStatus.disagree });
    done.set('refuse a device code', { key: 'log.deviceCodeRefused', target: refusedSn });
    await call('DELETE', `${DeviceCodePath.delete}?id=${other.id}`);
    done.set('delete a device code', { key: 'log.deviceCodeDeleted', target: refusedSn });

    sim = new SimDevice({ url: t.mqttUrl, sn, key: deviceKey, kind: 'vein', idCard: '110105199003070015' });
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, 'device online');
    const device = await t.app.db.selectFrom('sys_device').select(['id', 'device_name']).where('sn', '=', sn).executeTakeFirstOrThrow();

    await call('GET', `${DevicePath.setCapture}?id=${device.id}`);
    done.set('choose the capture device', { key: 'log.captureDeviceSet', target: device.device_name });
    // commands carry the server's time, read against the device's own clock: the test's clock is brought to now
    t.clock.advance(Date.now() - t.clock.now());
    await call('GET', `${PeoplePath.readIdCard}?deviceId=${device.id}`);
    done.set('read an ID card', { key: 'log.idCardRead', target: device.device_name });
    const updateId = await uploadSoftUpdate(t.app, operator, '7.0.1');
    done.set('upload a software package', { key: 'log.softUpdateUploaded', target: '7.0.1' });
    await call('POST', SoftUpdatePath.push, { id: updateId, deviceIds: [device.id] });
    done.set('push a software package', { key: 'log.softUpdatePushed', target: device.device_name });
    await call('POST', AccessSyncPath.resync, { id: device.id });
    done.set('resync a device', { key: 'log.deviceResynced', target: device.device_name });

    await sim.emit(DeviceEventKind.alarm, { code: 'tamper', level: 'H' });
    await until(async () => (await t.app.db.selectFrom('sys_device_alarm').select('id').where('device_id', '=', device.id).executeTakeFirst()) !== undefined, 10_000, 'alarm stored');
    const alarm = await t.app.db.selectFrom('sys_device_alarm').select('id').where('device_id', '=', device.id).executeTakeFirstOrThrow();
    await call('PUT', AlarmPath.acknowledge, { id: alarm.id });
    done.set('acknowledge an alarm', { key: 'log.alarmAcknowledged', target: device.device_name });
    await call('PUT', AlarmPath.close, { id: alarm.id });
    done.set('close an alarm', { key: 'log.alarmClosed', target: device.device_name });
    await call('POST', DevicePath.rotateKey, { id: device.id });
    done.set('rotate a device key', { key: 'log.deviceKeyRotated', target: sn });
    await call('POST', DevicePath.revokeKey, { id: device.id });
    done.set('revoke a device key', { key: 'log.deviceKeyRevoked', target: sn });

    expect([...done.keys()].sort()).toEqual([...OPERATIONS].sort());
    const rows = await t.app.db.selectFrom('sys_log').select(['userid', 'username', 'tenant_id', 'log_params', 'content']).where('log_type', '=', LogType.operation).where('username', '=', 'devoperator').execute();
    const missing: string[] = [];
    for (const [operation, { key, target }] of done) {
      const entry = rows.find((r) => r.log_params !== null && (JSON.parse(r.log_params) as { key: string }).key === key && r.content.includes(target));
      if (!entry || entry.userid !== operatorId || entry.tenant_id !== tenantId) missing.push(`${operation} (${key} naming ${target})`);
    }
    expect(missing).toEqual([]);
    // the number read is never written to the log
    expect(rows.some((r) => r.content.includes('110105199003070015') || (r.log_params ?? '').includes('110105199003070015'))).toBe(false);
  });
});
