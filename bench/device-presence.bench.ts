/**
 * Device presence: 1,000 devices (in a process of their own) connect at once; an open console (the realtime
 * websocket, signed in as admin) counts them online from the coalesced deviceConnect notices (their device ids, or
 * their counts). Value: seconds from the first connection attempt until all 1,000 are reported online; target
 * <= 5 s. The device list API then confirms 1,000 online rows. Baseline (for information): the time 1,000 bare MQTT
 * clients take to connect to a bare aedes broker, same machine, same run.
 */
import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Aedes } from 'aedes';
import { crudPath, deviceEntity, RealtimeCmd, type DevicePresenceNotice, type Envelope, type Page } from '@isps/contract';
import { openSocket } from '../apps/server/src/platform/realtime/test-client.ts';
import { FleetProcess, freePort, poll, provisionKeys, report, serialNumbers, startBenchServer } from './device-support.ts';

const DEVICES = 1000;
const TARGET_SECONDS = 5;

const server = await startBenchServer({ listen: true });
const { app } = server;
const keys = await provisionKeys(server, serialNumbers('PRESENCE', DEVICES));
const socket = await openSocket(`ws://127.0.0.1:${new URL(server.httpBase!).port}${app.settings.apiPrefix}`, server.adminId, server.token);

// devices reported online: by id where the notice lists ids, else by the notice's count
const onlineIds = new Set<string>();
let counted = 0;
socket.socket.on('message', (raw) => {
  const message = JSON.parse(String(raw)) as { cmd?: string; data?: DevicePresenceNotice & { ids?: string[] } };
  if (message.cmd !== RealtimeCmd.deviceConnect || !message.data) return;
  if (Array.isArray(message.data.ids) && message.data.ids.length === message.data.count) for (const id of message.data.ids) onlineIds.add(id);
  else counted += message.data.count;
});
const reportedOnline = () => onlineIds.size + counted;

const fleet = new FleetProcess();
await fleet.started();
const start = performance.now();
const connecting = fleet.connect(server.mqttUrl, keys);
const allOnline = await poll(() => reportedOnline() >= DEVICES, 60_000, 5);
const seconds = (performance.now() - start) / 1000;
const connected = await connecting;

const listed = await app.inject({
  method: 'GET',
  url: `${app.settings.apiPrefix}${crudPath(deviceEntity, 'list')}?online=1&pageSize=1`,
  headers: { 'X-Access-Token': server.token },
});
const listedOnline = (listed.json() as Envelope<Page<unknown>>).result.total;
await fleet.stop();
await socket.close();
await server.close();

// baseline: bare clients, bare broker
const bareFleet = new FleetProcess();
await bareFleet.started();
const broker = new Aedes();
await broker.listen();
const bareServer = createServer(broker.handle);
const barePort = await freePort();
await new Promise<void>((resolve) => bareServer.listen(barePort, '127.0.0.1', resolve));
const bare = await bareFleet.bare(`mqtt://127.0.0.1:${barePort}`, DEVICES);
await bareFleet.stop();
await new Promise<void>((resolve) => broker.close(() => resolve()));
await new Promise<void>((resolve) => bareServer.close(() => resolve()));

const baselineSeconds = bare.ms / 1000;
const pass = allOnline && connected.failed === 0 && listedOnline === DEVICES && seconds <= TARGET_SECONDS;
console.log(
  `device presence: ${reportedOnline()} of ${DEVICES} reported online to the console in ${seconds.toFixed(2)} s (${connected.failed} failed to connect, device list: ${listedOnline} online); bare broker: ${DEVICES - bare.failed} clients in ${baselineSeconds.toFixed(2)} s`,
);
report('device-presence', `${seconds.toFixed(2)}s`, `${baselineSeconds.toFixed(2)}s`, seconds / baselineSeconds, `<=${TARGET_SECONDS}s`, pass);
process.exit(pass ? 0 : 1);
