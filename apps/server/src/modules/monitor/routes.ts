import { ApiPath } from '@isps/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { databaseAnswers } from '../../db/database.ts';
import { envelope } from '../../platform/envelope.ts';

export const monitorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    ApiPath.health,
    { schema: { tags: ['monitor'], summary: 'Readiness: the database answers (and, with REDIS_URL, whether Redis does)' }, exposeHeadRoute: true, config: { permission: 'public' } },
    async (request, reply) => {
      // a lost Redis degrades the service but holds no request (DESIGN section 9): still ready, and says so
      const redis = app.settings.redisUrl ? { redis: app.cache.degraded || app.eventBus.degraded ? 'degraded' : 'ok' } : {};
      if (await databaseAnswers(app.db)) return reply.ok({ status: 'ready', ...redis });
      return reply.status(503).send({ ...envelope(request.lang, 'internal', { status: 'unavailable' }, 'error.serviceUnavailable'), code: 503 });
    },
  );
};
