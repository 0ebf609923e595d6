import { alarmEntity, DeviceEventKind, keyEntity, permissionCode, RealtimeCmd, type KeyOverdueNotice } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { tenantUsersHolding } from '../../gateway/permission-holders.ts';
import { formatWireTime } from '../../platform/wire-time.ts';
import { hasKeyEvents, recordKeyEvents } from './key-events.ts';
import { KeySync } from './key-sync.ts';
import { raiseOverdueKeys, type RaisedOverdue } from './overdue.ts';

declare module 'fastify' {
  interface FastifyInstance {
    keySync: KeySync;
    /** looks for overdue keys now (the sweep runs it on its own; tests call it after moving the clock) */
    sweepOverdueKeys(): Promise<RaisedOverdue[]>;
  }
}

/** Who is told of takes, returns and overdue keys: the holders of the key list (and of the alarm list, for alarms). */
const KEY_READERS = [permissionCode(keyEntity, 'list')];
const ALARM_READERS = [...KEY_READERS, permissionCode(alarmEntity, 'list')];

export interface KeysOptions {
  debounceMs?: number;
  /** how often overdue keys are looked for (ms) */
  overdueSweepMs?: number;
}

/** Tells the consoles of each overdue take's tenant, once per take. */
async function tellOverdue(app: FastifyInstance, raised: readonly RaisedOverdue[]): Promise<void> {
  for (const item of raised) {
    if (item.tenantId === null) continue;
    const row = await app.db
      .selectFrom('sys_key_record as r')
      .innerJoin('sys_key as k', 'k.id', 'r.key_id')
      .innerJoin('sys_device as d', 'd.id', 'r.device_id')
      .leftJoin('sys_people as p', 'p.id', 'r.people_id')
      .select(['k.key_name', 'd.device_name', 'p.name', 'r.take_time'])
      .where('r.id', '=', item.recordId)
      .executeTakeFirst();
    if (!row) continue;
    const data: KeyOverdueNotice = { keyId: item.keyId, keyName: row.key_name, deviceName: row.device_name, peopleName: row.name ?? null, takeTime: formatWireTime(row.take_time, app.settings.timeZone), alarmId: item.alarmId };
    const userIds = await tenantUsersHolding(app.db, item.tenantId, ALARM_READERS);
    await app.realtime.sendToUsers(userIds, { cmd: RealtimeCmd.keyOverdue, msgId: item.keyId, data });
  }
}

/**
 * The key cabinets' device side, started with the app after the device gateway: the key sync, what key cabinets'
 * events mean (takes and returns), the consoles told of them, and the sweep that raises overdue alarms.
 */
export const keysPlugin = fp<KeysOptions>(
  async (app, options) => {
    const sync = new KeySync({ db: app.db, gateway: app.deviceGateway, log: app.log }, { debounceMs: options.debounceMs });
    app.decorate('keySync', sync);
    let sweeping: Promise<RaisedOverdue[]> | null = null;
    const sweep = (): Promise<RaisedOverdue[]> => {
      sweeping ??= (async () => {
        try {
          const raised = await raiseOverdueKeys(app.db, app.clock(), { timeZone: app.settings.timeZone });
          await tellOverdue(app, raised);
          return raised;
        } finally {
          sweeping = null;
        }
      })();
      return sweeping;
    };
    app.decorate('sweepOverdueKeys', sweep);
    app.deviceGateway.observe({
      store: async (db, device, events) => recordKeyEvents(db, device, events),
      events: async (device, events) => {
        if (!hasKeyEvents(events) || device.tenantId === null) return;
        const userIds = await tenantUsersHolding(app.db, device.tenantId, KEY_READERS);
        await app.realtime.sendToUsers(userIds, { cmd: RealtimeCmd.keyState, msgId: device.id });
        // a take outside every window of its holder (or by nobody known) is overdue now, not at the next sweep
        if (events.some((e) => e.kind === DeviceEventKind.keyTaken)) await sweep();
      },
    });
    let sweeper: NodeJS.Timeout | null = null;
    app.addHook('onReady', async () => {
      sync.start();
      sweeper = setInterval(() => void sweep().catch((error: unknown) => app.log.error({ err: error }, 'overdue key sweep failed')), options.overdueSweepMs ?? 30_000);
      sweeper.unref();
    });
    app.addHook('preClose', async () => {
      if (sweeper) clearInterval(sweeper);
      await sync.stop();
    });
  },
  { name: 'keys', dependencies: ['device-gateway'] },
);
