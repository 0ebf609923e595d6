import {
  entityLabel,
  fileExtension,
  idNumberProblem,
  isResidentId18,
  frozenPeopleBody,
  ID_PATTERN,
  maskCardNo,
  PEOPLE_PICTURE_MAX_BYTES,
  PeoplePath,
  PeopleStatus,
  peopleEntity,
  permissionCode,
  splitIds,
  UploadKinds,
} from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { CrudContext } from '../../platform/crud/index.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { callerOf } from '../../platform/access.ts';
import { OperationType, writeOperationLog } from '../../platform/audit-log.ts';
import { registerEntity } from '../../platform/crud/index.ts';
import { AppError, refuse } from '../../platform/envelope.ts';
import { findStoredFile } from '../../platform/files.ts';
import { writeTenant } from '../../platform/tenancy.ts';
import { enrollmentRoutes } from './enrollment.ts';
import { removePalmTemplates } from './palm-templates.ts';

const tags = ['people'];
type Values = Record<string, unknown>;

/** A picture is an uploaded image under 1 MB (SPEC section 9): the stored file is checked, not the client's word. */
async function checkPicture(app: FastifyInstance, values: Values) {
  const path = values.picture;
  if (typeof path !== 'string' || path === '') return;
  const file = await findStoredFile(app.settings.dataDir, path);
  const image = (UploadKinds.image as readonly string[]).includes(fileExtension(path));
  if (!file || !image) throw new AppError('badRequest', 'upload.badPath');
  if (file.size >= PEOPLE_PICTURE_MAX_BYTES) refuse('people.pictureTooLarge');
}

/**
 * The card number is write-only, so the engine's uniqueness check cannot read it: it is checked here, within the
 * row's tenant and among deleted rows too (they can be restored). Rows keep its masked form for lists and exports.
 */
async function checkCardNo(app: FastifyInstance, values: Values, tenantId: string | null, exceptId: string | null) {
  const cardNo = values.cardNo;
  if (typeof cardNo !== 'string' || cardNo === '') return;
  let query = app.db.selectFrom('sys_people').select('id').where('card_no', '=', cardNo);
  query = tenantId === null ? query.where('tenant_id', 'is', null) : query.where('tenant_id', '=', tenantId);
  if (exceptId) query = query.where('id', '<>', exceptId);
  if (await query.executeTakeFirst()) refuse('duplicate.cardNo');
  values.cardNoMasked = maskCardNo(cardNo);
}

/**
 * The ID number fits the row's ID type (a resident ID card of people has 18 characters). The masked number a list showed,
 * sent back unchanged, keeps the stored one.
 */
function checkIdNumber(ctx: CrudContext, values: Values, existing: Values | null) {
  if (existing && typeof existing.id_card === 'string' && values.idCard === maskCardNo(existing.id_card)) delete values.idCard;
  const problem = idNumberProblem(values, existing as { id_type?: unknown; id_card?: unknown } | null, isResidentId18);
  if (problem) throw new AppError('badRequest', problem, { field: entityLabel(ctx.lang, 'people.field.idCard') });
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
      await hashPassword(app, values);
    },
    beforeEdit: async (ctx, values, existing) => {
      checkIdNumber(ctx, values, existing);
      await checkPicture(app, values);
      await checkCardNo(app, values, (values.tenantId as string | undefined) || ((existing.tenant_id as string | null) ?? null), existing.id as string);
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
