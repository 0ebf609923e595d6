import { DoorSchedulePath, doorScheduleEntity, permissionCode } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf } from '../../platform/access.ts';
import { linkOf, registerEntity } from '../../platform/crud/index.ts';
import { linkIds } from '../../platform/crud/values.ts';
import { assertMayBindDeviceTargets, bindableDeviceTargets } from '../../platform/grants.ts';
import type { CurrentUser } from '../../platform/access.ts';

const tags = ['device'];

/** The doors the given schedules name now. */
async function scheduledDoors(app: FastifyInstance, scheduleIds: readonly string[]): Promise<string[]> {
  if (scheduleIds.length === 0) return [];
  const { table, ownerColumn, targetColumn } = linkOf(doorScheduleEntity, 'doorIds');
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const rows = await (app.db as any).selectFrom(table).select(`${targetColumn} as target`).where(ownerColumn, 'in', scheduleIds).execute();
  return rows.map((r: { target: string }) => r.target);
}

/** A door schedule locks and unlocks doors: its author names only doors he may manage, as with a device role's doors. */
const mayName = (app: FastifyInstance, caller: CurrentUser, doorIds: string[]) => assertMayBindDeviceTargets(app, caller, { areaIds: [], deviceIds: [], doorIds });

/** Door schedules: the declared screen, its grant rule (platform/grants.ts) and the doors its picker offers. */
export const doorScheduleRoutes: FastifyPluginAsyncZod = async (app) => {
  registerEntity(app, doorScheduleEntity, {
    beforeAdd: (ctx, values) => mayName(app, ctx.caller, linkIds(values.doorIds)),
    // both the doors it unlocked and the doors it will unlock change state
    beforeEdit: async (ctx, values, existing) => {
      const before = await scheduledDoors(app, [existing.id as string]);
      await mayName(app, ctx.caller, [...before, ...(Object.hasOwn(values, 'doorIds') ? linkIds(values.doorIds) : [])]);
    },
    beforeDelete: async (ctx, rows) => mayName(app, ctx.caller, await scheduledDoors(app, rows.map((r) => r.id as string))),
  });

  app.get(
    DoorSchedulePath.bindableDoors,
    { schema: { tags, summary: 'The doors the caller may name in a door schedule (null: any of his tenant’s)' }, config: { permission: permissionCode(doorScheduleEntity, 'list') } },
    async (request, reply) => {
      const covered = await bindableDeviceTargets(app, callerOf(request));
      return reply.ok(covered ? [...covered.doorIds] : null);
    },
  );
};
