import fp from 'fastify-plugin';
import { AccessSync, type AccessSyncOptions } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    accessSync: AccessSync;
  }
}

/** The access synchronisation, started with the app (after the device gateway) and drained before it closes. */
export const accessSyncPlugin = fp<AccessSyncOptions>(
  async (app, options) => {
    const sync = new AccessSync({ db: app.db, gateway: app.deviceGateway, realtime: app.realtime, clock: app.clock, log: app.log }, options);
    app.decorate('accessSync', sync);
    app.addHook('onReady', async () => sync.start());
    app.addHook('preClose', async () => sync.stop());
  },
  { name: 'access-sync', dependencies: ['device-gateway'] },
);
