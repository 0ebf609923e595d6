import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceEventKind, EmergencyPath, WebhookDeliveryStatus, WebhookHeader, WebhookPath, type Page, type WebhookDeliveryRow, type WebhookPayload } from '@isps/contract';
import { SimDevice } from '@isps/device-sim';
import { approvedKey, buildLinkedApp, uniqueSn, until } from '../../gateway/test-support.ts';
import { freePort } from '../../test/free-port.ts';
import { closedPort } from '../../test/outbound-listeners.ts';
import { adminToken, api, buildTestApp, injectAs, testDialects, type TestApp } from '../../test/harness.ts';
import { isOwnMachineAddress } from './url-guard.ts';

const SECRET = 'whsec-test-0123456789abcdef';
// small waits so a minute's outage is a few real seconds of a clock the test moves
const WEBHOOKS = { pollMs: 40, retryBaseMs: 1000, retryWindowMs: 24 * 3_600_000, timeoutMs: 2000 };

interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  payload: WebhookPayload;
}

/** A receiver on 127.0.0.1 the test opens and closes (closed: connections are refused, as for a receiver that is down). */
class Receiver {
  readonly received: Received[] = [];
  private server: Server | null = null;
  constructor(readonly port: number) {}
  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }
  async open(): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        this.received.push({ headers: request.headers, raw, payload: JSON.parse(raw) as WebhookPayload });
        response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.server = server;
  }
  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** The receiver's check (README): HMAC-SHA256 of `<timestamp>.<body>`, compared in constant time. */
function signatureMatches(secret: string, headers: IncomingHttpHeaders, raw: string): boolean {
  const timestamp = String(headers[WebhookHeader.timestamp.toLowerCase()] ?? '');
  const given = String(headers[WebhookHeader.signature.toLowerCase()] ?? '');
  const expected = `v1=${createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex')}`;
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

describe.each(await testDialects())('webhooks on %s', (dialect) => {
  let t: TestApp & { mqttUrl: string };
  let second: TestApp;
  let admin: string;
  let sim: SimDevice;
  let receiver: Receiver;
  let webhookId: string;

  const call = <T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown) =>
    injectAs<T>(t.app, admin, { method, url: api(t.app, path), headers: { lang: 'en-US' }, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const deliveries = async (id: string) => (await call<Page<WebhookDeliveryRow>>('GET', `${WebhookPath.deliveries}?id=${id}&pageSize=200`)).envelope.result.records;
  /** moves both servers' clocks: the retry waits are measured on them */
  const advance = (ms: number) => {
    t.clock.advance(ms);
    second.clock.advance(ms);
  };

  beforeAll(async () => {
    t = await buildLinkedApp(dialect, { config: { webhooks: WEBHOOKS } });
    // a second server on the same database: its delivery worker competes for the same queue
    second = await buildTestApp(dialect, { namespace: t.namespace, config: { webhooks: WEBHOOKS } });
    second.clock.advance(t.clock.now() - second.clock.now());
    admin = await adminToken(t.app);
    receiver = new Receiver(await freePort());
    await receiver.open();
    const added = await call<{ id: string }>('POST', '/sys/webhook/add', { name: 'Door log', url: receiver.url, events: 'opening,denial,alarm', secret: SECRET, enabled: 1, allowLoopback: 1 });
    expect(added.envelope.success, added.envelope.message).toBe(true);
    webhookId = added.envelope.result.id;
    const sn = uniqueSn('HOOK');
    sim = new SimDevice({ url: t.mqttUrl, sn, key: await approvedKey(t.app, sn, admin), kind: 'door', doorOpenMs: 0 });
    await sim.start();
    await until(async () => (await t.app.db.selectFrom('sys_device').select('online').where('sn', '=', sn).executeTakeFirst())?.online === 1, 15_000, 'hello');
  });
  afterAll(async () => {
    await sim?.stop().catch(() => undefined);
    await receiver?.close();
    await second?.app.close();
    await t?.close();
  });

  it('keeps the secret write-only: never in an answer, stored encrypted', async () => {
    const list = await call('GET', '/sys/webhook/list');
    const one = await call('GET', `/sys/webhook/queryById?id=${webhookId}`);
    expect(JSON.stringify([list.envelope, one.envelope])).not.toContain(SECRET);
    const stored = await t.app.db.selectFrom('sys_webhook').select('secret').where('id', '=', webhookId).executeTakeFirstOrThrow();
    expect(stored.secret).not.toContain(SECRET);
  });

  it('delivers device events signed and in order, without the card number an opening named', async () => {
    await sim.emit(DeviceEventKind.opening, { door: 1, method: 'card', cardNo: 'ZQWXRTYP9731' });
    for (let i = 0; i < 4; i++) await sim.emit(DeviceEventKind.opening, { door: 1, method: 'face', peopleId: `person-${i}` });
    await sim.emit(DeviceEventKind.denial, { door: 1, method: 'card', cardNo: 'ZQWXRTYP9731', reason: 'unknown' });
    await until(() => receiver.received.length >= 6, 15_000, 'six deliveries');
    const got = receiver.received.splice(0);
    expect(got.map((r) => r.payload.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(got.map((r) => r.payload.kind)).toEqual(['opening', 'opening', 'opening', 'opening', 'opening', 'denial']);
    expect(got.map((r) => r.headers[WebhookHeader.event.toLowerCase()])).toEqual(['opening', 'opening', 'opening', 'opening', 'opening', 'denial']);
    expect(got.map((r) => (r.payload.data as { peopleId: string | null }).peopleId).slice(1, 5)).toEqual(['person-0', 'person-1', 'person-2', 'person-3']);
    for (const r of got) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(signatureMatches(SECRET, r.headers, r.raw)).toBe(true);
      expect(Math.abs(Number(r.headers[WebhookHeader.timestamp.toLowerCase()]) - Math.floor(t.app.clock() / 1000))).toBeLessThanOrEqual(1);
      // no card number, whole or masked, leaves for the receiver
      expect(r.raw).not.toMatch(/ZQWX|9731|cardNo/);
    }
    // a wrong secret, a changed body or a changed timestamp does not match
    const [first] = got as [Received];
    expect(signatureMatches('whsec-wrong-0123456789abcdef', first.headers, first.raw)).toBe(false);
    expect(signatureMatches(SECRET, first.headers, first.raw.replace('"opening"', '"denial"'))).toBe(false);
    expect(signatureMatches(SECRET, { ...first.headers, [WebhookHeader.timestamp.toLowerCase()]: '1' }, first.raw)).toBe(false);
    const rows = await deliveries(webhookId);
    expect(rows.map((r) => r.status)).toEqual(Array(6).fill(WebhookDeliveryStatus.delivered));
  });

  it('a receiver down for a minute gets every delivery once it is back, once each and in order, with two servers sending', async () => {
    await receiver.close();
    for (let i = 0; i < 4; i++) await sim.emit(DeviceEventKind.opening, { door: 1, method: 'face', peopleId: `later-${i}` });
    await until(async () => (await deliveries(webhookId)).filter((r) => r.status !== WebhookDeliveryStatus.delivered).length === 4, 15_000, 'four queued');
    // a minute passes with the receiver down: the head is tried again and again, the others wait behind it
    for (let elapsed = 0; elapsed < 60_000; elapsed += 10_000) {
      advance(10_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const waiting = await deliveries(webhookId);
    const head = waiting.find((r) => r.seq === 7)!;
    expect(head.attempts).toBeGreaterThanOrEqual(2);
    expect(head.lastError).toMatch(/ECONNREFUSED|refused/i);
    expect(waiting.filter((r) => r.seq > 7).every((r) => r.attempts === 0)).toBe(true);
    const listed = await call<{ records: Array<{ id: string; lastStatus: string }> }>('GET', '/sys/webhook/list');
    expect(listed.envelope.result.records.find((r) => r.id === webhookId)?.lastStatus).toBe('retrying');

    await receiver.open();
    advance(15 * 60_000);
    await until(() => receiver.received.length >= 4, 15_000, 'the four after the outage');
    // a moment more: nothing arrives twice
    await new Promise((resolve) => setTimeout(resolve, 400));
    const got = receiver.received.splice(0);
    expect(got.map((r) => r.payload.seq)).toEqual([7, 8, 9, 10]);
    expect(new Set(got.map((r) => r.headers[WebhookHeader.delivery.toLowerCase()])).size).toBe(4);
    expect(got.every((r) => signatureMatches(SECRET, r.headers, r.raw))).toBe(true);
  });

  it('marks a delivery failed after its day of retries, lists it, and sends it again on request', async () => {
    const dead = await call<{ id: string }>('POST', '/sys/webhook/add', { name: 'Dead end', url: `http://127.0.0.1:${await closedPort()}/gone`, events: 'alarm', secret: SECRET, allowLoopback: 1 });
    expect(dead.envelope.success, dead.envelope.message).toBe(true);
    const id = dead.envelope.result.id;
    expect((await call('POST', WebhookPath.test, { id })).envelope.success).toBe(true);
    await until(async () => ((await deliveries(id))[0]?.attempts ?? 0) >= 1, 10_000, 'a first attempt');
    advance(25 * 3_600_000);
    await until(async () => (await deliveries(id))[0]?.status === WebhookDeliveryStatus.failed, 10_000, 'given up');
    const [failed] = (await deliveries(id)) as [WebhookDeliveryRow];
    expect(failed.eventKind).toBe('test');
    expect(failed.lastError).not.toBeNull();

    // the receiver moves; "send again" queues the same delivery (same id), which now arrives
    expect((await call('PUT', '/sys/webhook/edit', { id, url: receiver.url })).envelope.success).toBe(true);
    const resent = await call('POST', WebhookPath.resend, { id: failed.id });
    expect(resent.envelope.success, resent.envelope.message).toBe(true);
    await until(() => receiver.received.length >= 1, 10_000, 'the delivery sent again');
    const [again] = receiver.received.splice(0) as [Received];
    expect(again.headers[WebhookHeader.delivery.toLowerCase()]).toBe(failed.id);
    expect(again.payload.kind).toBe('test');
    expect((await deliveries(id))[0]?.status).toBe(WebhookDeliveryStatus.delivered);
    // a delivery being waited for cannot be "sent again"; another tenant's or an unknown one is not found
    expect((await call('POST', WebhookPath.resend, { id: '00000000-0000-4000-8000-000000000000' })).envelope.success).toBe(false);
  });

  it('tells of emergencies starting and ending and of a device going offline, in that order', async () => {
    const other = new Receiver(await freePort());
    await other.open();
    try {
      const added = await call('POST', '/sys/webhook/add', { name: 'Site', url: other.url, events: 'emergencyStart,emergencyEnd,deviceOffline,deviceOnline', secret: SECRET, allowLoopback: 1 });
      expect(added.envelope.success, added.envelope.message).toBe(true);
      const drill = await call<{ id: string }>('POST', EmergencyPath.drill, {});
      expect(drill.envelope.success, drill.envelope.message).toBe(true);
      expect((await call('POST', EmergencyPath.end, { id: drill.envelope.result.id })).envelope.success).toBe(true);
      await sim.stop();
      await until(() => other.received.length >= 3, 15_000, 'three site events');
      expect(other.received.map((r) => [r.payload.seq, r.payload.kind])).toEqual([
        [1, 'emergencyStart'],
        [2, 'emergencyEnd'],
        [3, 'deviceOffline'],
      ]);
      expect(other.received[0]?.payload.data).toMatchObject({ scenarioId: drill.envelope.result.id, drill: true });
      expect(other.received.every((r) => signatureMatches(SECRET, r.headers, r.raw))).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('documents the routes, the delivery and its headers in the API description', () => {
    const document = t.app.swagger() as { tags?: Array<{ name: string; description?: string }>; paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/sys/webhook/list', '/api/sys/webhook/add', '/api/sys/webhook/edit', '/api/sys/webhook/deliveries', '/api/sys/webhook/resend', '/api/sys/webhook/test']));
    const tag = document.tags?.find((tag) => tag.name === 'webhook')?.description ?? '';
    for (const text of Object.values(WebhookHeader)) expect(tag).toContain(text);
    expect(tag).toMatch(/HMAC-SHA256/);
  });

  it('refuses URLs that are not http(s) or lead to this machine without the leave to', async () => {
    const add = (url: string, allowLoopback = 0) => call('POST', '/sys/webhook/add', { name: 'Refused', url, events: 'opening', secret: SECRET, allowLoopback });
    const ftp = await add('ftp://203.0.113.7/hook');
    expect([ftp.statusCode, ftp.envelope.success]).toEqual([400, false]);
    expect(ftp.envelope.message).toMatch(/http:\/\/ or https:\/\//);
    for (const url of ['http://127.0.0.1:9/hook', 'http://localhost:9/hook', 'http://[::1]:9/hook', 'http://169.254.169.254/latest', 'http://0.0.0.0:9/']) {
      const answer = await add(url);
      expect([answer.statusCode, answer.envelope.success, answer.envelope.code], url).toEqual([200, false, 500]);
      expect(answer.envelope.message, url).toMatch(/points at this machine/);
    }
    const unresolved = await add('http://no-such-host.invalid/hook');
    expect(unresolved.envelope.message).toMatch(/cannot be resolved/);
    // a public address is taken as it is
    expect((await add('https://203.0.113.7/hook')).envelope.success).toBe(true);
    const none = await t.app.db.selectFrom('sys_webhook').select('url').where('name', '=', 'Refused').execute();
    expect(none.map((r) => r.url)).toEqual(['https://203.0.113.7/hook']);
  });
});

describe('the address guard', () => {
  it('names the addresses of this machine and its link, IPv4-mapped ones too', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '0.0.0.0', '169.254.169.254', '::1', '::', 'fe80::1', '::ffff:127.0.0.1']) expect(isOwnMachineAddress(address), address).toBe(true);
    for (const address of ['203.0.113.7', '10.0.0.5', '192.168.1.20', '2001:db8::1', '::ffff:203.0.113.7']) expect(isOwnMachineAddress(address), address).toBe(false);
  });
});
