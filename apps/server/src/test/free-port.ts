import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The ports the kernel hands out for outgoing connections and for `listen(0)`. A port probed free inside that range
 * can be taken by any client connection between the probe and the real listen (EADDRINUSE under load), so the ports
 * given out here lie below it.
 */
function ephemeralStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && low > 11_000) return low;
  } catch {
    // not Linux: the IANA dynamic range starts at 49152
  }
  return 49_152;
}

const LOWEST = 10_000;
const highest = ephemeralStart() - 1;
/** given out by this process already: two servers a test starts one after the other never get the same port */
const given = new Set<number>();

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A port free on 127.0.0.1 right now, which a server or broker a test or benchmark starts binds next. It is picked at
 * random below the kernel's ephemeral range, where no outgoing connection can take it meanwhile; two callers picking
 * the same one of some 20,000 ports between probe and listen is what remains.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (highest - LOWEST + 1));
    if (given.has(port) || !(await bindable(port))) continue;
    given.add(port);
    return port;
  }
  throw new Error(`no free port found between ${LOWEST} and ${highest}`);
}
