import fp from 'fastify-plugin';
import type { EmbeddedBroker } from './broker.ts';
import { DeviceGateway, type GatewayOptions } from './gateway.ts';

/** Event-bus channel: a device's key was revoked; every server drops the device and closes its connection. */
export const DEVICE_REVOKED = 'device.revoked';

declare module 'fastify' {
  interface FastifyInstance {
    deviceGateway: DeviceGateway;
  }
}

/**
 * The device link, started and stopped with the app: with MQTT_URL the gateway joins the external broker (shared
 * subscription, so each device message is handled by one server); otherwise an embedded broker listens on
 * MQTT_PORT and the gateway signs in to it with an internal credential. MQTT_PORT=0 without MQTT_URL runs no
 * broker: commands are still queued, and go out once a server with a broker runs on the same database.
 */
export const gatewayPlugin = fp<GatewayOptions>(
  async (app, options) => {
    const gateway = new DeviceGateway({ db: app.db, dialect: app.dialect, clock: app.clock, realtime: app.realtime, log: app.log }, options);
    app.decorate('deviceGateway', gateway);
    // a revocation on any server closes the device's connection on the server it is connected to
    await app.eventBus.subscribe(DEVICE_REVOKED, (payload) => {
      const { sn } = (payload ?? {}) as { sn?: unknown };
      if (typeof sn === 'string') gateway.revokeDevice(sn);
    });
    const { mqttUrl, mqttPort, mqttMaxPacketKb, host } = app.settings;
    let broker: EmbeddedBroker | null = null;

    app.addHook('onReady', async () => {
      if (mqttUrl) {
        await gateway.start({ url: mqttUrl, shared: true });
        return;
      }
      if (mqttPort === 0) return;
      // the broker (aedes) loads only when it listens
      const { EmbeddedBroker } = await import('./broker.ts');
      broker = new EmbeddedBroker({ db: app.db, port: mqttPort, host, topicRoot: options.topicRoot, log: app.log, limits: { maxPacketBytes: mqttMaxPacketKb * 1024 } });
      gateway.disconnectDevice = (sn) => broker?.disconnect(sn);
      const port = await broker.listen();
      app.log.info({ port }, 'embedded MQTT broker listening');
      await gateway.start({ inProcess: broker.inProcessClient() });
    });
    // before the database closes: the last events are written and the port is free once close resolves
    app.addHook('preClose', async () => {
      await gateway.stop();
      await broker?.close();
      broker = null;
    });
  },
  { name: 'device-gateway', dependencies: ['services', 'event-bus'] },
);
