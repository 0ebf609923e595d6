import { ApiPath, MonitorLimits, MonitorPath, MonitorPerm, type MessageKey, type WebServerInfo } from '@isps/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { databaseAnswers } from '../../db/database.ts';
import { AppError, envelope } from '../../platform/envelope.ts';
import { countOnlineDevices } from './metrics.ts';
import { parseInfo, runTerminalCommand } from './redis.ts';
import { diskInfo, serverInfo } from './system.ts';

/** A source that failed (a file unreadable, a query refused) is the screen's own localised refusal, never a 500. */
async function orRefuse<T>(failure: MessageKey, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('refused', failure);
  }
}

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

  app.get(MonitorPath.disk, { schema: { tags: ['monitor'], summary: 'Mounted filesystems: size, free, used; the one holding DATA_DIR is marked' }, config: { permission: MonitorPerm.disk } }, async (_request, reply) =>
    reply.ok(await orRefuse('monitor.diskFetchFailed', () => diskInfo(app.settings.dataDir))),
  );

  app.get(MonitorPath.httpTrace, { schema: { tags: ['monitor'], summary: `The last ${MonitorLimits.traceSize} requests, newest first (no header, cookie, body or secret query value)` }, config: { permission: MonitorPerm.httpTrace } }, async (_request, reply) =>
    reply.ok(app.monitor.trace.list()),
  );

  app.get(MonitorPath.runtime, { schema: { tags: ['monitor'], summary: 'Node runtime: memory, event loop, GC, the last hour of samples' }, config: { permission: MonitorPerm.runtime } }, async (_request, reply) =>
    reply.ok(app.monitor.runtime.info()),
  );

  app.get(MonitorPath.webServer, { schema: { tags: ['monitor'], summary: 'HTTP server: request rate, status codes, latency, connections, websocket and device sessions' }, config: { permission: MonitorPerm.webServer } }, async (_request, reply) => {
    const info = await orRefuse('monitor.tomcatFetchFailed', async (): Promise<WebServerInfo> => {
      const openConnections = await new Promise<number>((resolve) => app.server.getConnections((error, count) => resolve(error ? 0 : count)));
      return {
        ...app.monitor.trace.figures(),
        openConnections,
        websocketSessions: app.realtime.connectionCount(),
        mqttDevices: await countOnlineDevices(app),
        mqttLinked: app.deviceGateway.connected,
      };
    });
    return reply.ok(info);
  });

  app.get(MonitorPath.server, { schema: { tags: ['monitor'], summary: 'Operating system, CPU, memory, process, database engine and version, broker' }, config: { permission: MonitorPerm.server } }, async (_request, reply) =>
    reply.ok(await orRefuse('monitor.serverFetchFailed', () => serverInfo(app))),
  );

  app.get(MonitorPath.redisInfo, { schema: { tags: ['monitor'], summary: 'Redis INFO as sections of key/value rows (REDIS_URL only)' }, config: { permission: MonitorPerm.redis } }, async (_request, reply) => {
    const redis = await connected();
    const text = await orRefuse('monitor.redisFetchFailed', () => redis.info());
    return reply.ok(parseInfo(text));
  });

  app.post(
    MonitorPath.redisTerminal,
    {
      schema: { tags: ['monitor'], summary: 'Runs one read-only Redis command of the allow-list', body: z.object({ command: z.string().max(MonitorLimits.terminalLineMax * 2) }) },
      config: { permission: MonitorPerm.redisExecute },
    },
    async (request, reply) => {
      const redis = await connected();
      return reply.ok(await runTerminalCommand(redis, request.body.command));
    },
  );

  /** The monitoring connection, or the localised reason there is none. */
  async function connected() {
    if (!app.settings.redisUrl) throw new AppError('refused', 'monitor.redisNotConfigured');
    try {
      const redis = await app.monitor.redis();
      if (!redis) throw new AppError('refused', 'monitor.redisNotConfigured');
      return redis;
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError('refused', 'monitor.redisUnavailable', { detail: (error as Error).message.slice(0, 200) });
    }
  }
};
