/**
 * The simulated devices of the device benchmarks, in a process of their own (devices are other machines: their
 * MQTT clients must not take the server's CPU time). Driven over IPC by bench/device-support.ts's FleetProcess.
 */
import { performance } from 'node:perf_hooks';
import { SIM_KINDS, SimDevice } from '@isps/device-sim';
import { startWithRetries } from './fleet-start.ts';
import mqtt, { type MqttClient } from 'mqtt';

export type FleetRequest =
  | { cmd: 'connect'; url: string; keys: Array<[string, string]> }
  | { cmd: 'emit'; perDevice: number }
  | { cmd: 'bare'; url: string; count: number }
  | { cmd: 'stop' };
export type FleetReply = { cmd: 'ready' } | { cmd: 'done'; ms: number; failed: number } | { cmd: 'error'; message: string };

/** devices send the events of this many milliseconds as one message (docs/device-protocol.md, event batches) */
const BATCH_MS = Number(process.env.DEVICE_BATCH_MS ?? 20);

let devices: SimDevice[] = [];
let bare: MqttClient[] = [];
const reply = (message: FleetReply) => process.send!(message);

async function timed(work: () => Promise<number>): Promise<void> {
  const start = performance.now();
  const failed = await work();
  reply({ cmd: 'done', ms: performance.now() - start, failed });
}

process.on('message', (request: FleetRequest) => {
  const run = async () => {
    switch (request.cmd) {
      case 'connect':
        devices = request.keys.map(([sn, key], i) => new SimDevice({ url: request.url, sn, key, kind: SIM_KINDS[i % SIM_KINDS.length]!, reconnectMs: 60_000, batchMs: BATCH_MS }));
        // a device whose connection attempt timed out tries again, as devices do
        return timed(async () => (await Promise.allSettled(devices.map((d) => startWithRetries(d)))).filter((r) => r.status === 'rejected').length);
      case 'emit':
        return timed(async () => {
          const results = await Promise.allSettled(devices.map((d) => Promise.all(Array.from({ length: request.perDevice }, () => d.emit()))));
          return results.filter((r) => r.status === 'rejected').length;
        });
      case 'bare':
        return timed(async () => {
          const results = await Promise.allSettled(
            Array.from({ length: request.count }, (_, i) => {
              const client = mqtt.connect(request.url, { clientId: `bare-${i}`, clean: true, reconnectPeriod: 0, connectTimeout: 30_000 });
              bare.push(client);
              return new Promise<void>((resolve, reject) => {
                client.once('connect', () => resolve());
                client.once('error', reject);
              });
            }),
          );
          return results.filter((r) => r.status === 'rejected').length;
        });
      case 'stop':
        await Promise.allSettled([...devices.map((d) => d.stop()), ...bare.map((c) => c.endAsync())]);
        devices = [];
        bare = [];
        reply({ cmd: 'done', ms: 0, failed: 0 });
        process.disconnect();
        return;
    }
  };
  run().catch((error: unknown) => reply({ cmd: 'error', message: String(error) }));
});
reply({ cmd: 'ready' });
