import { randomUUID } from 'node:crypto';
import { CabinetAttribute, CabinetStatus, type AllocateCabinetBody, type MessageKey } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, SysCabinet } from '../../db/schema.ts';
import type { CurrentUser } from '../../platform/access.ts';
import { refuse } from '../../platform/envelope.ts';
import { managedCabinetDevices } from '../../platform/grants.ts';
import { tenantScoped } from '../../platform/tenancy.ts';
import { parseWireTime } from '../../platform/wire-time.ts';

/** Why an allocation was refused: the reason shown after 'Allocation failed:'. */
export class AllocationRefused extends Error {
  constructor(readonly reason: MessageKey) {
    super(reason);
    this.name = 'AllocationRefused';
  }
}

/** A cabinet of the caller's tenant with its device, or the refusal 'No such cabinet'. */
export async function callersCabinet(app: FastifyInstance, caller: CurrentUser, id: string) {
  const cabinet = await tenantScoped(app.db.selectFrom('sys_cabinet').selectAll(), caller).where('id', '=', id).executeTakeFirst();
  if (!cabinet) refuse('storage.cabinetNotFound');
  const device = await app.db.selectFrom('sys_device').select(['id', 'device_name', 'sn', 'online', 'sync_mode', 'tenant_id']).where('id', '=', cabinet.device_id).executeTakeFirst();
  if (!device) refuse('storage.deviceNotFound');
  return { cabinet, device };
}

/** Refuses a caller who does not manage the cabinet's device (a system administrator manages every device of his tenant). */
async function assertManages(app: FastifyInstance, caller: CurrentUser, deviceId: string): Promise<void> {
  const managed = await managedCabinetDevices(app, caller);
  if (managed && !managed.has(deviceId)) throw new AllocationRefused('storage.notManaged');
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && new Set([...a, ...b]).size === a.length;

/**
 * Writes a cabinet's new holders (none: released) if its version is still the one read: of two operators allocating one
 * cabinet at the same moment, the second finds the version changed and is refused. The device learns the change from
 * the cabinet sync (the committed write to sys_cabinet starts it).
 */
async function writeHolders(db: Kysely<Database>, cabinet: SysCabinet, change: { status: CabinetStatus; peopleIds: readonly string[]; expireTime: string | null; by: string; now: string }): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    let update = trx
      .updateTable('sys_cabinet')
      .set({ status: change.status, version: randomUUID(), expire_time: change.expireTime, expiry_notified: 0, update_by: change.by, update_time: change.now })
      .where('id', '=', cabinet.id);
    update = cabinet.version === null ? update.where('version', 'is', null) : update.where('version', '=', cabinet.version);
    const result = await update.executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await trx.deleteFrom('sys_cabinet_people').where('cabinet_id', '=', cabinet.id).execute();
    if (change.peopleIds.length > 0) {
      await trx
        .insertInto('sys_cabinet_people')
        .values(change.peopleIds.map((peopleId) => ({ id: randomUUID(), create_by: change.by, create_time: change.now, update_by: null, update_time: null, cabinet_id: cabinet.id, people_id: peopleId })))
        .execute();
    }
    return true;
  });
}

export interface AllocationOutcome {
  cabinetNo: number;
  deviceName: string;
  peopleNames: string[];
}

/**
 * Allocates a cabinet to people (SPEC sections 4 and 5): the caller must manage its device; a one-person cabinet goes
 * to one person; a cabinet whose holders have not been cleared on the device goes to nobody else unless the device is
 * in full-send mode (it then gets its whole cabinet list again). Throws `AllocationRefused` with the reason.
 */
export async function allocate(app: FastifyInstance, caller: CurrentUser, body: AllocateCabinetBody): Promise<AllocationOutcome> {
  const { cabinet, device } = await callersCabinet(app, caller, body.id);
  await assertManages(app, caller, device.id);
  const peopleIds = [...new Set(body.peopleIds)];
  if (cabinet.attribute === CabinetAttribute.single && peopleIds.length > 1) throw new AllocationRefused('storage.singleHolder');
  let peopleQuery = app.db.selectFrom('sys_people').select(['id', 'name']).where('id', 'in', peopleIds).where('del_flag', '=', 0);
  peopleQuery = cabinet.tenant_id === null ? peopleQuery.where('tenant_id', 'is', null) : peopleQuery.where('tenant_id', '=', cabinet.tenant_id);
  const people = await peopleQuery.execute();
  if (people.length !== peopleIds.length) throw new AllocationRefused('storage.peopleMissing');
  const now = new Date(app.clock());
  let expireTime: string | null = null;
  if (body.expireTime) {
    expireTime = parseWireTime(body.expireTime, app.settings.timeZone);
    if (!expireTime || expireTime <= now.toISOString()) throw new AllocationRefused('storage.expirePassed');
  }
  const holders = (await app.db.selectFrom('sys_cabinet_people').select('people_id').where('cabinet_id', '=', cabinet.id).execute()).map((r) => r.people_id);
  const reassigning = cabinet.status === CabinetStatus.assigned && holders.length > 0 && !sameSet(holders, peopleIds);
  if (reassigning && device.sync_mode !== 'full') throw new AllocationRefused('storage.mustClear');
  const written = await writeHolders(app.db, cabinet, { status: CabinetStatus.assigned, peopleIds, expireTime, by: caller.username, now: now.toISOString() });
  if (!written) throw new AllocationRefused('storage.changedMeanwhile');
  const names = new Map(people.map((p) => [p.id, p.name]));
  return { cabinetNo: cabinet.cabinet_no, deviceName: device.device_name, peopleNames: peopleIds.map((id) => names.get(id) ?? id) };
}

/** The caller releases a cabinet: its holders leave it and the device clears it. */
export async function release(app: FastifyInstance, caller: CurrentUser, id: string): Promise<AllocationOutcome> {
  const { cabinet, device } = await callersCabinet(app, caller, id);
  await assertManages(app, caller, device.id);
  if (cabinet.status !== CabinetStatus.assigned) refuse('storage.notAllocated');
  const written = await writeHolders(app.db, cabinet, { status: CabinetStatus.unassigned, peopleIds: [], expireTime: null, by: caller.username, now: new Date(app.clock()).toISOString() });
  if (!written) throw new AllocationRefused('storage.changedMeanwhile');
  return { cabinetNo: cabinet.cabinet_no, deviceName: device.device_name, peopleNames: [] };
}

/** Releases the allocations that ended (the scheduler's sweep; any server may run it: each cabinet is released once). */
export async function releaseExpired(db: Kysely<Database>, nowIso: string): Promise<SysCabinet[]> {
  const due = await db.selectFrom('sys_cabinet').selectAll().where('status', '=', CabinetStatus.assigned).where('expire_time', '<=', nowIso).limit(500).execute();
  const released: SysCabinet[] = [];
  for (const cabinet of due) {
    if (await writeHolders(db, cabinet, { status: CabinetStatus.unassigned, peopleIds: [], expireTime: null, by: 'storage', now: nowIso })) released.push(cabinet);
  }
  return released;
}
