import { randomUUID } from 'node:crypto';
import {
  DeviceCommandKind,
  DeviceEventKind,
  EMERGENCY_DEFAULT_THRESHOLD,
  RealtimeCmd,
  type DeviceEvent,
  type EmergencyNotice,
  type EmergencyScenario,
  type EmergencySetting,
  type EmergencyState,
  type MusterArea,
  type MusterPerson,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { SysEmergency } from '../../db/schema.ts';
import type { CurrentUser } from '../../platform/access.ts';
import { OperationType, writeOperationLog, type LogText } from '../../platform/audit-log.ts';
import { refuse } from '../../platform/envelope.ts';

/** Access events older than this do not place anyone inside (a person whose exit was not recorded is not mustered for days). */
const MUSTER_WINDOW_MS = 24 * 3_600_000;
/** the most access events a muster list reads */
const MUSTER_EVENT_LIMIT = 100_000;

/** Commands of a scenario are created by this name, so its end finds the doors it held open. */
function commandAuthor(scenarioId: string): string {
  return `emergency:${scenarioId}`;
}

function scenarioOf(row: Selectable<SysEmergency>): EmergencyScenario {
  return {
    id: row.id,
    deviceId: row.device_id,
    deviceName: row.device_name,
    intensity: row.intensity,
    pga: row.pga === null ? null : Number(row.pga),
    startTime: row.create_time ?? row.reading_time,
    doorCount: row.door_count,
    endTime: row.end_time,
    endBy: row.end_by,
  };
}

/** The tenant's setting, or the default one: on, intensity 5, no egress doors. */
export async function emergencySetting(app: FastifyInstance, tenantId: string): Promise<EmergencySetting> {
  const row = await app.db.selectFrom('sys_emergency_setting').selectAll().where('tenant_key', '=', tenantId).executeTakeFirst();
  if (!row) return { enabled: true, threshold: EMERGENCY_DEFAULT_THRESHOLD, egressDoorIds: [] };
  return { enabled: row.enabled === 1, threshold: row.threshold, egressDoorIds: JSON.parse(row.egress_door_ids) as string[] };
}

export async function saveEmergencySetting(app: FastifyInstance, caller: CurrentUser, setting: EmergencySetting, ip: string): Promise<EmergencySetting> {
  const tenantId = caller.tenantScope;
  if (tenantId === null) refuse('crud.notFound');
  const doorIds = [...new Set(setting.egressDoorIds)];
  if (doorIds.length > 0) {
    const found = await app.db.selectFrom('sys_door').select('id').where('tenant_id', '=', tenantId).where('id', 'in', doorIds).execute();
    if (found.length !== doorIds.length) refuse('emergency.doorMissing');
  }
  const now = new Date(app.clock()).toISOString();
  const values = { enabled: setting.enabled ? 1 : 0, threshold: setting.threshold, egress_door_ids: JSON.stringify(doorIds), update_by: caller.username, update_time: now };
  const updated = await app.db.updateTable('sys_emergency_setting').set(values).where('tenant_key', '=', tenantId).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) {
    await app.db
      .insertInto('sys_emergency_setting')
      .values({ id: randomUUID(), create_by: caller.username, create_time: now, ...values, tenant_key: tenantId, tenant_id: tenantId })
      .execute();
  }
  await writeOperationLog(app, {
    operateType: OperationType.edit,
    userId: caller.id,
    username: caller.username,
    tenantId,
    ip,
    content: { key: 'log.emergencySettingSaved', params: { threshold: setting.threshold, doors: doorIds.length } },
    costMs: 0,
  });
  return { ...setting, egressDoorIds: doorIds };
}

/** The scenario running for the caller's tenant. */
export async function currentEmergency(app: FastifyInstance, tenantId: string | null): Promise<EmergencyState> {
  if (tenantId === null) return { active: false };
  const row = await app.db.selectFrom('sys_emergency').selectAll().where('active_key', '=', tenantId).executeTakeFirst();
  return row ? { active: true, scenario: scenarioOf(row) } : { active: false };
}

/** Everyone of the tenant who may have a console open: the alarm is for every console, not only the device readers. */
async function tenantUsers(app: FastifyInstance, tenantId: string): Promise<string[]> {
  const rows = await app.db.selectFrom('sys_user').select('id').where('tenant_id', '=', tenantId).where('del_flag', '=', 0).where('status', '=', 1).execute();
  return rows.map((r) => r.id);
}

async function notify(app: FastifyInstance, tenantId: string, notice: EmergencyNotice): Promise<void> {
  await app.realtime.sendToUsers(await tenantUsers(app, tenantId), { cmd: RealtimeCmd.emergency, msgId: notice.scenario?.id, msgTxt: notice.scenario?.deviceName, data: notice });
}

/** A step the device or the scenario took on its own: logged in the tenant under the device's serial number. */
function systemLog(app: FastifyInstance, tenantId: string, by: string, content: LogText): Promise<void> {
  return writeOperationLog(app, { operateType: OperationType.edit, userId: by, username: by, tenantId, ip: '', content, costMs: 0 });
}

function intensityOf(event: DeviceEvent): { intensity: number; pga: number | null } | null {
  if (event.kind !== DeviceEventKind.quakeReading) return null;
  const { intensity, pga } = event.data as { intensity?: unknown; pga?: unknown };
  if (typeof intensity !== 'number' || !Number.isFinite(intensity)) return null;
  return { intensity, pga: typeof pga === 'number' && Number.isFinite(pga) ? pga : null };
}

/**
 * Quake readings of a device: the strongest reading at or above the tenant's threshold starts the scenario unless
 * one runs already (the unique running key decides between servers and readings racing), holds every egress door
 * open through its device's command queue, tells every console and logs each step.
 */
export async function evaluateQuakeReadings(app: FastifyInstance, device: { id: string; sn: string; tenantId: string | null }, events: readonly DeviceEvent[]): Promise<void> {
  const tenantId = device.tenantId;
  if (tenantId === null) return;
  let strongest: { intensity: number; pga: number | null; time: number } | null = null;
  for (const event of events) {
    const reading = intensityOf(event);
    if (reading && (!strongest || reading.intensity > strongest.intensity)) strongest = { ...reading, time: event.time };
  }
  if (!strongest) return;
  const setting = await emergencySetting(app, tenantId);
  if (!setting.enabled || strongest.intensity < setting.threshold) return;
  if (await app.db.selectFrom('sys_emergency').select('id').where('active_key', '=', tenantId).executeTakeFirst()) return;

  const deviceRow = await app.db.selectFrom('sys_device').select('device_name').where('id', '=', device.id).executeTakeFirst();
  const id = randomUUID();
  const now = new Date(app.clock()).toISOString();
  try {
    await app.db
      .insertInto('sys_emergency')
      .values({
        id,
        create_by: device.sn,
        create_time: now,
        update_by: null,
        update_time: null,
        device_id: device.id,
        device_name: deviceRow?.device_name ?? device.sn,
        intensity: Math.round(strongest.intensity),
        pga: strongest.pga,
        reading_time: new Date(strongest.time).toISOString(),
        door_count: 0,
        active_key: tenantId,
        end_by: null,
        end_time: null,
        tenant_id: tenantId,
      })
      .execute();
  } catch (error) {
    // another reading (or server) started it a moment ago
    if (await app.db.selectFrom('sys_emergency').select('id').where('active_key', '=', tenantId).executeTakeFirst()) return;
    throw error;
  }

  const doors = setting.egressDoorIds.length === 0 ? [] : await app.db.selectFrom('sys_door').select(['id', 'door_name', 'door_no', 'device_id']).where('tenant_id', '=', tenantId).where('id', 'in', setting.egressDoorIds).orderBy('door_name').execute();
  const held: Array<{ door: string; command: string }> = [];
  // the doors first: every console is told once the commands are on their way
  for (const door of doors) {
    const command = await app.deviceGateway.enqueueCommand(door.device_id, DeviceCommandKind.holdOpen, { door: door.door_no, open: true }, commandAuthor(id));
    held.push({ door: door.door_name, command });
  }
  await app.db.updateTable('sys_emergency').set({ door_count: doors.length }).where('id', '=', id).execute();
  const state = await currentEmergency(app, tenantId);
  if (state.active) await notify(app, tenantId, state);
  const name = deviceRow?.device_name ?? device.sn;
  await systemLog(app, tenantId, device.sn, { key: 'log.emergencyStarted', params: { device: name, intensity: Math.round(strongest.intensity), doors: doors.length } });
  for (const { door, command } of held) await systemLog(app, tenantId, device.sn, { key: 'log.emergencyDoorHeld', params: { door, command } });
}

/** Ends the caller's running scenario: the egress doors it held go back to normal, every console drops the alarm. */
export async function endEmergency(app: FastifyInstance, caller: CurrentUser, scenarioId: string, ip: string): Promise<EmergencyScenario> {
  const tenantId = caller.tenantScope;
  if (tenantId === null) refuse('emergency.notActive');
  const now = new Date(app.clock()).toISOString();
  const ended = await app.db
    .updateTable('sys_emergency')
    .set({ active_key: null, end_by: caller.username, end_time: now, update_by: caller.username, update_time: now })
    .where('id', '=', scenarioId)
    .where('tenant_id', '=', tenantId)
    .where('active_key', 'is not', null)
    .executeTakeFirst();
  if (Number(ended.numUpdatedRows) === 0) refuse('emergency.notActive');
  const row = await app.db.selectFrom('sys_emergency').selectAll().where('id', '=', scenarioId).executeTakeFirstOrThrow();
  const scenario = scenarioOf(row);
  const log = (content: LogText) => writeOperationLog(app, { operateType: OperationType.edit, userId: caller.id, username: caller.username, tenantId, ip, content, costMs: 0 });
  await log({ key: 'log.emergencyEnded', params: { device: row.device_name } });

  const holds = await app.db.selectFrom('sys_device_command').select(['device_id', 'payload']).where('create_by', '=', commandAuthor(scenarioId)).where('kind', '=', DeviceCommandKind.holdOpen).execute();
  for (const hold of holds) {
    const doorNo = (JSON.parse(hold.payload ?? '{}') as { door?: number }).door;
    if (typeof doorNo !== 'number') continue;
    const door = await app.db.selectFrom('sys_door').select('door_name').where('device_id', '=', hold.device_id).where('door_no', '=', doorNo).executeTakeFirst();
    const command = await app.deviceGateway.enqueueCommand(hold.device_id, DeviceCommandKind.holdOpen, { door: doorNo, open: false }, caller.username);
    await log({ key: 'log.emergencyDoorReleased', params: { door: door?.door_name ?? String(doorNo), command } });
  }
  await notify(app, tenantId, { active: false, scenario });
  return scenario;
}

function maskedCard(cardNo: string): string {
  return `****${cardNo.slice(-4)}`;
}

/**
 * Who is inside, per area: each person's last access event (`opening` with a `userNo` or `cardNo`) of the last 24
 * hours; an entry (`direction` "in", the default) places the person in the area of that door (or of its device), an
 * exit takes him out. Unknown cards are listed by their last four characters only.
 */
export async function musterList(app: FastifyInstance, tenantId: string): Promise<MusterArea[]> {
  const since = new Date(app.clock() - MUSTER_WINDOW_MS).toISOString();
  // a card is stored masked: its holder is the one its access event names
  const events = await app.db
    .selectFrom('sys_device_event as e')
    .leftJoin('sys_access_event as a', (join) => join.onRef('a.device_id', '=', 'e.device_id').onRef('a.seq', '=', 'e.seq'))
    .select(['e.device_id', 'e.device_time', 'e.payload', 'a.people_id'])
    .where('e.tenant_id', '=', tenantId)
    .where('e.kind', '=', DeviceEventKind.opening)
    .where('e.device_time', '>=', since)
    .orderBy('e.device_time')
    .limit(MUSTER_EVENT_LIMIT)
    .execute();
  const last = new Map<string, { deviceId: string; doorNo: number | null; time: string; inside: boolean; userNo: string | null; cardNo: string | null; peopleId: string | null }>();
  for (const event of events) {
    const data = JSON.parse(event.payload ?? '{}') as { door?: unknown; userNo?: unknown; cardNo?: unknown; direction?: unknown };
    const userNo = typeof data.userNo === 'string' && data.userNo !== '' ? data.userNo : null;
    const cardNo = typeof data.cardNo === 'string' && data.cardNo !== '' ? data.cardNo : null;
    if (!userNo && !cardNo) continue;
    const peopleId = event.people_id ?? null;
    last.set(userNo ? `u:${userNo}` : peopleId ? `p:${peopleId}` : `c:${cardNo}`, { deviceId: event.device_id, doorNo: typeof data.door === 'number' ? data.door : null, time: event.device_time, inside: data.direction !== 'out', userNo, cardNo, peopleId });
  }
  const inside = [...last.values()].filter((p) => p.inside);
  if (inside.length === 0) return [];

  const deviceIds = [...new Set(inside.map((p) => p.deviceId))];
  const doors = await app.db.selectFrom('sys_door').select(['device_id', 'door_no', 'door_name', 'area_id']).where('device_id', 'in', deviceIds).execute();
  const devices = await app.db.selectFrom('sys_device').select(['id', 'area_id']).where('id', 'in', deviceIds).execute();
  const people = await app.db
    .selectFrom('sys_people')
    .select(['id', 'name', 'user_no'])
    .where('tenant_id', '=', tenantId)
    .where('del_flag', '=', 0)
    .where((eb) =>
      eb.or([
        eb('user_no', 'in', [...new Set(inside.flatMap((p) => (p.userNo ? [p.userNo] : [])))].concat([''])),
        eb('id', 'in', [...new Set(inside.flatMap((p) => (p.peopleId ? [p.peopleId] : [])))].concat([''])),
      ]),
    )
    .execute();
  const areas = new Map<string | null, MusterPerson[]>();
  for (const person of inside) {
    const door = doors.find((d) => d.device_id === person.deviceId && d.door_no === person.doorNo);
    const areaId = door?.area_id ?? devices.find((d) => d.id === person.deviceId)?.area_id ?? null;
    const known = people.find((p) => (person.userNo !== null && p.user_no === person.userNo) || (person.peopleId !== null && p.id === person.peopleId));
    const entry: MusterPerson = {
      peopleId: known?.id ?? null,
      name: known?.name ?? person.userNo ?? maskedCard(person.cardNo ?? ''),
      userNo: known?.user_no ?? person.userNo,
      doorName: door?.door_name ?? null,
      since: person.time,
    };
    areas.set(areaId, [...(areas.get(areaId) ?? []), entry]);
  }
  const areaIds = [...areas.keys()].filter((id): id is string => id !== null);
  const names = areaIds.length === 0 ? [] : await app.db.selectFrom('sys_area').select(['id', 'area_name']).where('id', 'in', areaIds).execute();
  return [...areas.entries()]
    .map(([areaId, list]) => ({
      areaId,
      areaName: names.find((n) => n.id === areaId)?.area_name ?? null,
      people: list.sort((a, b) => a.name.localeCompare(b.name)),
    }))
    .sort((a, b) => (a.areaName ?? '\uffff').localeCompare(b.areaName ?? '\uffff'));
}
