import { ApiPath, Perm } from '@isps/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dashboardSummary } from './service.ts';

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    ApiPath.dashboardSummary,
    { schema: { tags: ['dashboard'], summary: 'Counts for the home page' }, config: { permission: Perm.dashboardView } },
    async (_request, reply) => reply.ok(await dashboardSummary(app)),
  );
};
