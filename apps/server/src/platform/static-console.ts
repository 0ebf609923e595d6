import fastifyStatic from '@fastify/static';
import { existsSync, statSync } from 'node:fs';
import { join, relative, resolve, isAbsolute } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';

const NOT_BUILT = 'The ISPS Console web app is not built yet. Run `npm run build`, then restart the server.\n';

function servableFile(root: string, requested: string): string | null {
  if (!requested) return null;
  const absolute = resolve(root, requested);
  const inside = relative(root, absolute);
  if (inside.startsWith('..') || isAbsolute(inside)) return null;
  try {
    return statSync(absolute).isFile() ? inside : null;
  } catch {
    return null;
  }
}

/** The built console at `/`, with the single-page fallback; paths under the API prefix stay API 404s. */
export const staticConsole: FastifyPluginAsync<{ root: string; apiPrefix: string }> = async (app, { root, apiPrefix }) => {
  // the file server needs an existing root; without a build only the hint below is served
  const built = existsSync(join(root, 'index.html'));
  // the build writes .br and .gz beside each text asset: sent as they are to browsers that accept them
  if (built) await app.register(fastifyStatic, { root, serve: false, preCompressed: true });

  app.get('/*', { schema: { hide: true }, exposeHeadRoute: true, config: { permission: 'public' } }, async (request, reply) => {
    const path = decodeURIComponent(request.url.split('?')[0] ?? '/');
    if (path === apiPrefix || path.startsWith(`${apiPrefix}/`)) return reply.callNotFound();
    if (!built) {
      if (path === '/') return reply.type('text/plain; charset=utf-8').send(NOT_BUILT);
      return reply.callNotFound();
    }
    const file = servableFile(root, path.replace(/^\/+/, ''));
    if (file) {
      // hashed bundle names change with their content, so they may be cached for good
      const immutable = file.startsWith('assets/');
      return reply.sendFile(file, { maxAge: immutable ? 31_536_000_000 : 0, immutable });
    }
    // `/` is the console whatever the client accepts (curl sends */*); deeper unknown paths only for browsers
    if (path === '/' || (request.headers.accept ?? '').includes('text/html')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html', { maxAge: 0 });
    }
    return reply.callNotFound();
  });
};
