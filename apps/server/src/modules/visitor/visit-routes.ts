import { entityLabel, visitEntity, visitorLoginEntity } from '@isps/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerEntity, type CrudContext } from '../../platform/crud/index.ts';
import { linkIds } from '../../platform/crud/values.ts';
import { AppError } from '../../platform/envelope.ts';
import { assertMayBindDeviceTargets } from '../../platform/grants.ts';
import { deskRoutes } from './desk.ts';
import { registerVisitDecisions } from './visit-requests.ts';

type Values = Record<string, unknown>;

/** The window's end comes after its start (the values written, else the stored ones). */
function checkWindow(ctx: CrudContext, values: Values, existing: Values | null) {
  const start = Date.parse(String(values.startTime ?? existing?.start_time ?? ''));
  const end = Date.parse(String(values.endTime ?? existing?.end_time ?? ''));
  if (Number.isFinite(start) && Number.isFinite(end) && end <= start) throw new AppError('badRequest', 'visit.windowOrder', { field: entityLabel(ctx.lang, 'visit.field.endTime') });
}

/** The doors a visit opens now. */
async function doorsOf(ctx: CrudContext, visitIds: string[]): Promise<string[]> {
  if (visitIds.length === 0) return [];
  return (await ctx.app.db.selectFrom('sys_visit_door').select('door_id').where('visit_id', 'in', visitIds).execute()).map((r) => r.door_id);
}

/**
 * Visits on the CRUD engine. A visit hands its doors to a visitor, so its author must be able to bind every door it
 * opens or stops opening (platform/grants.ts); the host is a user of the caller's tenant (the engine checks the
 * reference). A changed window is taken again from its edges by the access sync's visit sweep.
 */
export const visitRoutes: FastifyPluginAsyncZod = async (app) => {
  registerEntity(app, visitEntity, {
    beforeAdd: async (ctx, values) => {
      checkWindow(ctx, values, null);
      await assertMayBindDeviceTargets(app, ctx.caller, { areaIds: [], deviceIds: [], doorIds: linkIds(values.doorIds) });
    },
    beforeEdit: async (ctx, values, existing) => {
      checkWindow(ctx, values, existing);
      const before = await doorsOf(ctx, [existing.id as string]);
      const after = Object.hasOwn(values, 'doorIds') ? linkIds(values.doorIds) : before;
      await assertMayBindDeviceTargets(app, ctx.caller, { areaIds: [], deviceIds: [], doorIds: [...new Set([...before, ...after])] });
      // a moved window has its edges again
      if (Object.hasOwn(values, 'startTime') || Object.hasOwn(values, 'endTime')) {
        await app.db.updateTable('sys_visit').set({ start_synced: 0, end_synced: 0 }).where('id', '=', existing.id as string).execute();
      }
    },
    beforeDelete: async (ctx, rows) => {
      await assertMayBindDeviceTargets(app, ctx.caller, { areaIds: [], deviceIds: [], doorIds: await doorsOf(ctx, rows.map((r) => r.id as string)) });
    },
  });
  registerVisitDecisions(app);
  // the API login list: written at each visitor sign-in (routes.ts), read, exported and cleaned up here
  registerEntity(app, visitorLoginEntity, {});
  // the arrivals desk: ID card look-up, card issue, palm enrolment and the visit's pass
  deskRoutes(app);
};
