import { randomUUID } from 'node:crypto';
import {
  areaEntity,
  DoorPerm,
  fileExtension,
  FLOOR_PLAN_MAX_BYTES,
  FLOOR_PLAN_MAX_ITEMS,
  floorPlanSaveBody,
  FloorPlanPath,
  ID_PATTERN,
  permissionCode,
  shownSeededText,
  UploadKinds,
  type DoorFloorPlan,
  type FloorPlan,
  type FloorPlanItem,
  type FloorPlanItemKind,
  type FloorPlanPlacement,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { callerOf, type CurrentUser } from '../../platform/access.ts';
import { writeCallerLog } from '../../platform/audit-log.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { IMAGE_TYPES, storeUpload } from '../../platform/files.ts';
import { tenantScoped, writeTenant } from '../../platform/tenancy.ts';
import { checkTenantQuota, countUpload, tooManyUploads, uploadRoutes } from '../../platform/uploads.ts';

const tags = ['device'];
const areaIdQuery = z.object({ areaId: z.string().regex(ID_PATTERN) });
/** places are stored as whole ten-thousandths of the image's width and height */
const SCALE = 10_000;
const AREA_EDIT = permissionCode(areaEntity, 'edit');

/** The caller's area (its tenant's), or a refusal as if it did not exist. */
async function callersArea(app: FastifyInstance, caller: CurrentUser, id: string) {
  const area = await tenantScoped(app.db.selectFrom('sys_area').select(['id', 'area_name', 'floor_plan', 'tenant_id']), caller).where('id', '=', id).executeTakeFirst();
  if (!area) refuse('crud.notFound');
  return area;
}

/** The doors and devices of an area, which its plan may hold. */
async function areaItems(app: FastifyInstance, caller: CurrentUser, areaId: string, lang: Parameters<typeof shownSeededText>[0]): Promise<FloorPlanItem[]> {
  const doors = await tenantScoped(app.db.selectFrom('sys_door').select(['id', 'door_name', 'create_by']), caller).where('area_id', '=', areaId).orderBy('door_name').orderBy('id').limit(2000).execute();
  const devices = await tenantScoped(app.db.selectFrom('sys_device').select(['id', 'device_name']), caller).where('area_id', '=', areaId).orderBy('device_name').orderBy('id').limit(2000).execute();
  return [
    ...doors.map((d) => ({ kind: 'door' as const, id: d.id, name: String(shownSeededText(lang, 'door', 'door_name', d)) })),
    ...devices.map((d) => ({ kind: 'device' as const, id: d.id, name: d.device_name })),
  ];
}

const itemKey = (kind: string, id: string) => `${kind}:${id}`;

/** The stored places of an area, as fractions. */
async function placementsOf(app: FastifyInstance, caller: CurrentUser, areaId: string): Promise<FloorPlanPlacement[]> {
  const rows = await tenantScoped(app.db.selectFrom('sys_floor_plan_item').select(['item_kind', 'item_id', 'x', 'y']), caller).where('area_id', '=', areaId).orderBy('item_kind', 'desc').orderBy('item_id').execute();
  return rows.map((r) => ({ kind: r.item_kind as FloorPlanItemKind, id: r.item_id, x: Number(r.x) / SCALE, y: Number(r.y) / SCALE }));
}

function fieldValue(fields: Record<string, unknown>, name: string): string | undefined {
  const entry = fields[name] as { type?: string; value?: unknown } | undefined;
  return entry && entry.type === 'field' && typeof entry.value === 'string' && entry.value.trim() !== '' ? entry.value.trim() : undefined;
}

/**
 * Floor plans (issue 31): an area's plan image and where its doors and devices sit on it, edited with the area's edit
 * permission; the door status page reads the plans with their placed doors.
 */
export const floorPlanRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(FloorPlanPath.get, { schema: { tags, summary: 'An area’s floor plan: its image, its placements and the doors and devices it may hold', querystring: areaIdQuery }, config: { permission: permissionCode(areaEntity, 'list') } }, async (request, reply) => {
    const caller = callerOf(request);
    const area = await callersArea(app, caller, request.query.areaId);
    const items = await areaItems(app, caller, area.id, request.lang);
    const present = new Set(items.map((i) => itemKey(i.kind, i.id)));
    // a door or device that left the area (or was deleted) is no longer on its plan
    const placements = (await placementsOf(app, caller, area.id)).filter((p) => present.has(itemKey(p.kind, p.id)));
    const plan: FloorPlan = { areaId: area.id, areaName: area.area_name, image: area.floor_plan ?? null, placements, items };
    return reply.ok(plan);
  });

  app.put(FloorPlanPath.save, { schema: { tags, summary: 'Replace an area’s placements (doors and devices of the area, at fractions of the image)', body: floorPlanSaveBody }, config: { permission: AREA_EDIT } }, async (request, reply) => {
    const caller = callerOf(request);
    const body = request.body;
    const area = await callersArea(app, caller, body.areaId);
    if (!area.floor_plan) refuse('floorPlan.noImage');
    if (body.placements.length > FLOOR_PLAN_MAX_ITEMS) refuse('floorPlan.tooManyItems');
    if (body.placements.some((p) => p.x < 0 || p.x > 1 || p.y < 0 || p.y > 1)) refuse('floorPlan.outside');
    const items = new Set((await areaItems(app, caller, area.id, request.lang)).map((i) => itemKey(i.kind, i.id)));
    const seen = new Set<string>();
    for (const p of body.placements) {
      const key = itemKey(p.kind, p.id);
      if (!items.has(key)) refuse('floorPlan.notInArea');
      if (seen.has(key)) refuse('floorPlan.placedTwice');
      seen.add(key);
    }
    const now = new Date(app.clock()).toISOString();
    await app.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sys_floor_plan_item').where('area_id', '=', area.id).execute();
      if (body.placements.length === 0) return;
      await trx
        .insertInto('sys_floor_plan_item')
        .values(
          body.placements.map((p) => ({
            id: randomUUID(),
            area_id: area.id,
            item_kind: p.kind,
            item_id: p.id,
            x: Math.round(p.x * SCALE),
            y: Math.round(p.y * SCALE),
            tenant_id: area.tenant_id,
            create_by: caller.username,
            create_time: now,
            update_by: null,
            update_time: null,
          })),
        )
        .execute();
    });
    await writeCallerLog(reply, caller, { key: 'log.floorPlanSaved', params: { entity: areaEntity.title, name: area.area_name, count: String(body.placements.length) } });
    return reply.ok(await placementsOf(app, caller, area.id), 'floorPlan.saved');
  });

  uploadRoutes(app, (uploads) => {
    uploads.post(FloorPlanPath.upload, { schema: { tags, summary: 'Upload an area’s floor-plan image: field areaId, then the image as file (png, jpg, gif, webp; at most 5 MB)' }, config: { permission: AREA_EDIT } }, async (request, reply) => {
      const caller = callerOf(request);
      if (!(await countUpload(app, request, caller, FLOOR_PLAN_MAX_BYTES))) return tooManyUploads(app, request, reply);
      const part = request.isMultipart() ? await request.file({ limits: { fileSize: FLOOR_PLAN_MAX_BYTES } }) : undefined;
      if (!part) throw new AppError('badRequest', 'upload.noFile');
      const areaId = fieldValue(part.fields as Record<string, unknown>, 'areaId');
      const name = part.filename.split(/[/\\]/).pop()?.slice(0, 120) || '?';
      try {
        if (!areaId || !ID_PATTERN.test(areaId)) throw new AppError('badRequest', 'validation.required', { field: 'areaId' });
        if (!(UploadKinds.image as readonly string[]).includes(fileExtension(part.filename))) refuse('floorPlan.notImage', { name });
      } catch (error) {
        part.file.resume();
        throw error;
      }
      let area;
      try {
        area = await callersArea(app, caller, areaId);
      } catch (error) {
        part.file.resume();
        throw error;
      }
      const tenantId = writeTenant(caller);
      let size = 0;
      let stored: string;
      try {
        stored = await storeUpload(app.settings.dataDir, part, 'floorPlan', app.clock(), {
          types: IMAGE_TYPES,
          maxBytes: FLOOR_PLAN_MAX_BYTES,
          admit: async (bytes) => {
            await checkTenantQuota(app, tenantId, bytes);
            size = bytes;
          },
        });
      } catch (error) {
        if (error instanceof AppError && error.key === 'upload.tooLarge') throw new AppError('badRequest', 'floorPlan.imageTooLarge', { max: FLOOR_PLAN_MAX_BYTES / 1024 / 1024 });
        throw error;
      }
      const now = new Date(app.clock()).toISOString();
      await app.db.insertInto('sys_file').values({ id: randomUUID(), file_path: stored, file_size: size, tenant_id: tenantId, create_by: caller.username, create_time: now, update_by: null, update_time: null }).execute();
      await app.db.updateTable('sys_area').set({ floor_plan: stored, update_by: caller.username, update_time: now }).where('id', '=', area.id).execute();
      await writeCallerLog(reply, caller, { key: 'log.floorPlanImage', params: { entity: areaEntity.title, name: area.area_name } });
      return reply.ok({ image: stored }, 'floorPlan.imageSaved');
    });
  });

  app.delete(FloorPlanPath.removeImage, { schema: { tags, summary: 'Remove an area’s floor-plan image and the places on it', querystring: areaIdQuery }, config: { permission: AREA_EDIT } }, async (request, reply) => {
    const caller = callerOf(request);
    const area = await callersArea(app, caller, request.query.areaId);
    const now = new Date(app.clock()).toISOString();
    await app.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sys_floor_plan_item').where('area_id', '=', area.id).execute();
      await trx.updateTable('sys_area').set({ floor_plan: null, update_by: caller.username, update_time: now }).where('id', '=', area.id).execute();
    });
    await writeCallerLog(reply, caller, { key: 'log.floorPlanImage', params: { entity: areaEntity.title, name: area.area_name } });
    return reply.ok(null, 'floorPlan.imageRemoved');
  });

  app.get(FloorPlanPath.plans, { schema: { tags, summary: 'The areas with a floor plan and the doors placed on each (the door status page’s plan view)' }, config: { permission: DoorPerm.statusView } }, async (request, reply) => {
    const caller = callerOf(request);
    const areas = await tenantScoped(app.db.selectFrom('sys_area').select(['id', 'area_name', 'floor_plan']), caller).where('floor_plan', 'is not', null).orderBy('area_name').orderBy('id').limit(500).execute();
    if (areas.length === 0) return reply.ok([] as DoorFloorPlan[]);
    const ids = areas.map((a) => a.id);
    // a placed door shows while it is still a door of that area
    const placed = await tenantScoped(
      app.db
        .selectFrom('sys_floor_plan_item as item')
        .innerJoin('sys_door as door', (join) => join.onRef('door.id', '=', 'item.item_id').onRef('door.area_id', '=', 'item.area_id'))
        .select(['item.area_id', 'item.item_id', 'item.x', 'item.y']),
      caller,
      'item.tenant_id',
    )
      .where('item.item_kind', '=', 'door')
      .where('item.area_id', 'in', ids)
      .orderBy('item.id')
      .execute();
    const plans: DoorFloorPlan[] = areas.map((a) => ({
      areaId: a.id,
      areaName: a.area_name,
      image: a.floor_plan as string,
      doors: placed.filter((p) => p.area_id === a.id).map((p) => ({ id: p.item_id, x: Number(p.x) / SCALE, y: Number(p.y) / SCALE })),
    }));
    return reply.ok(plans);
  });
};
