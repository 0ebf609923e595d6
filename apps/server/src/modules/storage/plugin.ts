import { cabinetRecordEntity, permissionCode, RealtimeCmd } from '@isps/contract';
import fp from 'fastify-plugin';
import { tenantUsersHolding } from '../../gateway/permission-holders.ts';
import { releaseExpired } from './allocation.ts';
import { hasCabinetEvents, recordCabinetEvents } from './cabinet-events.ts';
import { CabinetSync } from './cabinet-sync.ts';
import { noticeExpiring } from './expiry-notices.ts';

declare module 'fastify' {
  interface FastifyInstance {
    cabinetSync: CabinetSync;
  }
}

/** Who is told of new opening records: the holders of the opening record list. */
const RECORD_READERS = [permissionCode(cabinetRecordEntity, 'list')];

export interface StorageOptions {
  debounceMs?: number;
  /** how often ended allocations are looked for */
  expirySweepMs?: number;
}

/**
 * The storage cabinets' device side, started with the app after the device gateway: the cabinet sync, what cabinet
 * devices' events mean (opening records, clearings), the consoles told of new records, allocations about to end told to
 * their managers and holders, and ended allocations released.
 */
export const storagePlugin = fp<StorageOptions>(
  async (app, options) => {
    const sync = new CabinetSync({ db: app.db, gateway: app.deviceGateway, log: app.log }, { debounceMs: options.debounceMs });
    app.decorate('cabinetSync', sync);
    app.deviceGateway.observe({
      store: async (db, device, events) => void (await recordCabinetEvents(db, device, events)),
      events: async (device, events) => {
        if (!hasCabinetEvents(events) || device.tenantId === null) return;
        const userIds = await tenantUsersHolding(app.db, device.tenantId, RECORD_READERS);
        await app.realtime.sendToUsers(userIds, { cmd: RealtimeCmd.cabinetRecord, msgId: device.id });
      },
      hello: async (device) => sync.deviceReturned(device.id),
      ack: async (device, ack) => sync.acknowledged(device, ack),
    });
    let sweeper: NodeJS.Timeout | null = null;
    let sweeping = false;
    const sweep = async () => {
      if (sweeping) return;
      sweeping = true;
      try {
        await releaseExpired(app.db, new Date(app.clock()).toISOString());
        await noticeExpiring(app, app.clock());
      } catch (error) {
        app.log.error({ err: error }, 'cabinet expiry sweep failed');
      } finally {
        sweeping = false;
      }
    };
    app.addHook('onReady', async () => {
      sync.start();
      sweeper = setInterval(() => void sweep(), options.expirySweepMs ?? 30_000);
      sweeper.unref();
    });
    app.addHook('preClose', async () => {
      if (sweeper) clearInterval(sweeper);
      await sync.stop();
    });
  },
  { name: 'storage', dependencies: ['device-gateway'] },
);
