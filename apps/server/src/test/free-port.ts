import { createServer, type AddressInfo } from 'node:net';

/** A port free on 127.0.0.1 right now (a server or broker a test or benchmark starts binds it next). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
