/**
 * Access sync: 100 simulated door controllers (in a process of their own) in one area, 10,000 people in one group;
 * one door-access device role binding the area and the group is added through the API. Value: seconds from that call
 * until every device holds all 10,000 people (computed lists, the difference recorded, batched syncPeople commands
 * through the per-device queue and the broker, acknowledged). Target <= 30 s. Baseline: the same commands (the
 * payloads the server queued) published directly to the same 100 simulated devices on a bare aedes broker, same run.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import { AccessCommandKind, DeviceAuditStatus, DeviceCodePath, DeviceDownKind, deviceDownTopic, type DeviceCommand } from '@isps/contract';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import type { AccessFleetReply, AccessFleetRequest } from './access-sync-fleet.ts';
import { finish, report } from './support.ts';
import { freePort } from '../apps/server/src/test/free-port.ts';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 100);
const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 10_000);
const phase = (what: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${what}\n`);
const TARGET_SECONDS = 30;
const here = dirname(fileURLToPath(import.meta.url));


class Fleet {
  private readonly child: ChildProcess;
  private waiting: ((reply: AccessFleetReply) => void) | null = null;
  readonly ready: Promise<void>;
  constructor() {
    this.child = fork(join(here, 'access-sync-fleet.ts'), [], { execArgv: ['--import', import.meta.resolve('tsx')] });
    this.ready = new Promise((resolve) => {
      this.waiting = () => resolve();
    });
    this.child.on('message', (reply: AccessFleetReply) => {
      const waiter = this.waiting;
      this.waiting = null;
      waiter?.(reply);
    });
  }
  ask(request: AccessFleetRequest): Promise<{ ms: number; failed: number }> {
    return new Promise((resolve, reject) => {
      this.waiting = (reply) => (reply.cmd === 'done' ? resolve(reply) : reject(new Error(reply.cmd === 'error' ? reply.message : 'unexpected reply')));
      this.child.send(request);
    });
  }
}

// the console, with its embedded broker
const dataDir = mkdtempSync(join(tmpdir(), 'isps-bench-access-'));
const mqttPort = await freePort();
const app = await buildApp(
  loadConfig({ DATA_DIR: dataDir, ADMIN_PASSWORD: 'Bench#Pass1', LOGIN_CAPTCHA: 'off', LOG_LEVEL: 'silent', HOST: '127.0.0.1', MQTT_PORT: String(mqttPort), TIME_ZONE: 'UTC' }),
);
await app.ready();
const api = app.settings.apiPrefix;
const login = async (password: string) => ((await app.inject({ method: 'POST', url: `${api}/sys/login`, payload: { username: 'admin', password } })).json() as { result: { token: string } }).result.token;
const first = await login('Bench#Pass1');
await app.inject({ method: 'POST', url: `${api}/sys/user/updatePassword`, headers: { 'X-Access-Token': first }, payload: { username: 'admin', oldpassword: 'Bench#Pass1', password: 'Bench#Pass2', confirmpassword: 'Bench#Pass2' } });
const token = await login('Bench#Pass2');
const call = async <T>(method: 'POST' | 'PUT', path: string, payload: unknown) => (await app.inject({ method, url: `${api}${path}`, headers: { 'X-Access-Token': token }, payload: payload as object })).json() as { success: boolean; message: string; result: T };
const tenantId = (await app.db.selectFrom('sys_tenant').select('id').where('code', '=', 'default').executeTakeFirstOrThrow()).id;

// 100 approved door controllers online, all in one area
const keys: Array<[string, string]> = [];
for (let i = 0; i < DEVICES; i++) {
  const sn = `ACCESS-${String(i).padStart(4, '0')}`;
  const added = await call<{ id: string }>('POST', DeviceCodePath.add, { sn });
  const audited = await call<{ deviceKey: string }>('PUT', DeviceCodePath.audit, { id: added.result.id, auditStatus: DeviceAuditStatus.agree });
  keys.push([sn, audited.result.deviceKey]);
}
phase('devices provisioned');
const fleet = new Fleet();
await fleet.ready;
const connected = await fleet.ask({ cmd: 'connect', url: `mqtt://127.0.0.1:${mqttPort}`, keys });
const now = new Date().toISOString();
const audit = { create_by: 'bench', create_time: now, update_by: null, update_time: null };
const areaId = randomUUID();
await app.db.insertInto('sys_area').values({ id: areaId, ...audit, area_name: 'Bench area', tenant_id: tenantId } as never).execute();
while ((await app.db.selectFrom('sys_device').select('id').where('online', '=', 1).execute()).length < DEVICES - connected.failed) await new Promise((r) => setTimeout(r, 50));
await app.db.updateTable('sys_device').set({ area_id: areaId }).execute();

// 10,000 people with cards in one group
await call('POST', '/sys/sysDepart/add', { departName: 'Bench group' });
const departId = (await app.db.selectFrom('sys_depart').select('id').where('depart_name', '=', 'Bench group').executeTakeFirstOrThrow()).id;
for (let i = 0; i < PEOPLE; i += 500) {
  await app.db
    .insertInto('sys_people')
    .values(
      Array.from({ length: Math.min(500, PEOPLE - i) }, (_, j) => ({
        id: randomUUID(), ...audit, name: `Person ${i + j}`, id_card: null, card_no: `B${String(i + j).padStart(9, '0')}`, card_no_masked: null, user_no: `U${i + j}`,
        sex: null, depart_id: departId, picture: null, palm_left: 0, palm_right: 0, password: null, status: 1, del_flag: 0, tenant_id: tenantId,
      })),
    )
    .execute();
}

// the role change, timed until every device holds everyone
phase('people stored, role change');
const start = performance.now();
const role = await call('POST', '/deviceRole/add', { roleName: 'Bench doors', roleType: '1', areaIds: areaId, departIds: departId, timeSetting: '{"mode":"permanent"}' });
if (!role.success) throw new Error(`role: ${role.message}`);
const reached = await fleet.ask({ cmd: 'wait', count: PEOPLE, timeoutMs: 120_000 });
const seconds = (performance.now() - start) / 1000;
phase(`reached: ${DEVICES - reached.failed} devices in ${seconds.toFixed(1)} s`);
const commands = await app.db.selectFrom('sys_device_command').select(['device_id', 'payload', 'create_time']).where('kind', '=', AccessCommandKind.syncPeople).orderBy('create_time').execute();
const firstDevice = commands[0]!.device_id;
const payloads = commands.filter((c) => c.device_id === firstDevice).map((c) => JSON.parse(c.payload!) as unknown);
await fleet.ask({ cmd: 'stop' });
await app.close();
rmSync(dataDir, { recursive: true, force: true });

phase('baseline');
// baseline: the same commands published straight to the same devices on a bare broker
const broker = new Aedes();
await broker.listen();
const bareServer = createServer(broker.handle);
const barePort = await freePort();
await new Promise<void>((resolve) => bareServer.listen(barePort, '127.0.0.1', resolve));
const bareFleet = new Fleet();
await bareFleet.ready;
await bareFleet.ask({ cmd: 'connect', url: `mqtt://127.0.0.1:${barePort}`, keys });
const publisher = await mqtt.connectAsync(`mqtt://127.0.0.1:${barePort}`, { clientId: 'bench-publisher', clean: true });
const bareStart = performance.now();
const waiting = bareFleet.ask({ cmd: 'wait', count: PEOPLE, timeoutMs: 120_000 });
await Promise.all(
  keys.map(async ([sn]) => {
    for (const payload of payloads) {
      const command: DeviceCommand = { id: randomUUID(), kind: AccessCommandKind.syncPeople, payload, time: Date.now(), attempt: 1 };
      await publisher.publishAsync(deviceDownTopic(sn, DeviceDownKind.command), JSON.stringify(command), { qos: 1 });
    }
  }),
);
const bareReached = await waiting;
const baselineSeconds = (performance.now() - bareStart) / 1000;
await publisher.endAsync();
await bareFleet.ask({ cmd: 'stop' });
await new Promise<void>((resolve) => broker.close(() => resolve()));
await new Promise<void>((resolve) => bareServer.close(() => resolve()));

const pass = connected.failed === 0 && reached.failed === 0 && seconds <= TARGET_SECONDS;
console.log(
  `access sync: a role over ${PEOPLE} people reached ${DEVICES - reached.failed} of ${DEVICES} devices in ${seconds.toFixed(2)} s (${payloads.length} commands per device); the same commands published directly: ${DEVICES - bareReached.failed} devices in ${baselineSeconds.toFixed(2)} s`,
);
report('access-sync', `${seconds.toFixed(2)}s`, `${baselineSeconds.toFixed(2)}s`, seconds / baselineSeconds, `<=${TARGET_SECONDS}s`, pass);
finish();
process.exit(process.exitCode ?? 0);
