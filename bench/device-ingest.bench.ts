/**
 * Device event ingest: 1,000 simulated devices (every kind, in turn, in a process of their own) each publish 100 events (QoS 1; each
 * device sends the events of 20 ms as one batch message, DEVICE_BATCH_MS) through the embedded broker; the gateway
 * stores them in SQLite with what they mean (access events, alarms, run logs). Value: events per second from the
 * first publish until the 100,000th event row is stored.
 *
 * Baseline: every row the ingest stored, written again straight in the same run. Each table's last rowid is noted
 * before the clock starts; afterwards the rows added in every table that grew (the event rows and the rows they
 * caused: access events, alarms, run logs) are read, deleted and inserted again, table by table, by batched multi-row
 * inserts through the same driver into the same database, one statement (and commit) per 2,500 rows, fewer for a
 * table whose 2,500 rows would bind more values than SQLite allows (32,766). Its figure is the 100,000 events
 * divided by the time to write all their rows, so both sides store the same rows. Door states are updates of door
 * rows the bench does not register, so none are written (the line says how many doors have a state).
 *
 * Targets: >= 10,000 events/s, ratio >= 0.5, and every (device, seq) stored exactly once.
 */
import { performance } from 'node:perf_hooks';
import { sql, type Kysely } from 'kysely';
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

// every table's last rowid before the clock starts: the rows the ingest adds are those after it. The search indexes
// (`fts_*`, their shadow tables) are left out: triggers of the tables write them, in the ingest and in the baseline alike
const tables = (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'fts!_%' escape '!'`.execute(app.db)).rows.map((r) => r.name);
const lastRowid = new Map<string, number>();
for (const table of tables) lastRowid.set(table, Number((await sql<{ n: number | null }>`select max(rowid) as n from ${sql.table(table)}`.execute(app.db)).rows[0]!.n ?? 0));

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

// every row the ingest added, table by table
const added = new Map<string, Array<Record<string, unknown>>>();
for (const table of tables) {
  const found = (await sql<Record<string, unknown>>`select * from ${sql.table(table)} where rowid > ${lastRowid.get(table)!} order by rowid`.execute(app.db)).rows;
  if (found.length > 0) added.set(table, found);
}
const doorsWithState = Number((await sql<{ n: number }>`select count(*) as n from sys_door where state_time is not null`.execute(app.db)).rows[0]!.n);
await fleet.stop();

// baseline: the same rows, written again directly by batched inserts after they are deleted
const untyped = app.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
for (const table of added.keys()) await sql`delete from ${sql.table(table)} where rowid > ${lastRowid.get(table)!}`.execute(app.db);
const baselineStart = performance.now();
for (const [table, list] of added) {
  const perInsert = Math.min(2500, Math.floor(32_766 / Object.keys(list[0]!).length));
  for (let i = 0; i < list.length; i += perInsert) await untyped.insertInto(table).values(list.slice(i, i + perInsert)).execute();
}
const baselineSeconds = (performance.now() - baselineStart) / 1000;
const baselineRate = TOTAL / baselineSeconds;
let rewritten = true;
for (const [table, list] of added) {
  const count = Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where rowid > ${lastRowid.get(table)!}`.execute(app.db)).rows[0]!.n);
  if (count !== list.length) rewritten = false;
}
const addedRows = [...added.values()].reduce((sum, list) => sum + list.length, 0);

const ratio = rate / baselineRate;
const pass = allStored && rewritten && lost === 0 && duplicated === 0 && rate >= TARGET_RATE && ratio >= TARGET_RATIO;
console.log(`device events: ${TOTAL} sent by ${DEVICES} devices, ${rows} rows, ${distinct} distinct (device, seq), ${lost} lost, ${duplicated} duplicated, ${ingestSeconds.toFixed(2)} s`);
console.log(
  `rows stored: ${[...added].map(([table, list]) => `${table} ${list.length}`).join(', ')} (${addedRows} in all; ${doorsWithState} doors with a state); ` +
    `baseline wrote them again in ${baselineSeconds.toFixed(2)} s (${Math.round(addedRows / baselineSeconds)} rows/s)${rewritten ? '' : ', NOT ALL OF THEM'}`,
);
report('device-ingest', `${Math.round(rate)}/s`, `${Math.round(baselineRate)}/s`, ratio, `>=${TARGET_RATE}/s,ratio>=${TARGET_RATIO},lost=0,dup=0`, pass);
await server.close();
process.exit(pass ? 0 : 1);
