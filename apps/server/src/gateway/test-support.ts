import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { DeviceAuditStatus, DeviceCodePath, type RealtimeMessage } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from '../app.ts';
import type { DatabaseDialect } from '../config.ts';
import { adminToken, api, createNamespace, injectAs, ManualClock, testConfig, type TestApp, type TestAppOptions, type TestNamespace } from '../test/harness.ts';
import type { AccessSyncOptions } from '../modules/access-sync/service.ts';
import type { GatewayOptions } from './gateway.ts';
import { freePort } from '../test/free-port.ts';
export { freePort } from '../test/free-port.ts';


export interface LinkedAppOptions {
  namespace?: TestNamespace;
  /** the embedded broker's port; ignored with mqttUrl */
  mqttPort?: number;
  mqttUrl?: string;
  gateway?: GatewayOptions;
  accessSync?: AccessSyncOptions;
  /** servers of one console behind a load balancer share Redis (cache and event bus) and its key prefix */
  redis?: boolean;
  config?: TestAppOptions['config'];
  /** patrol settings (a test sweeps by hand) */
  patrol?: BuildOptions['patrol'];
}

/** An app with the device link on: an embedded broker on 127.0.0.1 (or an external broker), on its own or a given database. */
export async function buildLinkedApp(dialect: DatabaseDialect, options: LinkedAppOptions = {}): Promise<TestApp & { mqttUrl: string }> {
  const namespace = options.namespace ?? (await createNamespace(dialect));
  const mqttPort = options.mqttPort ?? (await freePort());
  const env: Record<string, string> = { HOST: '127.0.0.1', MQTT_PORT: String(mqttPort), ...(options.mqttUrl ? { MQTT_URL: options.mqttUrl } : {}) };
  const clock = new ManualClock();
  const app = await buildApp(testConfig(namespace, { env, redis: options.redis, config: options.config }), { clock: clock.now, gateway: { presenceWindowMs: 100, retryIntervalMs: 100, events: { maxDelayMs: 5 }, ...options.gateway }, accessSync: { pollMs: 100, ...options.accessSync }, ...(options.patrol ? { patrol: options.patrol } : {}) });
  await app.ready();
  return {
    app,
    clock,
    namespace,
    mqttUrl: options.mqttUrl ?? `mqtt://127.0.0.1:${mqttPort}`,
    close: async () => {
      await app.close();
      if (!options.namespace) await namespace.drop();
    },
  };
}

/** A serial number no other test (or run on a shared broker) uses. */
export function uniqueSn(prefix = 'T'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

/** Issues and approves a device code for `sn` through the API; answers the device key. */
export async function approvedKey(app: FastifyInstance, sn: string, token?: string): Promise<string> {
  const admin = token ?? (await adminToken(app));
  const added = await injectAs<{ id: string }>(app, admin, { method: 'POST', url: api(app, DeviceCodePath.add), payload: { sn } });
  if (!added.envelope.success) throw new Error(`device code for ${sn}: ${added.envelope.message}`);
  const audited = await injectAs<{ deviceKey: string }>(app, admin, { method: 'PUT', url: api(app, DeviceCodePath.audit), payload: { id: added.envelope.result.id, auditStatus: DeviceAuditStatus.agree } });
  if (!audited.envelope.success) throw new Error(`approval of ${sn}: ${audited.envelope.message}`);
  return audited.envelope.result.deviceKey;
}

/** Resolves once `check` answers true (polled), or fails after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not reached in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The external broker the device suite also runs against (the local Mosquitto), as MQTT_URL names it. */
export const EXTERNAL_MQTT_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';

/** Whether something listens at the broker's address (a TCP connection within a second). */
async function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 1883), timeout: 1000 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

export type BrokerKind = 'embedded' | 'external';

/**
 * The brokers a device suite runs against: the embedded one always, the external one (EXTERNAL_MQTT_URL) too unless
 * it is unreachable outside CI (in CI an unreachable broker fails the suite instead of skipping it).
 */
export async function testBrokers(): Promise<BrokerKind[]> {
  return process.env.CI || (await reachable(EXTERNAL_MQTT_URL)) ? ['embedded', 'external'] : ['embedded'];
}

/**
 * What an app on `broker` needs: nothing for the embedded broker; for the shared external one a topic root and share
 * group of its own, so parallel runs (and other suites) on that broker never see each other's messages.
 */
export function brokerOptions(broker: BrokerKind): { mqttUrl?: string; gateway?: GatewayOptions; topicRoot?: string } {
  if (broker === 'embedded') return {};
  const root = `isps-t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  return { mqttUrl: EXTERNAL_MQTT_URL, gateway: { topicRoot: root, shareGroup: root }, topicRoot: root };
}

/** Keeps every message the app sends to users (`sendToUsers`) in `into`, then sends it as before. */
export function recordUserNotices(app: FastifyInstance, into: Array<{ userIds: readonly string[]; message: RealtimeMessage }>): void {
  const send = app.realtime.sendToUsers.bind(app.realtime);
  app.realtime.sendToUsers = async (userIds, message) => {
    into.push({ userIds, message });
    return send(userIds, message);
  };
}
