/**
 * What the device benchmarks share: a server with the embedded broker on a temporary DATA_DIR (SQLite), an admin
 * session, device keys issued and approved through the API, and the result line every bench prints.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeviceAuditStatus, DeviceCodePath, type Envelope } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import type { FleetReply, FleetRequest } from './device-fleet.ts';
import { freePort } from '../apps/server/src/test/free-port.ts';
export { freePort } from '../apps/server/src/test/free-port.ts';


export interface BenchServer {
  app: FastifyInstance;
  mqttUrl: string;
  /** http://127.0.0.1:port (set when started with listen) */
  httpBase: string | null;
  token: string;
  adminId: string;
  close(): Promise<void>;
}

/** Starts the server the way `npm start` does (embedded broker on a free port), signs admin in, password changed. */
export async function startBenchServer(options: { listen?: boolean } = {}): Promise<BenchServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'isps-bench-device-'));
  const mqttPort = await freePort();
  const app = await buildApp(
    loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', MQTT_PORT: String(mqttPort), ADMIN_PASSWORD: 'Bench#Pass1', LOGIN_CAPTCHA: 'off', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent' }),
  );
  let httpBase: string | null = null;
  if (options.listen) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    httpBase = `http://127.0.0.1:${address && typeof address === 'object' ? address.port : 0}`;
  } else {
    await app.ready();
  }
  const login = async (password: string) => {
    const res = await app.inject({ method: 'POST', url: `${app.settings.apiPrefix}/sys/login`, payload: { username: 'admin', password } });
    return (res.json() as Envelope<{ token: string; userInfo: { id: string } }>).result;
  };
  const first = await login('Bench#Pass1');
  await app.inject({
    method: 'POST',
    url: `${app.settings.apiPrefix}/sys/user/updatePassword`,
    headers: { 'X-Access-Token': first.token },
    payload: { username: 'admin', oldpassword: 'Bench#Pass1', password: 'Bench#Pass2', confirmpassword: 'Bench#Pass2' },
  });
  const session = await login('Bench#Pass2');
  return {
    app,
    mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
    httpBase,
    token: session.token,
    adminId: session.userInfo.id,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Issues and approves a device code per serial number through the API (a few at a time); answers sn → device key. */
export async function provisionKeys(server: BenchServer, sns: readonly string[]): Promise<Map<string, string>> {
  const { app, token } = server;
  const call = async <T>(method: 'POST' | 'PUT', path: string, payload: unknown): Promise<T> => {
    const res = await app.inject({ method, url: app.settings.apiPrefix + path, headers: { 'X-Access-Token': token }, payload: payload as object });
    const envelope = res.json() as Envelope<T>;
    if (!envelope.success) throw new Error(`${path}: ${envelope.message}`);
    return envelope.result;
  };
  const keys = new Map<string, string>();
  const queue = [...sns];
  const worker = async () => {
    for (let sn = queue.shift(); sn !== undefined; sn = queue.shift()) {
      const added = await call<{ id: string }>('POST', DeviceCodePath.add, { sn });
      const audited = await call<{ deviceKey: string }>('PUT', DeviceCodePath.audit, { id: added.id, auditStatus: DeviceAuditStatus.agree });
      keys.set(sn, audited.deviceKey);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return keys;
}

/** `count` serial numbers such as BENCH-0001. */
export function serialNumbers(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}-${String(i + 1).padStart(4, '0')}`);
}

/** Resolves once `check` answers true (polled every `everyMs`); answers false after `timeoutMs`. */
export async function poll(check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 20): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return true;
}

/** The line every bench prints: `name value baseline ratio target PASS|FAIL`. */
export function report(name: string, value: string, baseline: string, ratio: number, target: string, pass: boolean): void {
  console.log(`${name} ${value} ${baseline} ${ratio.toFixed(2)} ${target} ${pass ? 'PASS' : 'FAIL'}`);
}

/** The simulated devices in their own process (bench/device-fleet.ts); each call resolves with its time and failures. */
export class FleetProcess {
  private readonly child: ChildProcess;
  private waiting: ((reply: FleetReply) => void) | null = null;
  private readonly ready: Promise<FleetReply>;

  constructor() {
    this.child = fork(fileURLToPath(new URL('./device-fleet.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.ready = this.next();
    this.child.on('message', (reply: FleetReply) => {
      const waiting = this.waiting;
      this.waiting = null;
      waiting?.(reply);
    });
  }

  private next(): Promise<FleetReply> {
    return new Promise((resolve) => (this.waiting = resolve));
  }

  private async call(request: FleetRequest): Promise<{ ms: number; failed: number }> {
    await this.ready;
    const answer = this.next();
    this.child.send(request);
    const reply = await answer;
    if (reply.cmd !== 'done') throw new Error(`device fleet: ${reply.cmd === 'error' ? reply.message : reply.cmd}`);
    return reply;
  }

  /** Starts the ready wait before the clock of a measure starts. */
  async started(): Promise<void> {
    await this.ready;
  }

  connect(url: string, keys: ReadonlyMap<string, string>) {
    return this.call({ cmd: 'connect', url, keys: [...keys] });
  }

  emit(perDevice: number) {
    return this.call({ cmd: 'emit', perDevice });
  }

  /** `count` plain MQTT clients without user name (a bare broker's baseline) */
  bare(url: string, count: number) {
    return this.call({ cmd: 'bare', url, count });
  }

  async stop(): Promise<void> {
    await this.call({ cmd: 'stop' });
  }
}
