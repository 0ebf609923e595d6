import fp from 'fastify-plugin';
import { tellHostsOfFirstOpenings } from './first-opening.ts';

/** The visitors' device side, started after the device gateway: hosts are told of their visitors' first openings. */
export const visitsPlugin = fp(
  async (app) => {
    app.deviceGateway.observe({
      events: async (device, events) => {
        await tellHostsOfFirstOpenings(app, device, events).catch((error: unknown) => app.log.error({ err: error }, 'visit first-opening notice failed'));
      },
    });
  },
  { name: 'visits', dependencies: ['device-gateway'] },
);
