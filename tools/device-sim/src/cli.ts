#!/usr/bin/env -S npx tsx
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { MAX_DEVICE_DOORS, MAX_DEVICE_CABINETS } from '@isps/contract';
import { DEFAULT_ALARMS_PER_HOUR, DEFAULT_HEARTBEAT_MS, ENROLL_OUTCOMES, newMemory, SIM_KINDS, type EnrollOutcome, type SimKind } from './device.ts';
import { startFleet } from './fleet.ts';
import { PROMPT_HELP, runPromptCommand } from './prompt.ts';
import { provisionDevices } from './provision.ts';
import { ask, sessionToken, signIn } from './sign-in.ts';

const usage = `Simulated ISPS devices (docs/device-protocol.md)

  npm run sim -- --devices 50 --kinds door,vein,camera,cabinet,keys,patrol,quake --rate 1 --url mqtt://127.0.0.1:1884

  --devices N       how many devices (serial numbers PREFIX-0001 …)          default 10
  --kinds a,b       ${SIM_KINDS.join(',')} (taken in turn)          default all
  --rate R          events per second per device                             default 1
  --url URL         the broker                                               default mqtt://127.0.0.1:1884
  --prefix P        serial number prefix                                     default SIM
  --root R          topic root                                               default isps
  --keys FILE       JSON { "sn": "device key" }: read, or written by --provision
  --provision       issue and approve a device code per serial number through the API first; needs
  --api URL         the API base, e.g. http://127.0.0.1:8080/api, and a session token with
                    device:deviceCode:add and device:deviceCode:audit: ISPS_TOKEN, else it asks for a user
                    name and password at the terminal and signs in itself (never a token on the command line)
  --alarms-per-hour A  alarms each device raises per hour, at random moments (or SIM_ALARMS_PER_HOUR)
                                                                             default ${DEFAULT_ALARMS_PER_HOUR}
  --quake I         once online, every quake sensor reports a quake of intensity I (0-12)
  --id-card NUMBER  capture devices (vein, camera): the ID card on the reader       default none
  --enroll-delay MS capture devices: how long a palm enrollment takes              default 1500
  --enroll-fail R   capture devices: enrollments end with timeout, cancelled or quality instead of a template
  --heartbeat MS    time between two heartbeats of each device                   default ${DEFAULT_HEARTBEAT_MS}
  --doors N         the doors each door controller reports (the console makes them its doors; 0-64)  default 2
  --cabinets N      the cabinets each cabinet device reports (the console makes them its lockers; 0-512)  default 8

A device whose connection is lost reconnects by itself (after 1 s, doubling up to 30 s) until stopped.
While it runs, the simulator reads commands on its standard input:

${PROMPT_HELP}`;

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '10' },
    kinds: { type: 'string', default: SIM_KINDS.join(',') },
    rate: { type: 'string', default: '1' },
    url: { type: 'string', default: 'mqtt://127.0.0.1:1884' },
    prefix: { type: 'string', default: 'SIM' },
    root: { type: 'string' },
    keys: { type: 'string' },
    provision: { type: 'boolean', default: false },
    api: { type: 'string' },
    token: { type: 'string' },
    'alarms-per-hour': { type: 'string', default: process.env.SIM_ALARMS_PER_HOUR ?? String(DEFAULT_ALARMS_PER_HOUR) },
    quake: { type: 'string' },
    'id-card': { type: 'string' },
    'enroll-delay': { type: 'string', default: '1500' },
    'enroll-fail': { type: 'string' },
    heartbeat: { type: 'string', default: String(DEFAULT_HEARTBEAT_MS) },
    doors: { type: 'string', default: '2' },
    cabinets: { type: 'string', default: '8' },
    help: { type: 'boolean', default: false },
  },
});

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${usage}`);
  process.exit(2);
}

if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}
const count = Number(values.devices);
const rate = Number(values.rate);
if (!Number.isInteger(count) || count < 1 || count > 100_000) fail('--devices must be an integer from 1 to 100000');
if (!Number.isFinite(rate) || rate < 0) fail('--rate must be a number >= 0');
const enrollDelayMs = Number(values['enroll-delay']);
if (!Number.isInteger(enrollDelayMs) || enrollDelayMs < 0) fail('--enroll-delay must be an integer >= 0');
const heartbeatMs = Number(values.heartbeat);
if (!Number.isInteger(heartbeatMs) || heartbeatMs < 100) fail('--heartbeat must be an integer of at least 100 (milliseconds)');
const enrollOutcome = (values['enroll-fail'] ?? 'ok') as EnrollOutcome;
if (enrollOutcome === 'ok' ? values['enroll-fail'] !== undefined : !ENROLL_OUTCOMES.includes(enrollOutcome)) fail('--enroll-fail must be timeout, cancelled or quality');
const doors = Number(values.doors);
if (!Number.isInteger(doors) || doors < 0 || doors > MAX_DEVICE_DOORS) fail(`--doors must be an integer from 0 to ${MAX_DEVICE_DOORS}`);
const cabinets = Number(values.cabinets);
if (!Number.isInteger(cabinets) || cabinets < 0 || cabinets > MAX_DEVICE_CABINETS) fail(`--cabinets must be an integer from 0 to ${MAX_DEVICE_CABINETS}`);
const alarmsPerHour = Number(values['alarms-per-hour']);
if (!Number.isFinite(alarmsPerHour) || alarmsPerHour < 0 || alarmsPerHour > 3600) fail('--alarms-per-hour (SIM_ALARMS_PER_HOUR) must be a number from 0 to 3600');
const quakeIntensity = values.quake === undefined ? null : Number(values.quake);
if (quakeIntensity !== null && (!Number.isInteger(quakeIntensity) || quakeIntensity < 0 || quakeIntensity > 12)) fail('--quake must be a whole number from 0 to 12');
// a token on the command line is read by every user of the machine (ps) and kept in the shell's history
if (values.token !== undefined) fail('--token is no longer taken: set ISPS_TOKEN, or let the simulator ask for a user name and password');
const kinds = values.kinds.split(',').map((k) => k.trim()) as SimKind[];
if (kinds.some((k) => !SIM_KINDS.includes(k))) fail(`--kinds must be among ${SIM_KINDS.join(', ')}`);
const sns = Array.from({ length: count }, (_, i) => `${values.prefix}-${String(i + 1).padStart(4, '0')}`);

let keys = new Map<string, string>();
if (values.keys && existsSync(values.keys)) keys = new Map(Object.entries(JSON.parse(readFileSync(values.keys, 'utf8')) as Record<string, string>));
if (values.provision) {
  if (!values.api) fail('--provision needs --api');
  const apiBase = values.api.replace(/\/+$/, '');
  let token: string;
  try {
    token = await sessionToken({ env: process.env, ask: process.stdin.isTTY ? ask : null, signIn: (username, password) => signIn(apiBase, username, password) });
  } catch (error) {
    fail((error as Error).message);
  }
  const issued = await provisionDevices(apiBase, token, sns.filter((sn) => !keys.has(sn)));
  for (const [sn, key] of issued) keys.set(sn, key);
  if (values.keys) writeFileSync(values.keys, JSON.stringify(Object.fromEntries(keys), null, 2), { mode: 0o600 });
}
const missing = sns.filter((sn) => !keys.has(sn));
if (missing.length > 0) fail(`no device key for ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ' …' : ''}: use --provision or --keys`);

// sequence numbers start above any an earlier run used (microseconds of the start), so no event is taken as a repeat
const seqStart = Date.now() * 1000;
const memories = new Map(sns.map((sn) => [sn, { ...newMemory(), seq: seqStart }]));
const fleet = await startFleet({ url: values.url, keys: new Map(sns.map((sn) => [sn, keys.get(sn)!])), kinds, rate, alarmsPerHour, topicRoot: values.root, memories, idCard: values['id-card'] ?? null, enrollDelayMs, enrollOutcome, heartbeatMs, doors, cabinets, ...(values.api ? { apiUrl: values.api.replace(/\/+$/, '') } : {}) });
process.stdout.write(`${fleet.devices.length} devices online at ${values.url}, ${rate} event(s)/s and ${alarmsPerHour} alarm(s)/h each. Ctrl+C stops them; type help for commands.\n`);
if (quakeIntensity !== null) process.stdout.write(await runPromptCommand(`quake ${quakeIntensity}`, fleet));
// commands on standard input (a terminal, or a pipe another program writes); its end stops nothing
const prompt = createInterface({ input: process.stdin, terminal: false });
prompt.on('line', (line) => {
  runPromptCommand(line, fleet).then(
    (answer) => process.stdout.write(answer),
    (error: Error) => process.stdout.write(`${error.message}\n`),
  );
});
const report = setInterval(() => {
  const online = fleet.devices.filter((d) => d.online).length;
  const events = fleet.devices.reduce((sum, d) => sum + d.memory.seq - seqStart, 0);
  const commands = fleet.devices.reduce((sum, d) => sum + d.memory.effects.length, 0);
  process.stdout.write(`online ${online}/${fleet.devices.length}  events ${events}  commands run ${commands}\n`);
}, 5000);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    clearInterval(report);
    prompt.close();
    fleet.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
