import { TOKEN_HEADER, VisitorPath, visitorLoginBody, visitorRegisterBody } from '@isps/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../platform/envelope.ts';
import { authenticateVisitor, findVisitor, recordVisitorLogin, registerVisitor, toVisitorInfo } from './visitor-service.ts';
import { myVisitRoutes } from './visit-requests.ts';
import { VisitorTokenService } from './visitor-tokens.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** needs a visitor token; staff tokens are refused (the staff access layer sees these routes as public) */
    visitor?: boolean;
  }
  interface FastifyRequest {
    visitorId: string | null;
  }
}

const tags = ['visitor'];

function headerToken(request: FastifyRequest): string | null {
  const value = request.headers[TOKEN_HEADER.toLowerCase()];
  const token = Array.isArray(value) ? value[0] : value;
  return token?.trim() || null;
}

export const visitorRoutes: FastifyPluginAsyncZod = async (app) => {
  const tokens = new VisitorTokenService(app);
  const limit = { max: app.settings.rateLimit.loginPerMinute, timeWindow: 60_000 };
  app.decorateRequest('visitorId', null);
  app.addHook('onRequest', async (request) => {
    if (!request.routeOptions.config.visitor) return;
    const token = headerToken(request);
    const visitorId = token ? await tokens.resolve(token) : null;
    const visitor = visitorId ? await findVisitor(app, visitorId) : undefined;
    if (!visitor || Number(visitor.status) !== 1) throw new AppError('unauthorized', 'error.unauthorized');
    request.visitorId = visitor.id;
  });

  app.post(
    VisitorPath.register,
    { schema: { tags, summary: 'Visitor self-registration', body: visitorRegisterBody }, config: { permission: 'public', rateLimit: limit } },
    async (request, reply) => reply.ok(await registerVisitor(app, request.body), 'visitor.registered'),
  );
  app.post(
    VisitorPath.login,
    { schema: { tags, summary: 'Visitor login with phone or ID card number', body: visitorLoginBody }, config: { permission: 'public', rateLimit: limit } },
    async (request, reply) => {
      let visitor: Awaited<ReturnType<typeof authenticateVisitor>>;
      try {
        visitor = await authenticateVisitor(app, request.body);
      } catch (error) {
        await recordVisitorLogin(app, request, request.body.account, null);
        throw error;
      }
      await recordVisitorLogin(app, request, request.body.account, visitor);
      return reply.ok({ token: await tokens.issue(visitor.id), visitor: await toVisitorInfo(app, visitor) }, 'login.ok');
    },
  );
  app.post(
    VisitorPath.logout,
    { schema: { tags, summary: 'End the visitor session' }, config: { permission: 'public', visitor: true } },
    async (request, reply) => {
      await tokens.revoke(headerToken(request) ?? '');
      return reply.ok(null, 'logout.ok');
    },
  );
  app.get(
    VisitorPath.info,
    { schema: { tags, summary: 'The signed-in visitor' }, config: { permission: 'public', visitor: true } },
    async (request, reply) => {
      const visitor = await findVisitor(app, request.visitorId as string);
      if (!visitor) throw new AppError('unauthorized', 'error.unauthorized');
      return reply.ok(await toVisitorInfo(app, visitor));
    },
  );
  // the visitor's own visits, requests and messages: under the visitor-token hook above
  await app.register(myVisitRoutes);
};
