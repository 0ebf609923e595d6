import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DoorScheduleSync } from './schedule-sync.ts';

declare module 'fastify' {
  interface FastifyInstance {
    doorScheduleSync: DoorScheduleSync;
  }
}

export interface DoorScheduleOptions {
  debounceMs?: number;
}

/** The door schedules' device side, started with the app after the device gateway: the sync to the door controllers. */
export const doorSchedulePlugin = fp<DoorScheduleOptions>(
  async (app: FastifyInstance, options) => {
    const sync = new DoorScheduleSync({ db: app.db, gateway: app.deviceGateway, log: app.log, timeZone: app.settings.timeZone }, { debounceMs: options.debounceMs });
    app.decorate('doorScheduleSync', sync);
    app.deviceGateway.observe({ hello: async (device) => sync.hello(device.id) });
    app.addHook('onReady', async () => sync.start());
    app.addHook('preClose', async () => sync.stop());
  },
  { name: 'door-schedule', dependencies: ['device-gateway'] },
);
