import { ApiPath } from '@isps/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { databaseAnswers } from '../../db/database.ts';
import { envelope } from '../../platform/envelope.ts';

export const monitorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    ApiPath.health,
    { schema: { tags: ['monitor'], summary: 'Readiness: the database answers' }, exposeHeadRoute: true, config: { permission: 'public' } },
    async (request, reply) => {
      if (await databaseAnswers(app.db)) return reply.ok({ status: 'ready' });
      return reply.status(503).send({ ...envelope(request.lang, 'internal', { status: 'unavailable' }, 'error.serviceUnavailable'), code: 503 });
    },
  );
};
