import websocket from '@fastify/websocket';
import fp from 'fastify-plugin';
import type { IncomingMessage } from 'node:http';
import { REALTIME_PATH, TOKEN_HEADER } from '@isps/contract';
import * as z from 'zod';
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../access.ts';
import { AppError } from '../envelope.ts';
import { toWire } from '../wire-time.ts';
import { RealtimeHub } from './hub.ts';

declare module 'fastify' {
  interface FastifyInstance {
    realtime: RealtimeHub;
  }
}

export interface RealtimeOptions {
  /** how often silent sockets are pinged (and dropped when the previous ping went unanswered) */
  pingIntervalMs?: number;
}

/**
 * Browsers cannot set headers on a websocket handshake, so the console offers its token as the subprotocol
 * (DESIGN section 6). For handshakes on the real-time path that header becomes the token header before Fastify
 * routes the request, and the one access hook authenticates it like any other call.
 */
function tokenFromSubprotocol(app: FastifyInstance): void {
  const pathPrefix = `${app.settings.apiPrefix}/websocket/`;
  app.server.prependListener('upgrade', (request: IncomingMessage) => {
    if (!request.url?.startsWith(pathPrefix)) return;
    const offered = request.headers['sec-websocket-protocol'];
    const header = TOKEN_HEADER.toLowerCase();
    if (!offered || request.headers[header]) return;
    const token = offered.split(',')[0]?.trim();
    if (token) request.headers[header] = token;
  });
}

/** The websocket hub: `GET {API_PREFIX}/websocket/{userId}` and the `app.realtime` service. */
export const realtimePlugin = fp<RealtimeOptions>(
  async (app, options) => {
    // times in a message leave as every answer's do: `yyyy-MM-dd HH:mm:ss` in TIME_ZONE
    const hub = new RealtimeHub(app.eventBus, (message) => toWire(message, app.settings.timeZone));
    await hub.start(options.pingIntervalMs ?? 30_000);
    app.decorate('realtime', hub);
    const stopClosingRevoked = app.tokens.onRevoked((revoked) => hub.closeRevoked(revoked));
    app.addHook('preClose', async () => {
      stopClosingRevoked();
      await hub.stop();
    });

    tokenFromSubprotocol(app);
    // a refused handshake (401, 403, 404) answered over the raw socket: drop the socket, it can never be upgraded.
    // @fastify/websocket does this only when its own onRequest hook ran, which a failing access hook prevents.
    app.addHook('onResponse', (request, _reply, done) => {
      const raw = request.raw;
      if (raw.headers.upgrade?.toLowerCase() === 'websocket' && !raw.socket.destroyed) raw.socket.destroy();
      done();
    });
    await app.register(
      async (routes) => {
        // in this route's context only: @fastify/websocket's hooks and its wrapper around each route's handler cost
        // the other requests nothing. The first offered subprotocol (the token) is echoed, which browsers require
        // before they open the socket.
        await routes.register(websocket, { options: { maxPayload: 4096 } });
        routes.get(
          REALTIME_PATH,
          {
            websocket: true,
            schema: { params: z.object({ userId: z.string().min(1).max(64) }) },
            config: { permission: 'authenticated' },
            // bound to its user: a valid token of someone else is refused before the upgrade
            preValidation: async (request) => {
              const { userId } = request.params as { userId: string };
              if (callerOf(request).id !== userId) throw new AppError('forbidden', 'realtime.otherUser');
            },
          },
          async (socket, request) => {
            const token = request.accessToken ?? '';
            // the socket lives as long as its token: at expiry it is closed like a sign-out
            const expiresAt = await app.tokens.expiryOf(token);
            hub.attach(callerOf(request).id, app.tokens.fingerprint(token), socket, expiresAt === null ? 0 : expiresAt - app.clock());
          },
        );
      },
      { prefix: app.settings.apiPrefix },
    );
  },
  { name: 'realtime', dependencies: ['services', 'event-bus', 'access'] },
);
