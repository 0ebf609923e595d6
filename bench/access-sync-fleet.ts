/**
 * The simulated door controllers of the access-sync benchmark, in a process of their own (devices are other machines:
 * their MQTT clients must not take the server's CPU time). Driven over IPC by bench/access-sync.bench.ts.
 */
import { performance } from 'node:perf_hooks';
import { SimDevice } from '@isps/device-sim';

export type AccessFleetRequest =
  | { cmd: 'connect'; url: string; keys: Array<[string, string]> }
  /** resolves once every device holds `count` people */
  | { cmd: 'wait'; count: number; timeoutMs: number }
  | { cmd: 'stop' };
export type AccessFleetReply = { cmd: 'ready' } | { cmd: 'done'; ms: number; failed: number } | { cmd: 'error'; message: string };

let devices: SimDevice[] = [];
const reply = (message: AccessFleetReply) => process.send!(message);

process.on('message', (request: AccessFleetRequest) => {
  const run = async () => {
    const start = performance.now();
    switch (request.cmd) {
      case 'connect': {
        devices = request.keys.map(([sn, key]) => new SimDevice({ url: request.url, sn, key, kind: 'door', reconnectMs: 60_000 }));
        const failed = (await Promise.allSettled(devices.map((d) => d.start()))).filter((r) => r.status === 'rejected').length;
        return reply({ cmd: 'done', ms: performance.now() - start, failed });
      }
      case 'wait': {
        const deadline = Date.now() + request.timeoutMs;
        const short = () => devices.filter((d) => d.access.entries.size < request.count).length;
        while (short() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
        return reply({ cmd: 'done', ms: performance.now() - start, failed: short() });
      }
      case 'stop':
        await Promise.allSettled(devices.map((d) => d.stop()));
        devices = [];
        reply({ cmd: 'done', ms: 0, failed: 0 });
        process.disconnect();
        return;
    }
  };
  run().catch((error: unknown) => reply({ cmd: 'error', message: String(error) }));
});
reply({ cmd: 'ready' });
