import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { FilePath } from '@isps/contract';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { resolveDataSourceKey, resolveTokenPepper, type Config } from './config.ts';
import { createDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrations/index.ts';
import { gatewayPlugin, type GatewayOptions } from './gateway/index.ts';
import { seedIfEmpty, syncSeededMenus, type SeedOutcome } from './db/seed/index.ts';
import { accessSyncPlugin, accessSyncRoutes, type AccessSyncOptions } from './modules/access-sync/index.ts';
import { accountPlugin } from './modules/account/index.ts';
import { dashboardRoutes } from './modules/dashboard/index.ts';
import { emergencyRoutes } from './modules/emergency/index.ts';
import { deviceRoleRoutes, deviceRoutes, doorRoutes } from './modules/device/index.ts';
import { messageRoutes } from './modules/message/index.ts';
import { monitorPlugin, monitorRoutes } from './modules/monitor/index.ts';
import { peopleRoutes } from './modules/people/index.ts';
import { storagePlugin, storageRoutes, type StorageOptions } from './modules/storage/index.ts';
import { keyRoutes, keysPlugin, type KeysOptions } from './modules/keys/index.ts';
import { patrolPlugin, patrolRoutes, type PatrolOptions } from './modules/patrol/index.ts';
import { reportPlugin, reportRoutes } from './modules/report/index.ts';
import { attendancePlugin, attendanceRoutes, type AttendanceOptions } from './modules/attendance/index.ts';
import { doorSchedulePlugin, doorScheduleRoutes, type DoorScheduleOptions } from './modules/door-schedule/index.ts';
import { checkCaptcha, createUser, findActiveUserById, findActiveUserByName, jobSchedulerPlugin, startSession, systemRoutes } from './modules/system/index.ts';
import { visitorAdminRoutes, visitorRoutes, visitRoutes, visitsPlugin } from './modules/visitor/index.ts';
import { webhookApiTag, webhookPlugin, webhookRoutes } from './modules/webhook/index.ts';
import { accessPlugin } from './platform/access.ts';
import { apiKeyCallsPlugin } from './platform/api-keys.ts';
import { apiDocs } from './platform/api-docs.ts';
import { listCachePlugin } from './platform/crud/list-cache.ts';
import { closeRedis, connectRedis, createCache } from './platform/cache.ts';
import { systemClock, type Clock } from './platform/clock.ts';
import { SystemNotices } from './platform/system-notices.ts';
import { errorsPlugin } from './platform/errors.ts';
import { eventBusPlugin } from './platform/event-bus.ts';
import { i18nPlugin } from './platform/i18n.ts';
import { refuseNulCharacters } from './platform/input-guard.ts';
import { PasswordHasher } from './platform/passwords.ts';
import { realtimePlugin } from './platform/realtime/index.ts';
import { SecretBox } from './platform/secret-box.ts';
import { servicesPlugin } from './platform/services.ts';
import { staticConsole } from './platform/static-console.ts';
import { WebhookOutbox } from './platform/webhook-outbox.ts';
import { envelopeToWire } from './platform/wire-time.ts';

declare module 'fastify' {
  interface FastifyInstance {
    seedOutcome: SeedOutcome;
  }
}

export interface BuildOptions {
  clock?: Clock;
  /** extra routes registered under API_PREFIX after the product's own (tests use it for failure paths) */
  extraRoutes?: (app: FastifyInstance) => Promise<void>;
  /** device link settings beyond the environment (tests give each run its own topic root) */
  gateway?: GatewayOptions;
  /** access synchronisation settings (tests and benchmarks shorten its windows) */
  accessSync?: AccessSyncOptions;
  /** storage cabinet settings (tests shorten the expiry sweep) */
  storage?: StorageOptions;
  /** key cabinet settings (tests shorten the overdue sweep) */
  keys?: KeysOptions;
  attendance?: AttendanceOptions;
  /** patrol settings (tests lengthen the sweep and call it themselves) */
  patrol?: PatrolOptions;
  /** door schedule sync settings */
  doorSchedule?: DoorScheduleOptions;
}

const contentSecurityPolicy = {
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    // antd writes its CSS-in-JS into <style> elements at run time
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", 'ws:', 'wss:'],
    objectSrc: ["'none'"],
    frameAncestors: ["'self'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    // consoles are often reached over plain http on a LAN address; upgrading would break every asset
    upgradeInsecureRequests: null,
  },
};

/** What helmet's middleware does to an answer with these options: the headers it sets and those it removes. */
function helmetHeaders(policy: typeof contentSecurityPolicy): { set: Record<string, string>; removed: string[] } {
  const set = new Map<string, string>();
  const removed = new Set<string>();
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      removed.delete(name);
      set.set(name, String(value));
    },
    removeHeader(name: string) {
      set.delete(name);
      removed.add(name);
    },
  };
  let failure: unknown;
  helmet({ contentSecurityPolicy: policy })({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => (failure = error));
  if (failure) throw failure;
  // lower case, as fastify keeps a reply's headers
  return { set: Object.fromEntries([...set].map(([name, value]) => [name.toLowerCase(), value])), removed: [...removed] };
}

/** A request's logger carries its id; at level silent nothing is ever written, so no child is made per request. */
export function requestLogger(logger: FastifyBaseLogger, bindings: Parameters<FastifyBaseLogger['child']>[0], options: Parameters<FastifyBaseLogger['child']>[1]): FastifyBaseLogger {
  return logger.level === 'silent' ? logger : logger.child(bindings, options);
}

/** Swagger UI request hook (serialised into the docs page): adds the console's stored token to every call. */
function sendConsoleToken(request: { [key: string]: unknown }) {
  try {
    const storage = (globalThis as unknown as { localStorage: { getItem(key: string): string | null } }).localStorage;
    const stored = JSON.parse(storage.getItem('pro__Access-Token') ?? 'null') as { value?: string } | null;
    const headers = request.headers as Record<string, string>;
    if (stored?.value) headers['X-Access-Token'] = stored.value;
  } catch {
    // no readable session: the call goes out without a token and gets the 401 envelope
  }
  return request;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const clock = options.clock ?? systemClock;
  const app = Fastify({
    logger: { level: config.logLevel },
    genReqId: () => randomUUID(),
    childLoggerFactory: requestLogger,
    bodyLimit: 1_048_576,
    // HEAD is answered where a file or readiness is asked for (the console's files, uploads, packages, API docs,
    // health: each route says so); a HEAD copy of every API route was a third of all routes registered at start
    exposeHeadRoutes: false,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const database = createDatabase(config);
  let seedOutcome: SeedOutcome;
  try {
    await migrateToLatest(database.db, database.dialect);
    const hasher = new PasswordHasher(config.passwordHashing);
    seedOutcome = await seedIfEmpty(database.db, { hasher, adminPassword: config.adminPassword, clock });
    // an installed console gets the menus and buttons of a newer release
    if (!seedOutcome.seeded) await syncSeededMenus(database.db, clock);
    const cache = await createCache({ redisUrl: config.redisUrl, prefix: config.cacheKeyPrefix, clock, warn: (message) => app.log.warn(message) });
    await app.register(servicesPlugin, { config, database, cache, clock, hasher, tokenPepper: resolveTokenPepper(config) });
  } catch (error) {
    await database.destroy();
    throw error;
  }
  app.decorate('seedOutcome', seedOutcome);
  app.decorate('secretBox', new SecretBox(resolveDataSourceKey(config)));

  await app.register(i18nPlugin);
  await app.register(errorsPlugin);
  app.addHook('preValidation', refuseNulCharacters);
  // every answer's stored UTC instants leave as `yyyy-MM-dd HH:mm:ss` in TIME_ZONE (DESIGN section 5)
  app.addHook('preSerialization', (_request, _reply, payload, done) => done(null, envelopeToWire(payload, config.timeZone)));
  // helmet's headers depend on its options only (no nonce): taken from it once and set on every answer as they are.
  // Pages (the console, the API docs) and stored files get them all; the API's JSON answers only what protects an
  // answer that is not a page (OWASP REST Security): every header costs its writing and the client its reading, on
  // each of the many small answers a console screen asks for.
  const pageHeaders = helmetHeaders(contentSecurityPolicy);
  // an API answer (JSON, exports, device packages) is no page: no script, style or frame may come of it, it is not
  // sniffed as another type nor read by other origins; HSTS as on the pages
  const answerHeaders = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'cross-origin-resource-policy': 'same-origin',
    // helmet sets it unless told not to
    'strict-transport-security': pageHeaders.set['strict-transport-security'] as string,
  };
  const apiRoot = `${config.apiPrefix}/`;
  const pageRoots = [`${config.apiPrefix}/docs`, `${config.apiPrefix}${FilePath.static.slice(0, -1)}`];
  // on the reply, not its raw answer: node then writes every header at once instead of keeping each on the side;
  // the first hook of every request, so an answer refused by a later one (401, 403) carries them too
  app.addHook('onRequest', (request, reply, done) => {
    const answer = request.url.startsWith(apiRoot) && !pageRoots.some((root) => request.url.startsWith(root));
    reply.headers(answer ? answerHeaders : pageHeaders.set);
    for (const name of pageHeaders.removed) if (reply.hasHeader(name)) reply.removeHeader(name);
    done();
  });
  // before any plugin that adds routes, so every route (docs included) passes through the access declaration
  await app.register(accessPlugin);
  await app.register(eventBusPlugin);
  await app.register(listCachePlugin);
  await app.register(realtimePlugin);
  await app.register(jobSchedulerPlugin);
  // the webhook outbox: modules with events queue deliveries through it; the webhook plugin sends them
  app.decorate('webhooks', new WebhookOutbox(clock, () => app.settings.webhooks.retryWindowMs));
  await app.register(gatewayPlugin, options.gateway ?? {});
  await app.register(accessSyncPlugin, options.accessSync ?? {});
  // the message center's port: modules tell users things through it, the message module delivers (its routes register it)
  app.decorate('systemNotices', new SystemNotices());
  await app.register(storagePlugin, options.storage ?? {});
  await app.register(keysPlugin, options.keys ?? {});
  await app.register(patrolPlugin, options.patrol ?? {});
  await app.register(attendancePlugin, options.attendance ?? {});
  await app.register(doorSchedulePlugin, options.doorSchedule ?? {});
  await app.register(visitsPlugin);
  await app.register(webhookPlugin);
  // request trace, runtime samples and /metrics: at the root, so every request of every context is seen
  await app.register(monitorPlugin);
  await app.register(reportPlugin);

  // multipart bodies (spreadsheet imports, uploads) are read only by their own routes: platform/uploads.ts
  app.decorate('crudEntities', new Map());
  const rateLimitRedis = config.redisUrl ? await connectRedis(config.redisUrl, { warn: (message) => app.log.warn(message) }) : null;
  if (rateLimitRedis) app.addHook('onClose', () => closeRedis(rateLimitRedis));
  await app.register(rateLimit, {
    global: false,
    // counters fail fast while Redis is lost; the route is then not counted rather than refused (sign-in keeps its
    // failure lock, which falls back to this process's memory)
    skipOnError: true,
    ...(rateLimitRedis ? { redis: rateLimitRedis, nameSpace: `${config.cacheKeyPrefix}rate:` } : {}),
  });
  // after the access hook: limits and logs the calls an API key made
  await app.register(apiKeyCallsPlugin);
  await app.register(swagger, {
    openapi: {
      info: { title: 'ISPS Console API', version: '0.1.0' },
      // a console session's token, or an integration's API key (issue 32) on routes that name a permission code
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'X-Access-Token' }, apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } } },
      security: [{ token: [] }, { apiKey: [] }],
      tags: [webhookApiTag],
    },
    transform: jsonSchemaTransform,
  });
  // the UI shell is public, the API description itself for administrators; Swagger UI loads at the first docs request
  await app.register(apiDocs, {
    routePrefix: `${config.apiPrefix}/docs`,
    ui: {
      staticCSP: true,
      // runs in the browser: an administrator signed in to the console on this origin reads the docs with that session
      uiConfig: { requestInterceptor: sendConsoleToken },
    },
  });

  await app.register(
    async (api) => {
      // first: its login gate and activation check apply to every route registered after it
      await api.register(accountPlugin, { users: { findActiveUserByName, findActiveUserById, createUser, startSession, checkCaptcha } });
      await api.register(visitorRoutes);
      await api.register(visitorAdminRoutes);
      await api.register(visitRoutes);
      await api.register(monitorRoutes);
      await api.register(systemRoutes);
      await api.register(dashboardRoutes);
      await api.register(messageRoutes);
      await api.register(deviceRoutes);
      await api.register(doorRoutes);
      await api.register(deviceRoleRoutes);
      await api.register(peopleRoutes);
      await api.register(emergencyRoutes);
      await api.register(accessSyncRoutes);
      await api.register(storageRoutes);
      await api.register(keyRoutes);
      await api.register(patrolRoutes);
      await api.register(attendanceRoutes);
      await api.register(doorScheduleRoutes);
      await api.register(reportRoutes);
      await api.register(webhookRoutes);
      if (options.extraRoutes) await api.register(options.extraRoutes);
    },
    { prefix: config.apiPrefix },
  );
  await app.register(staticConsole, { root: config.webDistDir, apiPrefix: config.apiPrefix });
  return app;
}
