import fp from 'fastify-plugin';
import { recordAccessEvents } from './access-events.ts';
import { AccessSync, type AccessSyncOptions } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    accessSync: AccessSync;
  }
}

/**
 * The access synchronisation, started with the app (after the device gateway) and drained before it closes, the
 * devices' reconnections it answers, and the access events the gateway receives.
 */
export const accessSyncPlugin = fp<AccessSyncOptions>(
  async (app, options) => {
    const sync = new AccessSync({ db: app.db, gateway: app.deviceGateway, realtime: app.realtime, clock: app.clock, log: app.log }, options);
    app.decorate('accessSync', sync);
    // openings, denials and door states are kept as access events, judged in the site's zone (the gateway logs a failure and goes on)
    app.deviceGateway.eventListeners.add((device, events, db, derived) => recordAccessEvents(db, derived, device, events, { timeZone: app.settings.timeZone }));
    // a device in full sync mode gets its whole list again when it reconnects
    app.deviceGateway.observe({ hello: async (device) => sync.deviceReturned(device.id) });
    app.addHook('onReady', async () => sync.start());
    app.addHook('preClose', async () => sync.stop());
  },
  { name: 'access-sync', dependencies: ['device-gateway'] },
);
