/**
 * soak (issue 25): ten minutes of mixed load on the server `npm start` runs, in a process of its own on SQLite, with
 * its embedded broker. Run on its own, never in the default run: `npm run bench -- soak`. SOAK_SECONDS (600 by
 * default) shortens it for a try, e.g. SOAK_SECONDS=60.
 *
 * For the whole run:
 * - sign-ins: a login and a logout every 500 ms (so tokens do not pile up), from 20 loopback source addresses
 *   (127.0.0.10-29, all to 127.0.0.1) as operators at different desks: the login limit counts per address;
 * - lists: one of the user, position and device lists every 200 ms, and the device list's online count every 10 s;
 * - edits: a position added, edited and deleted every second (the table does not grow);
 * - 500 simulated devices (bench/soak-fleet.ts, a process of its own) on the embedded broker, each emitting one event
 *   every 5 s, with the simulator's own heartbeats and receipts;
 * - 200 websocket clients (the console's realtime channel, signed in as the administrator), each sending the client
 *   heartbeat every 30 s.
 *
 * Every error is counted: a non-2xx answer or an envelope with success false, a request that throws or takes more
 * than 30 s, a websocket that closes or errs, a websocket heartbeat not answered within 15 s, a device that fails to
 * connect or loses its connection, an event not published or never receipted by the server, a device the console
 * lists offline or tells offline (deviceDisConnect), a line the server logs at error level, the server exiting.
 * The server's resident memory (VmRSS of its process) is sampled every 2 s. After a warm-up of 30 s (less for a run
 * under 90 s), the mean of the first five minutes is compared with the mean of the last five (of a shorter run: the
 * first and second halves of what follows the warm-up).
 *
 * Lines: `soak errors N 0 - 0 PASS|FAIL` (target: none) and `soak rss-drift <last>MB <first>MB ratio <=1.05 PASS|FAIL`.
 * SOAK_FAULTS=1 checks the counting itself: it adds one broken request, one refused edit, one websocket closed, and
 * one device taken off the network, which must show as errors (the run then FAILs).
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ApiPath, crudPath, deviceEntity, positionEntity, RealtimeCmd, REALTIME_HEARTBEAT_TEXT, TOKEN_HEADER, userEntity, type Envelope } from '@isps/contract';
import { provisionDevices } from '@isps/device-sim';
import { openSocket, type OpenSocket } from '../apps/server/src/platform/realtime/test-client.ts';
import type { SoakFleetReply, SoakFleetRequest, SoakFleetStats } from './soak-fleet.ts';
import { finish, report } from './support.ts';
import { START_NODE_OPTIONS, START_SCRIPT, freePort, installation } from './start-support.ts';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const FAULTS = process.env.SOAK_FAULTS === '1';
const DEVICES = 500;
const SOCKETS = 200;
const EVENT_EVERY_MS = 5000;
const SIGN_IN_EVERY_MS = 500;
const LIST_EVERY_MS = 200;
const EDIT_EVERY_MS = 1000;
const ONLINE_CHECK_EVERY_MS = 10_000;
const SOCKET_HEARTBEAT_MS = 30_000;
const SOURCES = 20;
const REQUEST_TIMEOUT_MS = 30_000;
const WARM_UP_SECONDS = Math.min(30, SECONDS / 3);
const TARGET_DRIFT = 1.05;
const FIRST_PASSWORD = 'Soak#Pass1';
const PASSWORD = 'Soak#Pass2';

if (!Number.isFinite(SECONDS) || SECONDS < 30) throw new Error(`SOAK_SECONDS must be a number of seconds, at least 30 (given ${process.env.SOAK_SECONDS})`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- errors, counted by kind; the first few of each kind are shown
const errors = new Map<string, number>();
function fail(kind: string, detail: string, count = 1): void {
  const seen = errors.get(kind) ?? 0;
  errors.set(kind, seen + count);
  if (seen < 5) console.log(`soak error: ${kind}: ${detail}`);
}
const totalErrors = () => [...errors.values()].reduce((sum, n) => sum + n, 0);

// ---- the server, as `npm start` runs it, in a process of its own
const dataDir = installation();
const port = await freePort();
const mqttPort = await freePort();
const base = `http://127.0.0.1:${port}`;
const api = `${base}/api`;
let stopping = false;
const server: ChildProcess = spawn(process.execPath, [...START_NODE_OPTIONS, START_SCRIPT], {
  cwd: dataDir,
  env: {
    PATH: process.env.PATH ?? '',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    MQTT_PORT: String(mqttPort),
    ADMIN_PASSWORD: FIRST_PASSWORD,
    LOGIN_CAPTCHA: 'off',
    LOG_LEVEL: 'warn',
    TIME_ZONE: 'UTC',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
const serverExited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
server.once('exit', (code, signal) => {
  if (!stopping) fail('server exited', `code ${code}, signal ${signal}`);
});
let serverWarnings = 0;
const readLog = (stream: NodeJS.ReadableStream) =>
  createInterface({ input: stream }).on('line', (line) => {
    let level = 0;
    try {
      level = Number((JSON.parse(line) as { level?: number }).level ?? 0);
    } catch {
      console.log(`server: ${line}`);
      return;
    }
    if (level >= 50) fail('server logged an error', line.slice(0, 600));
    else if (level >= 40 && serverWarnings++ < 10) console.log(`server warning: ${line.slice(0, 400)}`);
  });
readLog(server.stdout!);
readLog(server.stderr!);

function rssMb(): number | null {
  try {
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null;
  }
}

// ---- HTTP: keep-alive agents, one per loopback source address (127.0.0.1 for the administrator's own calls)
const desks = Array.from({ length: SOURCES }, (_, i) => new http.Agent({ keepAlive: true, localAddress: `127.0.0.${10 + i}` } as http.AgentOptions));
const own = new http.Agent({ keepAlive: true });

interface Answer {
  status: number;
  body: Envelope<unknown> | null;
}

function call(method: string, path: string, options: { token?: string; body?: unknown; agent?: http.Agent } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const request = http.request(
      `${api}${path}`,
      {
        method,
        agent: options.agent ?? own,
        timeout: REQUEST_TIMEOUT_MS,
        headers: { ...(options.token ? { [TOKEN_HEADER]: options.token } : {}), ...(payload ? { 'content-type': 'application/json' } : {}), lang: 'en-US' },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          let body: Envelope<unknown> | null = null;
          try {
            body = JSON.parse(text) as Envelope<unknown>;
          } catch {
            // not JSON: judged by its status alone
          }
          resolve({ status: response.statusCode ?? 0, body });
        });
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    request.on('error', reject);
    request.end(payload);
  });
}

let requests = 0;
/** One call whose answer must be a 2xx success envelope; answers its result, or null after counting the error. */
async function expectOk<T>(what: string, method: string, path: string, options: { token?: string; body?: unknown; agent?: http.Agent } = {}): Promise<T | null> {
  requests += 1;
  let answer: Answer;
  try {
    answer = await call(method, path, options);
  } catch (error) {
    fail(`${what}: request failed`, String(error));
    return null;
  }
  if (answer.status < 200 || answer.status > 299) {
    fail(`${what}: HTTP ${answer.status}`, `${method} ${path}: ${answer.body?.message ?? ''}`);
    return null;
  }
  if (answer.body?.success !== true) {
    fail(`${what}: success false`, `${method} ${path}: ${answer.body?.message ?? 'not an envelope'}`);
    return null;
  }
  return answer.body.result as T;
}

// ---- the administrator: first sign-in, the password it must change, the session every other call uses
async function signIn(password: string): Promise<{ token: string; userInfo: { id: string } } | null> {
  try {
    const answer = await call('POST', ApiPath.login, { body: { username: 'admin', password } });
    return answer.body?.success ? (answer.body.result as { token: string; userInfo: { id: string } }) : null;
  } catch {
    return null;
  }
}
const startedAt = performance.now();
let first: Awaited<ReturnType<typeof signIn>> = null;
while (!first) {
  if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode} before it let the administrator sign in`);
  // the first start may build the console and the server
  if (performance.now() - startedAt > 600_000) throw new Error('the server did not let the administrator sign in within 10 minutes');
  first = await signIn(FIRST_PASSWORD);
  if (!first) await sleep(100);
}
await expectOk('password change', 'POST', ApiPath.updatePassword, {
  token: first.token,
  body: { username: 'admin', oldpassword: FIRST_PASSWORD, password: PASSWORD, confirmpassword: PASSWORD },
});
const admin = await signIn(PASSWORD);
if (!admin) throw new Error('the administrator cannot sign in with the changed password');
const { token } = admin;
const adminId = admin.userInfo.id;
console.log(`soak: server pid ${server.pid} listening at ${base} (broker ${mqttPort}), ready in ${((performance.now() - startedAt) / 1000).toFixed(1)} s; ${SECONDS} s of load to come`);

// ---- devices: keys issued and approved through the API, then the fleet in its own process
const sns = Array.from({ length: DEVICES }, (_, i) => `SOAK-${String(i + 1).padStart(4, '0')}`);
const keys = new Map<string, string>();
const chunks = Array.from({ length: 10 }, (_, c) => sns.filter((_, i) => i % 10 === c));
for (const chunk of await Promise.all(chunks.map((chunk) => provisionDevices(api, token, chunk)))) for (const [sn, key] of chunk) keys.set(sn, key);

class SoakFleet {
  private readonly child: ChildProcess;
  private waiting: ((reply: SoakFleetReply) => void) | null = null;
  private readonly ready: Promise<SoakFleetReply>;
  readonly exited: Promise<void>;

  constructor() {
    this.child = fork(fileURLToPath(new URL('./soak-fleet.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
    this.child.once('exit', (code) => {
      if (!stopping) fail('device fleet exited', `code ${code}`);
    });
    this.ready = this.next();
    this.child.on('message', (reply: SoakFleetReply) => {
      const waiting = this.waiting;
      this.waiting = null;
      waiting?.(reply);
    });
  }

  private next(): Promise<SoakFleetReply> {
    return new Promise((resolve) => (this.waiting = resolve));
  }

  async call(request: SoakFleetRequest): Promise<SoakFleetStats> {
    await this.ready;
    const answer = this.next();
    this.child.send(request);
    const reply = await answer;
    if (reply.cmd !== 'done') throw new Error(`device fleet: ${reply.cmd === 'error' ? reply.message : reply.cmd}`);
    return reply.stats;
  }
}
const fleet = new SoakFleet();
const connectStart = performance.now();
const connected = await fleet.call({ cmd: 'start', url: `mqtt://127.0.0.1:${mqttPort}`, keys: [...keys], everyMs: EVENT_EVERY_MS });
if (connected.connectFailed > 0) fail('devices failed to connect', `${connected.connectFailed} of ${DEVICES}: ${JSON.stringify(connected.connectErrors)}`, connected.connectFailed);

// ---- websocket clients, open for the whole run
let closing = false;
let deviceOfflineNotices = 0;
const sockets: OpenSocket[] = [];
const heartbeatSent = new Map<OpenSocket, number>();
for (let from = 0; from < SOCKETS; from += 20) {
  const opened = await Promise.all(Array.from({ length: Math.min(20, SOCKETS - from) }, () => openSocket(`ws://127.0.0.1:${port}/api`, adminId, token)));
  for (const socket of opened) {
    const counter = sockets.length === 0;
    sockets.push(socket);
    socket.socket.on('close', (code, reason) => {
      if (!closing) fail('websocket closed', `code ${code} ${String(reason)}`);
    });
    socket.socket.on('error', (error) => {
      if (!closing) fail('websocket error', String(error));
    });
    socket.socket.on('message', (raw) => {
      // the test client keeps every message: not needed here
      socket.messages.length = 0;
      let message: { cmd?: string; data?: { count?: number } };
      try {
        message = JSON.parse(String(raw)) as typeof message;
      } catch {
        return fail('websocket message not JSON', String(raw).slice(0, 200));
      }
      if (message.cmd === RealtimeCmd.heartcheck) heartbeatSent.delete(socket);
      // every socket hears of every device; one counts
      if (counter && message.cmd === RealtimeCmd.deviceDisConnect) {
        const count = Number(message.data?.count ?? 1);
        deviceOfflineNotices += count;
        fail('devices told offline (deviceDisConnect)', JSON.stringify(message.data).slice(0, 300), count);
      }
    });
  }
}
console.log(`soak: ${keys.size} devices connected (${connected.connectFailed} failed) in ${((performance.now() - connectStart) / 1000).toFixed(1)} s, ${sockets.length} websockets open`);

// the console lists every device online before the load starts (presence is written in coalesced batches)
const listedOnline = async () => (await expectOk<{ total: number }>('device online count', 'GET', `${crudPath(deviceEntity, 'list')}?online=1&pageNo=1&pageSize=1`, { token }))?.total ?? null;
const onlineBy = performance.now() + 30_000;
while ((await listedOnline()) !== DEVICES && performance.now() < onlineBy) await sleep(500);

// ---- the load
let running = true;
const loadStart = performance.now();
const elapsed = () => (performance.now() - loadStart) / 1000;
const counts = { signIns: 0, lists: 0, edits: 0, onlineChecks: 0 };

async function paced(everyMs: number, work: () => Promise<void>): Promise<void> {
  while (running) {
    const started = performance.now();
    try {
      await work();
    } catch (error) {
      fail('bench step threw', String(error));
    }
    const rest = everyMs - (performance.now() - started);
    if (rest > 0) await sleep(rest);
  }
}

let desk = 0;
const signIns = paced(SIGN_IN_EVERY_MS, async () => {
  const agent = desks[desk++ % desks.length];
  const session = await expectOk<{ token: string }>('sign-in', 'POST', ApiPath.login, { agent, body: { username: 'admin', password: PASSWORD } });
  if (session) await expectOk('sign-out', 'POST', ApiPath.logout, { agent, token: session.token });
  counts.signIns += 1;
});

const LISTS = [crudPath(userEntity, 'list'), crudPath(positionEntity, 'list'), crudPath(deviceEntity, 'list')].map((path) => `${path}?pageNo=1&pageSize=10`);
let listed = 0;
const lists = paced(LIST_EVERY_MS, async () => {
  await expectOk('list', 'GET', LISTS[listed++ % LISTS.length]!, { token });
  counts.lists += 1;
});

const onlineChecks = paced(ONLINE_CHECK_EVERY_MS, async () => {
  const online = await listedOnline();
  if (online !== null && online !== DEVICES) fail('devices listed offline', `${online} of ${DEVICES} listed online at ${elapsed().toFixed(0)} s`);
  counts.onlineChecks += 1;
});

const run = Date.now().toString(36);
let edited = 0;
const edits = paced(EDIT_EVERY_MS, async () => {
  const code = `SOAK-${run}-${edited++}`;
  const added = await expectOk<{ id: string }>('position add', 'POST', crudPath(positionEntity, 'add'), { token, body: { code, name: `Soak ${code}`, postRank: '1' } });
  if (!added) return;
  await expectOk('position edit', 'PUT', crudPath(positionEntity, 'edit'), { token, body: { id: added.id, code, name: `Soak ${code} edited`, postRank: '2' } });
  await expectOk('position delete', 'DELETE', `${crudPath(positionEntity, 'delete')}?id=${encodeURIComponent(added.id)}`, { token });
  counts.edits += 1;
});

// websocket heartbeats, one socket after another so that each sends one every 30 s; an answer is due within 15 s
let beat = 0;
const heartbeats = setInterval(() => {
  const socket = sockets[beat++ % sockets.length]!;
  if (socket.socket.readyState === socket.socket.OPEN) {
    heartbeatSent.set(socket, performance.now());
    socket.socket.send(REALTIME_HEARTBEAT_TEXT);
  }
  for (const [waiting, sentAt] of heartbeatSent) {
    if (performance.now() - sentAt > 15_000) {
      heartbeatSent.delete(waiting);
      fail('websocket heartbeat unanswered', `no heartcheck within 15 s (socket ${sockets.indexOf(waiting)})`);
    }
  }
}, SOCKET_HEARTBEAT_MS / SOCKETS);

// resident memory every 2 s; a progress line every minute
const samples: Array<{ t: number; mb: number }> = [];
const sampler = setInterval(() => {
  const mb = rssMb();
  if (mb !== null) samples.push({ t: elapsed(), mb });
}, 2000);
const progress = setInterval(() => {
  void fleet.call({ cmd: 'stats' }).then((devices) => {
    const rss = samples.at(-1)?.mb ?? 0;
    console.log(
      `soak ${elapsed().toFixed(0)}s: rss ${rss.toFixed(0)} MB, errors ${totalErrors()}, ${counts.signIns} sign-ins, ${counts.lists} lists, ${counts.edits} edit cycles, ${devices.emitted} events (${devices.offlineNow} devices offline, ${devices.unreceipted} unreceipted), ${sockets.filter((s) => s.socket.readyState === s.socket.OPEN).length} websockets open`,
    );
  });
}, 60_000);

if (FAULTS) {
  setTimeout(() => {
    console.log('soak: injecting faults (SOAK_FAULTS=1): a broken request, a refused edit, a websocket closed, a device off the network');
    void expectOk('fault: broken request', 'GET', '/sys/position/no-such-route', { token });
    void expectOk('fault: refused edit', 'PUT', crudPath(positionEntity, 'edit'), { token, body: { id: 'no-such-position', code: 'X', name: 'X', postRank: '1' } });
    sockets.at(-1)?.socket.terminate();
    void fleet.call({ cmd: 'drop' });
  }, WARM_UP_SECONDS * 500);
}

await sleep(SECONDS * 1000);
running = false;
await Promise.all([signIns, lists, onlineChecks, edits]);
clearInterval(heartbeats);
clearInterval(progress);
clearInterval(sampler);

// ---- the end: every event receipted, every device still online, every socket still open
const devices = await fleet.call({ cmd: 'quiesce', waitMs: 30_000 });
if (devices.disconnects > 0) fail('device connections lost', `${devices.disconnects} times`, devices.disconnects);
if (devices.emitFailed > 0) fail('device events not published', `${devices.emitFailed} events`, devices.emitFailed);
if (devices.unreceipted > 0) fail('device events never receipted', `${devices.unreceipted} events without a receipt 30 s after the last`, devices.unreceipted);
const finalOnline = await listedOnline();
if (finalOnline !== null && finalOnline !== DEVICES) fail('devices listed offline', `${finalOnline} of ${DEVICES} listed online at the end`);
const socketsOpen = sockets.filter((s) => s.socket.readyState === s.socket.OPEN).length;

closing = true;
stopping = true;
await Promise.all(sockets.map((s) => s.close()));
await fleet.call({ cmd: 'stop' }).catch(() => undefined);
await fleet.exited;
desks.forEach((agent) => agent.destroy());
own.destroy();
server.kill('SIGTERM');
await serverExited;
rmSync(dataDir, { recursive: true, force: true });

// ---- the figures
const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
const [firstFrom, firstTo, lastFrom] = SECONDS >= 600 ? [WARM_UP_SECONDS, 300, SECONDS - 300] : [WARM_UP_SECONDS, (WARM_UP_SECONDS + SECONDS) / 2, (WARM_UP_SECONDS + SECONDS) / 2];
const firstWindow = samples.filter((s) => s.t >= firstFrom && s.t < firstTo).map((s) => s.mb);
const lastWindow = samples.filter((s) => s.t >= lastFrom).map((s) => s.mb);
const firstMb = mean(firstWindow);
const lastMb = mean(lastWindow);
const drift = lastMb / firstMb;

console.log(
  `soak: ${SECONDS} s; ${counts.signIns} sign-ins, ${counts.lists} lists, ${counts.edits} edit cycles, ${counts.onlineChecks} online checks (${requests} requests); ` +
    `${DEVICES} devices: ${devices.emitted} events, ${devices.resent} sent again, ${devices.disconnects} connections lost, ${deviceOfflineNotices} told offline; ` +
    `${socketsOpen} of ${SOCKETS} websockets open at the end`,
);
console.log(
  `soak: rss ${Math.min(...samples.map((s) => s.mb)).toFixed(0)}-${Math.max(...samples.map((s) => s.mb)).toFixed(0)} MB over ${samples.length} samples; ` +
    `mean ${firstMb.toFixed(1)} MB over ${firstFrom.toFixed(0)}-${firstTo.toFixed(0)} s (${firstWindow.length} samples), ${lastMb.toFixed(1)} MB over ${lastFrom.toFixed(0)}-${SECONDS} s (${lastWindow.length} samples)`,
);
console.log(`soak: errors by kind: ${errors.size === 0 ? 'none' : [...errors].map(([kind, n]) => `${kind} ${n}`).join('; ')}`);
const total = totalErrors();
report('soak errors', String(total), '0', null, '0', total === 0);
report('soak rss-drift', `${lastMb.toFixed(1)}MB`, `${firstMb.toFixed(1)}MB`, drift, `<=${TARGET_DRIFT}`, Number.isFinite(drift) && drift <= TARGET_DRIFT);
finish();
process.exit(process.exitCode);
