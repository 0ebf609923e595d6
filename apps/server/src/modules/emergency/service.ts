import { randomUUID } from 'node:crypto';
import {
  DeviceCommandKind,
  DeviceEventKind,
  KeyCommandKind,
  StorageCommandKind,
  EMERGENCY_DEFAULT_THRESHOLD,
  RealtimeCmd,
  WebhookEventKind,
  type DeviceEvent,
  type EmergencyNotice,
  type EmergencyRelease,
  type EmergencyReleaseState,
  type EmergencyReport,
  type EmergencyScenario,
  type EmergencySetting,
  type EmergencyState,
  type MusterArea,
  type MusterPerson,
  type MusterUnknown,
  type Page,
  type RollCallBody,
  type RollCallEntry,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { SysEmergency } from '../../db/schema.ts';
import type { CurrentUser } from '../../platform/access.ts';
import { OperationType, writeOperationLog, type LogText } from '../../platform/audit-log.ts';
import { refuse } from '../../platform/envelope.ts';
import { tenantScoped } from '../../platform/tenancy.ts';

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
    drill: Number(row.drill) === 1,
    deviceId: row.device_id === '' ? null : row.device_id,
    deviceName: row.device_name === '' ? null : row.device_name,
    startBy: row.start_by,
    intensity: row.intensity,
    pga: row.pga === null ? null : Number(row.pga),
    startTime: row.create_time ?? row.reading_time,
    doorCount: row.door_count,
    cabinetCount: Number(row.cabinet_count ?? 0),
    keyCount: Number(row.key_count ?? 0),
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
  await app.realtime.sendToUsers(await tenantUsers(app, tenantId), { cmd: RealtimeCmd.emergency, msgId: notice.scenario?.id, msgTxt: notice.scenario?.deviceName ?? notice.scenario?.startBy ?? undefined, data: notice });
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

interface ScenarioStart {
  drill: boolean;
  /** the sensor of a quake; '' for a drill */
  deviceId: string;
  deviceName: string;
  intensity: number;
  pga: number | null;
  readingTime: number;
  /** the operator of a drill or the sensor's serial number */
  startBy: string;
  /** who the log names: the operator of a drill, the sensor for a quake */
  log: (content: LogText) => Promise<void>;
}

/**
 * Starts a scenario unless one runs already (the unique running key decides between servers and readings racing):
 * holds every egress door open through its device's command queue (a drill's commands say so), takes the people
 * inside into its roll call, tells every console and logs each step. Answers null when another one runs.
 */
async function startScenario(app: FastifyInstance, tenantId: string, start: ScenarioStart): Promise<EmergencyScenario | null> {
  const setting = await emergencySetting(app, tenantId);
  const id = randomUUID();
  const now = new Date(app.clock()).toISOString();
  try {
    await app.db
      .insertInto('sys_emergency')
      .values({
        id,
        create_by: start.startBy,
        create_time: now,
        update_by: null,
        update_time: null,
        device_id: start.deviceId,
        device_name: start.deviceName,
        intensity: start.intensity,
        pga: start.pga,
        reading_time: new Date(start.readingTime).toISOString(),
        door_count: 0,
        active_key: tenantId,
        end_by: null,
        end_time: null,
        tenant_id: tenantId,
        drill: start.drill ? 1 : 0,
        start_by: start.startBy,
        doors: '[]',
      })
      .execute();
  } catch (error) {
    // another reading (or server, or operator) started one a moment ago
    if (await app.db.selectFrom('sys_emergency').select('id').where('active_key', '=', tenantId).executeTakeFirst()) return null;
    throw error;
  }

  const doors = setting.egressDoorIds.length === 0 ? [] : await app.db.selectFrom('sys_door').select(['id', 'door_name', 'door_no', 'device_id']).where('tenant_id', '=', tenantId).where('id', 'in', setting.egressDoorIds).orderBy('door_name').execute();
  const held: Array<{ door: string; command: string }> = [];
  // the doors first: every console is told once the commands are on their way
  for (const door of doors) {
    const payload = start.drill ? { door: door.door_no, open: true, drill: true } : { door: door.door_no, open: true };
    const command = await app.deviceGateway.enqueueCommand(door.device_id, DeviceCommandKind.holdOpen, payload, commandAuthor(id));
    held.push({ door: door.door_name, command });
  }
  const { cabinets, keys } = await holdCabinets(app, tenantId, commandAuthor(id), { open: true, drill: start.drill === true });
  await app.db
    .updateTable('sys_emergency')
    .set({ door_count: doors.length, cabinet_count: cabinets, key_count: keys, doors: JSON.stringify(doors.map((d) => ({ id: d.id, name: d.door_name }))) })
    .where('id', '=', id)
    .execute();
  const state = await currentEmergency(app, tenantId);
  if (state.active) await notify(app, tenantId, state);
  await app.webhooks.enqueue(app.db, tenantId, [{ kind: WebhookEventKind.emergencyStart, time: app.clock(), data: scenarioEvent(id, start.drill, start.deviceId, start.deviceName, start.intensity, start.startBy) }]);
  if (start.drill) await start.log({ key: 'log.drillStarted', params: { user: start.startBy, doors: doors.length } });
  else await start.log({ key: 'log.emergencyStarted', params: { device: start.deviceName, intensity: start.intensity, doors: doors.length } });
  for (const { door, command } of held) await start.log({ key: start.drill ? 'log.drillDoorHeld' : 'log.emergencyDoorHeld', params: { door, command } });
  await takeRollCall(app, tenantId, id);
  const row = await app.db.selectFrom('sys_emergency').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return scenarioOf(row);
}

/** What a webhook is told of a scenario starting or ending. */
function scenarioEvent(id: string, drill: boolean, deviceId: string, deviceName: string, intensity: number, startBy: string): Record<string, unknown> {
  return { scenarioId: id, drill, deviceId: deviceId || null, deviceName: deviceName || null, intensity, startBy };
}

/** Numbers grouped by device, in device order. */
function byDevice(rows: ReadonlyArray<{ device_id: string; no: number }>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const r of rows) out.set(r.device_id, [...(out.get(r.device_id) ?? []), r.no]);
  return out;
}

/**
 * The lockers and the keys of the tenant marked "release in emergency" open with the egress doors: one
 * `releaseCabinets` command per locker device, one `releaseKeys` per key cabinet, sent together. Answers how many
 * cabinets and keys were told to open.
 */
async function holdCabinets(app: FastifyInstance, tenantId: string, author: string, how: { open: boolean; drill: boolean }): Promise<{ cabinets: number; keys: number }> {
  const cabinets = await app.db.selectFrom('sys_cabinet').select(['device_id', 'cabinet_no as no']).where('tenant_id', '=', tenantId).where('release_in_emergency', '=', 1).orderBy('device_id').orderBy('cabinet_no').execute();
  const keys = await app.db.selectFrom('sys_key').select(['device_id', 'slot_no as no']).where('tenant_id', '=', tenantId).where('release_in_emergency', '=', 1).orderBy('device_id').orderBy('slot_no').execute();
  const drill = how.drill ? { drill: true } : {};
  const items = [
    ...[...byDevice(cabinets)].map(([deviceId, nos]) => ({ deviceId, kind: StorageCommandKind.releaseCabinets, payload: { cabinets: nos, open: how.open, ...drill } })),
    ...[...byDevice(keys)].map(([deviceId, nos]) => ({ deviceId, kind: KeyCommandKind.releaseKeys, payload: { slots: nos, open: how.open, ...drill } })),
  ];
  await app.deviceGateway.enqueueCommands(items, author);
  return { cabinets: cabinets.length, keys: keys.length };
}

/**
 * Quake readings of a device: the strongest reading at or above the tenant's threshold starts the scenario unless
 * one runs already.
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
  await startScenario(app, tenantId, {
    drill: false,
    deviceId: device.id,
    deviceName: deviceRow?.device_name ?? device.sn,
    intensity: Math.round(strongest.intensity),
    pga: strongest.pga,
    readingTime: strongest.time,
    startBy: device.sn,
    log: (content) => systemLog(app, tenantId, device.sn, content),
  });
}

function callerLog(app: FastifyInstance, caller: CurrentUser, tenantId: string, ip: string) {
  return (content: LogText) => writeOperationLog(app, { operateType: OperationType.edit, userId: caller.id, username: caller.username, tenantId, ip, content, costMs: 0 });
}

/** A drill started by an operator: the scenario runs as for a quake (doors, alarm, muster, roll call), marked as a drill. */
export async function startDrill(app: FastifyInstance, caller: CurrentUser, ip: string): Promise<EmergencyScenario> {
  const tenantId = caller.tenantScope;
  if (tenantId === null) refuse('crud.notFound');
  if ((await currentEmergency(app, tenantId)).active) refuse('emergency.alreadyActive');
  const scenario = await startScenario(app, tenantId, {
    drill: true,
    deviceId: '',
    deviceName: '',
    intensity: 0,
    pga: null,
    readingTime: app.clock(),
    startBy: caller.username,
    log: callerLog(app, caller, tenantId, ip),
  });
  if (!scenario) refuse('emergency.alreadyActive');
  return scenario;
}

/** Ends the caller's running scenario: the egress doors it held go back to normal, every console drops the alarm. */
export async function endEmergency(app: FastifyInstance, caller: CurrentUser, scenarioId: string, ip: string): Promise<EmergencyScenario> {
  const tenantId = caller.tenantScope;
  if (tenantId === null) refuse('emergency.notActive');
  // who is still inside when it ends belongs to the report's roll call
  const running = await app.db.selectFrom('sys_emergency').select('id').where('id', '=', scenarioId).where('tenant_id', '=', tenantId).where('active_key', 'is not', null).executeTakeFirst();
  if (!running) refuse('emergency.notActive');
  await takeRollCall(app, tenantId, scenarioId);
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
  await app.webhooks.enqueue(app.db, tenantId, [{ kind: WebhookEventKind.emergencyEnd, time: app.clock(), data: { ...scenarioEvent(row.id, row.drill === 1, row.device_id, row.device_name, row.intensity, row.start_by ?? ''), endBy: caller.username } }]);
  const log = callerLog(app, caller, tenantId, ip);
  if (scenario.drill) await log({ key: 'log.drillEnded', params: { user: row.start_by ?? '' } });
  else await log({ key: 'log.emergencyEnded', params: { device: row.device_name } });

  const holds = await app.db.selectFrom('sys_device_command').select(['device_id', 'payload']).where('create_by', '=', commandAuthor(scenarioId)).where('kind', '=', DeviceCommandKind.holdOpen).execute();
  for (const hold of holds) {
    const doorNo = (JSON.parse(hold.payload ?? '{}') as { door?: number }).door;
    if (typeof doorNo !== 'number') continue;
    const door = await app.db.selectFrom('sys_door').select('door_name').where('device_id', '=', hold.device_id).where('door_no', '=', doorNo).executeTakeFirst();
    const payload = scenario.drill ? { door: doorNo, open: false, drill: true } : { door: doorNo, open: false };
    const command = await app.deviceGateway.enqueueCommand(hold.device_id, DeviceCommandKind.holdOpen, payload, caller.username);
    await log({ key: scenario.drill ? 'log.drillDoorReleased' : 'log.emergencyDoorReleased', params: { door: door?.door_name ?? String(doorNo), command } });
  }
  // the lockers and keys it released are held again, device by device
  const released = await app.db
    .selectFrom('sys_device_command')
    .select(['device_id', 'kind', 'payload'])
    .where('create_by', '=', commandAuthor(scenarioId))
    .where('kind', 'in', [StorageCommandKind.releaseCabinets, KeyCommandKind.releaseKeys])
    .execute();
  const drill = scenario.drill ? { drill: true } : {};
  for (const hold of released) {
    const { cabinets, slots } = JSON.parse(hold.payload ?? '{}') as { cabinets?: number[]; slots?: number[] };
    if (hold.kind === StorageCommandKind.releaseCabinets && Array.isArray(cabinets)) await app.deviceGateway.enqueueCommand(hold.device_id, hold.kind, { cabinets, open: false, ...drill }, caller.username);
    if (hold.kind === KeyCommandKind.releaseKeys && Array.isArray(slots)) await app.deviceGateway.enqueueCommand(hold.device_id, hold.kind, { slots, open: false, ...drill }, caller.username);
  }
  await notify(app, tenantId, { active: false, scenario });
  return scenario;
}

function maskedCard(cardNo: string): string {
  return `****${cardNo.slice(-4)}`;
}

interface Inside {
  peopleId: string;
  name: string;
  userNo: string | null;
  areaId: string | null;
  doorName: string | null;
  since: string;
}

/**
 * Who is inside: each person's last access event (`opening` with a `userNo` or `cardNo`) of the last 24 hours; an
 * entry (`direction` "in", the default) places the person in the area of that door (or of its device), an exit
 * takes him out. Only known people are people; a card or user number nobody holds is listed apart, by the card's
 * last four characters only.
 */
async function whoIsInside(app: FastifyInstance, tenantId: string): Promise<{ people: Inside[]; unknown: Array<MusterUnknown & { areaId: string | null }> }> {
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
  if (inside.length === 0) return { people: [], unknown: [] };

  const deviceIds = [...new Set(inside.map((p) => p.deviceId))];
  const doors = await app.db.selectFrom('sys_door').select(['device_id', 'door_no', 'door_name', 'area_id']).where('device_id', 'in', deviceIds).execute();
  const devices = await app.db.selectFrom('sys_device').select(['id', 'area_id']).where('id', 'in', deviceIds).execute();
  const known = await app.db
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
  const people = new Map<string, Inside>();
  const unknown: Array<MusterUnknown & { areaId: string | null }> = [];
  for (const entry of inside) {
    const door = doors.find((d) => d.device_id === entry.deviceId && d.door_no === entry.doorNo);
    const areaId = door?.area_id ?? devices.find((d) => d.id === entry.deviceId)?.area_id ?? null;
    const person = known.find((p) => (entry.userNo !== null && p.user_no === entry.userNo) || (entry.peopleId !== null && p.id === entry.peopleId));
    const doorName = door?.door_name ?? null;
    if (!person) {
      unknown.push({ label: entry.userNo ?? maskedCard(entry.cardNo ?? ''), areaId, doorName, since: entry.time });
      continue;
    }
    // a person who came in by card and by user number is one person, where he came in last
    const earlier = people.get(person.id);
    if (!earlier || earlier.since <= entry.time) people.set(person.id, { peopleId: person.id, name: person.name, userNo: person.user_no, areaId, doorName, since: entry.time });
  }
  return { people: [...people.values()], unknown };
}

async function areaNames(app: FastifyInstance, ids: ReadonlyArray<string | null>): Promise<Map<string, string>> {
  const areaIds = [...new Set(ids.filter((id): id is string => id !== null))];
  const rows = areaIds.length === 0 ? [] : await app.db.selectFrom('sys_area').select(['id', 'area_name']).where('id', 'in', areaIds).execute();
  return new Map(rows.map((r) => [r.id, r.area_name]));
}

/** Puts everyone inside now into the scenario's roll call (unmarked); a person already in it keeps his row. */
async function takeRollCall(app: FastifyInstance, tenantId: string, scenarioId: string): Promise<void> {
  const { people } = await whoIsInside(app, tenantId);
  if (people.length === 0) return;
  const present = new Set((await app.db.selectFrom('sys_emergency_roll').select('people_id').where('emergency_id', '=', scenarioId).execute()).map((r) => r.people_id));
  const names = await areaNames(app, people.map((p) => p.areaId));
  const now = new Date(app.clock()).toISOString();
  const rows = people
    .filter((p) => !present.has(p.peopleId))
    .map((p) => ({
      id: randomUUID(),
      create_by: null,
      create_time: now,
      update_by: null,
      update_time: null,
      emergency_id: scenarioId,
      people_id: p.peopleId,
      people_name: p.name,
      user_no: p.userNo,
      area_name: p.areaId ? (names.get(p.areaId) ?? null) : null,
      door_name: p.doorName,
      safe_by: null,
      safe_time: null,
      tenant_id: tenantId,
    }));
  for (let i = 0; i < rows.length; i += 100) {
    try {
      await app.db.insertInto('sys_emergency_roll').values(rows.slice(i, i + 100)).execute();
    } catch {
      // a console marked one of them at the same moment: take the rest one by one
      for (const row of rows.slice(i, i + 100)) await app.db.insertInto('sys_emergency_roll').values(row).execute().catch(() => undefined);
    }
  }
}

/**
 * Who is inside, per area, with the roll call of the running scenario: people only, each with who marked him safe
 * and when; card or user numbers nobody holds are listed apart in their area.
 */
export async function musterList(app: FastifyInstance, tenantId: string): Promise<MusterArea[]> {
  const { people, unknown } = await whoIsInside(app, tenantId);
  if (people.length === 0 && unknown.length === 0) return [];
  const running = await app.db.selectFrom('sys_emergency').select('id').where('active_key', '=', tenantId).executeTakeFirst();
  const marks = running ? await app.db.selectFrom('sys_emergency_roll').select(['people_id', 'safe_by', 'safe_time']).where('emergency_id', '=', running.id).where('safe_by', 'is not', null).execute() : [];
  const areas = new Map<string | null, { people: MusterPerson[]; unknown: MusterUnknown[] }>();
  const areaOf = (id: string | null) => {
    let area = areas.get(id);
    if (!area) areas.set(id, (area = { people: [], unknown: [] }));
    return area;
  };
  for (const person of people) {
    const mark = marks.find((m) => m.people_id === person.peopleId);
    areaOf(person.areaId).people.push({ peopleId: person.peopleId, name: person.name, userNo: person.userNo, doorName: person.doorName, since: person.since, safeBy: mark?.safe_by ?? null, safeTime: mark?.safe_time ?? null });
  }
  for (const { areaId, ...entry } of unknown) areaOf(areaId).unknown.push(entry);
  const names = await areaNames(app, [...areas.keys()]);
  return [...areas.entries()]
    .map(([areaId, list]) => ({
      areaId,
      areaName: areaId ? (names.get(areaId) ?? null) : null,
      people: list.people.sort((a, b) => a.name.localeCompare(b.name)),
      unknown: list.unknown.sort((a, b) => a.label.localeCompare(b.label)),
    }))
    .sort((a, b) => (a.areaName ?? '\uffff').localeCompare(b.areaName ?? '\uffff'));
}

/**
 * The roll call: a person of the tenant is marked safe in the running scenario (who and when), or the mark is taken
 * back. Every console re-reads its muster list; the step is logged.
 */
export async function markSafe(app: FastifyInstance, caller: CurrentUser, body: RollCallBody, ip: string): Promise<RollCallEntry> {
  const tenantId = caller.tenantScope;
  if (tenantId === null) refuse('emergency.notActive');
  const row = await app.db.selectFrom('sys_emergency').selectAll().where('id', '=', body.id).where('tenant_id', '=', tenantId).where('active_key', 'is not', null).executeTakeFirst();
  if (!row) refuse('emergency.notActive');
  const person = await app.db.selectFrom('sys_people').select(['id', 'name', 'user_no']).where('id', '=', body.peopleId).where('tenant_id', '=', tenantId).where('del_flag', '=', 0).executeTakeFirst();
  if (!person) refuse('emergency.personMissing');
  const now = new Date(app.clock()).toISOString();
  const mark = body.safe ? { safe_by: caller.username, safe_time: now } : { safe_by: null, safe_time: null };
  const update = () => app.db.updateTable('sys_emergency_roll').set({ ...mark, update_by: caller.username, update_time: now }).where('emergency_id', '=', row.id).where('people_id', '=', person.id).executeTakeFirst();
  if (Number((await update()).numUpdatedRows) === 0) {
    // someone who came in after the start: his area and door are where the muster list places him now
    const inside = (await whoIsInside(app, tenantId)).people.find((p) => p.peopleId === person.id);
    const names = await areaNames(app, [inside?.areaId ?? null]);
    try {
      await app.db
        .insertInto('sys_emergency_roll')
        .values({
          id: randomUUID(),
          create_by: caller.username,
          create_time: now,
          update_by: caller.username,
          update_time: now,
          emergency_id: row.id,
          people_id: person.id,
          people_name: person.name,
          user_no: person.user_no,
          area_name: inside?.areaId ? (names.get(inside.areaId) ?? null) : null,
          door_name: inside?.doorName ?? null,
          ...mark,
          tenant_id: tenantId,
        })
        .execute();
    } catch {
      // another console added him a moment ago
      await update();
    }
  }
  const drill = Number(row.drill) === 1;
  const key = body.safe ? (drill ? 'log.drillMarkedSafe' : 'log.emergencyMarkedSafe') : drill ? 'log.drillUnmarkedSafe' : 'log.emergencyUnmarkedSafe';
  await callerLog(app, caller, tenantId, ip)({ key, params: { person: person.user_no ? `${person.name} (${person.user_no})` : person.name } });
  await notify(app, tenantId, { active: true, scenario: scenarioOf(row) });
  const saved = await app.db.selectFrom('sys_emergency_roll').selectAll().where('emergency_id', '=', row.id).where('people_id', '=', person.id).executeTakeFirstOrThrow();
  return rollEntryOf(saved);
}

function rollEntryOf(row: { people_id: string; people_name: string; user_no: string | null; area_name: string | null; door_name: string | null; safe_by: string | null; safe_time: string | null }): RollCallEntry {
  return { peopleId: row.people_id, name: row.people_name, userNo: row.user_no, areaName: row.area_name, doorName: row.door_name, safeBy: row.safe_by, safeTime: row.safe_time };
}

/** The past and running emergencies of the caller's tenant, newest first. */
export async function listEmergencies(app: FastifyInstance, caller: CurrentUser, pageNo: number, pageSize: number): Promise<Page<EmergencyScenario>> {
  const base = tenantScoped(app.db.selectFrom('sys_emergency'), caller);
  const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await base
    .selectAll()
    .orderBy('create_time', 'desc')
    .orderBy('id')
    .limit(pageSize)
    .offset((pageNo - 1) * pageSize)
    .execute();
  return { records: rows.map(scenarioOf), total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) };
}

/** One emergency as a report: start and end, who, the doors it held open, the roll call (live while it runs). */
export async function emergencyReport(app: FastifyInstance, caller: CurrentUser, id: string): Promise<EmergencyReport> {
  const row = await tenantScoped(app.db.selectFrom('sys_emergency').selectAll().where('id', '=', id), caller).executeTakeFirst();
  if (!row) refuse('emergency.notFound');
  const rolls = await app.db.selectFrom('sys_emergency_roll').selectAll().where('emergency_id', '=', row.id).execute();
  const rollCall = rolls.map(rollEntryOf);
  if (row.active_key !== null && row.tenant_id !== null) {
    // while it runs, whoever is inside now is on the roll call too
    const present = new Set(rollCall.map((r) => r.peopleId));
    const { people } = await whoIsInside(app, row.tenant_id);
    const names = await areaNames(app, people.map((p) => p.areaId));
    for (const p of people) {
      if (!present.has(p.peopleId)) rollCall.push({ peopleId: p.peopleId, name: p.name, userNo: p.userNo, areaName: p.areaId ? (names.get(p.areaId) ?? null) : null, doorName: p.doorName, safeBy: null, safeTime: null });
    }
  }
  rollCall.sort((a, b) => (a.areaName ?? '\uffff').localeCompare(b.areaName ?? '\uffff') || a.name.localeCompare(b.name));
  return { scenario: scenarioOf(row), doors: JSON.parse(row.doors ?? '[]') as Array<{ id: string; name: string }>, rollCall };
}

const RELEASE_STATE: Record<string, EmergencyReleaseState> = { pending: 'queued', sent: 'sent', acked: 'done', failed: 'failed', expired: 'failed' };

/**
 * What the running scenario of the tenant released, device by device: each egress door it holds open, and the lockers
 * and keys it freed, with where each device is with its command (queued for it, sent, acknowledged). Empty outside a
 * scenario.
 */
export async function scenarioReleases(app: FastifyInstance, tenantId: string): Promise<EmergencyRelease[]> {
  const state = await currentEmergency(app, tenantId);
  if (!state.active) return [];
  const commands = await app.db
    .selectFrom('sys_device_command as c')
    .innerJoin('sys_device as d', 'd.id', 'c.device_id')
    .select(['c.device_id', 'c.kind', 'c.payload', 'c.status', 'd.device_name', 'd.online'])
    .where('c.create_by', '=', commandAuthor(state.scenario.id))
    .where('c.kind', 'in', [DeviceCommandKind.holdOpen, StorageCommandKind.releaseCabinets, KeyCommandKind.releaseKeys])
    .orderBy('d.device_name')
    .execute();
  const doors = await app.db.selectFrom('sys_door').select(['device_id', 'door_no', 'door_name']).where('tenant_id', '=', tenantId).where('device_id', 'in', commands.length === 0 ? [''] : [...new Set(commands.map((c) => c.device_id))]).execute();
  return commands.map((c): EmergencyRelease => {
    const payload = JSON.parse(c.payload ?? '{}') as { door?: number; cabinets?: number[]; slots?: number[] };
    const base = { deviceId: c.device_id, online: Number(c.online) === 1, state: RELEASE_STATE[c.status] ?? 'queued' };
    if (c.kind === DeviceCommandKind.holdOpen) {
      const door = doors.find((d) => d.device_id === c.device_id && d.door_no === payload.door);
      return { ...base, kind: 'door', name: door?.door_name ?? c.device_name, count: payload.door ?? 1 };
    }
    const lockers = c.kind === StorageCommandKind.releaseCabinets;
    return { ...base, kind: lockers ? 'lockers' : 'keys', name: c.device_name, count: (lockers ? payload.cabinets : payload.slots)?.length ?? 0 };
  });
}
