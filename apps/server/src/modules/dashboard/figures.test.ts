import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPath, AttendanceStatus, CabinetStatus, crudPath, DeviceEventKind, doorEntity, DoorState, LogOperateType, LogType, type DashboardDevices, type DashboardSummary } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, uniqueSn, until } from '../../gateway/test-support.ts';
import { formatWireTime } from '../../platform/wire-time.ts';
import { adminToken, api, injectAs, testDialects, type TestApp } from '../../test/harness.ts';

const dialects = (await testDialects()).filter((d) => d !== 'mysql');

describe.each(dialects)('the home page charts after a simulator run on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let admin: string;
  let tenantId: string;
  const sims: SimDevice[] = [];

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { gateway: { offlineAfterMs: 60_000, offlineSweepMs: 3_600_000 } });
    admin = await adminToken(t.app);
    tenantId = (await t.app.db.selectFrom('sys_user').select('tenant_id').where('username', '=', 'admin').executeTakeFirstOrThrow()).tenant_id!;
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop().catch(() => undefined)));
    await t.close();
  });

  const read = async <T>(path: string) => (await injectAs<Required<T>>(t.app, admin, { method: 'GET', url: api(t.app, path) })).envelope.result;

  const start = async (kind: 'door' | 'vein' | 'cabinet', extra: { cabinets?: number } = {}) => {
    const sn = uniqueSn('C');
    const sim = new SimDevice({ url: t.mqttUrl, sn, key: await approvedKey(t.app, sn, admin), kind, doorOpenMs: 0, ...extra });
    sims.push(sim);
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, `hello of ${sn}`);
    const deviceId = (await t.app.db.selectFrom('sys_device').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;
    if (kind !== 'cabinet') await injectAs(t.app, admin, { method: 'POST', url: api(t.app, crudPath(doorEntity, 'add')), payload: { doorName: `Door ${sn}`, deviceId, doorNo: 1 } });
    return { sim, deviceId };
  };

  /** What the database holds, counted row by row here (the server counts with grouped queries). */
  async function fromDatabase() {
    const zone = t.app.settings.timeZone;
    const now = t.app.clock();
    const today = formatWireTime(now, zone).slice(0, 10);
    const hourOfToday = (iso: string | null) => (iso && formatWireTime(iso, zone).slice(0, 10) === today ? Number(formatWireTime(iso, zone).slice(11, 13)) : null);
    const devices = await t.app.db.selectFrom('sys_device').select(['online', 'system_type']).where('tenant_id', '=', tenantId).execute();
    const systems = ['abDoor', 'access', 'storage', 'quake', 'ks', 'other'] as const;
    const systemOf = (s: string | null) => (systems as readonly string[]).includes(s ?? '') ? s : 'other';
    const alarms = await t.app.db.selectFrom('sys_device_alarm').select(['level', 'state']).where('tenant_id', '=', tenantId).execute();
    const doors = await t.app.db.selectFrom('sys_door').select('state').where('tenant_id', '=', tenantId).execute();
    const events = await t.app.db.selectFrom('sys_device_event').select('create_time').where('tenant_id', '=', tenantId).execute();
    const access = await t.app.db.selectFrom('sys_access_event').select(['kind', 'event_time']).where('tenant_id', '=', tenantId).execute();
    const days = await t.app.db.selectFrom('sys_attendance_day').select('status').where('tenant_id', '=', tenantId).where('day', '=', today).execute();
    const cabinets = await t.app.db.selectFrom('sys_cabinet').select('status').where('tenant_id', '=', tenantId).execute();
    const byHour = (times: Array<string | null>) => {
      const hours = Array.from({ length: 24 }, () => 0);
      for (const time of times) {
        const hour = hourOfToday(time);
        if (hour !== null) hours[hour]! += 1;
      }
      return hours;
    };
    const openAlarms = alarms.filter((a) => a.state < 2);
    const devicesFigures: Omit<Required<DashboardDevices>, 'emergencyActive'> = {
      devicesOnline: devices.filter((d) => d.online === 1).length,
      devicesOffline: devices.filter((d) => d.online !== 1).length,
      doorsOpen: doors.filter((d) => d.state === DoorState.open).length,
      openAlarms: openAlarms.length + doors.filter((d) => d.state === DoorState.alarm).length,
      eventsByHour: byHour(events.map((e) => e.create_time)),
      devicesBySystem: systems
        .map((system) => ({ system, online: devices.filter((d) => systemOf(d.system_type) === system && d.online === 1).length, offline: devices.filter((d) => systemOf(d.system_type) === system && d.online !== 1).length }))
        .filter((s) => s.online + s.offline > 0),
      accessByHour: { openings: byHour(access.filter((a) => a.kind === 'opening').map((a) => a.event_time)), denials: byHour(access.filter((a) => a.kind === 'denial').map((a) => a.event_time)) },
      alarmsByLevel: { L: openAlarms.filter((a) => a.level !== 'M' && a.level !== 'H').length, M: openAlarms.filter((a) => a.level === 'M').length, H: openAlarms.filter((a) => a.level === 'H').length },
      attendanceToday: {
        normal: days.filter((d) => d.status === AttendanceStatus.normal).length,
        late: days.filter((d) => d.status === AttendanceStatus.late).length,
        absent: days.filter((d) => d.status === AttendanceStatus.absent).length,
      },
      cabinets: { occupied: cabinets.filter((c) => c.status === CabinetStatus.assigned).length, free: cabinets.filter((c) => c.status !== CabinetStatus.assigned).length },
    };
    // the summary's days are UTC calendar days
    const users = await t.app.db.selectFrom('sys_user').select('id').where('tenant_id', '=', tenantId).where('del_flag', '=', 0).execute();
    const roles = await t.app.db.selectFrom('sys_role').select('id').where('tenant_id', '=', tenantId).execute();
    const departs = await t.app.db.selectFrom('sys_depart').select('id').where('tenant_id', '=', tenantId).where('del_flag', '=', 0).execute();
    const tokens = await t.app.db.selectFrom('sys_user_token as k').innerJoin('sys_user as u', 'u.id', 'k.user_id').select('k.expires_at').where('u.tenant_id', '=', tenantId).execute();
    const logins = await t.app.db.selectFrom('sys_log').select('create_time').where('tenant_id', '=', tenantId).where('log_type', '=', LogType.login).where('operate_type', '=', LogOperateType.login).execute();
    const week = Array.from({ length: 7 }, (_, i) => new Date(now - (6 - i) * 86_400_000).toISOString().slice(0, 10));
    const summary: Required<DashboardSummary> = {
      userCount: users.length,
      roleCount: roles.length,
      departCount: departs.length,
      onlineTokenCount: tokens.filter((k) => k.expires_at > new Date(now).toISOString()).length,
      loginsToday: logins.filter((l) => l.create_time?.slice(0, 10) === week[6]).length,
      loginsLast7Days: week.map((date) => ({ date, count: logins.filter((l) => l.create_time?.slice(0, 10) === date).length })),
    };
    return { devices: devicesFigures, summary };
  }

  it('answers every figure of the summary and of the device charts as the database holds it', async () => {
    const door = await start('door');
    const vein = await start('vein');
    const cabinet = await start('cabinet', { cabinets: 4 });
    await until(async () => (await t.app.db.selectFrom('sys_cabinet').select('id').where('device_id', '=', cabinet.deviceId).execute()).length === 4, 15_000, 'cabinets of the hello');

    await door.sim.emit(DeviceEventKind.opening, { door: 1, method: 'card' });
    await door.sim.emit(DeviceEventKind.opening, { door: 1, method: 'palm' });
    await door.sim.emit(DeviceEventKind.denial, { door: 1, method: 'card', reason: 'unknown' });
    await vein.sim.emit(DeviceEventKind.denial, { door: 1, method: 'palm', reason: 'outsideTime' });
    await door.sim.raiseAlarm('heldOpen', 'M');
    await vein.sim.raiseAlarm('tamper', 'L');
    await door.sim.emit(DeviceEventKind.doorState, { door: 1, state: 'open' });
    await cabinet.sim.dropOffNetwork();

    // one cabinet allocated, three daily results of today
    const cabinetRow = await t.app.db.selectFrom('sys_cabinet').select('id').where('device_id', '=', cabinet.deviceId).where('cabinet_no', '=', 1).executeTakeFirstOrThrow();
    await t.app.db.updateTable('sys_cabinet').set({ status: CabinetStatus.assigned }).where('id', '=', cabinetRow.id).execute();
    const today = formatWireTime(t.app.clock(), t.app.settings.timeZone).slice(0, 10);
    const statuses = [AttendanceStatus.normal, AttendanceStatus.normal, AttendanceStatus.late, AttendanceStatus.absent, AttendanceStatus.leaveEarly];
    await t.app.db
      .insertInto('sys_attendance_day')
      .values(statuses.map((status, i) => ({ id: randomUUID(), people_id: randomUUID(), day_index: 100 + i, day: today, month: today.slice(0, 7), status, punch_count: 1, corrected: 0, tenant_id: tenantId })))
      .execute();

    await until(async () => {
      await t.app.deviceGateway.flush();
      const now = await read<DashboardDevices>(ApiPath.dashboardDevices);
      return now.devicesOffline === 1 && now.doorsOpen === 1 && now.accessByHour.denials.reduce((s, n) => s + n, 0) === 2 && now.alarmsByLevel.M >= 1 && now.alarmsByLevel.L >= 1;
    }, 15_000, 'the run in the figures');

    const devices = await read<DashboardDevices>(ApiPath.dashboardDevices);
    const summary = await read<DashboardSummary>(ApiPath.dashboardSummary);
    const expected = await fromDatabase();
    expect(devices).toEqual({ ...expected.devices, emergencyActive: false });
    expect(summary).toEqual(expected.summary);

    // and the run shows in them as it was made
    expect(devices.devicesBySystem).toEqual([
      { system: 'abDoor', online: 1, offline: 0 },
      { system: 'access', online: 1, offline: 0 },
      { system: 'storage', online: 0, offline: 1 },
    ]);
    expect(devices.accessByHour.openings.reduce((s, n) => s + n, 0)).toBe(2);
    expect(devices.attendanceToday).toEqual({ normal: 2, late: 1, absent: 1 });
    expect(devices.cabinets).toEqual({ occupied: 1, free: 3 });
    expect(summary.loginsToday).toBeGreaterThan(0);
  });
});
