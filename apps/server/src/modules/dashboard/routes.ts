import { ApiPath, DashboardFigurePermission, Perm } from '@isps/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf } from '../../platform/access.ts';
import { dashboardDevices } from './devices.ts';
import { dashboardSummary } from './service.ts';
import { loginInfo, visitInfo } from './visits.ts';

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    ApiPath.dashboardSummary,
    { schema: { tags: ['dashboard'], summary: 'Counts for the home page' }, config: { permission: Perm.dashboardView } },
    async (request, reply) => reply.ok(await dashboardSummary(app, callerOf(request))),
  );

  app.get(
    ApiPath.dashboardDevices,
    { schema: { tags: ['dashboard'], summary: 'Devices online and offline (by system), doors open, open alarms (by level), today’s events, openings and denials by hour, today’s attendance, cabinets occupied and free' }, config: { permission: Perm.dashboardView } },
    async (request, reply) => reply.ok(await dashboardDevices(app, callerOf(request))),
  );

  // the origin console's home page charts: sign-in figures, for those who may read the sign-in log
  app.get(
    ApiPath.loginInfo,
    { schema: { tags: ['dashboard'], summary: 'Sign-ins ever, today and today’s distinct addresses' }, config: { permission: DashboardFigurePermission.loginsToday } },
    async (request, reply) => reply.ok(await loginInfo(app, callerOf(request))),
  );
  app.get(
    ApiPath.visitInfo,
    { schema: { tags: ['dashboard'], summary: 'Sign-ins and distinct addresses of the last seven days' }, config: { permission: DashboardFigurePermission.loginsLast7Days } },
    async (request, reply) => reply.ok(await visitInfo(app, callerOf(request))),
  );
};
