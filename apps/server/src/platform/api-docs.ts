import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyReply, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import { Perm } from '@isps/contract';

export interface ApiDocsOptions {
  /** where the docs live, e.g. /api/docs */
  routePrefix: string;
  /** Swagger UI's settings (its routePrefix is the one above) */
  ui: Omit<FastifySwaggerUiOptions, 'routePrefix'>;
}

/** The paths Swagger UI answers under its prefix; the API description itself is for administrators. */
const ROUTES: { url: string; permission: 'public' | typeof Perm.apiDocs }[] = [
  { url: '/', permission: 'public' },
  { url: '/static/index.html', permission: 'public' },
  { url: '/static/swagger-initializer.js', permission: 'public' },
  { url: '/json', permission: Perm.apiDocs },
  { url: '/yaml', permission: Perm.apiDocs },
  { url: '/static/*', permission: 'public' },
];

// headers of the inner answer that belong to its own (injected) connection
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);

/**
 * Swagger UI in a Fastify instance of its own, built at the first docs request: its package (with the file server and
 * YAML it brings) is not loaded, nor its routes set up, at every start for a page only administrators open. The API
 * description comes from this console's @fastify/swagger, which builds it on the first call too.
 */
async function swaggerUiInstance(app: FastifyInstance, options: ApiDocsOptions): Promise<FastifyInstance> {
  const { default: swaggerUi } = await import('@fastify/swagger-ui');
  const inner = Fastify({ logger: false });
  // Swagger UI depends on @fastify/swagger by name; this one hands out the console's description
  await inner.register(
    fp(
      async (scope) => {
        scope.decorate('swagger', ((opts?: { yaml?: boolean }) => app.swagger(opts as { yaml: true })) as FastifyInstance['swagger']);
      },
      { name: '@fastify/swagger' },
    ),
  );
  await inner.register(swaggerUi, { ...options.ui, routePrefix: options.routePrefix });
  await inner.ready();
  return inner;
}

/**
 * The API docs at `routePrefix`: the same paths, access and answers as Swagger UI registered in the console, served by
 * Swagger UI loaded on the first request (see swaggerUiInstance). Needs @fastify/swagger registered on `app`.
 */
export const apiDocs: FastifyPluginAsync<ApiDocsOptions> = async (app, options) => {
  let inner: Promise<FastifyInstance> | undefined;
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    inner ??= swaggerUiInstance(app, options).catch((error: unknown) => {
      inner = undefined;
      throw error;
    });
    // a HEAD request is answered from the GET one by Fastify (its length, no body), as for any route
    const answer = await (await inner).inject({ method: 'GET', url: request.url, headers: request.headers as Record<string, string> });
    // a file Swagger UI does not have is the console's own 404
    if (answer.statusCode === 404) return reply.callNotFound();
    for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_HEADERS.has(name)) reply.header(name, value);
    reply.code(answer.statusCode);
    // a redirect has no body, and so no type
    return answer.rawPayload.length > 0 ? reply.send(answer.rawPayload) : reply.send();
  };
  app.addHook('onClose', async () => {
    const started = await inner?.catch(() => undefined);
    await started?.close();
  });
  await app.register(
    async (docs) => {
      for (const { url, permission } of ROUTES) docs.get(url, { schema: { hide: true }, exposeHeadRoute: true, config: { permission } }, forward);
    },
    { prefix: options.routePrefix },
  );
};
