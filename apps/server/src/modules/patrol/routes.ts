import { calendarDaySchema, PatrolPath, patrolMissionEntity, patrolPointEntity, patrolQuestEntity, patrolRecordEntity, patrolRouteEntity, patrolTaskEntity, permissionCode, RealtimeCmd } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { callerOf, type CurrentUser } from '../../platform/access.ts';
import { registerEntity } from '../../platform/crud/index.ts';
import { refuse } from '../../platform/envelope.ts';
import { tenantScoped } from '../../platform/tenancy.ts';
import { siteDayOf } from './patrol-days.ts';
import { generatePatrolTasks } from './patrol-tasks.ts';

const tags = ['patrol'];

/** A mission is walked by a patrol group of the caller's tenant. */
async function assertPatrolGroup(app: FastifyInstance, caller: CurrentUser, departId: string): Promise<void> {
  const group = await tenantScoped(app.db.selectFrom('sys_depart').select(['id', 'patrol_group']), caller).where('id', '=', departId).where('del_flag', '=', 0).executeTakeFirst();
  if (!group || group.patrol_group !== 1) refuse('patrol.notPatrolGroup');
}

/** Routes, points, missions (declared screens), tasks made by the server, their point checks and the check-ins. */
export const patrolRoutes: FastifyPluginAsyncZod = async (app) => {
  registerEntity(app, patrolRouteEntity, {});
  registerEntity(app, patrolPointEntity, {});
  registerEntity(app, patrolMissionEntity, {
    beforeAdd: async ({ app: a, caller }, values) => assertPatrolGroup(a, caller, String(values.departId)),
    beforeEdit: async ({ app: a, caller }, values) => {
      if (values.departId !== undefined && values.departId !== null) await assertPatrolGroup(a, caller, String(values.departId));
    },
  });
  registerEntity(app, patrolTaskEntity, {
    // a task's point checks go with it
    deleteLinked: async (trx, ids) => {
      await trx.deleteFrom('sys_patrol_quest').where('task_id', 'in', ids).execute();
    },
  });
  registerEntity(app, patrolQuestEntity, {});
  registerEntity(app, patrolRecordEntity, {});

  app.get(
    PatrolPath.patrolGroups,
    { schema: { tags, summary: 'The ids of the caller’s patrol groups (what a mission may name)' }, config: { permission: [permissionCode(patrolMissionEntity, 'add'), permissionCode(patrolMissionEntity, 'edit')] } },
    async (request, reply) => {
      const groups = await tenantScoped(app.db.selectFrom('sys_depart').select('id'), callerOf(request)).where('patrol_group', '=', 1).where('del_flag', '=', 0).orderBy('depart_order').limit(5000).execute();
      return reply.ok(groups.map((g) => g.id));
    },
  );

  app.post(
    PatrolPath.generateTasks,
    {
      schema: { tags, summary: 'Makes a day’s patrol tasks of the caller’s tenant now (today by default)', body: z.object({ date: calendarDaySchema.optional() }).optional() },
      config: { permission: permissionCode(patrolTaskEntity, 'add') },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      if (caller.tenantScope === null) return reply.ok({ created: 0 });
      const now = app.clock();
      const day = request.body?.date ?? siteDayOf(now, app.settings.timeZone);
      const created = await generatePatrolTasks(app.db, day, now, { timeZone: app.settings.timeZone }, caller.tenantScope);
      if (created.length > 0) await app.realtime.sendToUsers([caller.id], { cmd: RealtimeCmd.patrolState });
      return reply.ok({ created: created.length });
    },
  );
};
