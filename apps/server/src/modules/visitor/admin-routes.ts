import { entityLabel, ID_PATTERN, idNumberProblem, maskCardNo, permissionCode, splitIds, VisitorAdminPath, visitorEntity, VisitorStatus } from '@isps/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { callerOf } from '../../platform/access.ts';
import { OperationType, writeOperationLog } from '../../platform/audit-log.ts';
import { registerEntity, type CrudContext } from '../../platform/crud/index.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { assertMayBindDeviceTargets } from '../../platform/grants.ts';
import { checkCardNo, checkPicture, removePalmTemplates } from '../../platform/person-credentials.ts';
import { writeTenant } from '../../platform/tenancy.ts';
import { linkIds } from '../../platform/crud/values.ts';

const tags = ['visitor'];

/** A linked user is one the caller can see (his tenant's, not deleted): another tenant's id is refused. */
async function checkLinkedUser(ctx: CrudContext, values: Record<string, unknown>) {
  const userId = values.userId;
  if (typeof userId !== 'string' || userId === '') return;
  const users = ctx.app.crudEntities.get('sys_user');
  const found = users ? await users.scoped(ctx.caller).clearSelect().select('id').where('id', '=', userId).executeTakeFirst() : undefined;
  if (!found) throw new AppError('badRequest', 'validation.invalid', { field: entityLabel(ctx.lang, 'visitor.field.userId') });
}

/** The ID number fits the row's ID type; the masked number a list showed, sent back unchanged, keeps the stored one. */
function checkIdNumber(ctx: CrudContext, values: Record<string, unknown>, existing: Record<string, unknown> | null) {
  if (existing && typeof existing.id_card === 'string' && values.idCard === maskCardNo(existing.id_card)) delete values.idCard;
  const problem = idNumberProblem(values, existing as { id_type?: unknown; id_card?: unknown } | null);
  if (problem) throw new AppError('badRequest', problem, { field: entityLabel(ctx.lang, 'visitor.field.idCard') });
}

/**
 * Giving a visitor a device role hands out what the role binds: the caller must be able to bind all of it
 * (platform/grants.ts), for the roles added and the roles taken away alike.
 */
async function checkRoleGrants(ctx: CrudContext, values: Record<string, unknown>, existingId: string | null) {
  if (!Object.hasOwn(values, 'roleIds')) return;
  const db = ctx.app.db;
  const before = existingId ? (await db.selectFrom('sys_device_role_visitor').select('role_id').where('visitor_id', '=', existingId).execute()).map((r) => r.role_id) : [];
  const after = linkIds(values.roleIds);
  const changed = [...after.filter((id) => !before.includes(id)), ...before.filter((id) => !after.includes(id))];
  if (changed.length === 0) return;
  const [areas, devices, doors] = await Promise.all([
    db.selectFrom('sys_device_role_area').select('area_id as id').where('role_id', 'in', changed).execute(),
    db.selectFrom('sys_device_role_device').select('device_id as id').where('role_id', 'in', changed).execute(),
    db.selectFrom('sys_device_role_door').select('door_id as id').where('role_id', 'in', changed).execute(),
  ]);
  await assertMayBindDeviceTargets(ctx.app, ctx.caller, { areaIds: areas.map((r) => r.id), deviceIds: devices.map((r) => r.id), doorIds: doors.map((r) => r.id) });
}

const frozenBody = z.object({
  ids: z.string().max(70_000),
  status: z.union([z.literal(VisitorStatus.normal), z.literal(VisitorStatus.frozen), z.enum(['1', '2']).transform(Number)]),
});

/** The staff's visitor screen: the generic engine over sys_visitor, plus hashing, freezing and thawing. */
export const visitorAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const revokeSessions = (visitorIds: string[]) => app.db.deleteFrom('sys_visitor_token').where('visitor_id', 'in', visitorIds).execute();

  registerEntity(app, visitorEntity, {
    beforeAdd: async (ctx, values) => {
      checkIdNumber(ctx, values, null);
      const a = ctx.app;
      await checkLinkedUser(ctx, values);
      await checkPicture(a, values);
      await checkCardNo(a, values, writeTenant(ctx.caller), null);
      await checkRoleGrants(ctx, values, null);
      values.password = await a.hasher.hash(String(values.password));
      values.status = VisitorStatus.normal;
    },
    beforeEdit: async (ctx, values, existing) => {
      checkIdNumber(ctx, values, existing);
      const a = ctx.app;
      await checkLinkedUser(ctx, values);
      await checkPicture(a, values);
      await checkCardNo(a, values, (existing.tenant_id as string | null) ?? null, existing.id as string);
      await checkRoleGrants(ctx, values, existing.id as string);
      if (typeof values.password === 'string' && values.password !== '') {
        values.password = await a.hasher.hash(values.password);
        // a new password ends the sessions opened with the old one
        await revokeSessions([existing.id as string]);
      }
    },
    beforeDelete: async (_ctx, rows) => {
      await revokeSessions(rows.map((r) => r.id as string));
    },
    deleteLinked: async (trx, ids, complete) => {
      if (!complete) return;
      await removePalmTemplates(trx, ids);
      const visits = (await trx.selectFrom('sys_visit').select('id').where('visitor_id', 'in', ids).execute()).map((v) => v.id);
      if (visits.length > 0) await trx.deleteFrom('sys_visit_door').where('visit_id', 'in', visits).execute();
      await trx.deleteFrom('sys_visit').where('visitor_id', 'in', ids).execute();
      await trx.deleteFrom('sys_visitor_message').where('visitor_id', 'in', ids).execute();
    },
    routes: (routes, registered) => {
      routes.put(
        VisitorAdminPath.frozenBatch,
        { schema: { tags, summary: 'Freeze or thaw visitors', body: frozenBody }, config: { permission: permissionCode(visitorEntity, 'frozen') } },
        async (request, reply) => {
          const started = performance.now();
          const caller = callerOf(request);
          const { ids: text, status } = request.body as z.infer<typeof frozenBody>;
          const ids = splitIds(text);
          if (ids.length === 0) refuse('crud.selectRecord');
          if (ids.length > 1000 || ids.some((id) => !ID_PATTERN.test(id))) throw new AppError('badRequest', 'error.badRequest', { detail: 'ids' });
          const found = (await registered.scoped(caller).select('id').where('id', 'in', ids).execute()).map((r) => r.id as string);
          if (found.length === 0) throw new AppError('notFound', 'crud.notFound');
          await app.db
            .updateTable('sys_visitor')
            .set({ status, update_by: caller.username, update_time: new Date(app.clock()).toISOString() })
            .where('id', 'in', found)
            .execute();
          if (status === VisitorStatus.frozen) await revokeSessions(found);
          await writeOperationLog(app, {
            operateType: OperationType.edit,
            userId: caller.id,
            username: caller.username,
            tenantId: caller.tenantId,
            ip: request.ip,
            content: { key: status === VisitorStatus.frozen ? 'log.frozen' : 'log.thawed', params: { entity: visitorEntity.title, ids: found.join(',') } },
            costMs: performance.now() - started,
          });
          return reply.ok({ count: found.length }, status === VisitorStatus.frozen ? 'visitor.frozenBatch' : 'visitor.thawedBatch', { count: String(found.length) });
        },
      );
    },
  });
};
