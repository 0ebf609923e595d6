/**
 * Device event ingest: 1,000 simulated devices (every kind, in turn, in a process of their own) each publish 100 events (QoS 1; each
 * device sends the events of 20 ms as one batch message, DEVICE_BATCH_MS) through the embedded broker; the gateway
 * stores them in SQLite with what they mean (access events, alarms). Value: events per second from the first
 * publish until the 100,000th row is stored. Baseline: the same rows written again by batched multi-row inserts
 * straight into the same table in the same run. Targets: >= 10,000 events/s, ratio >= 0.5, and every (device, seq)
 * stored exactly once.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { FleetProcess, poll, provisionKeys, report, serialNumbers, startBenchServer } from './device-support.ts';

const DEVICES = 1000;
const EVENTS_PER_DEVICE = 100;
const TOTAL = DEVICES * EVENTS_PER_DEVICE;
const TARGET_RATE = 10_000;
const TARGET_RATIO = 0.5;

const server = await startBenchServer();
const { app } = server;
const keys = await provisionKeys(server, serialNumbers('INGEST', DEVICES));
const fleet = new FleetProcess();
const connected = await fleet.connect(server.mqttUrl, keys);
if (connected.failed > 0) throw new Error(`${connected.failed} devices could not connect`);
// every hello handled (device rows made) before the clock starts
await poll(async () => (await app.db.selectFrom('sys_device').select((eb) => eb.fn.countAll<number>().as('n')).where('online', '=', 1).executeTakeFirstOrThrow()).n >= DEVICES, 60_000, 50);

const stored = async () => Number((await app.db.selectFrom('sys_device_event').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

const start = performance.now();
const emitted = await fleet.emit(EVENTS_PER_DEVICE);
if (emitted.failed > 0) throw new Error(`${emitted.failed} devices could not send their events`);
// counting 100,000 rows costs a few milliseconds of the same thread: polled five times a second
const allStored = await poll(async () => (await stored()) >= TOTAL, 120_000, 200);
const ingestSeconds = (performance.now() - start) / 1000;
await app.deviceGateway.flush();

const rows = await stored();
const distinct = Number(
  (await sql<{ n: number }>`select count(*) as n from (select distinct device_id, seq from sys_device_event) pairs`.execute(app.db)).rows[0]!.n,
);
const lost = TOTAL - distinct;
const duplicated = rows - distinct;
const rate = TOTAL / ingestSeconds;
await fleet.stop();

// baseline: the same rows, written directly by batched inserts after the table is emptied
const all = await app.db.selectFrom('sys_device_event').selectAll().execute();
await app.db.deleteFrom('sys_device_event').execute();
const baselineStart = performance.now();
for (let i = 0; i < all.length; i += 2500) {
  await app.db
    .insertInto('sys_device_event')
    .values(all.slice(i, i + 2500))
    .onConflict((oc) => oc.columns(['device_id', 'seq']).doNothing())
    .execute();
}
const baselineRate = all.length / ((performance.now() - baselineStart) / 1000);

const ratio = rate / baselineRate;
const pass = allStored && lost === 0 && duplicated === 0 && rate >= TARGET_RATE && ratio >= TARGET_RATIO;
console.log(`device events: ${TOTAL} sent by ${DEVICES} devices, ${rows} rows, ${distinct} distinct (device, seq), ${lost} lost, ${duplicated} duplicated, ${ingestSeconds.toFixed(2)} s`);
report('device-ingest', `${Math.round(rate)}/s`, `${Math.round(baselineRate)}/s`, ratio, `>=${TARGET_RATE}/s,ratio>=${TARGET_RATIO},lost=0,dup=0`, pass);
await server.close();
process.exit(pass ? 0 : 1);
