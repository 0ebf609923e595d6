import { WebhookEventKind } from '@isps/contract';
import fp from 'fastify-plugin';
import { DeliveryWorker } from './delivery-worker.ts';
import { webhookEventsOf } from './device-events.ts';

/** Event-bus channel: a subscription was added, changed or removed; every server reads the subscriptions again. */
export const WEBHOOKS_CHANGED = 'webhooks.changed';

declare module 'fastify' {
  interface FastifyInstance {
    webhookWorker: DeliveryWorker;
  }
}

/**
 * Webhook deliveries, started after the device gateway: device events of the subscribed kinds are queued in the
 * transaction that stores them, presence changes right after their row is written, and the delivery worker sends the
 * queue while the app runs.
 */
export const webhookPlugin = fp(
  async (app) => {
    const worker = new DeliveryWorker({ db: app.db, clock: app.clock, secretBox: app.secretBox, settings: () => app.settings.webhooks, log: app.log });
    app.decorate('webhookWorker', worker);
    app.webhooks.queued = () => worker.poke();
    // deliveries queued inside a device batch's transaction are looked at again once it is committed
    let queuedInBatch = false;
    await app.eventBus.subscribe(WEBHOOKS_CHANGED, () => app.webhooks.forget());
    app.deviceGateway.observe({
      store: async (db, device, events) => {
        const found = webhookEventsOf(device, events);
        if (found.length > 0 && (await app.webhooks.enqueue(db, device.tenantId, found)) > 0) queuedInBatch = true;
      },
      events: async () => {
        if (!queuedInBatch) return;
        queuedInBatch = false;
        worker.poke();
      },
      presence: async (change) => {
        await app.webhooks.enqueue(app.db, change.tenantId, [
          { kind: change.online ? WebhookEventKind.deviceOnline : WebhookEventKind.deviceOffline, time: app.clock(), data: { deviceId: change.id, deviceSn: change.sn, deviceName: change.name } },
        ]);
      },
    });
    app.addHook('onReady', async () => worker.start());
    app.addHook('preClose', () => worker.stop());
  },
  { name: 'webhooks', dependencies: ['device-gateway', 'event-bus'] },
);
