/**
 * The soak's simulated devices, in a process of their own (devices are other machines: their MQTT clients must not
 * take the server's CPU time, nor the load generator's). Driven over IPC by bench/soak.long.ts: the devices connect,
 * each emits one event every `everyMs` (spread evenly, so the broker sees a steady stream), and the fleet counts what
 * went wrong: devices that failed to connect, connections lost (a device seen offline after it was online, polled
 * every 100 ms; the simulator reconnects after at least a second, so none goes unseen), events whose publishing
 * failed, and events the server never receipted.
 */
import { SIM_KINDS, SimDevice } from '@isps/device-sim';
import { startWithRetries } from './fleet-start.ts';

export type SoakFleetRequest =
  | { cmd: 'start'; url: string; keys: Array<[string, string]>; everyMs: number }
  /** stop emitting and wait (up to `waitMs`) until the server has receipted every event sent */
  | { cmd: 'quiesce'; waitMs: number }
  | { cmd: 'stats' }
  /** fault injection (SOAK_FAULTS): the first device loses its network, as a cable pulled */
  | { cmd: 'drop' }
  | { cmd: 'stop' };

export interface SoakFleetStats {
  devices: number;
  connectFailed: number;
  /** why devices failed to connect: each reason with its count */
  connectErrors: Record<string, number>;
  /** online → offline transitions after the start */
  disconnects: number;
  offlineNow: number;
  emitted: number;
  emitFailed: number;
  /** events sent and not (yet) receipted by the server */
  unreceipted: number;
  /** events sent again for want of a receipt */
  resent: number;
}

export type SoakFleetReply = { cmd: 'ready' } | { cmd: 'done'; ms: number; stats: SoakFleetStats } | { cmd: 'error'; message: string };

let devices: SimDevice[] = [];
let emitter: NodeJS.Timeout | null = null;
let watcher: NodeJS.Timeout | null = null;
const wasOnline = new Map<SimDevice, boolean>();
const counts = { connectFailed: 0, disconnects: 0, emitted: 0, emitFailed: 0 };
const connectErrors: Record<string, number> = {};
const reply = (message: SoakFleetReply) => process.send!(message);

function stats(): SoakFleetStats {
  return {
    devices: devices.length,
    ...counts,
    connectErrors,
    offlineNow: devices.filter((d) => !d.online).length,
    unreceipted: devices.reduce((sum, d) => sum + d.memory.unreceipted.size, 0),
    resent: devices.reduce((sum, d) => sum + d.resent, 0),
  };
}

function stopEmitting(): void {
  if (emitter) clearInterval(emitter);
  emitter = null;
}

process.on('message', (request: SoakFleetRequest) => {
  const run = async () => {
    const started = performance.now();
    const done = () => reply({ cmd: 'done', ms: performance.now() - started, stats: stats() });
    switch (request.cmd) {
      case 'start': {
        devices = request.keys.map(([sn, key], i) => new SimDevice({ url: request.url, sn, key, kind: SIM_KINDS[i % SIM_KINDS.length]!, reconnectMs: 1000 }));
        // 50 at a time: the soak is no connection storm (device-presence measures that)
        const results: Array<PromiseSettledResult<void>> = [];
        for (let from = 0; from < devices.length; from += 50) results.push(...(await Promise.allSettled(devices.slice(from, from + 50).map((d) => startWithRetries(d)))));
        for (const result of results) {
          if (result.status === 'fulfilled') continue;
          counts.connectFailed += 1;
          const reason = String(result.reason).slice(0, 200);
          connectErrors[reason] = (connectErrors[reason] ?? 0) + 1;
        }
        for (const d of devices) wasOnline.set(d, d.online);
        watcher = setInterval(() => {
          for (const d of devices) {
            const online = d.online;
            if (wasOnline.get(d) && !online) counts.disconnects += 1;
            wasOnline.set(d, online);
          }
        }, 100);
        // one tick every 100 ms: each device's turn comes once per `everyMs`
        const ticks = Math.max(1, Math.round(request.everyMs / 100));
        let tick = 0;
        emitter = setInterval(() => {
          const turn = tick++ % ticks;
          for (let i = turn; i < devices.length; i += ticks) {
            const device = devices[i]!;
            if (!device.online) continue;
            counts.emitted += 1;
            device.emit().catch(() => (counts.emitFailed += 1));
          }
        }, 100);
        return done();
      }
      case 'quiesce': {
        stopEmitting();
        const deadline = Date.now() + request.waitMs;
        while (stats().unreceipted > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
        return done();
      }
      case 'stats':
        return done();
      case 'drop':
        devices[0]?.dropOffNetwork();
        return done();
      case 'stop': {
        stopEmitting();
        if (watcher) clearInterval(watcher);
        const final = stats();
        await Promise.allSettled(devices.map((d) => d.stop()));
        reply({ cmd: 'done', ms: performance.now() - started, stats: final });
        process.disconnect();
        return;
      }
    }
  };
  run().catch((error: unknown) => reply({ cmd: 'error', message: String(error) }));
});
reply({ cmd: 'ready' });
