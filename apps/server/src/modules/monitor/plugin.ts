import { createHash, timingSafeEqual } from 'node:crypto';
import { MetricsPath, MonitorPerm, type TraceEntry } from '@isps/contract';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { optionalCaller } from '../../platform/access.ts';
import { closeRedis, connectRedis } from '../../platform/cache.ts';
import { AppError } from '../../platform/envelope.ts';
import { AppMetrics } from './metrics.ts';
import { RuntimeSampler } from './runtime.ts';
import { RequestTrace, tracedPath } from './trace.ts';

export interface Monitor {
  trace: RequestTrace;
  runtime: RuntimeSampler;
  metrics: AppMetrics;
  /** the monitoring screens' own Redis connection (INFO, the terminal); null without REDIS_URL */
  redis(): Promise<Redis | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    monitor: Monitor;
  }
}

const MONITOR_CODES = Object.values(MonitorPerm);

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** `Authorization: Bearer <token>` matches METRICS_TOKEN (compared in constant time). */
function bearerMatches(request: FastifyRequest, expected: string | null): boolean | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !/^Bearer\s+/i.test(header)) return null;
  if (!expected) return false;
  return timingSafeEqual(digest(header.replace(/^Bearer\s+/i, '').trim()), digest(expected));
}

async function metricsAccess(app: FastifyInstance, request: FastifyRequest): Promise<void> {
  const bearer = bearerMatches(request, app.settings.metricsToken);
  if (bearer === true) return;
  const user = await optionalCaller(app, request);
  if (user && !user.mustChangePassword && MONITOR_CODES.some((code) => user.permissions.has(code))) return;
  if (bearer === false || user) throw new AppError('forbidden', 'error.forbidden', { code: MONITOR_CODES.join(' | ') });
  throw new AppError('unauthorized', 'monitor.metricsToken');
}

/**
 * Monitoring at the app's root: every answered request goes to the HTTP trace and the request metrics (after the
 * answer, from the route template: no header, cookie, body or query value is kept), the runtime is sampled, and
 * GET /metrics serves the Prometheus text.
 */
export const monitorPlugin = fp(
  async (app) => {
    const trace = new RequestTrace(() => Date.now());
    const runtime = new RuntimeSampler(() => Date.now());
    const metrics = new AppMetrics(app);
    let redis: Promise<Redis> | null = null;
    const apiRoot = `${app.settings.apiPrefix}/`;
    app.decorate('monitor', {
      trace,
      runtime,
      metrics,
      async redis() {
        const url = app.settings.redisUrl;
        if (!url) return null;
        redis ??= connectRedis(url, { warn: (message) => app.log.warn(message) });
        try {
          return await redis;
        } catch (error) {
          redis = null;
          throw error;
        }
      },
    } satisfies Monitor);
    app.deviceGateway.observe({ events: async (_device, events) => void metrics.deviceEvents.inc(events.length) });

    app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done) => {
      const route = request.routeOptions.url;
      const durationMs = reply.elapsedTime;
      const status = reply.statusCode;
      metrics.observe(request.method, route ?? 'unmatched', status, durationMs / 1000);
      const entry: TraceEntry = {
        time: Date.now(),
        method: request.method,
        path: tracedPath(request.url, route),
        status,
        durationMs: Math.round(durationMs * 100) / 100,
        caller: request.currentUser?.username ?? request.ip,
      };
      // the console's own files (its catch-all route) would push every API call out of the trace; an unknown API
      // address it answers is kept
      if (route !== '/*' || request.url.startsWith(apiRoot)) trace.record(entry);
      done();
    });
    app.addHook('onReady', async () => runtime.start());
    app.addHook('onClose', async () => {
      runtime.stop();
      metrics.close();
      const open = redis;
      redis = null;
      if (open) await open.then(closeRedis, () => undefined);
    });

    app.get(
      MetricsPath,
      { schema: { hide: true }, config: { permission: 'public' } },
      async (request, reply) => {
        await metricsAccess(app, request);
        const { contentType, body } = await metrics.text();
        return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
      },
    );
  },
  { name: 'monitor', dependencies: ['services', 'access', 'device-gateway', 'realtime'] },
);
