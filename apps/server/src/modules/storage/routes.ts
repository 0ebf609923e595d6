import {
  allocateCabinetBody,
  CabinetStatus,
  cabinetEntity,
  DEVICE_KEY_HEADER,
  DEVICE_PACKAGE_MAX_BYTES,
  DEVICE_SN_HEADER,
  cabinetRecordEntity,
  cabinetAllocationForm,
  entityLabel,
  ID_PATTERN,
  INTERFACE_TEST_WAIT_MS,
  interfaceTestBody,
  MANAGER_PRODUCTS,
  permissionCode,
  queryAllManagerPath,
  StorageCommandKind,
  storageAppDeviceEntity,
  storageCheckUpdateEntity,
  storageManagerEntity,
  StoragePath,
  StoragePerm,
  translate,
  type AppUpdateOffer,
  type CabinetDeviceOption,
  type CabinetTreeNode,
  type InterfaceTestResult,
  type StorageManagerSummary,
  type StorageUserInfo,
} from '@isps/contract';
import { createReadStream } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { callerOf, type CurrentUser } from '../../platform/access.ts';
import { writeCallerLog } from '../../platform/audit-log.ts';
import { registerEntity } from '../../platform/crud/index.ts';
import { linkOptionsRoute } from '../../platform/crud/link-options.ts';
import { linkIds } from '../../platform/crud/values.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { approvedDeviceCode } from '../../gateway/device-keys.ts';
import { findStoredFile, PACKAGE_TYPES } from '../../platform/files.ts';
import { assertMayHandCabinetDevices, managedCabinetDevices } from '../../platform/grants.ts';
import { tenantScoped } from '../../platform/tenancy.ts';
import { AllocationRefused, allocate, callersCabinet, release } from './allocation.ts';
import { EMPTY_CABINET } from './cabinet-sync.ts';

const tags = ['storage'];
const idBody = z.object({ id: z.string().regex(ID_PATTERN) });
const perm = {
  cabinetList: permissionCode(cabinetEntity, 'list'),
  allocate: [permissionCode(cabinetEntity, 'allocate'), StoragePerm.deviceCabinetAllocate],
  open: permissionCode(cabinetEntity, 'open'),
  managerList: permissionCode(storageManagerEntity, 'list'),
  managerWrite: [permissionCode(storageManagerEntity, 'add'), permissionCode(storageManagerEntity, 'edit')],
  userInfo: StoragePerm.userInfo,
  interfaceTest: StoragePerm.interfaceTest,
};

/** A device of the caller's tenant that is a cabinet device (system storage, or one with cabinets), or a refusal. */
async function callersCabinetDevice(app: FastifyInstance, caller: CurrentUser, id: string) {
  const device = await tenantScoped(app.db.selectFrom('sys_device').select(['id', 'device_name', 'sn', 'online', 'system_type', 'sync_mode']), caller).where('id', '=', id).executeTakeFirst();
  if (!device) refuse('storage.deviceNotFound');
  const cabinets = await app.db.selectFrom('sys_cabinet').select('id').where('device_id', '=', id).limit(1).execute();
  // a device that has not said its system (older firmware) may be one; a door or quake controller is not
  if (device.system_type && device.system_type !== 'storage' && cabinets.length === 0) refuse('storage.notCabinetDevice');
  return device;
}

/** A stored app package of at most DEVICE_PACKAGE_MAX_BYTES: the stored file is checked, not the client's word. */
async function checkPackageFile(app: FastifyInstance, values: Record<string, unknown>): Promise<void> {
  const path = values.packageFile;
  if (typeof path !== 'string' || path === '') return;
  const file = await findStoredFile(app.settings.dataDir, path);
  if (!file) throw new AppError('badRequest', 'upload.badPath');
  if (file.size > DEVICE_PACKAGE_MAX_BYTES) throw new AppError('badRequest', 'upload.tooLarge', { max: DEVICE_PACKAGE_MAX_BYTES / 1024 / 1024 });
}

/** The cabinet terminal signing a request with its serial number and key (X-Device-Sn, X-Device-Key), or 401. */
async function signedTerminal(app: FastifyInstance, request: FastifyRequest) {
  const sn = request.headers[DEVICE_SN_HEADER];
  const key = request.headers[DEVICE_KEY_HEADER];
  const code = typeof sn === 'string' && typeof key === 'string' ? await approvedDeviceCode(app.db, sn, key) : null;
  if (!code) throw new AppError('unauthorized', 'error.unauthorized');
  const device = await app.db.selectFrom('sys_device').select(['id', 'device_model', 'tenant_id']).where('sn', '=', sn as string).executeTakeFirst();
  if (!device) throw new AppError('unauthorized', 'error.unauthorized');
  return device;
}

/** The newest app version offered to a terminal above `versionCode` (its model's or any model's), in its tenant. */
function offers(app: FastifyInstance, device: { device_model: string | null; tenant_id: string | null }, versionCode: number) {
  let query = app.db.selectFrom('sys_storage_check_update').selectAll().where('version_code', '>', versionCode).where('package_file', 'is not', null);
  query = device.tenant_id === null ? query.where('tenant_id', 'is', null) : query.where('tenant_id', '=', device.tenant_id);
  return query.where((eb) => eb.or([eb('device_model', 'is', null), eb('device_model', '=', ''), ...(device.device_model ? [eb('device_model', '=', device.device_model)] : [])])).orderBy('version_code', 'desc');
}

/** A cabinet's holders (ids and names, by name) by cabinet id. */
async function holdersOf(app: FastifyInstance, cabinetIds: readonly string[]): Promise<Map<string, Array<{ id: string; name: string }>>> {
  const out = new Map<string, Array<{ id: string; name: string }>>();
  for (let i = 0; i < cabinetIds.length; i += 500) {
    const rows = await app.db
      .selectFrom('sys_cabinet_people as cp')
      .innerJoin('sys_people as p', 'p.id', 'cp.people_id')
      .select(['cp.cabinet_id', 'p.id', 'p.name'])
      .where('cp.cabinet_id', 'in', cabinetIds.slice(i, i + 500))
      .orderBy('p.name')
      .orderBy('p.id')
      .execute();
    for (const r of rows) out.set(r.cabinet_id, [...(out.get(r.cabinet_id) ?? []), { id: r.id, name: r.name }]);
  }
  return out;
}

/** Waits for a command's answer up to `waitMs`, polling the queue row; null when none came. */
async function answerOf(app: FastifyInstance, id: string, waitMs: number): Promise<{ status: string; result: string | null } | null> {
  const until = Date.now() + waitMs;
  for (;;) {
    const row = await app.db.selectFrom('sys_device_command').select(['status', 'result']).where('id', '=', id).executeTakeFirst();
    if (row && (row.status === 'acked' || row.status === 'failed')) return row;
    if (Date.now() >= until) return null;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Lockers, opening records, managers, app devices, update checks; the cabinet tree, allocation, remote opening and the interface test. */
export const storageRoutes: FastifyPluginAsyncZod = async (app) => {
  const cabinets = registerEntity(app, cabinetEntity, {
    beforeAdd: async ({ app: a, caller }, values) => void (await callersCabinetDevice(a, caller, String(values.deviceId))),
    beforeEdit: async ({ app: a, caller }, values, existing) => {
      const moved = (values.deviceId !== undefined && values.deviceId !== existing.device_id) || (values.cabinetNo !== undefined && Number(values.cabinetNo) !== Number(existing.cabinet_no));
      if (values.deviceId !== undefined) await callersCabinetDevice(a, caller, String(values.deviceId));
      // a cabinet someone holds keeps its place: it is cleared first
      if (moved && Number(existing.status) === CabinetStatus.assigned) refuse('storage.mustClear');
    },
    beforeDelete: async ({ app: a }, rows) => {
      // the devices clear what they held of the deleted cabinets
      const held = rows.filter((r) => (r.sent_version ?? EMPTY_CABINET) !== EMPTY_CABINET);
      const byDevice = new Map<string, number[]>();
      for (const r of held) byDevice.set(String(r.device_id), [...(byDevice.get(String(r.device_id)) ?? []), Number(r.cabinet_no)]);
      const items = [...byDevice].map(([deviceId, nos]) => ({ deviceId, kind: StorageCommandKind.syncCabinets, payload: { op: 'upsert', cabinets: nos.map((no) => ({ no, holders: [], expireAt: null, version: EMPTY_CABINET })) } }));
      if (items.length > 0) await a.deviceGateway.enqueueCommands(items, 'cabinetSync');
    },
    deleteLinked: async (trx, ids) => {
      await trx.deleteFrom('sys_cabinet_people').where('cabinet_id', 'in', ids).execute();
    },
  });
  registerEntity(app, cabinetRecordEntity);
  // the allocate dialog's people picker, for allocators who may not read the people list (the list's own tenant scope)
  linkOptionsRoute(app, app, cabinetAllocationForm, perm.allocate, (table) => app.crudEntities.get(table));
  registerEntity(app, storageManagerEntity, {
    // naming a manager of devices is granting them: only of devices the caller manages himself
    beforeAdd: async ({ app: a, caller }, values) => assertMayHandCabinetDevices(a, caller, linkIds(values.deviceIds)),
    beforeEdit: async ({ app: a, caller }, values, existing) => {
      if (values.deviceIds === undefined && values.userName === undefined) return;
      const before = (await a.db.selectFrom('sys_storage_manager_device').select('device_id').where('manager_id', '=', String(existing.id)).execute()).map((r) => r.device_id);
      const after = values.deviceIds === undefined ? before : linkIds(values.deviceIds);
      const changed = values.userName !== undefined && values.userName !== existing.user_name ? [...before, ...after] : [...after.filter((id) => !before.includes(id)), ...before.filter((id) => !after.includes(id))];
      await assertMayHandCabinetDevices(a, caller, changed);
    },
    beforeDelete: async ({ app: a, caller }, rows) => {
      const ids = rows.map((r) => String(r.id));
      const devices = ids.length === 0 ? [] : (await a.db.selectFrom('sys_storage_manager_device').select('device_id').where('manager_id', 'in', ids).execute()).map((r) => r.device_id);
      await assertMayHandCabinetDevices(a, caller, devices);
    },
  });
  // terminals list themselves (their hello, their update checks); an operator keeps a remark or removes a terminal
  registerEntity(app, storageAppDeviceEntity);
  registerEntity(app, storageCheckUpdateEntity, { beforeAdd: (_ctx, values) => checkPackageFile(app, values), beforeEdit: (_ctx, values) => checkPackageFile(app, values) });

  // terminals, not people, check for updates: signed with the device's serial number and key
  app.get(StoragePath.checkUpdateLatest, { schema: { tags, summary: 'The newest app version above the terminal’s own (X-Device-Sn, X-Device-Key)', querystring: z.object({ versionCode: z.coerce.number().int().min(0).max(2_000_000_000), versionName: z.string().max(64).optional() }) }, config: { permission: 'public' } }, async (request, reply) => {
    const device = await signedTerminal(app, request);
    const { versionCode, versionName } = request.query;
    const now = new Date(app.clock()).toISOString();
    const known = await app.db.selectFrom('sys_storage_app_device').select('id').where('device_id', '=', device.id).executeTakeFirst();
    const reported = { version_code: versionCode, last_check_time: now, ...(versionName ? { app_version: versionName } : {}) };
    if (known) await app.db.updateTable('sys_storage_app_device').set(reported).where('id', '=', known.id).execute();
    else await app.db.insertInto('sys_storage_app_device').values({ id: randomUUID(), create_by: 'device', create_time: now, update_by: null, update_time: null, device_id: device.id, app_version: versionName ?? null, version_code: versionCode, last_check_time: now, remark: null, tenant_id: device.tenant_id }).execute();
    const newest = await offers(app, device, versionCode).executeTakeFirst();
    if (!newest) return reply.ok(null, 'storage.noUpdate');
    const offer: AppUpdateOffer = { id: newest.id, versionName: newest.version_name, versionCode: newest.version_code, forceUpdate: newest.force_update === 1, description: newest.description, path: `${StoragePath.checkUpdatePackage}?id=${newest.id}` };
    return reply.ok(offer);
  });

  app.get(StoragePath.checkUpdatePackage, { schema: { tags, summary: 'An offered app package, for a terminal of its tenant (X-Device-Sn, X-Device-Key)', querystring: idBody }, exposeHeadRoute: true, config: { permission: 'public' } }, async (request, reply) => {
    const device = await signedTerminal(app, request);
    const offered = await offers(app, device, -1).where('id', '=', request.query.id).executeTakeFirst();
    const file = offered?.package_file ? await findStoredFile(app.settings.dataDir, offered.package_file, PACKAGE_TYPES) : null;
    if (!file) throw new AppError('notFound', 'error.notFound');
    return reply.header('content-type', file.contentType).header('content-length', String(file.size)).header('x-content-type-options', 'nosniff').send(createReadStream(file.absolutePath));
  });

  app.get(
    StoragePath.queryCabinetTree,
    { schema: { tags, summary: 'Areas, their cabinet devices and the devices’ cabinets', querystring: z.object({ deviceId: z.string().regex(ID_PATTERN).optional() }) }, config: { permission: [perm.cabinetList, StoragePerm.deviceCabinetList] } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { deviceId } = request.query;
      let devicesQuery = tenantScoped(app.db.selectFrom('sys_device').select(['id', 'device_name', 'area_id', 'online', 'sync_mode', 'system_type']), caller);
      if (deviceId) devicesQuery = devicesQuery.where('id', '=', deviceId);
      const devices = await devicesQuery.orderBy('device_name').orderBy('id').limit(2000).execute();
      if (deviceId && devices.length === 0) refuse('storage.deviceNotFound');
      const rows = devices.length === 0 ? [] : await cabinets.scoped(caller).clearSelect().select(['id', 'device_id', 'cabinet_no', 'status', 'attribute']).where('device_id', 'in', devices.map((d) => d.id)).orderBy('cabinet_no').execute();
      if (deviceId && rows.length === 0) refuse('storage.noCabinets');
      const holders = await holdersOf(app, rows.map((r) => String(r.id)));
      const statusText = (status: number) => entityLabel(request.lang, `cabinet.status.${Object.entries(CabinetStatus).find(([, v]) => v === status)?.[0] ?? 'unassigned'}`);
      const byDevice = new Map<string, CabinetTreeNode[]>();
      for (const r of rows) {
        const id = String(r.id);
        const status = Number(r.status) as CabinetStatus;
        const node: CabinetTreeNode = { key: id, id, title: `#${String(r.cabinet_no)}`, type: 'cabinet', cabinetNo: Number(r.cabinet_no), status, status_dictText: statusText(status), attribute: Number(r.attribute), holders: (holders.get(id) ?? []).map((h) => h.name), holderIds: (holders.get(id) ?? []).map((h) => h.id) };
        byDevice.set(String(r.device_id), [...(byDevice.get(String(r.device_id)) ?? []), node]);
      }
      const shown = devices.filter((d) => d.system_type === 'storage' || byDevice.has(d.id));
      const deviceNodes = shown.map((d): CabinetTreeNode & { areaId: string | null } => ({ key: `device:${d.id}`, id: d.id, title: d.device_name, type: 'device', online: d.online === 1, syncMode: d.sync_mode ?? 'increment', children: byDevice.get(d.id) ?? [], areaId: d.area_id }));
      if (deviceId) return reply.ok(deviceNodes.map(({ areaId: _, ...node }) => node));
      const areaIds = [...new Set(deviceNodes.map((d) => d.areaId).filter((id): id is string => id !== null))];
      const areas = areaIds.length === 0 ? [] : await tenantScoped(app.db.selectFrom('sys_area').select(['id', 'area_name']), caller).where('id', 'in', areaIds).execute();
      const areaName = new Map(areas.map((a) => [a.id, a.area_name]));
      const tree: CabinetTreeNode[] = [];
      for (const areaKey of [...areaIds.filter((id) => areaName.has(id)), null]) {
        const children = deviceNodes.filter((d) => (areaKey === null ? d.areaId === null || !areaName.has(d.areaId) : d.areaId === areaKey)).map(({ areaId: _, ...node }) => node);
        if (children.length === 0) continue;
        tree.push({ key: `area:${areaKey ?? 'none'}`, id: areaKey ?? '', title: areaKey === null ? entityLabel(request.lang, 'cabinet.treeNoArea') : String(areaName.get(areaKey)), type: 'area', children });
      }
      return reply.ok(tree);
    },
  );

  app.post(StoragePath.allocateCabinet, { schema: { tags, summary: 'Allocate a cabinet to people', body: allocateCabinetBody }, config: { permission: perm.allocate } }, async (request, reply) => {
    const caller = callerOf(request);
    try {
      const outcome = await allocate(app, caller, request.body);
      await writeCallerLog(reply, caller, { key: 'log.cabinetAllocated', params: { entity: cabinetEntity.title, cabinet: outcome.cabinetNo, device: outcome.deviceName, people: outcome.peopleNames.join(', ') } });
      return reply.ok(null, 'storage.allocated');
    } catch (error) {
      if (error instanceof AllocationRefused) refuse('storage.allocationFailed', { reason: translate(request.lang, error.reason) });
      throw error;
    }
  });

  app.post(StoragePath.releaseCabinet, { schema: { tags, summary: 'Release a cabinet: its holders leave it and the device clears it', body: idBody }, config: { permission: perm.allocate } }, async (request, reply) => {
    const caller = callerOf(request);
    try {
      const outcome = await release(app, caller, request.body.id);
      await writeCallerLog(reply, caller, { key: 'log.cabinetReleased', params: { entity: cabinetEntity.title, cabinet: outcome.cabinetNo, device: outcome.deviceName } });
      return reply.ok(null, 'storage.released');
    } catch (error) {
      if (error instanceof AllocationRefused) refuse(error.reason);
      throw error;
    }
  });

  app.post(StoragePath.openCabinet, { schema: { tags, summary: 'Open one cabinet door now (an openCabinet command to its online device, expiring after 10 s)', body: idBody }, config: { permission: perm.open } }, async (request, reply) => {
    const caller = callerOf(request);
    const { cabinet, device } = await callersCabinet(app, caller, request.body.id);
    const managed = await managedCabinetDevices(app, caller);
    if (managed && !managed.has(device.id)) refuse('storage.notManaged');
    // a cabinet opens now or not at all: nothing is queued for a device that cannot take it
    if (device.online !== 1 || !app.deviceGateway.connected) refuse('storage.deviceOffline');
    const commandId = await app.deviceGateway.enqueueCommand(device.id, StorageCommandKind.openCabinet, { cabinet: cabinet.cabinet_no }, caller.username);
    await writeCallerLog(reply, caller, { key: 'log.cabinetOpened', params: { entity: cabinetEntity.title, cabinet: cabinet.cabinet_no, device: device.device_name } });
    return reply.ok({ commandId }, 'storage.openSent');
  });

  for (const product of MANAGER_PRODUCTS) {
    app.get(queryAllManagerPath(product), { schema: { tags, summary: 'The managers of the caller’s tenant with the devices each manages' }, config: { permission: [perm.managerList, ...perm.allocate] } }, async (request, reply) => {
      const caller = callerOf(request);
      const managers = await tenantScoped(app.db.selectFrom('sys_storage_manager as m').innerJoin('sys_user as u', 'u.username', 'm.user_name').select(['m.id', 'u.id as user_id', 'u.username', 'u.realname']), caller, 'm.tenant_id')
        .orderBy('u.username')
        .limit(2000)
        .execute();
      const links = managers.length === 0 ? [] : await app.db.selectFrom('sys_storage_manager_device').select(['manager_id', 'device_id']).where('manager_id', 'in', managers.map((m) => m.id)).execute();
      const result: StorageManagerSummary[] = managers.map((m) => ({ id: m.id, userId: m.user_id, username: m.username, realname: m.realname ?? '', deviceIds: links.filter((l) => l.manager_id === m.id).map((l) => l.device_id) }));
      return reply.ok(result);
    });
  }

  app.get(StoragePath.manageableDevices, { schema: { tags, summary: 'The cabinet devices the caller may hand to a manager, or null for any' }, config: { permission: perm.managerWrite } }, async (request, reply) => {
    const managed = await managedCabinetDevices(app, callerOf(request));
    return reply.ok(managed ? [...managed] : null);
  });

  app.get(
    StoragePath.userInfoList,
    { schema: { tags, summary: 'People as the storage system knows them: cabinets held, last opening', querystring: z.object({ pageNo: z.coerce.number().int().min(1).default(1), pageSize: z.coerce.number().int().min(1).max(1000).default(10), name: z.string().max(100).optional() }) }, config: { permission: perm.userInfo } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { pageNo, pageSize, name } = request.query;
      let people = tenantScoped(app.db.selectFrom('sys_people as p').leftJoin('sys_depart as d', 'd.id', 'p.depart_id'), caller, 'p.tenant_id').where('p.del_flag', '=', 0);
      if (name) people = people.where('p.name', 'like', `%${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      const total = Number((await people.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await people.select(['p.id', 'p.name', 'p.user_no', 'd.depart_name']).orderBy('p.name').orderBy('p.id').limit(pageSize).offset((pageNo - 1) * pageSize).execute();
      const ids = rows.map((r) => r.id);
      const held = ids.length === 0 ? [] : await app.db.selectFrom('sys_cabinet_people as cp').innerJoin('sys_cabinet as c', 'c.id', 'cp.cabinet_id').innerJoin('sys_device as dv', 'dv.id', 'c.device_id').select(['cp.people_id', 'c.cabinet_no', 'dv.device_name']).where('cp.people_id', 'in', ids).orderBy('c.cabinet_no').execute();
      const last = ids.length === 0 ? [] : await app.db.selectFrom('sys_cabinet_record').select(['people_id', (eb) => eb.fn.max('open_time').as('last')]).where('people_id', 'in', ids).groupBy('people_id').execute();
      const records: StorageUserInfo[] = rows.map((r) => {
        const cabinetsHeld = held.filter((h) => h.people_id === r.id).map((h) => `${h.device_name} #${h.cabinet_no}`);
        return { id: r.id, name: r.name, userNo: r.user_no, departName: r.depart_name ?? null, cabinets: cabinetsHeld, cabinetCount: cabinetsHeld.length, lastOpenTime: (last.find((l) => l.people_id === r.id)?.last as string | undefined) ?? null };
      });
      return reply.ok({ records, total, size: pageSize, current: pageNo, pages: Math.ceil(total / pageSize) });
    },
  );

  app.get(StoragePath.interfaceTestDevices, { schema: { tags, summary: 'The cabinet devices the interface test may address, by name' }, config: { permission: perm.interfaceTest } }, async (request, reply) => {
    const devices = await tenantScoped(app.db.selectFrom('sys_device').select(['id', 'device_name', 'sn', 'online', 'system_type']), callerOf(request)).orderBy('device_name').orderBy('id').limit(2000).execute();
    const withCabinets = new Set(devices.length === 0 ? [] : (await app.db.selectFrom('sys_cabinet').select('device_id').distinct().where('device_id', 'in', devices.map((d) => d.id)).execute()).map((c) => c.device_id));
    const options: CabinetDeviceOption[] = devices.filter((d) => d.system_type === 'storage' || withCabinets.has(d.id)).map((d) => ({ id: d.id, deviceName: d.device_name, sn: d.sn, online: Number(d.online) }));
    return reply.ok(options);
  });

  app.post(StoragePath.interfaceTest, { schema: { tags, summary: 'Send one command to a cabinet device and wait for its answer', body: interfaceTestBody }, config: { permission: perm.interfaceTest } }, async (request, reply) => {
    const caller = callerOf(request);
    const { deviceId, command, cabinetNo } = request.body;
    const device = await callersCabinetDevice(app, caller, deviceId);
    if ((command === 'open' || command === 'clear') && cabinetNo === undefined) throw new AppError('badRequest', 'storage.cabinetNeeded');
    // the test's commands run while someone waits for them or never
    if (device.online !== 1 || !app.deviceGateway.connected) refuse('storage.deviceOffline');
    const started = Date.now();
    const kind = { status: StorageCommandKind.cabinetStatus, open: StorageCommandKind.openCabinet, clear: StorageCommandKind.clearCabinet, sync: StorageCommandKind.cabinetReport }[command];
    const commandId = command === 'sync' ? await app.cabinetSync.requestReport(device.id, caller.username) : await app.deviceGateway.enqueueCommand(device.id, kind, cabinetNo === undefined ? {} : { cabinet: cabinetNo }, caller.username);
    await writeCallerLog(reply, caller, { key: 'log.interfaceTest', params: { entity: 'storageInterfaceTest.title', command, device: device.device_name } });
    const answer = await answerOf(app, commandId, INTERFACE_TEST_WAIT_MS);
    const result: InterfaceTestResult = {
      commandId,
      kind,
      status: answer ? 'answered' : 'timeout',
      ok: answer ? answer.status === 'acked' : null,
      reply: answer?.result ? (JSON.parse(answer.result) as unknown) : null,
      elapsedMs: Date.now() - started,
    };
    return reply.ok(result, answer ? 'storage.testAnswered' : 'storage.testTimeout');
  });
};
