import {
  DEVICE_ROLE_TYPES,
  entityLabel,
  idNumberProblem,
  isResidentId18,
  frozenPeopleBody,
  ID_PATTERN,
  maskCardNo,
  PeoplePath,
  PeopleStatus,
  peopleEntity,
  permissionCode,
  splitIds,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { CrudContext } from '../../platform/crud/index.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { callerOf } from '../../platform/access.ts';
import { OperationType, writeOperationLog } from '../../platform/audit-log.ts';
import { registerEntity } from '../../platform/crud/index.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { checkCardNo, checkPicture, removePalmTemplates } from '../../platform/person-credentials.ts';
import { writeTenant } from '../../platform/tenancy.ts';
import { assertMayHandDeviceRoles, roleChanges } from '../../platform/grants.ts';
import { linkIds } from '../../platform/crud/values.ts';
import { enrollmentRoutes } from './enrollment.ts';

const tags = ['people'];
type Values = Record<string, unknown>;

/**
 * The ID number fits the row's ID type (a resident ID card of people has 18 characters). The masked number a list showed,
 * sent back unchanged, keeps the stored one.
 */
function checkIdNumber(ctx: CrudContext, values: Values, existing: Values | null) {
  if (existing && typeof existing.id_card === 'string' && values.idCard === maskCardNo(existing.id_card)) delete values.idCard;
  const problem = idNumberProblem(values, existing as { id_type?: unknown; id_card?: unknown } | null, isResidentId18);
  if (problem) throw new AppError('badRequest', problem, { field: entityLabel(ctx.lang, 'people.field.idCard') });
}

/** The device roles (not key roles) that bind the person now. */
async function deviceRolesOf(app: FastifyInstance, peopleId: string): Promise<string[]> {
  const rows = await app.db
    .selectFrom('sys_device_role_people as l')
    .innerJoin('sys_device_role as r', 'r.id', 'l.role_id')
    .select('l.role_id')
    .where('l.people_id', '=', peopleId)
    .where('r.role_type', 'in', [...DEVICE_ROLE_TYPES])
    .execute();
  return rows.map((r) => r.role_id);
}

/** The person's form hands out and takes device roles: only those the caller may give (platform/grants.ts). */
async function checkDeviceRoles(app: FastifyInstance, ctx: CrudContext, values: Values, existing: Values | null) {
  if (!Object.hasOwn(values, 'roleIds')) return;
  const before = existing ? await deviceRolesOf(app, existing.id as string) : [];
  await assertMayHandDeviceRoles(app, ctx.caller, roleChanges(before, linkIds(values.roleIds)));
}

async function hashPassword(app: FastifyInstance, values: Values) {
  if (typeof values.password === 'string' && values.password !== '') values.password = await app.hasher.hash(values.password);
}

/**
 * People on the CRUD engine (with its recycle bin), plus card number, picture and password handling, freezing, and
 * palm-vein enrollment and ID card reading at the capture device.
 */
export const peopleRoutes: FastifyPluginAsyncZod = async (app) => {
  registerEntity(app, peopleEntity, {
    beforeAdd: async (ctx, values) => {
      const { caller } = ctx;
      checkIdNumber(ctx, values, null);
      await checkPicture(app, values);
      await checkCardNo(app, values, (values.tenantId as string | undefined) || writeTenant(caller), null);
      await checkDeviceRoles(app, ctx, values, null);
      await hashPassword(app, values);
    },
    beforeEdit: async (ctx, values, existing) => {
      checkIdNumber(ctx, values, existing);
      await checkPicture(app, values);
      await checkCardNo(app, values, (values.tenantId as string | undefined) || ((existing.tenant_id as string | null) ?? null), existing.id as string);
      await checkDeviceRoles(app, ctx, values, existing);
      await hashPassword(app, values);
    },
    deleteLinked: async (trx, ids, complete) => {
      if (complete) await removePalmTemplates(trx, ids);
    },
    routes: (routes, registered) => {
      routes.put(
        PeoplePath.frozenPeople,
        { schema: { tags, summary: 'Freeze or thaw people', body: frozenPeopleBody }, config: { permission: permissionCode(peopleEntity, 'frozen') } },
        async (request, reply) => {
          const started = performance.now();
          const caller = callerOf(request);
          const body = request.body as z.infer<typeof frozenPeopleBody>;
          const ids = splitIds(body.ids ?? body.id ?? '');
          if (ids.length === 0) refuse('crud.selectRecord');
          if (ids.length > 1000 || ids.some((id) => !ID_PATTERN.test(id))) throw new AppError('badRequest', 'error.badRequest', { detail: 'ids' });
          const found = (await registered.scoped(caller).clearSelect().select('id').where('id', 'in', ids).execute()).map((r) => r.id as string);
          if (found.length === 0) throw new AppError('notFound', 'crud.notFound');
          const status = body.status as 1 | 2;
          await app.db
            .updateTable('sys_people')
            .set({ status, update_by: caller.username, update_time: new Date(app.clock()).toISOString() })
            .where('id', 'in', found)
            .execute();
          const frozen = status === PeopleStatus.frozen;
          await writeOperationLog(app, {
            operateType: OperationType.edit,
            userId: caller.id,
            username: caller.username,
            tenantId: caller.tenantScope ?? caller.tenantId,
            ip: request.ip,
            content: { key: frozen ? 'log.frozen' : 'log.thawed', params: { entity: peopleEntity.title, ids: found.join(',') } },
            costMs: performance.now() - started,
          });
          return reply.ok({ count: found.length }, frozen ? 'people.frozenBatch' : 'people.thawedBatch', { count: String(found.length) });
        },
      );
      enrollmentRoutes(routes, registered);
    },
  });
};
