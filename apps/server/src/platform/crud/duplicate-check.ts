import { ApiPath, columnOf, translate } from '@isps/contract';
import type { FastifyPluginAsync } from 'fastify';
import * as z from 'zod';
import { callerOf } from '../access.ts';
import { refuse } from '../envelope.ts';
import { tableOf } from './tables.ts';

const query = z.object({
  tableName: z.string().max(100),
  fieldName: z.string().max(100),
  fieldVal: z.string().max(1000).optional(),
  dataId: z.string().max(64).optional(),
});

/**
 * GET /sys/duplicate/check: is a value of a unique field free? Only registered table / unique-field pairs answer;
 * the table and column used come from the declaration, never from the request.
 */
export const duplicateCheckRoutes: FastifyPluginAsync = async (app) => {
  app.get(ApiPath.duplicateCheck, { schema: { tags: ['system'], summary: 'Is a unique value still free', querystring: query }, config: { permission: 'authenticated' } }, async (request, reply) => {
    const { tableName, fieldName, fieldVal, dataId } = request.query as z.infer<typeof query>;
    const registered = app.crudEntities.get(tableName);
    const entity = registered?.declaration;
    const unique = entity?.unique?.find((u) => (u.field === fieldName || columnOf(entity, u.field) === fieldName) && !u.within?.length);
    if (!registered || !entity || !unique) refuse('duplicate.unsupported');
    if (fieldVal === undefined || fieldVal.trim() === '') return reply.ok(null, 'duplicate.available');
    const caller = callerOf(request);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let check = (app.db as any).selectFrom(tableOf(entity)).select(entity.softDelete ? ['id', 'del_flag'] : ['id']).where(columnOf(entity, unique.field), '=', fieldVal.trim());
    if (entity.tenantScoped && !unique.global) check = caller.tenantScope === null ? check.where('tenant_id', 'is', null) : check.where('tenant_id', '=', caller.tenantScope);
    if (dataId) check = check.where('id', '<>', dataId);
    // the same answer add and edit give: deleted rows still hold their values
    const holder = await check.executeTakeFirst();
    if (holder && entity.softDelete && Number(holder.del_flag) === 1) refuse('crud.duplicateInRecycleBin', { message: translate(request.lang, unique.message) });
    if (holder) refuse(unique.message);
    return reply.ok(null, 'duplicate.available');
  });
};
