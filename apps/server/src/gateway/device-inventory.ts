import { randomUUID } from 'node:crypto';
import { DEVICE_CREATOR, deviceDoorNames, deviceKindValue, DoorState, type DeviceHello } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The device type handler that fits a device, from what its hello says it is. */
function handlerOf(hello: DeviceHello): string | null {
  if (hello.kind === 'camera') return 'camera';
  if (hello.kind === 'vein') return 'veinReader';
  if (hello.system === 'abDoor') return 'abDoorController';
  if (hello.system === 'storage') return 'cabinetController';
  if (hello.system === 'quake') return 'quakeSensor';
  if (hello.system === 'access' || hello.kind === 'controller') return 'accessController';
  return null;
}

/**
 * A cabinet device's cabinets (each number once, unassigned, for one person; one the operator deleted stays deleted)
 * and a cabinet terminal's app version (its row of the app devices, added the first time it says one).
 */
async function recordCabinets(db: Kysely<Database>, device: { id: string; tenantId: string | null }, hello: DeviceHello, reported: number, audit: { create_by: string; create_time: string; update_by: null; update_time: null }): Promise<void> {
  if (hello.appVersion) {
    const app = await db.selectFrom('sys_storage_app_device').select(['id', 'app_version']).where('device_id', '=', device.id).executeTakeFirst();
    if (!app) await db.insertInto('sys_storage_app_device').values({ id: randomUUID(), ...audit, device_id: device.id, app_version: hello.appVersion, version_code: null, last_check_time: null, remark: null, tenant_id: device.tenantId }).execute();
    else if (app.app_version !== hello.appVersion) await db.updateTable('sys_storage_app_device').set({ app_version: hello.appVersion }).where('id', '=', app.id).execute();
  }
  if (!hello.cabinets || hello.cabinets <= reported) return;
  await db.updateTable('sys_device').set({ reported_cabinets: hello.cabinets }).where('id', '=', device.id).execute();
  const held = new Set((await db.selectFrom('sys_cabinet').select('cabinet_no').where('device_id', '=', device.id).execute()).map((c) => Number(c.cabinet_no)));
  const values = [];
  for (let no = reported + 1; no <= hello.cabinets; no++) {
    if (held.has(no)) continue;
    values.push({ id: randomUUID(), ...audit, device_id: device.id, cabinet_no: no, status: 0, attribute: 1, expire_time: null, release_in_emergency: 0, remark: null, version: null, sent_version: null, expiry_notified: 0, tenant_id: device.tenantId });
  }
  // another server added them meanwhile (a cabinet number is unique per device)
  for (let i = 0; i < values.length; i += 100) await db.insertInto('sys_cabinet').values(values.slice(i, i + 100)).execute().catch(() => undefined);
}

const inTenant = (tenantId: string | null) => (eb: { (column: 'tenant_id', op: 'is' | '=', value: string | null): never }) => (tenantId === null ? eb('tenant_id', 'is', null) : eb('tenant_id', '=', tenantId));

/**
 * What a device tells of itself in its hello, kept by the console on every hello, always in the device's own tenant:
 * its kind and system (nobody types them), its model as a device type of the tenant (added once, the first time a
 * device of that model says hello) and, for a door controller, its doors (each door number once, named after the
 * device; a door the operator renamed or moved keeps what they gave it, and one they deleted stays deleted).
 */
export async function recordHelloInventory(db: Kysely<Database>, device: { id: string; tenantId: string | null }, hello: DeviceHello, now: string): Promise<void> {
  const row = await db.selectFrom('sys_device').select(['device_name', 'area_id', 'device_type_id', 'reported_doors', 'reported_cabinets']).where('id', '=', device.id).executeTakeFirst();
  if (!row) return;
  const audit = { create_by: DEVICE_CREATOR, create_time: now, update_by: null, update_time: null };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const tenant = inTenant(device.tenantId) as any;

  let typeId: string | null = null;
  if (hello.model) {
    const known = await db.selectFrom('sys_device_type').select('id').where('device_model', '=', hello.model).where(tenant).orderBy('create_time').executeTakeFirst();
    typeId = known?.id ?? null;
    if (!typeId) {
      // a type an operator named as the model (without saying the model) is that model's type
      const named = await db.selectFrom('sys_device_type').select('id').where('type_name', '=', hello.model).where(tenant).executeTakeFirst();
      typeId = named?.id ?? randomUUID();
      if (!named) {
        await db
          .insertInto('sys_device_type')
          .values({ id: typeId, ...audit, type_name: hello.model, manufacturer_id: null, device_model: hello.model, status: 1, handler: handlerOf(hello), tenant_id: device.tenantId })
          .execute()
          .catch(() => undefined); // another server added it meanwhile
        typeId = (await db.selectFrom('sys_device_type').select('id').where('device_model', '=', hello.model).where(tenant).orderBy('create_time').executeTakeFirst())?.id ?? null;
      }
    }
  }
  const changes = {
    ...(typeId && typeId !== row.device_type_id ? { device_type_id: typeId } : {}),
    ...(hello.system ? { system_type: hello.system } : {}),
    ...(hello.kind ? { device_kind: deviceKindValue(hello.kind) } : {}),
  };
  if (Object.keys(changes).length > 0) await db.updateTable('sys_device').set(changes).where('id', '=', device.id).execute();
  await recordCabinets(db, device, hello, Number(row.reported_cabinets ?? 0), audit);

  // doors already reported were created then: one the operator deleted since stays deleted
  const reported = Number(row.reported_doors ?? 0);
  if (!hello.doors || hello.doors <= reported) return;
  await db.updateTable('sys_device').set({ reported_doors: hello.doors }).where('id', '=', device.id).execute();
  const held = new Set((await db.selectFrom('sys_door').select('door_no').where('device_id', '=', device.id).execute()).map((d) => Number(d.door_no)));
  for (let doorNo = reported + 1; doorNo <= hello.doors; doorNo++) {
    if (held.has(doorNo)) continue;
    await db
      .insertInto('sys_door')
      .values({ id: randomUUID(), ...audit, door_name: deviceDoorNames(row.device_name, doorNo)[0], device_id: device.id, door_no: doorNo, area_id: row.area_id, state: DoorState.closed, state_time: null, tenant_id: device.tenantId })
      .execute()
      .catch(() => undefined); // another server added it meanwhile (a door number is unique per device)
  }
}
